/* sgemm_regblock.cu — the FFMA ladder's register-blocked rungs: seed 002's five float4 kernels
 * and seed 001's 8x8 / 12x12 kernels with its Figure 9 steps, each re-implemented from its
 * paper's description. Pitfall: the seed 002 kernels are row-major in the paper; a row-major
 * C = A B is the column-major C^T = B^T A^T on the same bytes, so they are called with A and B
 * swapped (SG_ARGS_RM). The kernels are bench/sgemm.list's lines with image sgemm_regblock. */
#include "sgemm.cuh"

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

#undef SG_IMAGE_sgemm_regblock
#define SG_IMAGE_sgemm_regblock(x) x
#include "sgemm.list"
#undef SG_IMAGE_sgemm_regblock
#define SG_IMAGE_sgemm_regblock(x)
