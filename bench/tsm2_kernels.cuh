/* tsm2_kernels.cuh — TSM2X (seed 004): C = A B with A m x k and B k x n tall-and-skinny (TSM2R) or
 * A tall-and-skinny and B small (TSM2L), column-major, alpha 1, beta 0, float and double, as
 * templates over t2 and t3; each bench/tsm2_<image>.cu includes this file (and tsm2_v5.cuh, tsm2_v6.cuh where its
 * image holds those kernels), then tsm2_instances.cuh, and gets the entries of bench/tsm2.list
 * whose image is its own. Every size works
 * (bench/tsm2.h maps, walked on the host by tests/test_tsm2.c). Pitfall: a partial last chunk must
 * load 0, not the NaN slack. */

/* The ladder V0 (inner product) -> V1 (outer product, t2 C registers) -> V2 (+ B tile t1 x t2 in
 * shared memory, column-major so stores are conflict-free and compute reads broadcast) -> V3 (+ the
 * next A chunk of t3 and the next B tile prefetched into registers) -> V4 (not in the paper: a
 * Hopper step, V3 + split-k), and TSM2L Opt1 (V3 per row tile, m / tcf threads) and Opt2 (row
 * tiles interleaved under one B tile, C read-modify-written).
 * V4 exists because one thread per row gives m / t1 blocks, 80 at m = 10240: on 132 SMs that holds
 * a fraction of the threads needed to keep HBM busy (V3 measured 33 % of the read rate there,
 * cuBLAS fills the GPU by splitting k). V4's grid is (row blocks, ks): block y runs V3's loop over
 * its slice of whole B tiles (tsm2_slice_begin) and adds its partial C fragment with atomicAdd
 * (float and double, sm_60+) into a C the host zeroes in the same stream before every launch.
 * With ks = 1 the sums are V3's, in V3's order, added to 0: the same bits. V5 (also beyond the
 * paper) is V4 reading B as LDS.128 for two rows a thread, A by cp.async, same bits again; V6
 * is V5 with a thread's 16 bytes of contiguous rows (four floats, two doubles).
 * t2 and t3 are template arguments (explicit unrolling: C, currA, nextA, nextB stay in registers);
 * t1 is the block size, a launch argument (dynamic shared memory t1 x t2). Rows past m load row
 * m - 1 and never store, k and n tails load 0. */
#include "tsm2.h"

#define TSM2_ARGS(T) int m, int k, int n, const T *__restrict__ A, int lda, const T *__restrict__ B, int ldb, \
	T *__restrict__ C, int ldc

/* ------------------------------------------------------------------ helpers */

/* currA[0..T3) = A[row, l .. l + T3), zeros past k (only the chunk crossing k checks). */
template <typename T, int T3>
__device__ __forceinline__ void load_a(T (&a)[T3], const T *__restrict__ A, long row, int l, int k, int lda)
{
	const T *p = A + row + (long)l * lda;
	if (l + T3 <= k) {
#pragma unroll
		for (int i = 0; i < T3; i++)
			a[i] = p[(long)i * lda];
	} else {
#pragma unroll
		for (int i = 0; i < T3; i++)
			a[i] = l + i < k ? p[(long)i * lda] : T(0);
	}
}

/* Row jr of B, columns p .. p + T2 (zeros past k or n). */
template <typename T, int T2>
__device__ __forceinline__ void load_b_row(T (&b)[T2], const T *__restrict__ B, int jr, int p, int k, int n, int ldb)
{
#pragma unroll
	for (int c = 0; c < T2; c++)
		b[c] = jr < k && p + c < n ? B[jr + (long)(p + c) * ldb] : T(0);
}

/* C[c] += sum_i a[i] * sB[c][l0 + i] (sB column-major, t1 rows: every thread reads the same
 * address, a broadcast). */
template <typename T, int T2, int T3>
__device__ __forceinline__ void fma_tile(T (&acc)[T2], const T (&a)[T3], const T *sB, int l0, int t1)
{
#pragma unroll
	for (int i = 0; i < T3; i++)
#pragma unroll
		for (int c = 0; c < T2; c++)
			acc[c] = fma(a[i], sB[c * t1 + l0 + i], acc[c]);
}

/* C[row, p ..] = acc (TSM2_STORE), or += acc (TSM2_ADD: V4's and V5's k slices; RED instructions,
 * the result unused, resolved in L2). */
constexpr bool TSM2_STORE = false, TSM2_ADD = true;

template <typename T, int T2, bool ADD>
__device__ __forceinline__ void put_c(T *__restrict__ C, const T (&acc)[T2], int row, int p, int m, int n, int ldc)
{
	if (row >= m)
		return;
#pragma unroll
	for (int c = 0; c < T2; c++)
		if (p + c < n) {
			if (ADD)
				atomicAdd(C + row + (long)(p + c) * ldc, acc[c]);
			else
				C[row + (long)(p + c) * ldc] = acc[c];
		}
}

template <typename T, int T2> __device__ __forceinline__ void zero(T (&v)[T2])
{
#pragma unroll
	for (int c = 0; c < T2; c++)
		v[c] = 0;
}

/* A B tile row held in registers into shared memory (column-major, t1 rows). */
template <typename T, int T2> __device__ __forceinline__ void store_b(T *sB, const T (&nb)[T2], int t1, int tid)
{
#pragma unroll
	for (int c = 0; c < T2; c++)
		sB[c * t1 + tid] = nb[c];
}

/* Tile j's start: the barrier after which sB holds tile j for every thread, then the next tile's
 * row of B into registers (nb) while this one is used. */
template <typename T, int T2>
__device__ __forceinline__ void next_b_load(T (&nb)[T2], const T *__restrict__ B, int j, int t1, int tid, int p, int k,
					    int n, int ldb)
{
	__syncthreads();
	if (j + t1 < k)
		load_b_row<T, T2>(nb, B, j + t1 + tid, p, k, n, ldb);
}

/* Tile j's end: once every thread is done with sB, the next tile's row from registers into it. */
template <typename T, int T2>
__device__ __forceinline__ void next_b_store(T *sB, const T (&nb)[T2], int j, int t1, int tid, int k)
{
	__syncthreads();
	if (j + t1 < k)
		store_b<T, T2>(sB, nb, t1, tid);
}

/* acc += the row's A chunks [j, end) against tile j in sB, T3 at a time, the next chunk (below
 * limit) loaded while the current one is used; ca holds the first chunk on entry. */
template <typename T, int T2, int T3>
__device__ __forceinline__ void a_pass(T (&acc)[T2], T (&ca)[T3], T (&na)[T3], const T *__restrict__ A, long lr, int j,
				       int end, int limit, int k, int lda, const T *sB, int t1)
{
	for (int l = j; l < end; l += T3) {
		if (l + T3 < limit)
			load_a<T, T3>(na, A, lr, l + T3, k, lda);
		fma_tile<T, T2, T3>(acc, ca, sB, l - j, t1);
#pragma unroll
		for (int i = 0; i < T3; i++)
			ca[i] = na[i];
	}
}

/* ------------------------------------------------------------------ V0: inner product (Algorithm 1) */

/* One thread per row; C[row, i] = sum_j A[row, j] B[j, i]: A re-read n times. */
template <typename T> __device__ void tsm2_v0(TSM2_ARGS(T))
{
	const int row = blockIdx.x * blockDim.x + threadIdx.x;
	if (row >= m)
		return;
	for (int i = 0; i < n; i++) {
		T s = 0;
		for (int j = 0; j < k; j++)
			s = fma(A[row + (long)j * lda], B[j + (long)i * ldb], s);
		C[row + (long)i * ldc] = s;
	}
}

/* ------------------------------------------------------------------ V1: outer product (Algorithm 2) */

/* C row fragment (t2 columns) in registers; A read once per panel; every thread of a warp reads
 * the same B element (one transaction, broadcast). */
template <typename T, int T2> __device__ void tsm2_v1(TSM2_ARGS(T))
{
	const int row = blockIdx.x * blockDim.x + threadIdx.x;
	const long lr = tsm2_load_row(row, m);
	for (int p = 0; p < n; p += T2) {
		T acc[T2];
		zero<T, T2>(acc);
		for (int l = 0; l < k; l++) {
			const T a = A[lr + (long)l * lda];
			T b[T2];
			load_b_row<T, T2>(b, B, l, p, k, n, ldb);
#pragma unroll
			for (int c = 0; c < T2; c++)
				acc[c] = fma(a, b[c], acc[c]);
		}
		put_c<T, T2, TSM2_STORE>(C, acc, row, p, m, n, ldc);
	}
}

/* ------------------------------------------------------------------ V2: shared B tile (Algorithm 3) */

template <typename T, int T2, int T3> __device__ void tsm2_v2(TSM2_ARGS(T))
{
	extern __shared__ __align__(16) unsigned char smem_raw[];
	T *sB = reinterpret_cast<T *>(smem_raw);
	const int t1 = blockDim.x, tid = threadIdx.x;
	const int row = blockIdx.x * t1 + tid;
	const long lr = tsm2_load_row(row, m);

	for (int p = 0; p < n; p += T2) {
		T acc[T2];
		zero<T, T2>(acc);
		for (int j = 0; j < k; j += t1) {
			T b[T2];
			__syncthreads();
			load_b_row<T, T2>(b, B, j + tid, p, k, n, ldb);
			store_b<T, T2>(sB, b, t1, tid);
			__syncthreads();
			const int end = tsm2_tile_end(j, t1, k);
			for (int l = j; l < end; l += T3) {
				T a[T3];
				load_a<T, T3>(a, A, lr, l, k, lda);
				fma_tile<T, T2, T3>(acc, a, sB, l - j, t1);
			}
		}
		put_c<T, T2, TSM2_STORE>(C, acc, row, p, m, n, ldc);
	}
}

/* ------------------------------------------------------------------ V3: prefetching (Algorithm 4) */

/* One panel of one row tile (Algorithm 4 lines 9-29): B tile j + t1 and A chunk l + t3 are loaded
 * into registers while the current ones are used. The caller stores acc: V3 writes it, V4 adds it
 * (V4 passes its slice as a k-column problem of its own, A and B offset, so loads past the slice
 * give 0 and never read the neighbour's k). */
template <typename T, int T2, int T3>
__device__ __forceinline__ void v3_panel(T (&acc)[T2], int m, int k, int n, const T *__restrict__ A, int lda,
					 const T *__restrict__ B, int ldb, T *sB, int row, int p)
{
	const int t1 = blockDim.x, tid = threadIdx.x;
	const long lr = tsm2_load_row(row, m);
	T nb[T2], ca[T3], na[T3];

	zero<T, T2>(acc);
	__syncthreads(); /* the previous panel's readers are done with sB */
	load_b_row<T, T2>(nb, B, tid, p, k, n, ldb);
	store_b<T, T2>(sB, nb, t1, tid);
	load_a<T, T3>(ca, A, lr, 0, k, lda);
	for (int j = 0; j < k; j += t1) {
		next_b_load<T, T2>(nb, B, j, t1, tid, p, k, n, ldb);
		const int end = tsm2_tile_end(j, t1, k);
		a_pass<T, T2, T3>(acc, ca, na, A, lr, j, end, k, k, lda, sB, t1);
		next_b_store<T, T2>(sB, nb, j, t1, tid, k);
	}
}

template <typename T, int T2, int T3> __device__ void tsm2_v3(TSM2_ARGS(T))
{
	extern __shared__ __align__(16) unsigned char smem_raw[];
	T *sB = reinterpret_cast<T *>(smem_raw);
	const int row = blockIdx.x * blockDim.x + threadIdx.x;

	for (int p = 0; p < n; p += T2) {
		T acc[T2];
		v3_panel<T, T2, T3>(acc, m, k, n, A, lda, B, ldb, sB, row, p);
		put_c<T, T2, TSM2_STORE>(C, acc, row, p, m, n, ldc);
	}
}

/* ------------------------------------------------------------------ V4: V3 + split-k (beyond the paper) */

/* Block (x, y): rows x t1 .., k slice y of gridDim.y, run as V3 on A[:, k0:k1) B[k0:k1, :]. Each
 * thread still carries t2 sums per panel (A read once per panel, as V3), but ks times as many
 * threads are in flight; the price is ks atomic adds per C element and the memset, small beside A
 * when k / ks >> 1. Offsetting the pointers rather than starting the loops at k0 is what keeps
 * V3's register count (sm_90: double t2 2 t3 16 took 178 registers with k0 in the loops, 102
 * offset; V3 96). */
template <typename T, int T2, int T3> __device__ void tsm2_v4(TSM2_ARGS(T))
{
	extern __shared__ __align__(16) unsigned char smem_raw[];
	T *sB = reinterpret_cast<T *>(smem_raw);
	const int row = blockIdx.x * blockDim.x + threadIdx.x;
	const int k0 = tsm2_slice_begin(blockIdx.y, gridDim.y, k, blockDim.x);
	const int k1 = tsm2_slice_begin(blockIdx.y + 1, gridDim.y, k, blockDim.x);

	if (k0 >= k1) /* block-uniform: only when asked for more slices than tiles (the host clamps) */
		return;
	for (int p = 0; p < n; p += T2) {
		T acc[T2];
		v3_panel<T, T2, T3>(acc, m, k1 - k0, n, A + (long)k0 * lda, lda, B + k0, ldb, sB, row, p);
		put_c<T, T2, TSM2_ADD>(C, acc, row, p, m, n, ldc);
	}
}

/* V5 and V6 (beyond the paper) are in tsm2_v5.cuh and tsm2_v6.cuh, which only their own sources
 * include: their cp.async guards would otherwise give every TSM2 source a second PTX level
 * (scripts/ptx-levels.sh reads the guards of every header a source includes). */

/* ------------------------------------------------------------------ TSM2L Opt1 (Algorithm 6) */

/* m / tcf threads: each block walks the row tiles blockIdx.x, + gridDim.x, ... (block-uniform, so
 * the barriers inside match) and runs V3 on each. */
template <typename T, int T2, int T3> __device__ void tsm2_l1(TSM2_ARGS(T))
{
	extern __shared__ __align__(16) unsigned char smem_raw[];
	T *sB = reinterpret_cast<T *>(smem_raw);
	const int t1 = blockDim.x;

	for (long rb = (long)blockIdx.x * t1; rb < m; rb += (long)gridDim.x * t1)
		for (int p = 0; p < n; p += T2) {
			T acc[T2];
			v3_panel<T, T2, T3>(acc, m, k, n, A, lda, B, ldb, sB, (int)rb + threadIdx.x, p);
			put_c<T, T2, TSM2_STORE>(C, acc, (int)rb + threadIdx.x, p, m, n, ldc);
		}
}

/* ------------------------------------------------------------------ TSM2L Opt2 (Algorithm 7) */

/* Per panel and B tile, the block's row tiles are interleaved: the B tile is loaded once and
 * reused for all of them; C is read-modify-written per B tile (zero for the first), the next row
 * tile's C fragment prefetched while the current one computes. */
template <typename T, int T2, int T3> __device__ void tsm2_l2(TSM2_ARGS(T))
{
	extern __shared__ __align__(16) unsigned char smem_raw[];
	T *sB = reinterpret_cast<T *>(smem_raw);
	const int t1 = blockDim.x, tid = threadIdx.x;
	const long step = (long)gridDim.x * t1, first = (long)blockIdx.x * t1;

	for (int p = 0; p < n; p += T2) {
		T nb[T2];
		__syncthreads();
		load_b_row<T, T2>(nb, B, tid, p, k, n, ldb);
		store_b<T, T2>(sB, nb, t1, tid);
		for (int j = 0; j < k; j += t1) {
			next_b_load<T, T2>(nb, B, j, t1, tid, p, k, n, ldb);
			const int end = tsm2_tile_end(j, t1, k);
			T acc[T2], nc[T2];
			zero<T, T2>(nc);
			if (j > 0 && first + tid < m)
#pragma unroll
				for (int c = 0; c < T2; c++)
					if (p + c < n)
						nc[c] = C[first + tid + (long)(p + c) * ldc];
			for (long rb = first; rb < m; rb += step) {
				const int row = (int)rb + tid;
				const long lr = tsm2_load_row(row, m);
				T ca[T3], na[T3];
#pragma unroll
				for (int c = 0; c < T2; c++)
					acc[c] = nc[c];
				if (j > 0 && rb + step + tid < m)
#pragma unroll
					for (int c = 0; c < T2; c++)
						if (p + c < n)
							nc[c] = C[rb + step + tid + (long)(p + c) * ldc];
				load_a<T, T3>(ca, A, lr, j, k, lda);
				a_pass<T, T2, T3>(acc, ca, na, A, lr, j, end, end, k, lda, sB, t1);
				put_c<T, T2, TSM2_STORE>(C, acc, row, p, m, n, ldc);
			}
			next_b_store<T, T2>(sB, nb, j, t1, tid, k);
		}
	}
}
