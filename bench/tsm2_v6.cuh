/* tsm2_v6.cuh — TSM2R V6 (beyond the paper): V5's split-k with the 16 bytes of contiguous rows a
 * thread (four floats, two doubles: R = 16 / sizeof(T)) instead of two rows t1 apart. Included by
 * the V6 sources after tsm2_v5.cuh (it uses V5's fma_tile_rows, v5_cp16 and v5_wait). What was measured
 * on the way: docs/DESIGN.md, "TSM2R V6".
 *
 * Why: V5 at float n = 16 is held by issue: 205 registers, two warps a scheduler, one 4-byte
 * read-back from its ring per A element and row. A
 * thread of V6 owns rows 4 tid .. 4 tid + 3 of its block's 4 t1 rows, so one column's four A
 * values are 16 contiguous bytes: one 16-byte cp.async per column into the thread's own slot of
 * the ring (a warp's 32 copies are 512 contiguous bytes of A, its read-backs 512 contiguous bytes
 * of shared memory: no bank conflict, no barrier, each thread reads only what it copied), read
 * back by one LDS.128 per column; each B value read as LDS.128 serves 4 rows x 4 k (16 FFMA).
 * At most TSM2_V6_MAXREG (128) registers at t2 = 16, so twice V5's warps. The partial C of a k slice goes out as one
 * 16-byte vector reduction per column (red.global.add.v4.f32, sm_90) instead of four scalar ones.
 * Every accumulator adds its products in V3's order (k ascending), so at one k slice its bits
 * are V3's. Slices: TSM2_V6_WAVES waves of resident blocks, rounded down (tsm2_ksplit_for). */

/* The rows of one column a thread owns: 16 bytes. */
template <typename T> struct v6_rows {
	static constexpr int R = 16 / (int)sizeof(T);
};

/* This thread's 16 bytes of column i of slot l / T3 (T3 columns a slot, t1 threads). */
template <typename T, int T3>
__device__ __forceinline__ typename tsm2_vec<T>::type *v6_at(typename tsm2_vec<T>::type *sA, int l, int i, int t1, int tid)
{
	return sA + ((long)(l / T3 % TSM2_V6_STAGES) * T3 + i) * t1 + tid;
}

/* The chunk at l (columns l .. l + T3) of this thread's R rows into its ring slot. VEC (the rows
 * are below m and A's columns 16-byte aligned): 16-byte copies in flight, the chunk crossing k by
 * plain 16-byte loads with zeros past k; else plain loads (rows past m read row m - 1). None past
 * k (an empty group). */
template <typename T, int T3, bool VEC>
__device__ __forceinline__ void v6_issue(typename tsm2_vec<T>::type *sA, const T *__restrict__ A, int row0, int m, int l,
					 int k, int lda, int t1, int tid)
{
	typedef typename tsm2_vec<T>::type V;
	constexpr int R = v6_rows<T>::R;

	if (l >= k)
		return;
	if (VEC && l + T3 <= k) {
#pragma unroll
		for (int i = 0; i < T3; i++)
			v5_cp16<T>(reinterpret_cast<T *>(v6_at<T, T3>(sA, l, i, t1, tid)), A + row0 + (long)(l + i) * lda);
		return;
	}
#pragma unroll
	for (int i = 0; i < T3; i++) {
		V v;
		if constexpr (R == 4)
			v = make_float4(0.f, 0.f, 0.f, 0.f);
		else
			v = make_double2(0., 0.);
		if (VEC && l + i < k)
			v = *reinterpret_cast<const V *>(A + row0 + (long)(l + i) * lda);
		else if (l + i < k) {
			if constexpr (R == 4)
				v = make_float4(A[tsm2_load_row(row0, m) + (long)(l + i) * lda],
						A[tsm2_load_row(row0 + 1, m) + (long)(l + i) * lda],
						A[tsm2_load_row(row0 + 2, m) + (long)(l + i) * lda],
						A[tsm2_load_row(row0 + 3, m) + (long)(l + i) * lda]);
			else
				v = make_double2(A[tsm2_load_row(row0, m) + (long)(l + i) * lda],
						 A[tsm2_load_row(row0 + 1, m) + (long)(l + i) * lda]);
		}
		*v6_at<T, T3>(sA, l, i, t1, tid) = v;
	}
}

/* The chunk at l from the ring into a[row][column], once its group has landed. */
template <typename T, int T3>
__device__ __forceinline__ void v6_take(T (&a)[v6_rows<T>::R][T3], typename tsm2_vec<T>::type *sA, int l, int t1, int tid)
{
	typedef typename tsm2_vec<T>::type V;
	constexpr int R = v6_rows<T>::R;

	v5_wait<TSM2_V6_STAGES - 1>();
#pragma unroll
	for (int i = 0; i < T3; i++) {
		const V v = *v6_at<T, T3>(sA, l, i, t1, tid);
		if constexpr (R == 4)
			a[0][i] = v.x, a[1][i] = v.y, a[2][i] = v.z, a[3][i] = v.w;
		else
			a[0][i] = v.x, a[1][i] = v.y;
	}
}

/* C[row0 .. row0 + R - 1, p ..] += acc: for float, one vector reduction per column where the four
 * rows are below m and 16-byte aligned in C (TSM2_V6_VRED: bench/tsm2_v6f.cu sets it for sm_90
 * and newer, so that bench/tsm2_v6d.cu, which includes this header too, keeps its PTX levels:
 * scripts/ptx-levels.sh reads the guards of every header a source includes), else (and
 * for double: PTX has no vector f64 reduction) one scalar per row. */
template <typename T, int T2>
__device__ __forceinline__ void v6_put(T *__restrict__ C, const T (&acc)[v6_rows<T>::R][T2], int row0, int p, int m,
				       int n, int ldc)
{
#ifdef TSM2_V6_VRED
	if constexpr (v6_rows<T>::R == 4)
		if (row0 + 3 < m && ldc % 4 == 0 && (size_t)C % 16 == 0) {
#pragma unroll
			for (int c = 0; c < T2; c++)
				if (p + c < n)
					asm volatile("red.global.add.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(C + row0 + (long)(p + c) * ldc),
						     "f"(acc[0][c]), "f"(acc[1][c]), "f"(acc[2][c]), "f"(acc[3][c])
						     : "memory");
			return;
		}
#endif
#pragma unroll
	for (int r = 0; r < v6_rows<T>::R; r++)
		put_c<T, T2, TSM2_ADD>(C, acc[r], row0 + r, p, m, n, ldc);
}

/* B rows j .. j + t1 of columns p .. p + T2 into the tile sB (column-major, t1 rows; zeros past k
 * or n), between two barriers: the readers of the previous tile are done, and every thread sees
 * the new one. Coalesced: consecutive threads take consecutive rows of one column. */
template <typename T, int T2>
__device__ __forceinline__ void v6_tile(T *sB, const T *__restrict__ B, int j, int p, int k, int n, int ldb, int t1, int tid)
{
	__syncthreads();
#pragma unroll
	for (int c = 0; c < T2; c++)
		sB[c * t1 + tid] = j + tid < k && p + c < n ? B[j + tid + (long)(p + c) * ldb] : T(0);
	__syncthreads();
}

/* One panel (columns p .. p + T2) of the thread's four rows over the block's k slice: a B tile of
 * t1 rows in shared memory at a time, A TSM2_V6_STAGES - 1 chunks ahead through the ring. Unlike
 * V5 the next B tile is not prefetched into registers (T2 more of them): the tile is loaded
 * between two barriers, which the other resident blocks' warps fill. */
template <typename T, int T2, int T3, bool VEC>
__device__ __forceinline__ void v6_panel(T (&acc)[v6_rows<T>::R][T2], int m, int k, int n, const T *__restrict__ A, int lda,
					 const T *__restrict__ B, int ldb, T *sB, typename tsm2_vec<T>::type *sA, int row0, int p)
{
	constexpr int R = v6_rows<T>::R;
	const int t1 = blockDim.x, tid = threadIdx.x;

#pragma unroll
	for (int r = 0; r < R; r++)
#pragma unroll
		for (int c = 0; c < T2; c++)
			acc[r][c] = 0;
#pragma unroll 1
	for (int s = 0; s < TSM2_V6_STAGES - 1; s++) {
		v6_issue<T, T3, VEC>(sA, A, row0, m, s * T3, k, lda, t1, tid);
		v5_wait<TSM2_V6_STAGES>(); /* commits the group, waits for nothing */
	}
	for (int j = 0; j < k; j += t1) {
		const int end = tsm2_tile_end(j, t1, k);
		v6_tile<T, T2>(sB, B, j, p, k, n, ldb, t1, tid);
#pragma unroll 1
		for (int l = j; l < end; l += T3) {
			T a[R][T3];
			/* into the slot chunk l - T3 left (this thread read it in the step before) */
			v6_issue<T, T3, VEC>(sA, A, row0, m, l + (TSM2_V6_STAGES - 1) * T3, k, lda, t1, tid);
			v6_take<T, T3>(a, sA, l, t1, tid);
			fma_tile_rows<T, T2, T3, R>(acc, a, sB, l - j, t1);
		}
	}
	v5_wait<0>(); /* only empty groups are left: the next panel starts on a clean count */
}

/* V5's grid with R t1 rows a block (tsm2_blocks with tsm2_v6_rows); k slices of whole
 * TSM2_V6_SLICE_UNIT runs (tsm2_ksplit_for keeps ks at most their count: none is empty). */
template <typename T, int T2, int T3> __device__ void tsm2_v6(TSM2_ARGS(T))
{
	typedef typename tsm2_vec<T>::type V;
	constexpr int R = v6_rows<T>::R;
	static_assert(sizeof(V) == 16, "a thread's rows of a column are one 16-byte copy");
	extern __shared__ __align__(16) unsigned char smem_raw[];
	T *sB = reinterpret_cast<T *>(smem_raw);
	V *sA = reinterpret_cast<V *>(sB + T2 * blockDim.x); /* t1 x T2 x elem: 16-byte aligned */
	const int row0 = (blockIdx.x * blockDim.x + threadIdx.x) * R;
	const int k0 = tsm2_slice_begin(blockIdx.y, gridDim.y, k, TSM2_V6_SLICE_UNIT);
	const int k1 = tsm2_slice_begin(blockIdx.y + 1, gridDim.y, k, TSM2_V6_SLICE_UNIT);

	if (k0 >= k1)
		return;
	/* The path is the whole block's (its panels hold barriers, which every thread of a warp must
	 * reach at the same instruction): the 16-byte copies only where all its rows are below m. */
	const bool vec = __syncthreads_and(row0 + R - 1 < m) && lda % R == 0 && (size_t)A % 16 == 0;
	for (int p = 0; p < n; p += T2) {
		T acc[R][T2];
		const T *a = A + (long)k0 * lda;
		if (vec)
			v6_panel<T, T2, T3, true>(acc, m, k1 - k0, n, a, lda, B + k0, ldb, sB, sA, row0, p);
		else
			v6_panel<T, T2, T3, false>(acc, m, k1 - k0, n, a, lda, B + k0, ldb, sB, sA, row0, p);
		v6_put<T, T2>(C, acc, row0, p, m, n, ldc);
	}
}
