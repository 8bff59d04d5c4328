/* sgemm_volkov.cu — the FFMA ladder's first rungs: seed 003's float tiles (naive, the CUDA SDK
 * 16 x 16, 32 x 32 with 4 outputs per thread, the final 64 x 64 x 16 kernel) and seed 000's
 * Volkov kernel and methods 1-8, each re-implemented from its paper's description. The kernels
 * are bench/sgemm.list's lines with image sgemm_volkov.
 * ptx-level: 80 — cicc's compute_80 PTX of these kernels differs from its compute_75 PTX though no
 * guard asks for it (scripts/ptx-levels.sh): sm_80 and newer keep compute_80's. */
#include "sgemm.cuh"
#include "sgemm_tile.cuh"

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

#undef SG_IMAGE_sgemm_volkov
#define SG_IMAGE_sgemm_volkov(x) x
#include "sgemm.list"
#undef SG_IMAGE_sgemm_volkov
#define SG_IMAGE_sgemm_volkov(x)
