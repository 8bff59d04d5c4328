/* sgemm_tmaffma_90a.cu — an FFMA-only SGEMM fed by TMA (issue 20 item 2's kernel): the warps that
 * multiply issue nothing but shared loads and FFMAs in their loop. The kernels are bench/
 * sgemm.list's lines with image sgemm_tmaffma_90a; each takes the list's arguments and two TMA
 * tensor maps (bench/sgemm_tma.c, the FFMA layout). Built for sm_90a with the other TMA kernels
 * (the TMA itself is sm_90's); elsewhere the host makes its rows n/a.
 *
 * Why (README, "The SASS layer's FFMA kernel"): Nsight Compute put the register-staged kernels'
 * lost issue slots at the block barrier of every 8-k tile, at the STS of the staged tile waiting
 * for its LDG, and at the address arithmetic around them. Here:
 * - lane 0 of warp 0 loads A (BM x BK, m contiguous as it lies in memory: the sA[k][m] layout the
 *   fragment reads want, no swizzle) and B (BK k x BN, k contiguous, 128-byte swizzle) by TMA into a
 *   STAGES-deep ring; full[s] completes on the bytes, empty[s] when all warps have read the stage;
 *   it refills the slot of stage t - 1 after its own warp computed stage t, so two stages are in
 *   flight ahead of the one being read and no warp waits for a slower one but through the ring;
 * - no block barrier in the loop, no global load, no store to shared memory: a warp waits only
 *   for its stage's bytes;
 * - B stays k-major: a lane reads 4 k of one column with one LDS.128 (TN of them per 4 k steps,
 *   as many as an n-major tile would need) and A one LDS.128 of 4 rows per k step. The lane's
 *   columns are ln + 4 j (interleaved, not 4 consecutive): the 4 column groups of a warp then fall
 *   on 4 consecutive 128-byte rows, whose 16-byte chunk kq lies at kq ^ (row % 8), 4 distinct
 *   chunks, so the B reads are conflict-free; A's 8 distinct float4 per k step are one 128-byte row.
 * Tile BM x BN x 32, warps of 8 x 4 lanes, each lane TM x TN of C (sgemm_tmaffma.h's map). The TMA fills rows and columns past m, n, k with zeros, so any size
 * runs; C's stores are guarded at the edges. */
#include <cuda.h>

#include "sgemm.cuh"
#include "mbarrier.cuh"

namespace sgf {

__device__ __forceinline__ float comp(const float4 &v, int i)
{
	return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

} // namespace sgf

/* RB: the FFMAs of a k step run column by column (one B value for TM FFMAs in a row, its reuse
 * flag set; 2: the odd columns bottom up, so a column's first FFMA reads the A value its
 * predecessor read and takes it from the reuse cache too), else (0) row by row (one A value for
 * TN FFMAs). SPLIT: B's k-quads of 4 k steps are loaded in SPLIT groups of columns (A's
 * fragments of those 4 steps kept meanwhile): fewer registers held at once, room for ptxas to
 * load ahead. */
template <int BM, int BN, int TM, int TN, int STAGES, int RB, int SPLIT, int DYN> struct gemm_tmaffma {
	static constexpr int BK = SGF_BK;
	static constexpr int WM = 8 * TM, WN = 4 * TN, NWM = BM / WM, NWN = BN / WN, NWARPS = NWM * NWN;
	static constexpr int A_BYTES = BM * BK * 4, B_BYTES = BN * BK * 4, STAGE_BYTES = A_BYTES + B_BYTES;
	static constexpr int OFF_B = STAGES * A_BYTES, OFF_BAR = STAGES * STAGE_BYTES;
	/* full[STAGES], empty[STAGES]; 1024 bytes of slack to align B's swizzle atoms. */
	static constexpr int SMEM = 1024 + OFF_BAR + 16 * STAGES;
	static_assert(SMEM == DYN, "the list line's dynamic shared memory (SG_TF_SMEM) is this layout");
	static_assert(BK == 32, "B's rows are one 128-byte swizzle row of k");
	static_assert(BM <= 256 && BN <= 256, "one TMA box per operand and stage");
	static_assert(BM % WM == 0 && BN % WN == 0 && TM % 4 == 0 && WN % 8 == 0 && STAGES >= 3 && TN % SPLIT == 0, "tile");

	static __device__ __forceinline__ void run(GEMM_ARGS(float), const CUtensorMap *ta, const CUtensorMap *tb)
	{
#if __CUDA_ARCH__ >= 900
		extern __shared__ __align__(1024) unsigned char sgf_smem[];
		const unsigned raw = smem_addr(sgf_smem), base = (raw + 1023) & ~1023u;
		const unsigned full = base + OFF_BAR, empty = full + 8 * STAGES;
		const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32, lm = lane % 8, ln = lane / 8;
		const int wm0 = (warp % NWM) * WM, wn0 = (warp / NWM) * WN;
		const int tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN, ktiles = (k + BK - 1) / BK;
		int tm, tn;

		sg_swizzle(blockIdx.x, tiles_m, tiles_n, 8, &tm, &tn);
		const int m0 = tm * BM, n0 = tn * BN;
		auto load = [&](int t) {
			const int s = t % STAGES;
			mbar_expect_tx(full + 8 * s, STAGE_BYTES);
			tma_load_2d(base + s * A_BYTES, ta, m0, t * BK, full + 8 * s);
			tma_load_2d(base + OFF_B + s * B_BYTES, tb, t * BK, n0, full + 8 * s);
		};
		if (tid == 0) {
			for (int s = 0; s < STAGES; s++) {
				mbar_init(full + 8 * s, 1);
				mbar_init(empty + 8 * s, NWARPS);
			}
			asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
			asm volatile("prefetch.tensormap [%0];" ::"l"(ta) : "memory");
			asm volatile("prefetch.tensormap [%0];" ::"l"(tb) : "memory");
		}
		__syncthreads();
		if (tid == 0)
			for (int t = 0; t < STAGES && t < ktiles; t++)
				load(t);

		float acc[TM][TN];
#pragma unroll
		for (int i = 0; i < TM; i++)
#pragma unroll
			for (int j = 0; j < TN; j++)
				acc[i][j] = 0.f;
		/* This lane's A words (row wm0 + 4 lm of k row 0) and B rows (column wn0 + ln, chunk
		 * 0 after the swizzle; column + 4 j flips chunk bit 2 for odd j), stage 0. */
		const unsigned a0 = base + 4u * (wm0 + 4 * lm);
		const unsigned b0 = (base + OFF_B + 128u * (wn0 + ln)) ^ (16u * ln);

		for (int t = 0; t < ktiles; t++) {
			const int s = t % STAGES;
			const unsigned as = a0 + s * A_BYTES, bs = b0 + s * B_BYTES;
			mbar_wait(full + 8 * s, (t / STAGES) & 1);
#pragma unroll
			for (int kq = 0; kq < BK / 4; kq++) {
				float4 fa[4][TM / 4];
#pragma unroll
				for (int h = 0; h < SPLIT; h++) {
					float4 bq[TN / SPLIT];
#pragma unroll
					for (int jj = 0; jj < TN / SPLIT; jj++) {
						const int j = h * (TN / SPLIT) + jj;
						bq[jj] = lds4((bs ^ (16u * kq) ^ (64u * (j & 1))) + 512u * j);
					}
#pragma unroll
					for (int b = 0; b < 4; b++) {
						if (h == 0)
#pragma unroll
							for (int i = 0; i < TM / 4; i++)
								fa[b][i] = lds4(as + 4u * ((4 * kq + b) * BM + 32 * i));
#pragma unroll
						for (int x = 0; x < TM * TN / SPLIT; x++) {
							const int r0 = RB ? x % TM : x / (TN / SPLIT);
							const int r = RB == 2 && x / TM % 2 ? TM - 1 - r0 : r0;
							const int jj = RB ? x / TM : x % (TN / SPLIT), j = h * (TN / SPLIT) + jj;
							acc[r][j] = fmaf(sgf::comp(fa[b][r / 4], r % 4), sgf::comp(bq[jj], b), acc[r][j]);
						}
					}
				}
			}
			__syncwarp();
			if (lane == 0)
				mbar_arrive(empty + 8 * s);
			/* The slot of stage t - 1, once every warp has read it, takes stage t - 1 + STAGES. */
			if (tid == 0 && t >= 1 && t - 1 + STAGES < ktiles) {
				mbar_wait(empty + 8 * ((t - 1) % STAGES), ((t - 1) / STAGES) & 1);
				load(t - 1 + STAGES);
			}
		}

		/* C: 4 rows of one column per float4 where the whole tile lies inside m x n. */
		const bool inside = m0 + BM <= m && n0 + BN <= n;
#pragma unroll
		for (int i = 0; i < TM / 4; i++)
#pragma unroll
			for (int j = 0; j < TN; j++) {
				const int row = m0 + sgf_row(BM, TM, warp, lane, i, 0), col = n0 + sgf_col(BM, TM, TN, warp, lane, j);
				float *c = C + row + (size_t)col * ldc;
				if (inside)
#pragma unroll
					for (int q = 0; q < 4; q++)
						c[q] = acc[4 * i + q][j];
				else if (col < n)
#pragma unroll
					for (int q = 0; q < 4; q++)
						if (row + q < m)
							c[q] = acc[4 * i + q][j];
			}
#else
		__trap(); /* TMA needs sm_90: the host never launches it elsewhere */
#endif
	}
};

/* The list's lines of this image, each a kernel with the two tensor maps (sgemm.cuh's SG_VARIANT_TMA). */
#pragma push_macro("SG_VARIANT")
#undef SG_VARIANT
#define SG_VARIANT SG_VARIANT_TMA
#undef SG_IMAGE_sgemm_tmaffma_90a
#define SG_IMAGE_sgemm_tmaffma_90a(x) x
#include "sgemm.list"
#undef SG_IMAGE_sgemm_tmaffma_90a
#define SG_IMAGE_sgemm_tmaffma_90a(x)
#pragma pop_macro("SG_VARIANT")
