/* sgemm_warp.cu — the modern FFMA kernels: warp tiling with a register-staged double buffer or a
 * cp.async pipeline (gemm_warp), and the same tiling with the fragment reads pipelined across
 * tiles and k-major 16-byte copies (gemm_pipe). The 1-D grid is swizzled for L2 reuse
 * (sgemm_map.h). sgemm_29_warptile's SASS feeds the report's Table 5 planner: the Makefile
 * compiles this file to $(SGEMM_CUBIN). The kernels are bench/sgemm.list's lines with image
 * sgemm_warp.
 *
 * No PTX level of its own for sm_90: cicc's compute_90 PTX of these kernels differs from its
 * compute_80 PTX only as two compute_80 (or compute_90) runs differ from each other (cicc numbers
 * the virtual registers of six kernels in one of two ways), and ptxas writes the same sm_90
 * machine code from every one of them (make check-ptx-levels, scripts/ptx-same.sh). */
#include "sgemm.cuh"
#include "sgemm_async.cuh"

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
 * Needs m % BM, n % BN, k % BK == 0 and lda, ldc multiples of 4.
 * SADDR: fragment reads and tile stores through ld/st.shared (lds4, sts4, sts1) with 32-bit
 * shared-window byte offsets computed once before the loop. With generic pointers, ptxas (at the
 * register cap) rebuilds the shared window's base (S2UR SR_CgaCtaId, ULEA) and the tile addresses
 * at the top of every tile, where Nsight Compute finds issue slots lost (README, "The SASS
 * layer's FFMA kernel"). */
template <int BM, int BN, int BK, int TM, int TN, int STAGES, bool SCALAR_C = false, bool SADDR = false>
struct gemm_warp {
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
		/* SADDR: this thread's first A and B fragment words and the tile buffers, as shared-window
		 * byte offsets. */
		const unsigned s0 = (unsigned)__cvta_generic_to_shared(smem);
		const unsigned fa0 = s0 + 4u * (wm0 + lm * 4), fb0 = s0 + 4u * (NBUF * BK * BM + wn0 + ln * 4);
		auto compute = [&](int buf) {
			const float *a = sA + buf * BK * BM, *b = sB + buf * BK * BNP;
#pragma unroll
			for (int kk = 0; kk < BK; kk++) {
				float4 fa[TM / 4], fb[TN / 4];
#pragma unroll
				for (int s = 0; s < TM / 4; s++)
					fa[s] = SADDR ? lds4(fa0 + 4u * (buf * BK * BM + kk * BM + s * 32))
						      : *reinterpret_cast<const float4 *>(a + kk * BM + wm0 + s * 32 + lm * 4);
#pragma unroll
				for (int s = 0; s < TN / 4; s++)
					fb[s] = SADDR ? lds4(fb0 + 4u * (buf * BK * BNP + kk * BNP + s * 16))
						      : *reinterpret_cast<const float4 *>(b + kk * BNP + wn0 + s * 16 + ln * 4);
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
				const unsigned sa = s0 + 4u * buf * BK * BM, sb = s0 + 4u * (NBUF * BK * BM + buf * BK * BNP);
#pragma unroll
				for (int s = 0; s < A4; s++) {
					const int e = tid + s * NTH, r4 = e % (BM / 4), kk = e / (BM / 4);
					if (SADDR)
						sts4(sa + 4u * (kk * BM + r4 * 4), ra[s]);
					else
						st4(a + kk * BM + r4 * 4, ra[s]);
				}
#pragma unroll
				for (int s = 0; s < B4; s++) {
					const int e = tid + s * NTH, q = e % (BK / 4), col = e / (BK / 4);
					if (SADDR) {
						const unsigned p = sb + 4u * (q * 4 * BNP + col);
						sts1(p, rb[s].x);
						sts1(p + 4u * BNP, rb[s].y);
						sts1(p + 8u * BNP, rb[s].z);
						sts1(p + 12u * BNP, rb[s].w);
						continue;
					}
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
				/* acc[s*4 + q][j] holds rows r + q, columns c .. c + 3: store column-wise. With
				 * SCALAR_C one 4-byte store per element, so no accumulator is part of a register
				 * vector and the SASS patcher may give any of them either bank (sgemm_ffma.c). */
				if (SCALAR_C) {
#pragma unroll
					for (int q = 0; q < 4; q++) {
						float *p = cb + r + q + (size_t)c * ldc;
						p[0] = acc[s * 4 + q][j].x;
						p[ldc] = acc[s * 4 + q][j].y;
						p[2 * (size_t)ldc] = acc[s * 4 + q][j].z;
						p[3 * (size_t)ldc] = acc[s * 4 + q][j].w;
					}
					continue;
				}
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

#undef SG_IMAGE_sgemm_warp
#define SG_IMAGE_sgemm_warp(x) x
#include "sgemm.list"
#undef SG_IMAGE_sgemm_warp
#define SG_IMAGE_sgemm_warp(x)
