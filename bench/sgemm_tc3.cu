/* sgemm_tc3.cu — past the FFMA ceiling: FP32-accurate GEMM on the TF32 tensor cores (3xTF32,
 * mma.sync, sm_80+; the host never launches it on older GPUs). The kernels are
 * bench/sgemm.list's lines with image sgemm_tc3. */
#include "sgemm.cuh"
#include "sgemm_async.cuh"

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

#undef SG_IMAGE_sgemm_tc3
#define SG_IMAGE_sgemm_tc3(x) x
#include "sgemm.list"
#undef SG_IMAGE_sgemm_tc3
#define SG_IMAGE_sgemm_tc3(x)
