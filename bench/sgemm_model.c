/* sgemm_model.c — the GEMM variant table and the arithmetic the experiments and tests share.
 *
 * The table is bench/sgemm.list, the ladder in optimisation order; each line's tile, block and
 * size constraints come from its template arguments there (a mismatch with the kernel shows up as
 * a wrong result or a coverage failure in tests/test_sgemm.c). Rates: flops = 2 m n k. Peak =
 * 2 x lanes x SMs x the measured clock. */
#include "device.h"
#include "gp.h"
#include "sgemm.h"
#include "sgemm_fit.h"
#include "sgemm_map.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* bench/sgemm.list, one entry per line, in its order. */
#define SG_VARIANT(name, T, image, call, minb, seed, kind, pipe, bm, bn, bk, bx, by, na, gap, any, vec4, dyn, \
		   model)                                                                               \
	{ #name, seed, kind, pipe, (int)sizeof(T), bm, bn, bk, bx, by, na, gap, any, vec4, dyn },
const struct sg_variant sg_variants[] = {
#include "sgemm.list"
};
#undef SG_VARIANT
GP_TABLE_LOOKUP(struct sg_variant, sg_variants, sg_nvariants, sg_variant_find)

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
	case SG_K_TMA:
		grid[0] = cdiv(m, v->bm) * cdiv(n, v->bn);
		break;
	case SG_K_CUBLAS:
		break;
	}
}

int sg_supports(const struct sg_variant *v, int m, int n, int k, int lda, int ldb, int ldc, char *why, size_t len)
{
	if (sg_fit(v->bm, v->bn, v->bk, v->any, v->vec4, m, n, k, lda, ldb, ldc, why, len))
		return -1;
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
	switch (v->pipe) {
	case SG_TF32X3_MMA: return sg_tf32_flops_per_clk_sm(major, minor) * (double)sms * mhz * 1e6 / 1e9 / 3.0;
	case SG_FP64_FMA: return sg_peak_gflops(sg_fp64_lanes_per_sm(major, minor), sms, mhz);
	case SG_BLAS_FP64: return 2.0 * sg_peak_gflops(sg_fp64_lanes_per_sm(major, minor), sms, mhz);
	case SG_FP32_FMA:
	case SG_BLAS_FP32: break;
	}
	return sg_peak_gflops(gp_fp32_lanes_per_sm(major, minor), sms, mhz);
}

const char *sg_pipe_name(enum sg_pipe p)
{
	switch (p) {
	case SG_FP32_FMA: return "fp32 fma";
	case SG_FP64_FMA: return "fp64 fma";
	case SG_TF32X3_MMA: return "3xtf32 mma";
	case SG_BLAS_FP32:
	case SG_BLAS_FP64: break;
	}
	return "cublas";
}

int sg_pipe_has_ceiling(enum sg_pipe p)
{
	return p != SG_BLAS_FP32 && p != SG_BLAS_FP64;
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

int sg_dist_parse(const char *name)
{
	return !name ? -1 : !strcmp(name, "uniform") ? SG_DIST_UNIFORM : !strcmp(name, "wide") ? SG_DIST_WIDE : -1;
}

double sg_dist_value(enum sg_dist d, uint64_t bits)
{
	if (d == SG_DIST_UNIFORM)
		return (double)(bits >> 40) * 0x1p-23 - 1.0;
	/* bit 0 the sign, bits 1..32 scaled onto the 2 SG_WIDE_EXP + 1 exponents, bits 41..63 the
	 * fraction */
	const int e = (int)((((bits >> 1) & 0xffffffffu) * (2 * SG_WIDE_EXP + 1)) >> 32) - SG_WIDE_EXP;
	const double v = ldexp(1.0 + (double)(bits >> 41) * 0x1p-23, e);
	return bits & 1 ? -v : v;
}

static int cmp_double(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void sg_sample_errors(const float *c, const double *ref, const double *mag, size_t n, struct sg_err *out)
{
	double *e = n ? malloc(n * sizeof *e) : NULL, num = 0, den = 0;

	*out = (struct sg_err){ NAN, NAN, NAN };
	if (!e)
		return;
	for (size_t i = 0; i < n; i++) {
		const double d = (double)c[i] - ref[i];
		if (!isfinite(c[i])) {
			free(e);
			return;
		}
		e[i] = mag[i] > 0 ? fabs(d) / mag[i] : 0;
		num += d * d;
		den += ref[i] * ref[i];
	}
	qsort(e, n, sizeof *e, cmp_double);
	out->max = e[n - 1];
	out->median = n % 2 ? e[n / 2] : 0.5 * (e[n / 2 - 1] + e[n / 2]);
	out->fro = den > 0 ? sqrt(num / den) : sqrt(num);
	free(e);
}
