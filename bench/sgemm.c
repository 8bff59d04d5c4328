/* sgemm.c — the GEMM ladder as probes: sgemm, sgemm_shapes, sgemm_occupancy, sgemm_lda, dgemm
 * (variants in bench/sgemm.list, inputs and reference in sgemm_case.c, reports in sgemm_report.c).
 *
 * A point uploads its problem's inputs into its own buffers and poisons the output with NaN; the
 * harness times batches of launches (each batch >= 2 ms: small problems are otherwise
 * launch-latency bound and the event resolution coarse), then an FFMA kernel on every SM samples
 * the clock the GEMM left the SMs at, and the output is checked against cuBLAS's result and the
 * exact dot products. The problem's cuBLAS time, which every row is compared with, is measured
 * once a problem by the harness too (the cuBLAS row itself, or a baseline probe run from setup).
 * Pitfall: kernels live in several modules (the list's image field). */
#include "gp.h"
#include "blas.h"
#include "experiment.h"
#include "measure.h"
#include "sgemm.h"
#include "sgemm_case.h"
#include "sgemm_patch.h"
#include "sgemm_tma.h"

#include <math.h>
#include <string.h>

#define BATCH_MS 2.0
#define MAX_BATCH 1000
#define SMEM_RESERVED_PER_BLOCK 1024 /* system shared memory per block (sm_80+) */

/* The list's image field: bench/<image>.cu, embedded by the Makefile as gp_image_bench_<image>. */
extern const unsigned char gp_image_bench_sgemm_volkov[], gp_image_bench_sgemm_regblock[],
	gp_image_bench_sgemm_warp[], gp_image_bench_sgemm_tc3[], gp_image_bench_sgemm_wgmma_90a[], gp_image_bench_sgemm_tmaffma_90a[],
	gp_image_bench_dgemm[],
	gp_image_bench_sgemm_clock[];
#define SG_IMAGE_none NULL
#define SG_IMAGE_sgemm_volkov gp_image_bench_sgemm_volkov
#define SG_IMAGE_sgemm_regblock gp_image_bench_sgemm_regblock
#define SG_IMAGE_sgemm_warp gp_image_bench_sgemm_warp
#define SG_IMAGE_sgemm_tc3 gp_image_bench_sgemm_tc3
#define SG_IMAGE_sgemm_wgmma_90a gp_image_bench_sgemm_wgmma_90a
#define SG_IMAGE_sgemm_tmaffma_90a gp_image_bench_sgemm_tmaffma_90a
#define SG_IMAGE_dgemm gp_image_bench_dgemm
#define SG_IMAGE_ffma_patch NULL /* sgemm_patch.c builds the module */
#define SG_VARIANT(name, T, image, ...) SG_IMAGE_##image,
static const unsigned char *const sg_images[] = {
#include "sgemm.list"
};
#undef SG_VARIANT

const unsigned char *sg_variant_image(const struct sg_variant *v)
{
	const size_t i = (size_t)(v - sg_variants);

	return i < GP_ARRAY_SIZE(sg_images) ? sg_images[i] : NULL;
}

/* The problem of a point: C (m x n) = A (m x k) B (k x n) with leading dimensions. */
struct sg_spec {
	int m, n, k, lda, ldb, ldc;
	int target_threads; /* > 0: reserve shared memory so only this many threads fit per SM */
};

struct sg_ctx {
	const struct sg_variant *v;
	struct sg_spec s;
	struct sg_case *cs;
	CUdeviceptr A, B, C;
	const void *hC;
	struct sg_clock clock;
	struct sg_tma_maps tma; /* SG_K_TMA: A's and B's tensor maps, kernel arguments 10 and 11 */
};

/* ---------------------------------------------------------------- the cuBLAS baseline's time */

/* cuBLAS on the point's buffers, timed by the harness as a kernel is (gp_meas_batch_ms): the
 * problem's baseline for cublas_gflops and ratio_to_cublas, when a kernel's point comes before the
 * cuBLAS row. */
static int baseline_launch(const void *arg)
{
	const struct sg_ctx *c = arg;

	return sg_case_blas(c->cs, c->A, c->B, c->C);
}

/* ---------------------------------------------------------------- setup */

/* Every column a row has, as a row that measured nothing has it. */
static void put_defaults(struct gp_meas *m, const struct sg_ctx *c)
{
	static const char *const zero[] = { "threads_per_block", "regs_per_thread", "static_smem_bytes",
		"dyn_smem_bytes", "local_bytes", "blocks_per_sm", "active_threads_per_sm", "launches_per_rep" };
	static const char *const none[] = { "gflops", "peak_gflops", "pct_of_peak", "cublas_gflops",
		"ratio_to_cublas", "rel_err", "ref_err", "fp64_err", "ceiling_gflops", "sass_conflicts_per_ffma",
		"sass_reuse_share", "sass_ffma_share" };
	const struct sg_spec *s = &c->s;

	for (size_t i = 0; i < GP_ARRAY_SIZE(zero); i++)
		gp_meas_int(m, zero[i], 0);
	for (size_t i = 0; i < GP_ARRAY_SIZE(none); i++)
		gp_meas_num(m, none[i], NAN);
	gp_meas_str(m, "seed_kernel", c->v->seed);
	gp_meas_str(m, "precision", c->v->elem == 8 ? "double" : "single");
	gp_meas_int(m, "m", s->m);
	gp_meas_int(m, "n", s->n);
	gp_meas_int(m, "k", s->k);
	gp_meas_int(m, "lda", s->lda);
	gp_meas_int(m, "ldb", s->ldb);
	gp_meas_int(m, "ldc", s->ldc);
	gp_meas_num(m, "err_bound", sg_err_bound(s->k, c->v->elem));
	gp_meas_str(m, "pipe", sg_pipe_name(c->v->pipe));
	gp_meas_str(m, "math_mode", GP_BLAS_MATH_MODE);
}

/* The point's buffers with the problem's inputs; its reference and cuBLAS time once a problem. */
static int inputs(struct gp_meas *m, struct sg_ctx *c)
{
	const struct sg_spec *s = &c->s;
	const int elem = c->v->elem;
	struct sg_case *cs = c->cs = sg_case_get(s->m, s->n, s->k, s->lda, s->ldb, s->ldc, elem);
	char why[256];
	int rc;

	if (!cs)
		return GP_EFAIL;
	if ((rc = gp_blas_load(why, sizeof why))) {
		gp_err("%s", why);
		return rc;
	}
	if ((rc = gp_meas_buf(m, &c->A, cs->na * elem, GP_NO_POISON)) ||
	    (rc = gp_meas_buf(m, &c->B, cs->nb * elem, GP_NO_POISON)) ||
	    (rc = gp_meas_buf(m, &c->C, cs->nc * elem, GP_POISON_NAN)) ||
	    (rc = gp_meas_upload(m, c->A, cs->hA, cs->na * elem)) || (rc = gp_meas_upload(m, c->B, cs->hB, cs->nb * elem)) ||
	    (rc = sg_case_reference(cs, c->A, c->B, c->C)))
		return rc;
	if (c->v->kind != SG_K_CUBLAS && isnan(cs->blas_ms) &&
	    (rc = gp_meas_batch_ms(m, baseline_launch, c, BATCH_MS, MAX_BATCH, &cs->blas_ms)))
		return rc;
	c->hC = gp_meas_readback(m, c->C, cs->nc * elem, GP_LAST_REP);
	gp_meas_num(m, "ref_err", cs->ref_err);
	gp_meas_num(m, "cublas_gflops", sg_gflops(s->m, s->n, s->k, cs->blas_ms));
	return 0;
}

/* Dynamic shared memory that leaves room for exactly target_threads per SM; -1 if none does. */
static long reserve(const struct gp_meas *m, const struct sg_ctx *c, int static_smem, int threads)
{
	const int blocks = c->s.target_threads / threads;

	if (blocks * threads != c->s.target_threads)
		return -1;
	return sg_reserve_smem(blocks, static_smem + c->v->dyn_smem, SMEM_RESERVED_PER_BLOCK, m->dev->smem_per_sm,
			       m->dev->smem_per_block_optin);
}

/* Registers, shared memory, spills and resident blocks of the kernel at its launch shape. */
static int resources(struct gp_meas *m, int threads, int dyn)
{
	int regs, st, local, blocks;

	GP_CU(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, m->fn));
	GP_CU(cuFuncGetAttribute(&st, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, m->fn));
	GP_CU(cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, m->fn));
	GP_CU(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, m->fn, threads, (size_t)dyn));
	gp_meas_int(m, "threads_per_block", threads);
	gp_meas_int(m, "regs_per_thread", regs);
	gp_meas_int(m, "static_smem_bytes", st);
	gp_meas_int(m, "dyn_smem_bytes", dyn);
	gp_meas_int(m, "local_bytes", local);
	gp_meas_int(m, "blocks_per_sm", blocks);
	gp_meas_int(m, "active_threads_per_sm", (long long)blocks * threads);
	return 0;
error:
	return GP_ECUDA;
}

/* The kernel's arguments: the problem, and for SG_K_TMA the tensor maps of its A and B. */
static int kernel_args(struct gp_meas *m, struct sg_ctx *c)
{
	CUtensorMap *t = sg_tma_maps_of(&c->tma);
	int rc;

	if (c->v->kind != SG_K_TMA) {
		gp_meas_args(m, &c->s.m, &c->s.n, &c->s.k, &c->A, &c->s.lda, &c->B, &c->s.ldb, &c->C, &c->s.ldc);
		return 0;
	}
	if ((rc = sg_tma_encode(t, c->v, c->s.m, c->s.n, c->s.k, c->A, c->s.lda, c->B, c->s.ldb)))
		return rc;
	gp_meas_args(m, &c->s.m, &c->s.n, &c->s.k, &c->A, &c->s.lda, &c->B, &c->s.ldb, &c->C, &c->s.ldc, &t[0], &t[1]);
	return 0;
}

/* The kernel from its module, its launch and arguments; the occupancy sweep's carveout (the whole
 * shared memory; elsewhere the driver's choice) and reservation. */
static int kernel(struct gp_meas *m, struct sg_ctx *c)
{
	const struct sg_variant *v = c->v;
	unsigned grid[3], block[3];
	int st = 0, rc;
	long dyn = v->dyn_smem;

	sg_launch_dims(v, c->s.m, c->s.n, grid, block);
	if (sg_patch_base(v)) {
		if ((rc = sg_patch_kernel(m, v)) || !gp_meas_ok(m))
			return rc;
	} else if (!sg_variant_image(v)) {
		gp_err("internal: no module for GEMM variant %s", v->name);
		return GP_EFAIL;
	} else if ((rc = gp_kernel(m->dev, sg_variant_image(v), v->name, &m->fn)))
		return rc;
	else if (sg_variant_image(v) == SG_IMAGE_sgemm_warp || sg_variant_image(v) == SG_IMAGE_sgemm_tmaffma_90a)
		sg_sass_columns(m, v->name);
	GP_CU(cuFuncSetAttribute(m->fn, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
				 c->s.target_threads > 0 ? 100 : -1));
	GP_CU(cuFuncGetAttribute(&st, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, m->fn));
	if (c->s.target_threads > 0 && (dyn = reserve(m, c, st, (int)(block[0] * block[1]))) < 0)
		return gp_meas_na(m, "%d threads per SM is not a whole number of blocks that fit", c->s.target_threads);
	if (c->s.target_threads > 0)
		dyn += v->dyn_smem;
	if (dyn > 48 * 1024)
		GP_CU(cuFuncSetAttribute(m->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)dyn));
	gp_meas_launch_2d(m, grid[0], grid[1], block[0], block[1], (unsigned)dyn);
	if ((rc = kernel_args(m, c)))
		return rc;
	return resources(m, (int)(block[0] * block[1] * block[2]), (int)dyn);
error:
	return GP_ECUDA;
}

/* What every experiment's setup does once it knows the problem. */
static int setup_spec(struct gp_meas *m, const char *kernel_name, const struct sg_spec *s)
{
	struct sg_ctx *c = m->ctx;
	const struct gp_device *d = m->dev;
	char why[200];
	int rc;

	c->s = *s;
	if (!(c->v = sg_variant_find(kernel_name))) {
		gp_err("internal: no GEMM variant %s", kernel_name);
		return GP_EFAIL;
	}
	put_defaults(m, c);
	/* A variant whose tile does not divide the problem: n/a where the suite named the kernel;
	 * where the kernel list is the default (every variant), the point is not asked for at all
	 * (no row; the report names the variants left out at each size). */
	if (sg_supports(c->v, s->m, s->n, s->k, s->lda, s->ldb, s->ldc, why, sizeof why))
		return gp_point_given(m->pt, "kernel") ? gp_meas_na(m, "%s", why) : gp_meas_skip(m);
	if (c->v->pipe == SG_TF32X3_MMA && !sg_tf32_flops_per_clk_sm(d->cc_major, d->cc_minor))
		return gp_meas_na(m, "needs TF32 tensor cores (sm_80 or newer), this is sm_%d%d", d->cc_major, d->cc_minor);
	if (c->v->kind == SG_K_TMA && !(d->cc_major == 9 && d->cc_minor == 0))
		return gp_meas_na(m, "needs TMA and the sm_90a image, this is sm_%d%d", d->cc_major, d->cc_minor);
	if ((rc = inputs(m, c)) || (c->v->kind != SG_K_CUBLAS && (rc = kernel(m, c))) || !gp_meas_ok(m))
		return rc;
	if (c->cs->ref_err > sg_err_bound(s->k, c->v->elem)) {
		gp_meas_fail(m, "cuBLAS reference off by %.3g on sampled entries (bound %.3g)", c->cs->ref_err,
			     sg_err_bound(s->k, c->v->elem));
		return 0;
	}
	return sg_clock_setup(m, m->probe->image, &c->clock);
}

/* Packed operands (lda = M, ldb = K, ldc = M): what every experiment but sgemm_lda measures. */
static int setup_packed(struct gp_meas *m, const char *kernel_name, struct sg_spec *s)
{
	s->lda = s->m, s->ldb = s->k, s->ldc = s->m;
	return setup_spec(m, kernel_name, s);
}

/* ---------------------------------------------------------------- the hooks */

/* One GEMM: the kernel as setup declared it, or cuBLAS. */
static int sg_launch(struct gp_meas *m)
{
	const struct sg_ctx *c = m->ctx;

	if (c->v->kind == SG_K_CUBLAS)
		return sg_case_blas(c->cs, c->A, c->B, c->C);
	GP_CU(cuLaunchKernel(m->fn, m->grid, m->grid_y, 1, m->block, m->block_y, 1, m->smem, NULL, m->args, NULL));
	return 0;
error:
	return GP_ECUDA;
}

/* Right after the timed batches: the SM clock under a dense FFMA load on every SM. */
static int sg_after(struct gp_meas *m)
{
	struct sg_ctx *c = m->ctx;

	return sg_clock_launch(m, &c->clock);
}

/* The output against cuBLAS's (the bound of sg_err_bound) and against exact dot products: a
 * float kernel must be as accurate as FP32 done right (cuBLAS pedantic, same entries), not merely
 * close to it; this is what separates an FP32-accurate 3xTF32 split from plain TF32 (~2^-11 per
 * product). The host's double dot products are exact enough only for float (double: recorded). */
static void sg_sample(struct gp_meas *m)
{
	const struct sg_ctx *c = m->ctx;
	const double bound = sg_err_bound(c->s.k, c->v->elem);
	const double err = sg_case_rel_err(c->cs, c->hC), err64 = sg_case_sampled_err(c->cs, c->hC);
	const double ref = c->cs->ref_err;

	gp_meas_num(m, "rel_err", err);
	gp_meas_num(m, "fp64_err", err64);
	if (!(err <= bound))
		gp_meas_fail(m, "wrong result: relative error %.3g above the bound %.3g", err, bound);
	else if (c->v->elem == 4 && !sg_accuracy_ok(err64, ref))
		gp_meas_fail(m, "less accurate than FP32: error %.3g against exact dot products, %.3g x cuBLAS's %.3g (limit %gx)",
			     err64, err64 / ref, ref, SG_ACCURACY_FACTOR);
}

/* Rates against the peak at the measured clock and against cuBLAS; the ceiling of the pipe. The
 * cuBLAS row's own time becomes the problem's baseline for the points after it. */
static void sg_finish(struct gp_meas *m)
{
	struct sg_ctx *c = m->ctx;
	const struct gp_device *d = m->dev;
	const struct sg_spec *s = &c->s;
	const double ms = gp_meas_stat(m, "time_ms", GP_MEDIAN), mhz = gp_meas_mhz(m);
	const double gf = sg_gflops(s->m, s->n, s->k, ms);
	const double ceiling = mhz > 0 ? sg_ceiling_gflops(c->v, d->cc_major, d->cc_minor, d->sms, mhz) : NAN;
	const int lanes = c->v->elem == 8 ? sg_fp64_lanes_per_sm(d->cc_major, d->cc_minor)
					  : gp_fp32_lanes_per_sm(d->cc_major, d->cc_minor);
	const double peak = sg_peak_gflops(lanes, d->sms, mhz);
	double bgf;
	int ok;

	if (c->v->kind == SG_K_CUBLAS && ms > 0)
		c->cs->blas_ms = ms;
	bgf = sg_gflops(s->m, s->n, s->k, c->cs->blas_ms);
	gp_meas_int(m, "launches_per_rep", m->batch);
	gp_meas_ceiling(m, "the GEMM", gf, ceiling, 0.01, "GFLOP/s");
	ok = gp_meas_ok(m);
	gp_meas_num(m, "gflops", ok ? gf : NAN);
	gp_meas_num(m, "peak_gflops", ok && mhz > 0 ? peak : NAN);
	gp_meas_num(m, "pct_of_peak", ok ? 100.0 * gf / peak : NAN);
	gp_meas_num(m, "cublas_gflops", bgf);
	gp_meas_num(m, "ratio_to_cublas", ok ? gf / bgf : NAN);
	gp_meas_num(m, "ceiling_gflops", sg_pipe_has_ceiling(c->v->pipe) ? ceiling : NAN);
}

#define SG_PROBE(setup_)                                                                            \
	{                                                                                          \
		.runner = GP_RUN_BATCH, .image = gp_image_bench_sgemm_clock, .setup = setup_,        \
		.launch = sg_launch, .after = sg_after,                                            \
		.sample = sg_sample, .finish = sg_finish, .primary = "time_ms",                   \
		.ctx_size = sizeof(struct sg_ctx), .batch_ms = BATCH_MS, .max_batch = MAX_BATCH,   \
	}

/* An experiment: its probe (SG_PROBE with its own setup) and the descriptor bench/sgemm.def names. */
#define SG_EXPERIMENT(name, params_, columns_, setup_)                                              \
	static const struct gp_probe name##_probe = SG_PROBE(setup_);                               \
	GP_EXP_PROBE(name, params_, columns_, &name##_probe)

/* ---------------------------------------------------------------- the experiments */

/* The kernel parameters' lists from bench/sgemm.list: every float variant (the sgemm family's
 * choices, and sgemm's default sweep) and every double one (dgemm's), as runs of " name" strings
 * (a list starts one character in). The other sweeps' defaults are picks of the experiment. */
#define SG_FLOAT_float(x) x
#define SG_FLOAT_double(x)
#define SG_DOUBLE_float(x)
#define SG_DOUBLE_double(x) x
#define SG_VARIANT(name, T, ...) SG_FLOAT_##T(" " #name)
static const char sgemm_kernels[] =
#include "sgemm.list"
	;
#undef SG_VARIANT
#define SG_VARIANT(name, T, ...) SG_DOUBLE_##T(" " #name)
static const char dgemm_kernels[] =
#include "sgemm.list"
	;
#undef SG_VARIANT

#define SG_COMMON_COLS                                                                              \
	"kernel", "seed_kernel", "precision", "m", "n", "k", "lda", "ldb", "ldc", "threads_per_block", \
		"regs_per_thread", "static_smem_bytes", "dyn_smem_bytes", "local_bytes", "blocks_per_sm",   \
		"active_threads_per_sm", "launches_per_rep", "reps", "time_ms_min", "time_ms", "time_ms_max", \
		"spread", "gflops", "clock_MHz", "peak_gflops", "pct_of_peak", "cublas_gflops",             \
		"ratio_to_cublas", "rel_err", "err_bound", "ref_err", "fp64_err", "pipe", "ceiling_gflops",  \
		"math_mode", "status"

/* ---- sgemm: square sizes (n = k = 0 mean "= m") and any m x n x k (seed 002: 2560 2560 1024). */

static const struct gp_param sgemm_params[] = {
	{ "m", GP_PARAM_INT, 1, 16384, NULL, "4096", "rows of A and C" },
	{ "n", GP_PARAM_INT, 0, 16384, NULL, "0", "columns of B and C (0: = m)" },
	{ "k", GP_PARAM_INT, 0, 16384, NULL, "0", "columns of A, rows of B (0: = m)" },
	{ "kernel", GP_PARAM_NAME, 0, 0, sgemm_kernels + 1, sgemm_kernels + 1, "ladder variant or cublas" },
};

/* sass_*: the kernel's FFMA register-bank statistics (harness/sass/ffma.h) where its cubin is the
 * embedded sgemm one (the warp-tiling kernels and the patched ones), else nan. */
static const char *const sgemm_cols[] = { SG_COMMON_COLS, "sass_conflicts_per_ffma", "sass_reuse_share",
					  "sass_ffma_share" };

static int sgemm_setup(struct gp_meas *m)
{
	struct sg_spec s = { .m = (int)gp_meas_param(m, "m") };

	s.n = gp_meas_param(m, "n") ? (int)gp_meas_param(m, "n") : s.m;
	s.k = gp_meas_param(m, "k") ? (int)gp_meas_param(m, "k") : s.m;
	return setup_packed(m, gp_meas_param_str(m, "kernel"), &s);
}

SG_EXPERIMENT(sgemm, sgemm_params, sgemm_cols, sgemm_setup);

/* ---- sgemm_shapes: seed 001 Figure 8's rectangular shapes [M, K, N], and seed 002's size. */

static const struct gp_param shapes_params[] = {
	{ "w", GP_PARAM_INT, 1, 4096, NULL, "768", "the unit W (shapes are multiples of W)" },
	{ "shape", GP_PARAM_NAME, 0, 0, "www w2w4w w4ww 4ww4w 4w2ww seed002", "www w2w4w w4ww 4ww4w 4w2ww",
	  "[M,K,N] = [W,W,W] [W,2W,4W] [W,4W,W] [4W,W,4W] [4W,2W,W]; seed002: 2560 x 1024 x 2560 (W ignored)" },
	{ "kernel", GP_PARAM_NAME, 0, 0, sgemm_kernels + 1, "sgemm_23_k1_8x8 sgemm_26_k1_12x12 sgemm_30_cpasync3 cublas",
	  "ladder variant or cublas" },
};

static const char *const shapes_cols[] = { "shape", "w", SG_COMMON_COLS };

static int shapes_setup(struct gp_meas *m)
{
	const char *shape = gp_meas_param_str(m, "shape");
	struct sg_spec s = { 0 };

	if (sg_shape(shape, (int)gp_meas_param(m, "w"), &s.m, &s.k, &s.n)) {
		gp_err("internal: shape %s", shape);
		return GP_EFAIL;
	}
	return setup_packed(m, gp_meas_param_str(m, "kernel"), &s);
}

SG_EXPERIMENT(sgemm_shapes, shapes_params, shapes_cols, shapes_setup);

/* ---- sgemm_occupancy: GFLOP/s against active threads per SM, capped by reserved shared memory. */

static const struct gp_param occ_params[] = {
	{ "m", GP_PARAM_INT, 64, 16384, NULL, "4096", "square size" },
	{ "threads", GP_PARAM_INT, 32, 2048, NULL, "128 192 256 320 384 512 768 1024 1536 2048",
	  "target active threads per SM (whole blocks)" },
	{ "kernel", GP_PARAM_NAME, 0, 0, sgemm_kernels + 1, "sgemm_04_volkov sgemm_06_method1 sgemm_30_cpasync3",
	  "ladder variant" },
};

static const char *const occ_cols[] = { "target_threads_per_sm", SG_COMMON_COLS };

/* cuBLAS picks its own launch: one unreserved row per size. */
static int occ_setup(struct gp_meas *m)
{
	const char *kernel_name = gp_meas_param_str(m, "kernel");
	struct sg_spec s = { .m = (int)gp_meas_param(m, "m") };

	s.n = s.k = s.m;
	s.target_threads = strcmp(kernel_name, "cublas") ? (int)gp_meas_param(m, "threads") : 0;
	gp_meas_int(m, "target_threads_per_sm", s.target_threads);
	return setup_packed(m, kernel_name, &s);
}

SG_EXPERIMENT(sgemm_occupancy, occ_params, occ_cols, occ_setup);

/* ---- sgemm_lda: leading dimensions padded to a multiple of `unit` (seed 000 Figures 42-49). */

static const struct gp_param lda_params[] = {
	{ "m", GP_PARAM_INT, 64, 16384, NULL, "4100 4096", "square size (32k + 4 is the seed's bad case)" },
	{ "unit", GP_PARAM_INT, 1, 256, NULL, "1 4 8 16 32", "lda, ldb, ldc rounded up to a multiple of this" },
	{ "kernel", GP_PARAM_NAME, 0, 0, sgemm_kernels + 1, "sgemm_12_method5_v3 sgemm_13_method6 sgemm_16_k3 cublas",
	  "ladder variant or cublas" },
};

static const char *const lda_cols[] = { "pad_unit", SG_COMMON_COLS };

static int lda_setup(struct gp_meas *m)
{
	struct sg_spec s = { .m = (int)gp_meas_param(m, "m") };
	const int unit = (int)gp_meas_param(m, "unit");

	s.n = s.k = s.m;
	s.lda = s.ldb = s.ldc = (int)sg_round_up(s.m, unit);
	gp_meas_int(m, "pad_unit", unit);
	return setup_spec(m, gp_meas_param_str(m, "kernel"), &s);
}

SG_EXPERIMENT(sgemm_lda, lda_params, lda_cols, lda_setup);

/* ---- dgemm: seed 003 in double against cuBLAS DGEMM. */

static const struct gp_param dgemm_params[] = {
	{ "n", GP_PARAM_INT, 1, 16384, NULL, "256 512 1024 2048", "square size" },
	{ "kernel", GP_PARAM_NAME, 0, 0, dgemm_kernels + 1, dgemm_kernels + 1, "seed 003 kernel or cublas_d" },
};

static const char *const dgemm_cols[] = { SG_COMMON_COLS };

static int dgemm_setup(struct gp_meas *m)
{
	struct sg_spec s = { .m = (int)gp_meas_param(m, "n") };

	s.n = s.k = s.m;
	return setup_packed(m, gp_meas_param_str(m, "kernel"), &s);
}

SG_EXPERIMENT(dgemm, dgemm_params, dgemm_cols, dgemm_setup);
