/* sgemm_model.c — the GEMM variant table and the arithmetic the experiments and tests share.
 *
 * The table is the ladder in optimisation order; every kernel's tile, block and size constraints
 * mirror its template arguments in bench/sgemm.cu (a mismatch shows up as a wrong result or a
 * coverage failure in tests/test_sgemm.c). Rates: flops = 2 m n k. Peak = 2 x lanes x SMs x the
 * measured clock. */
#include "device.h"
#include "gp.h"
#include "sgemm.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define V(name, seed, kind, bm, bn, bk, bx, by, na, gap, any, vec4, dyn)                           \
	{ name, seed, kind, 4, bm, bn, bk, bx, by, na, gap, any, vec4, dyn, 0 }
#define D(name, seed, kind, bm, bn, bk, bx, by, any)                                               \
	{ name, seed, kind, 8, bm, bn, bk, bx, by, 1, 0, any, 0, 0, 0 }
/* 3xTF32 tensor-core kernels (gemm_tc3 in sgemm.cu): dynamic shared memory stages x
 * (BK x (BM + 4) + BN x (BK + 8)) floats. */
#define TC_SMEM(st, bm, bn, bk) ((st) * ((bk) * ((bm) + 4) + (bn) * ((bk) + 8)) * 4)
#define TC(name, seed, bm, bn, bk, st) { name, seed, SG_K_WARP, 4, bm, bn, bk, 256, 1, 1, 0, 0, 1, TC_SMEM(st, bm, bn, bk), 1 }
/* Modern kernels' dynamic shared memory: buffers x BK x (BM + BN + 4) floats (sgemm.cu). */
#define WARP_SMEM(nbuf, bm, bn, bk) ((nbuf) * (bk) * ((bm) + (bn) + 4) * 4)
/* gemm_pipe with cp.async: B kept k-major, unpadded: buffers x BK x (BM + BN) floats. */
#define KMAJ_SMEM(nbuf, bm, bn, bk) ((nbuf) * (bk) * ((bm) + (bn)) * 4)

const struct sg_variant sg_variants[] = {
	V("sgemm_01_naive", "seed 003 naive: one thread per element of C", SG_K_NAIVE, 16, 16, 1, 16, 16, 1, 0, 1, 0, 0),
	V("sgemm_02_smem", "CUDA SDK 16x16 shared-memory tile (seed 003 '16*16 block')", SG_K_TILE, 16, 16, 16, 16, 16, 1, 0, 1, 0, 0),
	V("sgemm_03_smem32_ilp4", "seed 003 32x32 tile; 32x8 block; 4 outputs/thread (Table 1)", SG_K_TILE, 32, 32, 32, 32, 8, 1, 0, 1, 0, 0),
	V("sgemm_04_volkov", "seed 000 K0-volkov 64x16x16; b[16][17]", SG_K_VOLKOV, 64, 16, 16, 64, 1, 1, 0, 0, 0, 0),
	V("sgemm_05_volkov_lds128", "seed 000 K0-volkov with b[16][16] (broadcast LDS.128; Hopper extra)", SG_K_VOLKOV, 64, 16, 16, 64, 1, 1, 0, 0, 0, 0),
	V("sgemm_06_method1", "seed 000 K0-method1 128x16x16; 2 A vectors", SG_K_VOLKOV, 128, 16, 16, 64, 1, 2, 0, 0, 0, 0),
	V("sgemm_07_method2", "seed 000 K0-method2 256x24x16; 128 threads", SG_K_VOLKOV, 256, 24, 16, 128, 1, 2, 0, 0, 0, 0),
	V("sgemm_08_method3", "seed 000 K0-method3 128x24x16", SG_K_VOLKOV, 128, 24, 16, 64, 1, 2, 0, 0, 0, 0),
	V("sgemm_09_method4", "seed 000 K0-method4 256x16x16; 4 A vectors", SG_K_VOLKOV, 256, 16, 16, 64, 1, 4, 0, 0, 0, 0),
	V("sgemm_10_method5_v1", "seed 000 K0-method5_v1: check A and B (rolled loop)", SG_K_VOLKOV, 64, 16, 16, 64, 1, 1, 0, 1, 0, 0),
	V("sgemm_11_method5_v2", "seed 000 K0-method5_v2: no check A (allocation slack)", SG_K_VOLKOV, 64, 16, 16, 64, 1, 1, 0, 1, 0, 0),
	V("sgemm_12_method5_v3", "seed 000 K0-method5_v3: A redirected to row m-1", SG_K_VOLKOV, 64, 16, 16, 64, 1, 1, 0, 1, 0, 0),
	V("sgemm_13_method6", "seed 000 K0-method6: method1 + bound check", SG_K_VOLKOV, 128, 16, 16, 64, 1, 2, 0, 1, 0, 0),
	V("sgemm_14_method7", "seed 000 K0-method7: method6; A vectors far apart", SG_K_VOLKOV, 128, 16, 16, 64, 1, 2, 1, 1, 0, 0),
	V("sgemm_15_method8", "seed 000 K0-method8: 128x20x16 + bound check", SG_K_VOLKOV, 128, 20, 16, 64, 1, 2, 0, 1, 0, 0),
	V("sgemm_16_k3", "seed 003 K3-final 64x64x16; 16x8 block; bound-checked", SG_K_TILE, 64, 64, 16, 16, 8, 1, 0, 1, 0, 0),
	V("sgemm_17_p4_tile", "seed 002 K2-1 GEMM tile (float4; no shared memory)", SG_K_P4TILE, 64, 64, 1, 16, 16, 1, 0, 0, 1, 0),
	V("sgemm_18_p4_smem_rowsplit", "seed 002 K2-2 with openmlsys's B split by rows", SG_K_P4, 128, 128, 16, 16, 16, 1, 0, 0, 1, 0),
	V("sgemm_19_p4_smem", "seed 002 K2-2 shared memory; B split by columns", SG_K_P4, 128, 128, 16, 16, 16, 1, 0, 0, 1, 0),
	V("sgemm_20_p4_cola", "seed 002 K2-3 column-major shared A", SG_K_P4, 128, 128, 16, 16, 16, 1, 0, 0, 1, 0),
	V("sgemm_21_p4_fragdb", "seed 002 K2-4 fragment double buffering", SG_K_P4, 128, 128, 16, 16, 16, 1, 0, 0, 1, 0),
	V("sgemm_22_p4_smemdb", "seed 002 K2-5 shared double buffering", SG_K_P4, 128, 128, 16, 16, 16, 1, 0, 0, 1, 0),
	V("sgemm_23_k1_8x8", "seed 001 K1-sgemm-8x8 (LDG.128 nc; LDS.64; double buffers)", SG_K_K1, 128, 128, 8, 256, 1, 1, 0, 0, 1, 0),
	V("sgemm_24_k1_12x12_base", "seed 001 Fig. 9 baseline: 12x12; 32-bit LDG; LDS.64", SG_K_K1, 192, 192, 4, 256, 1, 1, 0, 0, 0, 0),
	V("sgemm_25_k1_12x12_ld128", "seed 001 Fig. 9 +LD128 (128-bit global loads)", SG_K_K1, 192, 192, 4, 256, 1, 1, 0, 0, 1, 0),
	V("sgemm_26_k1_12x12", "seed 001 K1-sgemm-12x12; Fig. 9 +LDG128 (read-only path)", SG_K_K1, 192, 192, 4, 256, 1, 1, 0, 0, 1, 0),
	V("sgemm_27_k1_12x12_lds128", "seed 001 12x12 with LDS.128 fragments (Hopper step)", SG_K_K1, 192, 192, 4, 256, 1, 1, 0, 0, 1, 0),
	V("sgemm_28_k1_12x12_nordb", "seed 001 12x12 LDS.128 without register double buffering (ablation)", SG_K_K1, 192, 192, 4, 256, 1, 1, 0, 0, 1, 0),
	V("sgemm_29_warptile", "modern: warp tiling 128x128x8; 8x8/thread; register-staged double buffer", SG_K_WARP, 128, 128, 8, 256, 1, 1, 0, 0, 1, WARP_SMEM(2, 128, 128, 8)),
	V("sgemm_30_cpasync3", "modern: warp tiling + 3-stage cp.async pipeline", SG_K_WARP, 128, 128, 8, 256, 1, 1, 0, 0, 1, WARP_SMEM(3, 128, 128, 8)),
	V("sgemm_31_cpasync4_bk16", "modern: 4-stage cp.async; K step 16", SG_K_WARP, 128, 128, 16, 256, 1, 1, 0, 0, 1, WARP_SMEM(4, 128, 128, 16)),
	V("sgemm_32_cpasync3_128x256", "modern: 3-stage cp.async; 128x256 tile; 8x16/thread", SG_K_WARP, 128, 256, 8, 256, 1, 1, 0, 0, 1, WARP_SMEM(3, 128, 256, 8)),
	V("sgemm_33_fragpipe", "candidate: 29 with fragments read a k step ahead across tiles; barrier before the last step", SG_K_WARP, 128, 128, 8, 256, 1, 1, 0, 0, 1, WARP_SMEM(2, 128, 128, 8)),
	V("sgemm_34_fragpipe_bk16", "candidate: 33 with K step 16 (half the barriers), staged in two 8-row phases", SG_K_WARP, 128, 128, 16, 256, 1, 1, 0, 0, 1, WARP_SMEM(2, 128, 128, 16)),
	V("sgemm_35_regstage_128x256", "candidate: 29's register staging; 128x256 tile; 8x16/thread; 1 block/SM", SG_K_WARP, 128, 256, 8, 256, 1, 1, 0, 0, 1, WARP_SMEM(2, 128, 256, 8)),
	V("sgemm_36_regstage_256x128", "candidate: 29's register staging; 256x128 tile; 16x8/thread; 1 block/SM", SG_K_WARP, 256, 128, 8, 256, 1, 1, 0, 0, 1, WARP_SMEM(2, 256, 128, 8)),
	V("sgemm_37_fragpipe_128x256", "candidate: 33's pipelined fragments; 128x256 tile; 8x16/thread; 1 block/SM", SG_K_WARP, 128, 256, 8, 256, 1, 1, 0, 0, 1, WARP_SMEM(2, 128, 256, 8)),
	V("sgemm_38_fragpipe_128x256_bk16", "candidate: 37 with K step 16", SG_K_WARP, 128, 256, 16, 256, 1, 1, 0, 0, 1, WARP_SMEM(2, 128, 256, 16)),
	V("sgemm_39_cp16_kmajor3", "candidate: 3-stage cp.async, 16-byte copies for B too (k-major, rows permuted); pipelined fragments", SG_K_WARP, 128, 128, 8, 256, 1, 1, 0, 0, 1, KMAJ_SMEM(3, 128, 128, 8)),
	V("sgemm_40_cp16_kmajor4_128x256", "candidate: 39 with 4 stages; 128x256 tile; 8x16/thread; 1 block/SM", SG_K_WARP, 128, 256, 8, 256, 1, 1, 0, 0, 1, KMAJ_SMEM(4, 128, 256, 8)),
	TC("sgemm_41_tc3xtf32", "past FFMA: 3xTF32 mma.sync on the tensor cores (FP32-accurate split); 128x128x32; 3 stages; FP32 sum per tile", 128, 128, 32, 3),
	TC("sgemm_42_tc3xtf32_4stage", "41 with 4 stages and the FP32 sum per k step of 8", 128, 128, 32, 4),
	TC("sgemm_43_tc3xtf32_128x256", "128x256x16 tile (64x64 per warp), 4 stages, FP32 sum per k step of 8", 128, 256, 16, 4),
	TC("sgemm_44_tc3xtf32_bk16", "41 with K step 16 and 4 stages", 128, 128, 16, 4),
	V("cublas", "cuBLAS cublasSgemm (CUBLAS_PEDANTIC_MATH)", SG_K_CUBLAS, 1, 1, 1, 0, 0, 1, 0, 1, 0, 0),
	D("dgemm_01_naive", "seed 003 naive (double)", SG_K_NAIVE, 16, 16, 1, 16, 16, 1),
	D("dgemm_02_smem16", "seed 003 16*16 block (double)", SG_K_TILE, 16, 16, 16, 16, 16, 1),
	D("dgemm_03_smem32", "seed 003 32*32 block (double)", SG_K_TILE, 32, 32, 32, 32, 32, 1),
	D("dgemm_04_ilp4", "seed 003 32*8 block; 4 outputs ILP (double)", SG_K_TILE, 32, 32, 32, 32, 8, 1),
	D("dgemm_05_k3_16x16", "seed 003 K3-final 64x64; TW 16; 16x16 threads", SG_K_TILE, 64, 64, 16, 16, 16, 0),
	D("dgemm_05_k3_16x8", "seed 003 K3-final 64x64; TW 16; 16x8 threads", SG_K_TILE, 64, 64, 16, 16, 8, 0),
	D("dgemm_05_k3_8x8", "seed 003 K3-final 64x64; TW 16; 8x8 threads", SG_K_TILE, 64, 64, 16, 8, 8, 0),
	D("dgemm_05_k3_8x4", "seed 003 K3-final 64x64; TW 16; 8x4 threads", SG_K_TILE, 64, 64, 16, 8, 4, 0),
	D("dgemm_05_k3_4x4", "seed 003 K3-final 64x64; TW 16; 4x4 threads", SG_K_TILE, 64, 64, 16, 4, 4, 0),
	D("dgemm_05_k3_16x16_tw8", "seed 003 K3-final; TW 8; 16x16 threads", SG_K_TILE, 64, 64, 8, 16, 16, 0),
	D("dgemm_05_k3_16x16_tw32", "seed 003 K3-final; TW 32; 16x16 threads", SG_K_TILE, 64, 64, 32, 16, 16, 0),
	D("dgemm_05_k3_16x8_tw8", "seed 003 K3-final; TW 8; 16x8 threads", SG_K_TILE, 64, 64, 8, 16, 8, 0),
	D("dgemm_05_k3_16x8_tw32", "seed 003 K3-final; TW 32; 16x8 threads", SG_K_TILE, 64, 64, 32, 16, 8, 0),
	D("dgemm_06_k3_16x16_c", "seed 003 K3-final 16x16; bound-checked path", SG_K_TILE, 64, 64, 16, 16, 16, 1),
	D("dgemm_06_k3_16x8_c", "seed 003 K3-final 16x8; bound-checked path", SG_K_TILE, 64, 64, 16, 16, 8, 1),
	{ "cublas_d", "cuBLAS cublasDgemm", SG_K_CUBLAS, 8, 1, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0 },
};
const size_t sg_nvariants = GP_ARRAY_SIZE(sg_variants);

const struct sg_variant *sg_variant_find(const char *name)
{
	for (size_t i = 0; i < sg_nvariants; i++)
		if (!strcmp(sg_variants[i].name, name))
			return &sg_variants[i];
	return NULL;
}

static unsigned cdiv(int a, int b)
{
	return (unsigned)((a + b - 1) / b);
}

void sg_launch_dims(const struct sg_variant *v, int m, int n, unsigned grid[3], unsigned block[3])
{
	grid[0] = grid[1] = grid[2] = block[0] = block[1] = block[2] = 1;
	block[0] = (unsigned)v->bx;
	block[1] = (unsigned)v->by;
	switch (v->kind) {
	case SG_K_NAIVE:
	case SG_K_TILE:
	case SG_K_VOLKOV:
	case SG_K_K1:
		/* x over m (the seed 000 family: nt x na rows per block), y over n */
		grid[0] = cdiv(m, v->bm);
		grid[1] = cdiv(n, v->bn);
		break;
	case SG_K_P4TILE:
	case SG_K_P4:
		/* row-major kernels: blockIdx.x walks N_r = m, blockIdx.y walks M_r = n */
		grid[0] = cdiv(m, v->bm);
		grid[1] = cdiv(n, v->bn);
		break;
	case SG_K_WARP:
		grid[0] = cdiv(m, v->bm) * cdiv(n, v->bn);
		break;
	case SG_K_CUBLAS:
		break;
	}
}

int sg_supports(const struct sg_variant *v, int m, int n, int k, int lda, int ldb, int ldc, char *why, size_t len)
{
	if (m < 1 || n < 1 || k < 1 || lda < m || ldb < k || ldc < m) {
		snprintf(why, len, "bad problem %dx%dx%d (lda %d, ldb %d, ldc %d)", m, n, k, lda, ldb, ldc);
		return -1;
	}
	if (!v->any && (m % v->bm || n % v->bn || k % v->bk)) {
		snprintf(why, len, "needs m %% %d, n %% %d, k %% %d == 0", v->bm, v->bn, v->bk);
		return -1;
	}
	if (v->vec4 && (lda % 4 || ldb % 4 || ldc % 4)) {
		snprintf(why, len, "needs lda, ldb, ldc multiples of 4 (float4 access)");
		return -1;
	}
	if (v->kind == SG_K_WARP && (long)cdiv(m, v->bm) * cdiv(n, v->bn) > 0x7fffffffL) {
		snprintf(why, len, "grid too large");
		return -1;
	}
	return 0;
}

double sg_gflops(double m, double n, double k, double ms)
{
	return ms > 0 ? 2.0 * m * n * k / (ms * 1e-3) / 1e9 : NAN;
}

double sg_peak_gflops(int lanes, int sms, double mhz)
{
	return 2.0 * lanes * sms * mhz * 1e6 / 1e9;
}

int sg_tf32_flops_per_clk_sm(int major, int minor)
{
	/* Dense TF32 tensor throughput per SM per clock from NVIDIA's architecture whitepapers:
	 * A100 156 TFLOP/s (108 SMs, 1410 MHz), GA10x/AD10x a quarter of that per SM, H100 SXM
	 * 495 TFLOP/s (132 SMs, 1830 MHz). mma.sync may reach less than this on sm_90 (wgmma's
	 * rate): a ceiling, not a prediction. */
	if (major == 9 && minor == 0)
		return 2048;
	if (major == 8 && minor == 0)
		return 1024;
	if (major == 8)
		return 256;
	return 0;
}

double sg_ceiling_gflops(const struct sg_variant *v, int major, int minor, int sms, double mhz)
{
	if (v->tc)
		return sg_tf32_flops_per_clk_sm(major, minor) * (double)sms * mhz * 1e6 / 1e9 / 3.0;
	if (v->elem == 8)
		return sg_peak_gflops(sg_fp64_lanes_per_sm(major, minor), sms, mhz);
	return sg_peak_gflops(gp_fp32_lanes_per_sm(major, minor), sms, mhz);
}

int sg_accuracy_ok(double fp64_err, double cublas_fp64_err)
{
	return fp64_err <= SG_ACCURACY_FACTOR * cublas_fp64_err;
}

int sg_fp64_lanes_per_sm(int major, int minor)
{
	/* CUDA C Programming Guide throughput table: full-rate FP64 only on the data-centre parts. */
	if (major == 9 && minor == 0)
		return 64;
	if (major == 8 && minor == 0)
		return 32;
	if (major == 7 && minor == 0)
		return 32;
	if (major == 6 && minor == 0)
		return 32;
	if (major >= 6)
		return 2;
	return 0;
}

/* Why 64 u sqrt(k): each element is a k-term dot product accumulated sequentially in the working
 * precision. With inputs uniform in [-1, 1] the partial sums grow like sqrt(j)/3, each addition
 * rounds with an error of at most u times its result, and independent rounding errors add in
 * quadrature, so one computation's relative error is about u sqrt(k / 2); two computations with
 * different orders (ours, cuBLAS's split or blocked sums) differ by about u sqrt(k). The factor
 * 64 covers the heavy tail and FMA-versus-separate rounding. A single dropped or doubled term of
 * the k changes an element by ~1/sqrt(k) relative to the norm, which stays above the bound for
 * k < 1/(64 u) ~ 260000 in float: every bug of indexing that touches whole terms is caught. */
double sg_err_bound(int k, int elem)
{
	const double u = elem == 8 ? 0x1p-53 : 0x1p-24;

	return 64.0 * u * sqrt(k > 1 ? (double)k : 1.0);
}

#define REL_ERR(T)                                                                                  \
	double num = 0, den = 0;                                                                    \
	for (int j = 0; j < n; j++)                                                                 \
		for (int i = 0; i < m; i++) {                                                       \
			const double d = (double)c[i + (size_t)j * ldc] - (double)r[i + (size_t)j * ldc]; \
			const double x = (double)r[i + (size_t)j * ldc];                            \
			num += d * d;                                                               \
			den += x * x;                                                               \
		}                                                                                   \
	if (isnan(num))                                                                             \
		return NAN;                                                                         \
	return den > 0 ? sqrt(num / den) : sqrt(num);

double sg_rel_err_f(const float *c, const float *r, int m, int n, int ldc)
{
	REL_ERR(float)
}

double sg_rel_err_d(const double *c, const double *r, int m, int n, int ldc)
{
	REL_ERR(double)
}

int sg_blocks_by_smem(int smem_per_block, int reserved, int per_sm)
{
	return per_sm / (smem_per_block + reserved);
}

long sg_reserve_smem(int blocks, int static_smem, int reserved, int per_sm, int max_dyn)
{
	long dyn;

	if (blocks < 1 || sg_blocks_by_smem(static_smem, reserved, per_sm) < blocks)
		return -1;
	/* The largest allocation that still fits `blocks` blocks, rounded down to 128 bytes. */
	dyn = (long)per_sm / blocks - reserved - static_smem;
	dyn -= dyn % 128;
	if (dyn > max_dyn - static_smem)
		dyn = max_dyn - static_smem;
	if (dyn < 0)
		dyn = 0;
	return dyn;
}

int sg_shape(const char *name, int w, int *m, int *k, int *n)
{
	static const struct {
		const char *name;
		int m, k, n;
	} shapes[] = { { "www", 1, 1, 1 }, { "w2w4w", 1, 2, 4 }, { "w4ww", 1, 4, 1 }, { "4ww4w", 4, 1, 4 }, { "4w2ww", 4, 2, 1 } };

	/* Seed 002's one size, whatever W: M = N = 2560, K = 1024. */
	if (!strcmp(name, "seed002")) {
		*m = *n = 2560;
		*k = 1024;
		return 0;
	}
	for (size_t i = 0; i < GP_ARRAY_SIZE(shapes); i++)
		if (!strcmp(shapes[i].name, name)) {
			*m = shapes[i].m * w;
			*k = shapes[i].k * w;
			*n = shapes[i].n * w;
			return 0;
		}
	return -1;
}

long sg_round_up(long x, long u)
{
	return u > 1 ? (x + u - 1) / u * u : x;
}
