/* sgemm_tile.cuh — seed 003's kernels, shared by the float ladder (sgemm_volkov.cu) and the double
 * sweep (dgemm.cu): the naive one-thread-per-element kernel and the shared-memory tile template.
 * Both take any m, n, k when bound-checked; the tile indices are sgemm_map.h's, so
 * tests/test_sgemm.c walks the same map on the host. */
#ifndef SG_TILE_CUH
#define SG_TILE_CUH

#include "sgemm.cuh"

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


#endif
