/* sgemm.cu — the GEMM ladder: C = A * B, column-major like the seeds and cuBLAS (alpha 1, beta 0).
 *
 * Every kernel re-implements one seed kernel from its paper's description (seed 000 Volkov and
 * methods 1-8, seed 001's register-blocked 8x8 / 12x12 and its Figure 9 steps, seed 002's five
 * float4 kernels, seed 003's tile kernels in float and double) or a modern step (warp tiling,
 * cp.async multi-stage pipelines). One FMA per (i, j, l) triple: flops = 2 m n k. Pitfalls: the
 * seed 002 kernels are row-major in the paper; a row-major C = A B is the column-major
 * C^T = B^T A^T on the same bytes, so the host calls them with A and B swapped. Kernels that
 * need tile multiples say so in the host's variant table; the host never launches them on other
 * sizes. */
#include "sgemm_map.h"

#include "probe.cuh"

#define GEMM_ARGS(T) int m, int n, int k, const T *__restrict__ A, int lda, const T *__restrict__ B, int ldb, \
	T *__restrict__ C, int ldc

/* ------------------------------------------------------------------ helpers */

__device__ __forceinline__ float4 ld4(const float *p)
{
	return *reinterpret_cast<const float4 *>(p);
}

/* ld.global.nc: the read-only (texture) path of seed 001's "+LDG128" step. */
__device__ __forceinline__ float4 ld4_nc(const float *p)
{
	return __ldg(reinterpret_cast<const float4 *>(p));
}

__device__ __forceinline__ void st4(float *p, float4 v)
{
	*reinterpret_cast<float4 *>(p) = v;
}

__device__ __forceinline__ float4 fma4(float a, float4 b, float4 c)
{
	c.x = fmaf(a, b.x, c.x);
	c.y = fmaf(a, b.y, c.y);
	c.z = fmaf(a, b.z, c.z);
	c.w = fmaf(a, b.w, c.w);
	return c;
}

/* cp.async (sm_80+): 16 bytes through L2 only, or 4 bytes through L1 (.ca is the only form for
 * 4-byte copies). Before sm_80 the same code path copies synchronously, so sm_75 builds and
 * stays correct (the barrier in the pipeline orders the plain stores just as well). */
__device__ __forceinline__ void cp16(float *dst, const float *src)
{
#if __CUDA_ARCH__ >= 800
	const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(src) : "memory");
#else
	*reinterpret_cast<float4 *>(dst) = *reinterpret_cast<const float4 *>(src);
#endif
}

__device__ __forceinline__ void cp4(float *dst, const float *src)
{
#if __CUDA_ARCH__ >= 800
	const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
	asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(s), "l"(src) : "memory");
#else
	*dst = *src;
#endif
}

__device__ __forceinline__ void cp_commit(void)
{
#if __CUDA_ARCH__ >= 800
	asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}

template <int N> __device__ __forceinline__ void cp_wait(void)
{
#if __CUDA_ARCH__ >= 800
	asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
#endif
}

/* ------------------------------------------------------------------ the SM clock */

/* One block per SM, a dependent FFMA chain per thread for `iters` x 64 steps (~1 ms at 4 cycles
 * per step): thread 0 of block 0 samples clock64 and %globaltimer around it. Run right after a
 * GEMM's timed batch, it gives the clock the SMs hold under a dense FFMA load. */
extern "C" __global__ void sg_clock(float *sink, int iters, gp_clock_sample *cs)
{
	float x = (float)threadIdx.x * 1e-3f, y = 1.0f - 0x1p-20f, z = 0x1p-19f;

	if (gp_is_clock_thread()) {
		cs->ns0 = gp_ns();
		cs->clk0 = gp_clock();
	}
	for (int i = 0; i < iters; i++) {
		GP_REP64(asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x) : "f"(y), "f"(z));)
	}
	if (gp_is_clock_thread()) {
		cs->clk1 = gp_clock();
		cs->ns1 = gp_ns();
	}
	if (x == 12345.0f)
		sink[threadIdx.x] = x;
}

/* ------------------------------------------------------------------ 01 naive (seed 003) */

/* One thread per element of C, 16 x 16 blocks with x along m so warps read A and write C along
 * columns (coalesced); every operand from global memory. Any m, n, k. */
template <typename T> __device__ __forceinline__ void gemm_naive(GEMM_ARGS(T))
{
	const int row = blockIdx.x * blockDim.x + threadIdx.x;
	const int col = blockIdx.y * blockDim.y + threadIdx.y;
	T acc = 0;

	if (row >= m || col >= n)
		return;
	const T *a = A + row, *b = B + (size_t)col * ldb;
	for (int l = 0; l < k; l++)
		acc += a[(size_t)l * lda] * b[l];
	C[row + (size_t)col * ldc] = acc;
}

/* ------------------------------------------------------------------ seed 003 tile kernels */

/* C tile TILE x TILE, K step TW, block BX x BY threads, (TILE/BX) x (TILE/BY) outputs per thread
 * on the strided map of sgemm_map.h. A tile kept column-major in shared memory (as[k][row]), B
 * tile transposed (bs[k][col], one word of padding against the transposing stores' conflicts).
 * This one template is the SDK 16 x 16 kernel (TILE 16, 16 x 16, 1 output), the seed's 32 x 32,
 * its 32 x 8 "4 outputs ILP" and its final 64 x 64 x 16 kernel with any block geometry.
 * CHECK = false is the seed's "reduced version" for multiples of 64 (and of TW). */
template <typename T, int TILE, int BX, int BY, int TW, bool CHECK>
__device__ __forceinline__ void gemm_tile(GEMM_ARGS(T))
{
	constexpr int NTH = BX * BY, RI = TILE / BX, RJ = TILE / BY;
	constexpr int LA = TILE * TW / NTH; /* loads per thread per tile, exact for our geometries */
	static_assert(TILE * TW % NTH == 0, "tile loads must divide evenly");
	__shared__ T as[TW][TILE];
	__shared__ T bs[TW][TILE + 1];
	const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * BX + tx;
	const int row0 = blockIdx.x * TILE, col0 = blockIdx.y * TILE;
	T c[RI][RJ];

#pragma unroll
	for (int i = 0; i < RI; i++)
#pragma unroll
		for (int j = 0; j < RJ; j++)
			c[i][j] = 0;
	for (int kt = 0; kt < k; kt += TW) {
#pragma unroll
		for (int s = 0; s < LA; s++) {
			const int e = tid + s * NTH;
			const int r = e % TILE, kk = e / TILE;
			const int gr = row0 + r, gk = kt + kk;
			as[kk][r] = (!CHECK || (gr < m && gk < k)) ? A[gr + (size_t)gk * lda] : T(0);
		}
#pragma unroll
		for (int s = 0; s < LA; s++) {
			const int e = tid + s * NTH;
			const int kk = e % TW, cc = e / TW;
			const int gk = kt + kk, gc = col0 + cc;
			bs[kk][cc] = (!CHECK || (gk < k && gc < n)) ? B[gk + (size_t)gc * ldb] : T(0);
		}
		__syncthreads();
#pragma unroll
		for (int kk = 0; kk < TW; kk++) {
			T a[RI], b[RJ];
#pragma unroll
			for (int i = 0; i < RI; i++)
				a[i] = as[kk][tx + i * BX];
#pragma unroll
			for (int j = 0; j < RJ; j++)
				b[j] = bs[kk][ty + j * BY];
#pragma unroll
			for (int i = 0; i < RI; i++)
#pragma unroll
				for (int j = 0; j < RJ; j++)
					c[i][j] += a[i] * b[j];
		}
		__syncthreads();
	}
#pragma unroll
	for (int i = 0; i < RI; i++)
#pragma unroll
		for (int j = 0; j < RJ; j++) {
			const int r = sg_t_row(blockIdx.x, TILE, tx, i, BX);
			const int cc = sg_t_col(blockIdx.y, TILE, ty, j, BY);
			if (!CHECK || (r < m && cc < n))
				C[r + (size_t)cc * ldc] = c[i][j];
		}
}

/* ------------------------------------------------------------------ seed 000 family */

/* Volkov & Demmel's algorithm as seed 000 describes it: a block of NT threads owns NT x NA rows
 * and BN columns of C; A is never staged — each thread streams its NA rows of the current A column
 * from global memory straight into registers; the 16 x BN B tile goes to shared b[16][BN + PAD]
 * (PAD 1 as in the seed; PAD 0 leaves rows 16-byte aligned so the broadcast reads can be LDS.128).
 * 16 rank-1 updates per tile, c[v][j] += a[v] * b[i][j]. CHECK picks the seed's bound-check
 * policy (sgemm_map.h). */
template <int NT, int BN, int PAD>
__device__ __forceinline__ void v_load_b(float (*b)[BN + PAD], const float *B, int ldb, int kt, int col0, int n,
					  int k, bool check)
{
	constexpr int LB = 16 * BN / NT;
	static_assert(16 * BN % NT == 0, "B tile loads must divide evenly");
#pragma unroll
	for (int s = 0; s < LB; s++) {
		const int e = threadIdx.x + s * NT;
		const int kk = e % 16, j = e / 16;
		const int gk = kt + kk, gc = col0 + j;
		b[kk][j] = (!check || (gk < k && gc < n)) ? B[gk + (size_t)gc * ldb] : 0.0f;
	}
}

template <int NT, int BN, int NA, int GAP, int PAD, int CHECK>
__device__ __forceinline__ void gemm_volkov(GEMM_ARGS(float))
{
	__shared__ __align__(16) float b[16][BN + PAD];
	const int tid = threadIdx.x, gx = gridDim.x, col0 = blockIdx.y * BN;
	const bool edge_n = col0 + BN > n;
	int rows[NA];
	bool edge_m = false;
	const float *ap[NA];
	float c[NA][BN];

#pragma unroll
	for (int v = 0; v < NA; v++) {
		rows[v] = sg_v_row(blockIdx.x, gx, tid, v, NT, NA, GAP);
		/* The block is an edge block if any of its rows (not just this thread's) is past m. */
		edge_m |= sg_v_row(blockIdx.x, gx, NT - 1, v, NT, NA, GAP) >= m;
		ap[v] = A + (CHECK == SG_CHECK_V3 ? sg_clamp_row(rows[v], m) : rows[v]);
#pragma unroll
		for (int j = 0; j < BN; j++)
			c[v][j] = 0.0f;
	}
	const int kfull = CHECK == SG_CHECK_NONE ? k : k - k % 16;
	for (int kt = 0; kt < kfull; kt += 16) {
		v_load_b<NT, BN, PAD>(b, B, ldb, kt, col0, n, k, CHECK != SG_CHECK_NONE && edge_n);
		__syncthreads();
		if (CHECK == SG_CHECK_V1 && edge_m) {
			/* "check A": a test per load inside a loop ptxas can no longer unroll (Figure 67). */
#pragma unroll 1
			for (int i = 0; i < 16; i++) {
#pragma unroll
				for (int v = 0; v < NA; v++) {
					const float a = rows[v] < m ? *ap[v] : 0.0f;
					ap[v] += lda;
#pragma unroll
					for (int j = 0; j < BN; j++)
						c[v][j] += a * b[i][j];
				}
			}
		} else {
#pragma unroll
			for (int i = 0; i < 16; i++) {
				float a[NA];
#pragma unroll
				for (int v = 0; v < NA; v++) {
					a[v] = *ap[v];
					ap[v] += lda;
				}
#pragma unroll
				for (int j = 0; j < BN; j++) {
					const float bv = b[i][j];
#pragma unroll
					for (int v = 0; v < NA; v++)
						c[v][j] += a[v] * bv;
				}
			}
		}
		__syncthreads();
	}
	if (CHECK != SG_CHECK_NONE && kfull < k) {
		/* The rank-k update for the last k % 16 columns of A (rows of B). */
		const int kr = k - kfull;
		v_load_b<NT, BN, PAD>(b, B, ldb, kfull, col0, n, k, true);
		__syncthreads();
#pragma unroll 1
		for (int i = 0; i < kr; i++) {
#pragma unroll
			for (int v = 0; v < NA; v++) {
				const float a = (CHECK != SG_CHECK_V1 || rows[v] < m) ? *ap[v] : 0.0f;
				ap[v] += lda;
#pragma unroll
				for (int j = 0; j < BN; j++)
					c[v][j] += a * b[i][j];
			}
		}
	}
#pragma unroll
	for (int v = 0; v < NA; v++)
#pragma unroll
		for (int j = 0; j < BN; j++)
			if (CHECK == SG_CHECK_NONE || (rows[v] < m && col0 + j < n))
				C[rows[v] + (size_t)(col0 + j) * ldc] = c[v][j];
}

/* ------------------------------------------------------------------ seed 002 (row-major) */

/* These five are written in the paper's row-major terms: A_r is M x K (row stride lda), B_r is
 * K x N, C_r is M x N; the host passes (M, N) = (n, m), A_r = our B and B_r = our A. Block <16,16>:
 * tx walks N in float4 columns, ty walks M. Need M, N multiples of the block tile, K of 16 (K2-1:
 * 1), row strides multiples of 4 (float4). */

/* K2-1 "GEMM tile": a 4 x 4 piece of C per thread, no shared memory: four scalar A values and
 * one float4 of B per k. Block tile 64 x 64. */
__device__ __forceinline__ void p4_tile(int M, int N, int K, const float *__restrict__ Ar, int lda,
					const float *__restrict__ Br, int ldb, float *__restrict__ Cr, int ldc)
{
	const int r0 = (blockIdx.y * 16 + threadIdx.y) * 4;
	const int c0 = (blockIdx.x * 16 + threadIdx.x) * 4;
	float4 acc[4] = {};

	for (int kk = 0; kk < K; kk++) {
		const float4 b = ld4(Br + (size_t)kk * ldb + c0);
#pragma unroll
		for (int i = 0; i < 4; i++)
			acc[i] = fma4(Ar[(size_t)(r0 + i) * lda + kk], b, acc[i]);
	}
#pragma unroll
	for (int i = 0; i < 4; i++)
		st4(Cr + (size_t)(r0 + i) * ldc + c0, acc[i]);
}

/* K2-2 .. K2-5: block tile 128 x 128, K step 16, 8 x 8 per thread as 2 x 2 float4 blocks: rows
 * ty*4 + i and 64 + ty*4 + i, float4 columns tx and tx + 16.
 *  COLA   (K2-3+): shared A stored column-major (transposed on store) so A fragments are float4 reads
 *  BCOL   (K2-2 seed): the B tile load split by columns (q, q + 16) instead of by rows (k, k + 8)
 *  FRAGDB (K2-4+): fragments double-buffered in registers
 *  SMEMDB (K2-5):  shared tiles double-buffered, the next global tile staged in registers */
#define P4_APAD 4 /* transposed A rows 132 floats: 16-byte aligned, fewer store conflicts */
template <bool COLA, bool BCOL, bool FRAGDB, bool SMEMDB> struct p4_smem {
	static constexpr int NB = SMEMDB ? 2 : 1;
	struct frag {
		float4 a0, a1, b0, b1;
	};

	static __device__ __forceinline__ void frag_load(frag &f, const float (*sa)[128 + P4_APAD],
							 const float (*sar)[16], const float4 (*sb)[32], int kk)
	{
		const int tx = threadIdx.x, ty = threadIdx.y;
		if (COLA) {
			f.a0 = *reinterpret_cast<const float4 *>(&sa[kk][ty * 4]);
			f.a1 = *reinterpret_cast<const float4 *>(&sa[kk][64 + ty * 4]);
		} else {
			f.a0 = make_float4(sar[ty * 4][kk], sar[ty * 4 + 1][kk], sar[ty * 4 + 2][kk], sar[ty * 4 + 3][kk]);
			f.a1 = make_float4(sar[64 + ty * 4][kk], sar[65 + ty * 4][kk], sar[66 + ty * 4][kk],
					   sar[67 + ty * 4][kk]);
		}
		f.b0 = sb[kk][tx];
		f.b1 = sb[kk][tx + 16];
	}

	static __device__ __forceinline__ void frag_fma(float4 (&acc)[2][2][4], const frag &f)
	{
		const float a[8] = { f.a0.x, f.a0.y, f.a0.z, f.a0.w, f.a1.x, f.a1.y, f.a1.z, f.a1.w };
#pragma unroll
		for (int i = 0; i < 8; i++) {
			acc[i / 4][0][i % 4] = fma4(a[i], f.b0, acc[i / 4][0][i % 4]);
			acc[i / 4][1][i % 4] = fma4(a[i], f.b1, acc[i / 4][1][i % 4]);
		}
	}

	static __device__ __forceinline__ void run(int M, int N, int K, const float *__restrict__ Ar, int lda,
						   const float *__restrict__ Br, int ldb, float *__restrict__ Cr,
						   int ldc)
	{
		__shared__ __align__(16) float sa[NB][COLA ? 16 : 1][128 + P4_APAD];
		__shared__ __align__(16) float sar[COLA ? 1 : 128][16];
		__shared__ float4 sb[NB][16][32];
		const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
		const int rb = blockIdx.y * 128, cb = blockIdx.x * 128;
		/* This thread's global loads per tile: A rows ar, ar + 64 at k 4aq..; B per split. */
		const int ar = tid / 4, aq = tid % 4;
		const int bk = BCOL ? tid / 16 : tid / 32, bq = BCOL ? tid % 16 : tid % 32;
		const int bk2 = BCOL ? bk : bk + 8, bq2 = BCOL ? bq + 16 : bq;
		const float *pa = Ar + (size_t)(rb + ar) * lda + aq * 4;
		const float *pb = Br + (size_t)bk * ldb + cb + bq * 4;
		const float *pb2 = Br + (size_t)bk2 * ldb + cb + bq2 * 4;
		float4 acc[2][2][4] = {};
		float4 ga0, ga1, gb0, gb1;
		int cur = 0;

		auto gload = [&](int kt) {
			ga0 = ld4(pa + kt);
			ga1 = ld4(pa + (size_t)64 * lda + kt);
			gb0 = ld4(pb + (size_t)kt * ldb);
			gb1 = ld4(pb2 + (size_t)kt * ldb);
		};
		auto sstore = [&](int buf) {
			if (COLA) {
				const float x0[4] = { ga0.x, ga0.y, ga0.z, ga0.w }, x1[4] = { ga1.x, ga1.y, ga1.z, ga1.w };
#pragma unroll
				for (int j = 0; j < 4; j++) {
					sa[buf][aq * 4 + j][ar] = x0[j];
					sa[buf][aq * 4 + j][ar + 64] = x1[j];
				}
			} else {
				*reinterpret_cast<float4 *>(&sar[ar][aq * 4]) = ga0;
				*reinterpret_cast<float4 *>(&sar[ar + 64][aq * 4]) = ga1;
			}
			sb[buf][bk][bq] = gb0;
			sb[buf][bk2][bq2] = gb1;
		};
		auto compute = [&](int buf) {
			if (FRAGDB) {
				frag f[2];
				frag_load(f[0], sa[buf], sar, sb[buf], 0);
#pragma unroll
				for (int kk = 0; kk < 16; kk++) {
					if (kk + 1 < 16)
						frag_load(f[(kk + 1) & 1], sa[buf], sar, sb[buf], kk + 1);
					frag_fma(acc, f[kk & 1]);
				}
			} else {
#pragma unroll
				for (int kk = 0; kk < 16; kk++) {
					frag f;
					frag_load(f, sa[buf], sar, sb[buf], kk);
					frag_fma(acc, f);
				}
			}
		};

		if (SMEMDB) {
			gload(0);
			sstore(0);
			__syncthreads();
			for (int kt = 0; kt < K; kt += 16) {
				const bool more = kt + 16 < K;
				if (more)
					gload(kt + 16);
				compute(cur);
				if (more)
					sstore(cur ^ 1);
				__syncthreads();
				cur ^= 1;
			}
		} else {
			for (int kt = 0; kt < K; kt += 16) {
				gload(kt);
				sstore(0);
				__syncthreads();
				compute(0);
				__syncthreads();
			}
		}
#pragma unroll
		for (int h = 0; h < 2; h++)
#pragma unroll
			for (int i = 0; i < 4; i++) {
				float *row = Cr + (size_t)(rb + h * 64 + ty * 4 + i) * ldc + cb;
				st4(row + tx * 4, acc[h][0][i]);
				st4(row + (tx + 16) * 4, acc[h][1][i]);
			}
	}
};

/* ------------------------------------------------------------------ seed 001 register blocking */

/* K1 (Algorithm 1 of seed 001): 256 threads (16 x 16), TM x TM outputs per thread, C tile
 * 16 TM x 16 TM, K step BK; shared A tile sA[k][m] (column-major, as A), B tile transposed to
 * sB[k][n] (4 floats of padding keep rows 16-byte aligned and the transposing stores
 * conflict-free); shared double buffering with the next tile staged in registers (one barrier
 * per tile). Thread (tx, ty) owns rows (r*16 + tx)*VEC + q and columns (r*16 + ty)*VEC + q, so
 * fragments are VEC-wide shared loads (VEC 2: LDS.64 as in the paper, VEC 4: LDS.128).
 *  LDG128: float4 global loads (else 32-bit) ; NC: through the read-only path (ld.global.nc)
 *  RDB: fragments of step kk+1 loaded while step kk computes (register double buffering)
 * Needs m, n multiples of 16 TM, k of BK, lda and ldb multiples of 4 when LDG128. */
template <int TM, int BK, int VEC, bool LDG128, bool NC, bool RDB>
__device__ __forceinline__ void gemm_k1(GEMM_ARGS(float))
{
	constexpr int BM = 16 * TM, BNP = BM + 4, NV = TM / VEC;
	constexpr int A4 = BM * BK / 4, B4 = BM * BK / 4;               /* float4 per tile */
	constexpr int LA4 = (A4 + 255) / 256, LB4 = (B4 + 255) / 256;   /* per thread */
	constexpr int LA1 = BM * BK / 256, LB1 = BM * BK / 256;         /* 32-bit loads per thread */
	constexpr int NSTAGE = LDG128 ? (LA4 > LB4 ? LA4 : LB4) * 4 : LA1;
	static_assert(BM * BK % 256 == 0, "32-bit tile loads must divide evenly");
	__shared__ __align__(16) float sA[2][BK][BM];
	__shared__ __align__(16) float sB[2][BK][BNP];
	const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
	const int rb = blockIdx.x * BM, cb = blockIdx.y * BM;
	const float *Ab = A + rb, *Bb = B + (size_t)cb * ldb;
	float acc[TM][TM];
	float ga[NSTAGE], gb[NSTAGE];
	int cur = 0;

#pragma unroll
	for (int i = 0; i < TM; i++)
#pragma unroll
		for (int j = 0; j < TM; j++)
			acc[i][j] = 0.0f;

	auto gload = [&](int kt) {
		if (LDG128) {
#pragma unroll
			for (int s = 0; s < LA4; s++) {
				const int e = tid + s * 256;
				if (A4 % 256 == 0 || e < A4) {
					const int r4 = e % (BM / 4), kk = e / (BM / 4);
					const float *p = Ab + r4 * 4 + (size_t)(kt + kk) * lda;
					const float4 v = NC ? ld4_nc(p) : ld4(p);
					ga[s * 4] = v.x, ga[s * 4 + 1] = v.y, ga[s * 4 + 2] = v.z, ga[s * 4 + 3] = v.w;
				}
			}
#pragma unroll
			for (int s = 0; s < LB4; s++) {
				const int e = tid + s * 256;
				if (B4 % 256 == 0 || e < B4) {
					const int q = e % (BK / 4), col = e / (BK / 4);
					const float *p = Bb + kt + q * 4 + (size_t)col * ldb;
					const float4 v = NC ? ld4_nc(p) : ld4(p);
					gb[s * 4] = v.x, gb[s * 4 + 1] = v.y, gb[s * 4 + 2] = v.z, gb[s * 4 + 3] = v.w;
				}
			}
		} else {
#pragma unroll
			for (int s = 0; s < LA1; s++) {
				const int e = tid + s * 256, r = e % BM, kk = e / BM;
				ga[s] = Ab[r + (size_t)(kt + kk) * lda];
			}
#pragma unroll
			for (int s = 0; s < LB1; s++) {
				const int e = tid + s * 256, kk = e % BK, col = e / BK;
				gb[s] = Bb[kt + kk + (size_t)col * ldb];
			}
		}
	};
	auto sstore = [&](int buf) {
		if (LDG128) {
#pragma unroll
			for (int s = 0; s < LA4; s++) {
				const int e = tid + s * 256;
				if (A4 % 256 == 0 || e < A4) {
					const int r4 = e % (BM / 4), kk = e / (BM / 4);
					st4(&sA[buf][kk][r4 * 4], make_float4(ga[s * 4], ga[s * 4 + 1], ga[s * 4 + 2], ga[s * 4 + 3]));
				}
			}
#pragma unroll
			for (int s = 0; s < LB4; s++) {
				const int e = tid + s * 256;
				if (B4 % 256 == 0 || e < B4) {
					const int q = e % (BK / 4), col = e / (BK / 4);
#pragma unroll
					for (int j = 0; j < 4; j++)
						sB[buf][q * 4 + j][col] = gb[s * 4 + j];
				}
			}
		} else {
#pragma unroll
			for (int s = 0; s < LA1; s++) {
				const int e = tid + s * 256;
				sA[buf][e / BM][e % BM] = ga[s];
			}
#pragma unroll
			for (int s = 0; s < LB1; s++) {
				const int e = tid + s * 256;
				sB[buf][e % BK][e / BK] = gb[s];
			}
		}
	};
	auto frag = [&](float *fa, float *fb, int buf, int kk) {
#pragma unroll
		for (int r = 0; r < NV; r++) {
			if (VEC == 4) {
				const float4 x = *reinterpret_cast<const float4 *>(&sA[buf][kk][(r * 16 + tx) * 4]);
				const float4 y = *reinterpret_cast<const float4 *>(&sB[buf][kk][(r * 16 + ty) * 4]);
				fa[r * 4] = x.x, fa[r * 4 + 1] = x.y, fa[r * 4 + 2] = x.z, fa[r * 4 + 3] = x.w;
				fb[r * 4] = y.x, fb[r * 4 + 1] = y.y, fb[r * 4 + 2] = y.z, fb[r * 4 + 3] = y.w;
			} else if (VEC == 2) {
				const float2 x = *reinterpret_cast<const float2 *>(&sA[buf][kk][(r * 16 + tx) * 2]);
				const float2 y = *reinterpret_cast<const float2 *>(&sB[buf][kk][(r * 16 + ty) * 2]);
				fa[r * 2] = x.x, fa[r * 2 + 1] = x.y;
				fb[r * 2] = y.x, fb[r * 2 + 1] = y.y;
			} else {
				fa[r] = sA[buf][kk][r * 16 + tx];
				fb[r] = sB[buf][kk][r * 16 + ty];
			}
		}
	};
	auto outer = [&](const float *fa, const float *fb) {
#pragma unroll
		for (int i = 0; i < TM; i++)
#pragma unroll
			for (int j = 0; j < TM; j++)
				acc[i][j] = fmaf(fa[i], fb[j], acc[i][j]);
	};

	gload(0);
	sstore(0);
	__syncthreads();
	for (int kt = 0; kt < k; kt += BK) {
		const bool more = kt + BK < k;
		if (more)
			gload(kt + BK);
		if (RDB) {
			float fa[2][TM], fb[2][TM];
			frag(fa[0], fb[0], cur, 0);
#pragma unroll
			for (int kk = 0; kk < BK; kk++) {
				if (kk + 1 < BK)
					frag(fa[(kk + 1) & 1], fb[(kk + 1) & 1], cur, kk + 1);
				outer(fa[kk & 1], fb[kk & 1]);
			}
		} else {
#pragma unroll
			for (int kk = 0; kk < BK; kk++) {
				float fa[TM], fb[TM];
				frag(fa, fb, cur, kk);
				outer(fa, fb);
			}
		}
		if (more)
			sstore(cur ^ 1);
		__syncthreads();
		cur ^= 1;
	}
#pragma unroll
	for (int i = 0; i < TM; i++) {
		const int r = rb + ((i / VEC) * 16 + tx) * VEC + i % VEC;
#pragma unroll
		for (int j = 0; j < TM; j++) {
			const int cc = cb + ((j / VEC) * 16 + ty) * VEC + j % VEC;
			C[r + (size_t)cc * ldc] = acc[i][j];
		}
	}
}

/* ------------------------------------------------------------------ modern: warp tiling + cp.async */

/* Block tile BM x BN x BK, warps of 8 x 4 lanes each owning (TM/4) x (TN/4) sub-tiles of 4 x 4
 * (warp tile 32 TM/4 x 16 TN/4 ... = 8 lanes x 4 rows x TM/4 by 4 lanes x 4 cols x TN/4), so every
 * fragment read is a conflict-free LDS.128 (8 distinct float4 of A, 4 of B per warp: one
 * wavefront each) and every C store a full 128-byte column segment. Shared A tile sA[k][m] fed by
 * 16-byte copies of A's columns; B tile transposed to sB[k][n] by 4-byte copies (consecutive
 * threads take consecutive k of one column: coalesced reads, and with 4 words of row padding
 * the 32 stores of a warp hit 32 different banks).
 *  STAGES = 0: two shared buffers, next tile staged through registers (LDG.128 -> STS)
 *  STAGES >= 2: cp.async pipeline of STAGES buffers, wait_group(STAGES - 2), one barrier per tile
 * The 1-D grid is swizzled in groups of 8 tile rows for L2 reuse. Dynamic shared memory.
 * Needs m % BM, n % BN, k % BK == 0 and lda, ldc multiples of 4. */
template <int BM, int BN, int BK, int TM, int TN, int STAGES> struct gemm_warp {
	static constexpr int WM = 8 * TM, WN = 4 * TN;                 /* warp tile */
	static constexpr int NWM = BM / WM, NWN = BN / WN, NTH = NWM * NWN * 32;
	static constexpr int BNP = BN + 4;
	static constexpr int NBUF = STAGES ? STAGES : 2;
	static constexpr int A4 = BM * BK / 4 / NTH;                    /* 16-byte A chunks per thread */
	static constexpr int B1 = BK * BN / NTH;                        /* B elements per thread */
	static constexpr int B4 = BK * BN / 4 / NTH;                    /* B float4 per thread (STAGES 0) */
	static constexpr int SMEM = NBUF * BK * (BM + BNP) * 4;
	static_assert(BM % WM == 0 && BN % WN == 0, "warp tiles must tile the block");
	static_assert(BM * BK % (4 * NTH) == 0 && BK * BN % (4 * NTH) == 0, "tile copies must divide evenly");
	static_assert(BK % 4 == 0, "B float4 along k");

	static __device__ __forceinline__ void run(GEMM_ARGS(float))
	{
		extern __shared__ __align__(16) float smem[];
		float *sA = smem, *sB = smem + NBUF * BK * BM;
		const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
		const int lm = lane % 8, ln = lane / 8;
		const int wm0 = (warp % NWM) * WM, wn0 = (warp / NWM) * WN;
		int tm, tn;
		sg_swizzle(blockIdx.x, m / BM, n / BN, 8, &tm, &tn);
		const float *Ab = A + tm * BM, *Bb = B + (size_t)tn * BN * ldb;
		const int ktiles = k / BK;
		float4 acc[TM][TN / 4];

#pragma unroll
		for (int i = 0; i < TM; i++)
#pragma unroll
			for (int j = 0; j < TN / 4; j++)
				acc[i][j] = make_float4(0.f, 0.f, 0.f, 0.f);

		/* Element (kk, col) of the B tile for copy slot s: consecutive threads, consecutive k. */
		auto issue = [&](int t, int buf) {
			const int kt = t * BK;
			float *a = sA + buf * BK * BM, *b = sB + buf * BK * BNP;
#pragma unroll
			for (int s = 0; s < A4; s++) {
				const int e = tid + s * NTH, r4 = e % (BM / 4), kk = e / (BM / 4);
				cp16(a + kk * BM + r4 * 4, Ab + r4 * 4 + (size_t)(kt + kk) * lda);
			}
#pragma unroll
			for (int s = 0; s < B1; s++) {
				const int e = tid + s * NTH, kk = e % BK, col = e / BK;
				cp4(b + kk * BNP + col, Bb + kt + kk + (size_t)col * ldb);
			}
		};
		auto compute = [&](int buf) {
			const float *a = sA + buf * BK * BM, *b = sB + buf * BK * BNP;
#pragma unroll
			for (int kk = 0; kk < BK; kk++) {
				float4 fa[TM / 4], fb[TN / 4];
#pragma unroll
				for (int s = 0; s < TM / 4; s++)
					fa[s] = *reinterpret_cast<const float4 *>(a + kk * BM + wm0 + s * 32 + lm * 4);
#pragma unroll
				for (int s = 0; s < TN / 4; s++)
					fb[s] = *reinterpret_cast<const float4 *>(b + kk * BNP + wn0 + s * 16 + ln * 4);
#pragma unroll
				for (int s = 0; s < TM / 4; s++) {
					const float av[4] = { fa[s].x, fa[s].y, fa[s].z, fa[s].w };
#pragma unroll
					for (int q = 0; q < 4; q++)
#pragma unroll
						for (int j = 0; j < TN / 4; j++)
							acc[s * 4 + q][j] = fma4(av[q], fb[j], acc[s * 4 + q][j]);
				}
			}
		};

		if (STAGES == 0) {
			/* Register-staged double buffer: LDG.128 of tile t+1 in flight during tile t. */
			float4 ra[A4], rb[B4];
			auto gload = [&](int t) {
				const int kt = t * BK;
#pragma unroll
				for (int s = 0; s < A4; s++) {
					const int e = tid + s * NTH, r4 = e % (BM / 4), kk = e / (BM / 4);
					ra[s] = ld4(Ab + r4 * 4 + (size_t)(kt + kk) * lda);
				}
#pragma unroll
				for (int s = 0; s < B4; s++) {
					const int e = tid + s * NTH, q = e % (BK / 4), col = e / (BK / 4);
					rb[s] = ld4(Bb + kt + q * 4 + (size_t)col * ldb);
				}
			};
			auto sstore = [&](int buf) {
				float *a = sA + buf * BK * BM, *b = sB + buf * BK * BNP;
#pragma unroll
				for (int s = 0; s < A4; s++) {
					const int e = tid + s * NTH, r4 = e % (BM / 4), kk = e / (BM / 4);
					st4(a + kk * BM + r4 * 4, ra[s]);
				}
#pragma unroll
				for (int s = 0; s < B4; s++) {
					const int e = tid + s * NTH, q = e % (BK / 4), col = e / (BK / 4);
					b[(q * 4 + 0) * BNP + col] = rb[s].x;
					b[(q * 4 + 1) * BNP + col] = rb[s].y;
					b[(q * 4 + 2) * BNP + col] = rb[s].z;
					b[(q * 4 + 3) * BNP + col] = rb[s].w;
				}
			};
			int cur = 0;
			gload(0);
			sstore(0);
			__syncthreads();
			for (int t = 0; t < ktiles; t++) {
				const bool more = t + 1 < ktiles;
				if (more)
					gload(t + 1);
				compute(cur);
				if (more)
					sstore(cur ^ 1);
				__syncthreads();
				cur ^= 1;
			}
		} else {
#pragma unroll
			for (int s = 0; s < NBUF - 1; s++) {
				if (s < ktiles)
					issue(s, s);
				cp_commit(); /* empty groups keep the wait count uniform */
			}
			for (int t = 0; t < ktiles; t++) {
				cp_wait<NBUF - 2>(); /* this thread's copies of tile t have landed */
				__syncthreads();     /* everyone's have; everyone is done with tile t - 1 */
				if (t + NBUF - 1 < ktiles)
					issue(t + NBUF - 1, (t + NBUF - 1) % NBUF);
				cp_commit();
				compute(t % NBUF);
			}
			cp_wait<0>();
		}
		float *cb = C + (size_t)(tn * BN) * ldc + tm * BM;
#pragma unroll
		for (int s = 0; s < TM / 4; s++)
#pragma unroll
			for (int j = 0; j < TN / 4; j++) {
				const float4 *v = &acc[s * 4][j];
				const int r = wm0 + s * 32 + lm * 4, c = wn0 + j * 16 + ln * 4;
				/* acc[s*4 + q][j] holds rows r + q, columns c .. c + 3: store column-wise. */
				st4(cb + r + (size_t)(c + 0) * ldc, make_float4(v[0].x, acc[s * 4 + 1][j].x, acc[s * 4 + 2][j].x, acc[s * 4 + 3][j].x));
				st4(cb + r + (size_t)(c + 1) * ldc, make_float4(v[0].y, acc[s * 4 + 1][j].y, acc[s * 4 + 2][j].y, acc[s * 4 + 3][j].y));
				st4(cb + r + (size_t)(c + 2) * ldc, make_float4(v[0].z, acc[s * 4 + 1][j].z, acc[s * 4 + 2][j].z, acc[s * 4 + 3][j].z));
				st4(cb + r + (size_t)(c + 3) * ldc, make_float4(v[0].w, acc[s * 4 + 1][j].w, acc[s * 4 + 2][j].w, acc[s * 4 + 3][j].w));
			}
	}
};

/* ------------------------------------------------------------------ modern: pipelined fragments */

/* gemm_warp's warp tiling with the shared-memory reads software-pipelined one k step ahead over
 * the whole k loop, tile boundaries included (the order CUTLASS's SIMT main loop uses): step
 * kk + 1's fragments are read while step kk's FFMAs issue, and the tile's one barrier sits before
 * the last step's FFMAs, so the next tile's first fragments are read ahead of them too (in
 * gemm_warp the barrier exposes one LDS latency per tile). Why one barrier is enough: every read
 * of a buffer happens before the barrier that ends its tile, and the buffer is refilled only
 * after the next tile has started, past that barrier.
 *  STAGES = 0: register-staged double buffer (LDG.128 at the top of a tile, STS just before the
 *              barrier), B transposed into sB[k][BN + 4] as in gemm_warp.
 *  STAGES >= 2: cp.async pipeline with 16-byte copies for both operands: B kept k-major as it
 *              lies in memory, sBt[n][BK], so no 4-byte copies. A thread's B values come as
 *              float4 over 4 consecutive k of one column (a k group) instead of 4 columns of one
 *              k: the same LDS.128 count. Row n is stored at row n ^ ((n >> 2) & 3): the 4 lane
 *              groups of a warp read columns 4 apart, which land on 4 different bank quads
 *              (unpermuted they would all hit one: a 4-way conflict). BK 8 only (the permutation
 *              is for 32-byte rows). No padding: NBUF x BK x (BM + BN) floats.
 * The 1-D grid swizzled in groups of 8 tile rows. Needs m % BM, n % BN, k % BK == 0 and lda,
 * ldb, ldc multiples of 4. */
template <int BM, int BN, int BK, int TM, int TN, int STAGES> struct gemm_pipe {
	static constexpr int WM = 8 * TM, WN = 4 * TN; /* warp tile: 8 x 4 lanes of 4 x 4 pieces */
	static constexpr int NWM = BM / WM, NWN = BN / WN, NTH = NWM * NWN * 32;
	static constexpr bool KMAJ = STAGES != 0;
	static constexpr int BNP = BN + 4; /* register-staged sB row */
	static constexpr int NBUF = STAGES ? STAGES : 2;
	static constexpr int A4 = BM * BK / 4 / NTH; /* 16-byte A chunks per thread per tile */
	static constexpr int B4 = BK * BN / 4 / NTH; /* 16-byte B chunks per thread per tile */
	static constexpr int A8 = BM * 8 / 4 / NTH, B8 = 8 * BN / 4 / NTH; /* the same per 8 k rows */
	static constexpr int SB = KMAJ ? BN * BK : BK * BNP; /* floats per sB buffer */
	static constexpr int SMEM = NBUF * (BK * BM + SB) * 4;
	static_assert(BM % WM == 0 && BN % WN == 0, "warp tiles must tile the block");
	static_assert(BM * BK % (4 * NTH) == 0 && BK * BN % (4 * NTH) == 0, "tile copies must divide evenly");
	static_assert(BK % 8 == 0, "staging phases of 8 k rows; B float4 along k; fragment parity");
	static_assert(NTH % (BM / 4) == 0 && NTH % 2 == 0, "copy slots step whole k rows / columns");
	static_assert(!KMAJ || BK == 8, "the k-major row permutation is for BK 8");

	static __device__ __forceinline__ int brow(int c)
	{
		return c ^ ((c >> 2) & 3);
	}

	static __device__ __forceinline__ void run(GEMM_ARGS(float))
	{
		extern __shared__ __align__(16) float smem[];
		float *sA = smem, *sB = smem + NBUF * BK * BM;
		const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
		const int lm = lane % 8, ln = lane / 8;
		const int wm0 = (warp % NWM) * WM, wn0 = (warp / NWM) * WN;
		int tm, tn;
		sg_swizzle(blockIdx.x, m / BM, n / BN, 8, &tm, &tn);
		const float *Ab = A + tm * BM, *Bb = B + (size_t)tn * BN * ldb;
		const int ktiles = k / BK;
		float4 acc[TM][TN / 4];

#pragma unroll
		for (int i = 0; i < TM; i++)
#pragma unroll
			for (int j = 0; j < TN / 4; j++)
				acc[i][j] = make_float4(0.f, 0.f, 0.f, 0.f);

		/* A fragment of step kk: TM/4 float4 along m (8 lanes x 16 B: one wavefront each). */
		auto frag_a = [&](float4 *fa, int buf, int kk) {
			const float *a = sA + buf * BK * BM + kk * BM + wm0 + lm * 4;
#pragma unroll
			for (int s = 0; s < TM / 4; s++)
				fa[s] = *reinterpret_cast<const float4 *>(a + s * 32);
		};
		auto outer = [&](const float4 *fa, const float *bv) {
#pragma unroll
			for (int s = 0; s < TM / 4; s++) {
				const float av[4] = { fa[s].x, fa[s].y, fa[s].z, fa[s].w };
#pragma unroll
				for (int q = 0; q < 4; q++)
#pragma unroll
					for (int j = 0; j < TN / 4; j++) {
						float4 &c = acc[s * 4 + q][j];
						c.x = fmaf(av[q], bv[j * 4 + 0], c.x);
						c.y = fmaf(av[q], bv[j * 4 + 1], c.y);
						c.z = fmaf(av[q], bv[j * 4 + 2], c.z);
						c.w = fmaf(av[q], bv[j * 4 + 3], c.w);
					}
			}
		};

		if (!KMAJ) {
			/* Staged in phases of 8 k rows: phase ph of tile t + 1 is loaded at step 8 ph and
			 * stored at step 8 ph + 7 (its buffer is free: tile t - 1's reads all came before
			 * the last barrier), so BK 16 stages no more registers than BK 8. */
			float4 ra[A8], rb[B8], fa[2][TM / 4], fb[2][TN / 4];
			/* One pointer per operand walks k, 8 rows a phase: fewer live address registers
			 * than an offset per copy (BK 16 fits 128 registers without a spill; a branch-free
			 * form that re-read the last tile instead of testing `more` spilled). */
			const float *pa = Ab + (tid % (BM / 4)) * 4 + (size_t)(tid / (BM / 4)) * lda;
			const float *pb = Bb + (tid % 2) * 4 + (size_t)(tid / 2) * ldb;
			auto gload = [&]() {
#pragma unroll
				for (int s = 0; s < A8; s++)
					ra[s] = ld4(pa + (size_t)(s * NTH / (BM / 4)) * lda);
#pragma unroll
				for (int s = 0; s < B8; s++)
					rb[s] = ld4(pb + (size_t)(s * NTH / 2) * ldb);
				pa += (size_t)8 * lda;
				pb += 8;
			};
			/* B transposed by 4 scalar stores; with the 4-word row padding a warp's 32 stores
			 * (16 columns x 2 k quads) hit 32 different banks. */
			auto sstore = [&](int buf, int ph) {
				float *a = sA + buf * BK * BM + ph * 8 * BM, *b = sB + buf * SB + ph * 8 * BNP;
#pragma unroll
				for (int s = 0; s < A8; s++) {
					const int e = tid + s * NTH, r4 = e % (BM / 4), kk = e / (BM / 4);
					st4(a + kk * BM + r4 * 4, ra[s]);
				}
#pragma unroll
				for (int s = 0; s < B8; s++) {
					const int e = tid + s * NTH, q = e % 2, col = e / 2;
					b[(q * 4 + 0) * BNP + col] = rb[s].x;
					b[(q * 4 + 1) * BNP + col] = rb[s].y;
					b[(q * 4 + 2) * BNP + col] = rb[s].z;
					b[(q * 4 + 3) * BNP + col] = rb[s].w;
				}
			};
			auto frag_b = [&](float4 *fb, int buf, int kk) {
				const float *b = sB + buf * SB + kk * BNP + wn0 + ln * 4;
#pragma unroll
				for (int s = 0; s < TN / 4; s++)
					fb[s] = *reinterpret_cast<const float4 *>(b + s * 16);
			};
			int cur = 0;
#pragma unroll
			for (int ph = 0; ph < BK / 8; ph++) {
				gload();
				sstore(0, ph);
			}
			__syncthreads();
			frag_a(fa[0], 0, 0);
			frag_b(fb[0], 0, 0);
			for (int t = 0; t < ktiles; t++) {
				const bool more = t + 1 < ktiles;
#pragma unroll
				for (int kk = 0; kk < BK; kk++) {
					const int nx = (kk + 1) & 1;
					if (more && kk % 8 == 0)
						gload();
					if (kk + 1 < BK) {
						if (more && kk % 8 == 7)
							sstore(cur ^ 1, kk / 8);
						frag_a(fa[nx], cur, kk + 1);
						frag_b(fb[nx], cur, kk + 1);
					} else {
						/* The tile's barrier: tile t + 1 stored, everyone past tile t's reads. */
						if (more)
							sstore(cur ^ 1, kk / 8);
						__syncthreads();
						if (more) {
							frag_a(fa[nx], cur ^ 1, 0);
							frag_b(fb[nx], cur ^ 1, 0);
						}
					}
					float bv[TN];
#pragma unroll
					for (int j = 0; j < TN / 4; j++) {
						bv[j * 4 + 0] = fb[kk & 1][j].x;
						bv[j * 4 + 1] = fb[kk & 1][j].y;
						bv[j * 4 + 2] = fb[kk & 1][j].z;
						bv[j * 4 + 3] = fb[kk & 1][j].w;
					}
					outer(fa[kk & 1], bv);
				}
				cur ^= 1;
			}
		} else {
			/* Copy slot s: chunk kc (4 k) of column col; 2 consecutive threads read a column's
			 * 32-byte sector, a warp writes 512 contiguous bytes of sBt (a row permutation). */
			auto issue = [&](int t, int buf) {
				const int kt = t * BK;
				float *a = sA + buf * BK * BM, *b = sB + buf * SB;
#pragma unroll
				for (int s = 0; s < A4; s++) {
					const int e = tid + s * NTH, r4 = e % (BM / 4), kk = e / (BM / 4);
					cp16(a + kk * BM + r4 * 4, Ab + r4 * 4 + (size_t)(kt + kk) * lda);
				}
#pragma unroll
				for (int s = 0; s < B4; s++) {
					const int e = tid + s * NTH, kc = e % (BK / 4), col = e / (BK / 4);
					cp16(b + brow(col) * BK + kc * 4, Bb + kt + kc * 4 + (size_t)col * ldb);
				}
			};
			/* B k pair p of this thread's TN columns: column wn0 + j*16 + ln*4 + q in fb[j*4 + q],
			 * stored at row wn0 + j*16 + ln*4 + (q ^ ln): 4 lane-dependent offsets, computed once
			 * (ptxas at the 128-register cap rematerialises them per load otherwise). LDS.64: a
			 * k group of 4 (LDS.128) would keep 4 x TN values live and spill. */
			int qoff[4];
#pragma unroll
			for (int q = 0; q < 4; q++)
				qoff[q] = brow(wn0 + ln * 4 + q) * BK;
			auto frag_b = [&](float2 *fb, int buf, int p) {
				const float *b = sB + buf * SB + p * 2;
#pragma unroll
				for (int j = 0; j < TN / 4; j++)
#pragma unroll
					for (int q = 0; q < 4; q++)
						fb[j * 4 + q] = *reinterpret_cast<const float2 *>(b + qoff[q] + j * 16 * BK);
			};
			float4 fa[2][TM / 4];
			float2 fb[TN];
#pragma unroll
			for (int s = 0; s < NBUF - 1; s++) {
				if (s < ktiles)
					issue(s, s);
				cp_commit(); /* empty groups keep the wait count uniform */
			}
			cp_wait<NBUF - 2>();
			__syncthreads();
			frag_a(fa[0], 0, 0);
			frag_b(fb, 0, 0);
			/* buf: tile t's buffer; nbuf: tile t + 1's; ibuf: tile t - 1's, refilled now. */
			int buf = 0, nbuf = 1 % NBUF, ibuf = NBUF - 1;
			for (int t = 0; t < ktiles; t++) {
				/* Into tile t - 1's buffer: all its reads came before the last barrier. Past the
				 * end the last tile is copied again (harmless, never read): no branch. */
				issue(min(t + NBUF - 1, ktiles - 1), ibuf);
				cp_commit();
#pragma unroll
				for (int kk = 0; kk < BK; kk++) {
					const int nx = (kk + 1) & 1;
					float bv[TN];
#pragma unroll
					for (int c = 0; c < TN; c++)
						bv[c] = kk % 2 ? fb[c].y : fb[c].x;
					if (kk + 1 < BK) {
						frag_a(fa[nx], buf, kk + 1);
						if (kk % 2)
							frag_b(fb, buf, (kk + 1) / 2);
					} else {
						cp_wait<NBUF - 2>(); /* tile t + 1 has landed (this thread's copies) */
						__syncthreads();     /* everyone's; everyone is past tile t's reads */
						frag_a(fa[nx], nbuf, 0); /* after the last tile: read, never used */
						frag_b(fb, nbuf, 0);
					}
					outer(fa[kk & 1], bv);
				}
				ibuf = buf;
				buf = nbuf;
				nbuf = nbuf + 1 == NBUF ? 0 : nbuf + 1;
			}
			cp_wait<0>();
		}
		float *cb = C + (size_t)(tn * BN) * ldc + tm * BM;
#pragma unroll
		for (int s = 0; s < TM / 4; s++)
#pragma unroll
			for (int j = 0; j < TN / 4; j++) {
				const int r = wm0 + s * 32 + lm * 4, c = wn0 + j * 16 + ln * 4;
				/* acc[s*4 + q][j] holds row r + q, columns c .. c + 3: stored column-wise. */
				const float4 *v0 = &acc[s * 4][j], *v1 = &acc[s * 4 + 1][j], *v2 = &acc[s * 4 + 2][j],
					     *v3 = &acc[s * 4 + 3][j];
				st4(cb + r + (size_t)(c + 0) * ldc, make_float4(v0->x, v1->x, v2->x, v3->x));
				st4(cb + r + (size_t)(c + 1) * ldc, make_float4(v0->y, v1->y, v2->y, v3->y));
				st4(cb + r + (size_t)(c + 2) * ldc, make_float4(v0->z, v1->z, v2->z, v3->z));
				st4(cb + r + (size_t)(c + 3) * ldc, make_float4(v0->w, v1->w, v2->w, v3->w));
			}
	}
};

/* ------------------------------------------------------------------ 3xTF32 on the tensor cores */

/* FP32-accurate GEMM on the TF32 tensor cores (sm_80+), the step past the FFMA ceiling: every
 * operand x is split into big = tf32(x) (10 explicit mantissa bits, round to nearest) and
 * small = tf32(x - big) (x - big is exact in FP32), and each product is taken as
 * a_small b_big + a_big b_small + a_big b_big (a_small b_small, about 2^-22 of the product, is
 * dropped): three mma.sync.m16n8k8.tf32 per 16 x 8 x 8 tile, each step's sum added to an FP32
 * accumulator with an FADD (round to nearest: see the loop). Its error is
 * checked against host double-precision dot products beside cuBLAS's own (fp64_err vs ref_err):
 * a kernel that only rounded to TF32 (2^-11) would fail that check by orders of magnitude.
 * Tiles: BM x BN x BK per block of 8 warps, warp tile WM x WN of (WM/16) x (WN/8) mma tiles,
 * STAGES-deep cp.async pipeline with 16-byte copies.
 * Shared layout, chosen for conflict-free fragment reads:
 *   sA[k][BM + 4]: A as it lies in memory (m contiguous). The fragment's k index t is mapped to
 *     physical k 2t and t + 4 to 2t + 1 (the same permutation on A and B leaves the sum alone),
 *     so a warp's A read touches rows 2t: with a row stride of BM + 4 words (2 x stride = 8 mod
 *     32 banks) the 4 row groups x 8 lanes hit 32 different banks.
 *   sB[n][BK + 8]: B as it lies in memory (k contiguous); b0, b1 are physical k 2t, 2t + 1, one
 *     LDS.64; 8 words of row padding spread a half-warp's 4 columns over all 32 banks.
 * Needs m % BM, n % BN, k % BK == 0 and lda, ldb multiples of 4 (16-byte copies). */
template <int BM, int BN, int BK, int WM, int WN, int STAGES, int PS> struct gemm_tc3 {
	static constexpr int NWM = BM / WM, NWN = BN / WN, NTH = NWM * NWN * 32;
	static constexpr int MT = WM / 16, NT = WN / 8;
	static constexpr int LDA = BM + 4, LDB = BK + 8;
	static constexpr int SA = BK * LDA, SB = BN * LDB;
	static constexpr int SMEM = STAGES * (SA + SB) * 4;
	static constexpr int ACH = BM * BK / 4 / NTH, BCH = BN * BK / 4 / NTH;
	static_assert(BM % WM == 0 && BN % WN == 0 && WM % 16 == 0 && WN % 8 == 0, "warp tiles");
	static_assert(BM * BK % (4 * NTH) == 0 && BN * BK % (4 * NTH) == 0, "copies divide evenly");
	static_assert(BK % 8 == 0 && BM % 32 == 0 && STAGES >= 2, "k steps of 8; bank arithmetic");
	static_assert(PS >= 1 && (BK / 8) % PS == 0, "promotion groups of PS k steps tile BK");

#if __CUDA_ARCH__ >= 800
	/* Round to nearest, ties away (cvt.rna.tf32.f32's rounding), as two integer operations on
	 * finite inputs: cvt.rna itself compiles to about four on sm_90 (a NaN/Inf test and select). */
	static __device__ __forceinline__ unsigned tf32(float x)
	{
		return (__float_as_uint(x) + 0x1000u) & 0xffffe000u;
	}

	static __device__ __forceinline__ void split(float x, unsigned &big, unsigned &small)
	{
		big = tf32(x);
		small = tf32(x - __uint_as_float(big));
	}

	static __device__ __forceinline__ void zero(float (&x)[MT][NT][4])
	{
#pragma unroll
		for (int i = 0; i < MT; i++)
#pragma unroll
			for (int j = 0; j < NT; j++)
#pragma unroll
				for (int q = 0; q < 4; q++)
					x[i][j][q] = 0.f;
	}

	/* One tile's k-step sum into its FP32 accumulator: FADD, round to nearest. */
	static __device__ __forceinline__ void add(float (&acc)[4], const float (&part)[4])
	{
#pragma unroll
		for (int q = 0; q < 4; q++)
			acc[q] += part[q];
	}

	static __device__ __forceinline__ void mma(float (&c)[4], const unsigned (&a)[4], const unsigned (&b)[2])
	{
		asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
		    "{%8, %9}, {%0, %1, %2, %3};"
		    : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
		    : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
	}
#endif

	static __device__ __forceinline__ void run(GEMM_ARGS(float))
	{
#if __CUDA_ARCH__ >= 800
		extern __shared__ __align__(16) float smem[];
		float *sA = smem, *sB = smem + STAGES * SA;
		const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
		const int g = lane / 4, t = lane % 4;
		const int wm0 = (warp % NWM) * WM, wn0 = (warp / NWM) * WN;
		int tm, tn;
		sg_swizzle(blockIdx.x, m / BM, n / BN, 8, &tm, &tn);
		const float *Ab = A + tm * BM, *Bb = B + (size_t)tn * BN * ldb;
		const int ktiles = k / BK;
		float acc[MT][NT][4];

		zero(acc);
		auto issue = [&](int kt, int s) {
			float *a = sA + s * SA, *b = sB + s * SB;
#pragma unroll
			for (int i = 0; i < ACH; i++) {
				const int c = tid + i * NTH, col = c / (BM / 4), m4 = c % (BM / 4) * 4;
				cp16(a + col * LDA + m4, Ab + (size_t)(kt * BK + col) * lda + m4);
			}
#pragma unroll
			for (int i = 0; i < BCH; i++) {
				const int c = tid + i * NTH, col = c / (BK / 4), k4 = c % (BK / 4) * 4;
				cp16(b + col * LDB + k4, Bb + (size_t)col * ldb + kt * BK + k4);
			}
		};

#pragma unroll
		for (int s = 0; s < STAGES - 1; s++) {
			if (s < ktiles)
				issue(s, s);
			cp_commit();
		}
		for (int kt = 0; kt < ktiles; kt++) {
			cp_wait<STAGES - 2>(); /* tile kt has landed (this thread's copies) */
			__syncthreads();       /* everyone's; everyone is past tile kt - 1's reads */
			if (kt + STAGES - 1 < ktiles)
				issue(kt + STAGES - 1, (kt + STAGES - 1) % STAGES);
			cp_commit();
			const float *a = sA + (kt % STAGES) * SA + wm0 + g, *b = sB + (kt % STAGES) * SB + (wn0 + g) * LDB;
			float part[MT][NT][4];
#pragma unroll
			for (int kk = 0; kk < BK; kk += 8) {
				if (kk / 8 % PS == 0)
					zero(part);
				/* B split once per step for all NT tiles; A split per m tile inside the loop,
				 * so only one A fragment pair is live (the 128 x 256 tile spilled otherwise). */
				unsigned bb[NT][2], bs[NT][2];
				const float *ak = a + (kk + 2 * t) * LDA;
#pragma unroll
				for (int j = 0; j < NT; j++) {
					const float2 v = *reinterpret_cast<const float2 *>(b + j * 8 * LDB + kk + 2 * t);
					split(v.x, bb[j][0], bs[j][0]);
					split(v.y, bb[j][1], bs[j][1]);
				}
				/* The tensor cores' FP32 accumulation does not round to nearest: accumulated
				 * over all of k in the mma's C, its bias grew linearly with k (H100: 30x
				 * cuBLAS's error at k = 4096, 8192). So a group of PS k steps accumulates
				 * from zero in `part` (small terms first) and is then added to acc with
				 * FADDs. PS = 1: part lives one step (few registers, one FADD per 3 mma). */
#pragma unroll
				for (int i = 0; i < MT; i++) {
					unsigned ab[4], as[4];
					split(ak[i * 16], ab[0], as[0]);
					split(ak[i * 16 + 8], ab[1], as[1]);
					split(ak[LDA + i * 16], ab[2], as[2]);
					split(ak[LDA + i * 16 + 8], ab[3], as[3]);
#pragma unroll
					for (int j = 0; j < NT; j++) {
						mma(part[i][j], as, bb[j]);
						mma(part[i][j], ab, bs[j]);
						mma(part[i][j], ab, bb[j]);
						if (PS == 1) /* right away: one tile's part live, not all */
							add(acc[i][j], part[i][j]);
					}
				}
				if (PS > 1 && kk / 8 % PS == PS - 1)
#pragma unroll
					for (int i = 0; i < MT; i++)
#pragma unroll
						for (int j = 0; j < NT; j++)
							add(acc[i][j], part[i][j]);
			}
		}
		cp_wait<0>();
		/* c0, c1: row g, columns 2t, 2t + 1; c2, c3: row g + 8. */
		float *cb = C + (size_t)(tn * BN + wn0) * ldc + tm * BM + wm0;
#pragma unroll
		for (int i = 0; i < MT; i++)
#pragma unroll
			for (int j = 0; j < NT; j++) {
				float *p = cb + i * 16 + g + (size_t)(j * 8 + 2 * t) * ldc;
				p[0] = acc[i][j][0];
				p[ldc] = acc[i][j][1];
				p[8] = acc[i][j][2];
				p[8 + ldc] = acc[i][j][3];
			}
#else
		__trap(); /* no TF32 tensor cores before sm_80: the host never launches it there */
#endif
	}
};

/* ------------------------------------------------------------------ entry points */

#define SG_KERNEL(name, T, threads, body)                                                         \
	extern "C" __global__ void __launch_bounds__(threads) name(GEMM_ARGS(T))                   \
	{                                                                                          \
		body;                                                                              \
	}
#define SG_KERNEL2(name, T, threads, minb, body)                                                  \
	extern "C" __global__ void __launch_bounds__(threads, minb) name(GEMM_ARGS(T))             \
	{                                                                                          \
		body;                                                                              \
	}
#define SG_ARGS m, n, k, A, lda, B, ldb, C, ldc
/* seed 002 kernels are row-major: (M, N) = (n, m), A_r = B, B_r = A (see above). */
#define SG_ARGS_RM n, m, k, B, ldb, A, lda, C, ldc

SG_KERNEL(sgemm_01_naive, float, 256, gemm_naive<float>(SG_ARGS))
SG_KERNEL(sgemm_02_smem, float, 256, (gemm_tile<float, 16, 16, 16, 16, true>(SG_ARGS)))
SG_KERNEL(sgemm_03_smem32_ilp4, float, 256, (gemm_tile<float, 32, 32, 8, 32, true>(SG_ARGS)))
SG_KERNEL(sgemm_04_volkov, float, 64, (gemm_volkov<64, 16, 1, 0, 1, SG_CHECK_NONE>(SG_ARGS)))
SG_KERNEL(sgemm_05_volkov_lds128, float, 64, (gemm_volkov<64, 16, 1, 0, 0, SG_CHECK_NONE>(SG_ARGS)))
SG_KERNEL(sgemm_06_method1, float, 64, (gemm_volkov<64, 16, 2, 0, 1, SG_CHECK_NONE>(SG_ARGS)))
SG_KERNEL(sgemm_07_method2, float, 128, (gemm_volkov<128, 24, 2, 0, 1, SG_CHECK_NONE>(SG_ARGS)))
SG_KERNEL(sgemm_08_method3, float, 64, (gemm_volkov<64, 24, 2, 0, 1, SG_CHECK_NONE>(SG_ARGS)))
SG_KERNEL(sgemm_09_method4, float, 64, (gemm_volkov<64, 16, 4, 0, 1, SG_CHECK_NONE>(SG_ARGS)))
SG_KERNEL(sgemm_10_method5_v1, float, 64, (gemm_volkov<64, 16, 1, 0, 1, SG_CHECK_V1>(SG_ARGS)))
SG_KERNEL(sgemm_11_method5_v2, float, 64, (gemm_volkov<64, 16, 1, 0, 1, SG_CHECK_V2>(SG_ARGS)))
SG_KERNEL(sgemm_12_method5_v3, float, 64, (gemm_volkov<64, 16, 1, 0, 1, SG_CHECK_V3>(SG_ARGS)))
SG_KERNEL(sgemm_13_method6, float, 64, (gemm_volkov<64, 16, 2, 0, 1, SG_CHECK_V3>(SG_ARGS)))
SG_KERNEL(sgemm_14_method7, float, 64, (gemm_volkov<64, 16, 2, 1, 1, SG_CHECK_V3>(SG_ARGS)))
SG_KERNEL(sgemm_15_method8, float, 64, (gemm_volkov<64, 20, 2, 0, 1, SG_CHECK_V3>(SG_ARGS)))
SG_KERNEL(sgemm_16_k3, float, 128, (gemm_tile<float, 64, 16, 8, 16, true>(SG_ARGS)))
SG_KERNEL(sgemm_17_p4_tile, float, 256, p4_tile(SG_ARGS_RM))
SG_KERNEL(sgemm_18_p4_smem_rowsplit, float, 256, (p4_smem<false, false, false, false>::run(SG_ARGS_RM)))
SG_KERNEL(sgemm_19_p4_smem, float, 256, (p4_smem<false, true, false, false>::run(SG_ARGS_RM)))
SG_KERNEL(sgemm_20_p4_cola, float, 256, (p4_smem<true, false, false, false>::run(SG_ARGS_RM)))
SG_KERNEL(sgemm_21_p4_fragdb, float, 256, (p4_smem<true, false, true, false>::run(SG_ARGS_RM)))
SG_KERNEL(sgemm_22_p4_smemdb, float, 256, (p4_smem<true, false, true, true>::run(SG_ARGS_RM)))
SG_KERNEL(sgemm_23_k1_8x8, float, 256, (gemm_k1<8, 8, 2, true, true, true>(SG_ARGS)))
SG_KERNEL(sgemm_24_k1_12x12_base, float, 256, (gemm_k1<12, 4, 2, false, false, true>(SG_ARGS)))
SG_KERNEL(sgemm_25_k1_12x12_ld128, float, 256, (gemm_k1<12, 4, 2, true, false, true>(SG_ARGS)))
SG_KERNEL(sgemm_26_k1_12x12, float, 256, (gemm_k1<12, 4, 2, true, true, true>(SG_ARGS)))
SG_KERNEL(sgemm_27_k1_12x12_lds128, float, 256, (gemm_k1<12, 4, 4, true, true, true>(SG_ARGS)))
SG_KERNEL(sgemm_28_k1_12x12_nordb, float, 256, (gemm_k1<12, 4, 4, true, true, false>(SG_ARGS)))
SG_KERNEL2(sgemm_29_warptile, float, 256, 2, (gemm_warp<128, 128, 8, 8, 8, 0>::run(SG_ARGS)))
SG_KERNEL2(sgemm_30_cpasync3, float, 256, 2, (gemm_warp<128, 128, 8, 8, 8, 3>::run(SG_ARGS)))
SG_KERNEL2(sgemm_31_cpasync4_bk16, float, 256, 2, (gemm_warp<128, 128, 16, 8, 8, 4>::run(SG_ARGS)))
SG_KERNEL2(sgemm_32_cpasync3_128x256, float, 256, 1, (gemm_warp<128, 256, 8, 8, 16, 3>::run(SG_ARGS)))
/* Candidates past cuBLAS (issue 6): gemm_warp register-staged with other tiles; gemm_pipe. */
SG_KERNEL2(sgemm_33_fragpipe, float, 256, 2, (gemm_pipe<128, 128, 8, 8, 8, 0>::run(SG_ARGS)))
SG_KERNEL2(sgemm_34_fragpipe_bk16, float, 256, 2, (gemm_pipe<128, 128, 16, 8, 8, 0>::run(SG_ARGS)))
SG_KERNEL2(sgemm_35_regstage_128x256, float, 256, 1, (gemm_warp<128, 256, 8, 8, 16, 0>::run(SG_ARGS)))
SG_KERNEL2(sgemm_36_regstage_256x128, float, 256, 1, (gemm_warp<256, 128, 8, 16, 8, 0>::run(SG_ARGS)))
SG_KERNEL2(sgemm_37_fragpipe_128x256, float, 256, 1, (gemm_pipe<128, 256, 8, 8, 16, 0>::run(SG_ARGS)))
SG_KERNEL2(sgemm_38_fragpipe_128x256_bk16, float, 256, 1, (gemm_pipe<128, 256, 16, 8, 16, 0>::run(SG_ARGS)))
SG_KERNEL2(sgemm_39_cp16_kmajor3, float, 256, 2, (gemm_pipe<128, 128, 8, 8, 8, 3>::run(SG_ARGS)))
SG_KERNEL2(sgemm_40_cp16_kmajor4_128x256, float, 256, 1, (gemm_pipe<128, 256, 8, 8, 16, 4>::run(SG_ARGS)))
/* Past the FFMA ceiling: FP32-accurate 3xTF32 on the tensor cores (sm_80+). */
SG_KERNEL2(sgemm_41_tc3xtf32, float, 256, 1, (gemm_tc3<128, 128, 32, 64, 32, 3, 4>::run(SG_ARGS)))
SG_KERNEL2(sgemm_42_tc3xtf32_4stage, float, 256, 1, (gemm_tc3<128, 128, 32, 64, 32, 4, 1>::run(SG_ARGS)))
SG_KERNEL2(sgemm_43_tc3xtf32_128x256, float, 256, 1, (gemm_tc3<128, 256, 16, 64, 64, 4, 1>::run(SG_ARGS)))
SG_KERNEL2(sgemm_44_tc3xtf32_bk16, float, 256, 1, (gemm_tc3<128, 128, 16, 64, 32, 4, 2>::run(SG_ARGS)))

/* Seed 003 in double, as the seed ran it: its development steps and the final 64 x 64 kernel in
 * every block geometry of Figure 2 (TW 16) and the TW sweep of Figure 1; _c = bound-checked. */
SG_KERNEL(dgemm_01_naive, double, 256, gemm_naive<double>(SG_ARGS))
SG_KERNEL(dgemm_02_smem16, double, 256, (gemm_tile<double, 16, 16, 16, 16, true>(SG_ARGS)))
SG_KERNEL(dgemm_03_smem32, double, 1024, (gemm_tile<double, 32, 32, 32, 32, true>(SG_ARGS)))
SG_KERNEL(dgemm_04_ilp4, double, 256, (gemm_tile<double, 32, 32, 8, 32, true>(SG_ARGS)))
SG_KERNEL(dgemm_05_k3_16x16, double, 256, (gemm_tile<double, 64, 16, 16, 16, false>(SG_ARGS)))
SG_KERNEL(dgemm_05_k3_16x8, double, 128, (gemm_tile<double, 64, 16, 8, 16, false>(SG_ARGS)))
SG_KERNEL(dgemm_05_k3_8x8, double, 64, (gemm_tile<double, 64, 8, 8, 16, false>(SG_ARGS)))
SG_KERNEL(dgemm_05_k3_8x4, double, 32, (gemm_tile<double, 64, 8, 4, 16, false>(SG_ARGS)))
SG_KERNEL(dgemm_05_k3_4x4, double, 16, (gemm_tile<double, 64, 4, 4, 16, false>(SG_ARGS)))
SG_KERNEL(dgemm_05_k3_16x16_tw8, double, 256, (gemm_tile<double, 64, 16, 16, 8, false>(SG_ARGS)))
SG_KERNEL(dgemm_05_k3_16x16_tw32, double, 256, (gemm_tile<double, 64, 16, 16, 32, false>(SG_ARGS)))
SG_KERNEL(dgemm_05_k3_16x8_tw8, double, 128, (gemm_tile<double, 64, 16, 8, 8, false>(SG_ARGS)))
SG_KERNEL(dgemm_05_k3_16x8_tw32, double, 128, (gemm_tile<double, 64, 16, 8, 32, false>(SG_ARGS)))
SG_KERNEL(dgemm_06_k3_16x16_c, double, 256, (gemm_tile<double, 64, 16, 16, 16, true>(SG_ARGS)))
SG_KERNEL(dgemm_06_k3_16x8_c, double, 128, (gemm_tile<double, 64, 16, 8, 16, true>(SG_ARGS)))
