/* sgemm_modes.c — cuBLAS SGEMM in each of its FP32 compute modes, side by side (the list in
 * harness/blas.h: pedantic FP32, the baseline of every GEMM bench; CUBLAS_COMPUTE_32F; FAST_TF32;
 * the BF16x9 emulation under the default and the eager strategy). A point is one square size, one
 * input distribution (sgemm.h: uniform in [-1, 1), or wide exponents 2^-20 .. 2^20) and one mode:
 * timed batches as sgemm's, the FFMA clock kernel after them, then the result against FP64 dot
 * products on the host over 64 random rows x 64 random columns (sg_sample_errors: per entry
 * |c - r| / sum |a b|, its max and median, and the Frobenius measure the ladder bounds) and
 * against pedantic's own result on the same inputs, bit for bit: an emulation that is not used
 * leaves pedantic's bits. A mode is held to the fastest datapath it may use. Pitfall: the inputs,
 * the samples and pedantic's result live across the points of one (size, distribution) while the
 * sweep turns the mode fastest; the device buffers do not. Report: sgemm_modes_report.c. */
#include "gp.h"
#include "blas.h"
#include "experiment.h"
#include "measure.h"
#include "sgemm.h"
#include "sgemm_case.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BATCH_MS 2.0
#define MAX_BATCH 1000
#define SROWS 64
#define SCOLS 64
#define NSAMP (SROWS * SCOLS)

extern const unsigned char gp_image_bench_sgemm_clock[];

/* One (size, distribution): the host inputs (m x m, column-major), the sampled rows and columns,
 * their FP64 dot products and magnitudes, pedantic's result there and its median time. */
static struct {
	int m, dist;
	float *hA, *hB;
	int rows[SROWS], cols[SCOLS];
	double ref[NSAMP], mag[NSAMP];
	float ped[NSAMP];
	int ped_ready;
	double ped_ms; /* NaN until measured */
} mc;

struct mpoint {
	enum gp_blas_mode mode;
	int m;
	CUdeviceptr A, B, C;
	const float *hC;
	struct sg_clock clock;
};

/* ---------------------------------------------------------------- inputs and reference */

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Row i of A (k long) against column j of B: the dot product and sum |a b| in FP64. */
static void dot(const double *arow, const float *bcol, int k, double *ref, double *mag)
{
	double s = 0, a = 0;

	for (int l = 0; l < k; l++) {
		const double p = arow[l] * (double)bcol[l];
		s += p;
		a += fabs(p);
	}
	*ref = s, *mag = a;
}

/* The sampled rows and columns and their reference (FP64 products of floats are exact; the sums
 * of 64-bit doubles are far inside the FP32 errors measured). */
static int reference(int m)
{
	uint64_t s = 0x5eed5eedull + (uint64_t)m;
	double *arow = malloc((size_t)m * sizeof *arow);

	if (!arow)
		return gp_err("out of memory for a row of %d", m), GP_EFAIL;
	for (int r = 0; r < SROWS; r++)
		mc.rows[r] = (int)(splitmix(&s) % (uint64_t)m);
	for (int c = 0; c < SCOLS; c++)
		mc.cols[c] = (int)(splitmix(&s) % (uint64_t)m);
	for (int r = 0; r < SROWS; r++) {
		for (int l = 0; l < m; l++)
			arow[l] = mc.hA[mc.rows[r] + (size_t)l * m];
		for (int c = 0; c < SCOLS; c++)
			dot(arow, mc.hB + (size_t)mc.cols[c] * m, m, &mc.ref[r * SCOLS + c], &mc.mag[r * SCOLS + c]);
	}
	free(arow);
	return 0;
}

/* The inputs of (m, dist), made when they differ from the last point's. */
static int inputs(int m, int dist)
{
	const size_t n = (size_t)m * m;
	uint64_t s = ((uint64_t)m << 8) ^ (uint64_t)dist;

	if (mc.hA && mc.m == m && mc.dist == dist)
		return 0;
	free(mc.hA);
	free(mc.hB);
	memset(&mc, 0, sizeof mc);
	mc.ped_ms = NAN;
	if (!(mc.hA = malloc(n * sizeof(float))) || !(mc.hB = malloc(n * sizeof(float))))
		return gp_err("out of memory for a %d x %d GEMM's inputs", m, m), GP_EFAIL;
	for (size_t i = 0; i < n; i++)
		mc.hA[i] = (float)sg_dist_value((enum sg_dist)dist, splitmix(&s));
	for (size_t i = 0; i < n; i++)
		mc.hB[i] = (float)sg_dist_value((enum sg_dist)dist, splitmix(&s));
	mc.m = m, mc.dist = dist;
	return reference(m);
}

/* The sampled entries of an m x m result (column-major). */
static void gather(const float *c, int m, float *out)
{
	for (int r = 0; r < SROWS; r++)
		for (int k = 0; k < SCOLS; k++)
			out[r * SCOLS + k] = c[mc.rows[r] + (size_t)mc.cols[k] * m];
}

/* Pedantic's result on the point's buffers, its sampled entries kept for the bitwise comparison
 * (once a problem; the sampled columns only come back). */
static int pedantic_result(const struct mpoint *p)
{
	float *col = malloc((size_t)p->m * sizeof *col);
	int rc;

	if (!col)
		return GP_EFAIL;
	if (!(rc = gp_blas_gemm_mode(GP_BLAS_PEDANTIC, p->m, p->m, p->m, p->A, p->m, p->B, p->m, p->C, p->m)) &&
	    !(rc = gp_cu.cuCtxSynchronize() ? GP_ECUDA : 0))
		for (int k = 0; k < SCOLS && !rc; k++) {
			rc = gp_download(col, p->C + (size_t)mc.cols[k] * p->m * sizeof(float), (size_t)p->m * sizeof(float));
			for (int r = 0; r < SROWS && !rc; r++)
				mc.ped[r * SCOLS + k] = col[mc.rows[r]];
		}
	free(col);
	mc.ped_ready = !rc;
	return rc;
}

/* ---------------------------------------------------------------- pedantic's time as a baseline */

/* Pedantic on the point's buffers, timed by the harness as any row (gp_meas_batch_ms): the baseline
 * of ratio_to_pedantic when another mode's point comes before pedantic's own row. */
static int baseline_launch(const void *arg)
{
	const struct mpoint *p = arg;

	return gp_blas_gemm_mode(GP_BLAS_PEDANTIC, p->m, p->m, p->m, p->A, p->m, p->B, p->m, p->C, p->m);
}

/* ---------------------------------------------------------------- the probe */

/* The cells every row has, before anything runs (an n/a row keeps these). */
static void put_defaults(struct gp_meas *m, const struct mpoint *p)
{
	static const char *const none[] = { "tflops", "ceiling_tflops", "pedantic_tflops", "ratio_to_pedantic",
					    "err_max", "err_median", "fro_err", "equal_to_pedantic" };

	for (size_t i = 0; i < GP_ARRAY_SIZE(none); i++)
		gp_meas_num(m, none[i], NAN);
	gp_meas_int(m, "n", p->m);
	gp_meas_int(m, "k", p->m);
	gp_meas_int(m, "samples", NSAMP);
	gp_meas_int(m, "launches_per_rep", 0);
	gp_meas_num(m, "err_bound", sg_err_bound(p->m, 4));
	gp_meas_str(m, "compute_type", gp_blas_mode_compute(p->mode));
	gp_meas_str(m, "math_mode", gp_blas_mode_math(p->mode));
	gp_meas_str(m, "emulation_strategy", "n/a: not opened");
}

static int modes_setup(struct gp_meas *m)
{
	struct mpoint *p = m->ctx;
	const int dist = sg_dist_parse(gp_meas_param_str(m, "dist"));
	size_t bytes;
	char why[256];
	int rc;

	p->m = (int)gp_meas_param(m, "m");
	bytes = (size_t)p->m * p->m * sizeof(float);
	if (dist < 0 || gp_blas_mode_parse(gp_meas_param_str(m, "mode"), &p->mode))
		return gp_err("internal: sgemm_modes point %s / %s", gp_meas_param_str(m, "dist"), gp_meas_param_str(m, "mode")),
		       GP_EFAIL;
	put_defaults(m, p);
	if ((rc = gp_blas_load(why, sizeof why)))
		return gp_err("%s", why), rc;
	if (gp_blas_mode_open(p->mode, why, sizeof why) || gp_blas_mode_open(GP_BLAS_PEDANTIC, why, sizeof why))
		return gp_meas_na(m, "%s", why);
	gp_meas_str(m, "emulation_strategy", gp_blas_mode_strategy(p->mode));
	if (gp_meas_buf_fit(m, &p->C, bytes, GP_POISON_NAN))
		return 0;
	if ((rc = inputs(p->m, dist)) || (rc = gp_meas_input(m, &p->A, mc.hA, bytes)) ||
	    (rc = gp_meas_input(m, &p->B, mc.hB, bytes)) || (!mc.ped_ready && (rc = pedantic_result(p))) ||
	    (p->mode != GP_BLAS_PEDANTIC && isnan(mc.ped_ms) &&
	     (rc = gp_meas_batch_ms(m, baseline_launch, p, BATCH_MS, MAX_BATCH, &mc.ped_ms))) ||
	    (rc = sg_clock_setup(m, gp_image_bench_sgemm_clock, &p->clock)))
		return rc;
	p->hC = gp_meas_readback(m, p->C, bytes, GP_LAST_REP);
	return 0;
}

static int modes_launch(struct gp_meas *m)
{
	const struct mpoint *p = m->ctx;

	return gp_blas_gemm_mode(p->mode, p->m, p->m, p->m, p->A, p->m, p->B, p->m, p->C, p->m);
}

static int modes_after(struct gp_meas *m)
{
	struct mpoint *p = m->ctx;

	return sg_clock_launch(m, &p->clock);
}

/* The last result's sampled entries against FP64 and against pedantic's bits. Pedantic itself
 * must stay within the ladder's bound (its reference check); any mode must give finite numbers. */
static void modes_sample(struct gp_meas *m)
{
	const struct mpoint *p = m->ctx;
	const double bound = sg_err_bound(p->m, 4);
	float got[NSAMP];
	struct sg_err e;
	int same = 0;

	gather(p->hC, p->m, got);
	sg_sample_errors(got, mc.ref, mc.mag, NSAMP, &e);
	for (int i = 0; i < NSAMP; i++)
		same += !memcmp(&got[i], &mc.ped[i], sizeof got[i]);
	gp_meas_num(m, "err_max", e.max);
	gp_meas_num(m, "err_median", e.median);
	gp_meas_num(m, "fro_err", e.fro);
	gp_meas_num(m, "equal_to_pedantic", (double)same / NSAMP);
	if (isnan(e.max))
		gp_meas_fail(m, "non-finite entries in the result");
	else if (p->mode == GP_BLAS_PEDANTIC && !(e.fro <= bound))
		gp_meas_fail(m, "pedantic FP32 off by %.3g against FP64 dot products (bound %.3g)", e.fro, bound);
}

/* The fastest datapath a mode may use, TFLOP/s at mhz: pedantic the FP32 lanes; FAST_TF32 the
 * dense TF32 tensor rate; the default and BF16x9 modes may take any FP32-accurate route, none
 * faster than one dense BF16 pass. 0 where the rate is unknown. */
static double ceiling_tflops(enum gp_blas_mode mode, const struct gp_device *d, double mhz)
{
	const double per_clk = mode == GP_BLAS_PEDANTIC ? 2.0 * gp_fp32_lanes_per_sm(d->cc_major, d->cc_minor)
			       : mode == GP_BLAS_TF32	? gp_tensor_flops_per_clk_sm("tf32", d->cc_major, d->cc_minor)
							: gp_tensor_flops_per_clk_sm("bf16", d->cc_major, d->cc_minor);

	return per_clk * d->sms * mhz * 1e-6;
}

static void modes_finish(struct gp_meas *m)
{
	const struct mpoint *p = m->ctx;
	const double ms = gp_meas_stat(m, "time_ms", GP_MEDIAN), mhz = gp_meas_mhz(m);
	const double tf = 2.0 * p->m * (double)p->m * p->m / (ms * 1e-3) * 1e-12;
	const double ceiling = mhz > 0 ? ceiling_tflops(p->mode, m->dev, mhz) : NAN;
	int ok;

	if (p->mode == GP_BLAS_PEDANTIC && ms > 0)
		mc.ped_ms = ms;
	gp_meas_int(m, "launches_per_rep", m->batch);
	if (ceiling > 0)
		gp_meas_ceiling(m, "the GEMM", tf, ceiling, 0.01, "TFLOP/s");
	ok = gp_meas_ok(m);
	gp_meas_num(m, "tflops", ok ? tf : NAN);
	gp_meas_num(m, "ceiling_tflops", ceiling > 0 ? ceiling : NAN);
	gp_meas_num(m, "pedantic_tflops", 2.0 * p->m * (double)p->m * p->m / (mc.ped_ms * 1e-3) * 1e-12);
	gp_meas_num(m, "ratio_to_pedantic", ok ? mc.ped_ms / ms : NAN);
}

static const struct gp_probe modes_probe = {
	.runner = GP_RUN_BATCH, .image = gp_image_bench_sgemm_clock, .setup = modes_setup, .launch = modes_launch,
	.after = modes_after, .sample = modes_sample, .finish = modes_finish, .primary = "time_ms",
	.ctx_size = sizeof(struct mpoint), .batch_ms = BATCH_MS, .max_batch = MAX_BATCH,
};

static const char mode_names[] = GP_BLAS_MODE_NAMES;

static const struct gp_param modes_params[] = {
	{ "m", GP_PARAM_INT, 1, 16384, NULL, "4096 8192", "square size m = n = k (the ladder's sizes)" },
	{ "dist", GP_PARAM_NAME, 0, 0, SG_DIST_NAMES, SG_DIST_NAMES,
	  "inputs: uniform in [-1, 1), or wide: sign x 2^e x [1, 2) with e uniform in -20..20" },
	{ "mode", GP_PARAM_NAME, 0, 0, mode_names + 1, mode_names + 1, "cuBLAS FP32 mode (harness/blas.h)" },
};

static const char *const modes_cols[] = {
	"m", "n", "k", "dist", "mode", "compute_type", "math_mode", "emulation_strategy", "reps", "launches_per_rep",
	"time_ms_min", "time_ms", "time_ms_max", "spread", "tflops", "clock_MHz", "ceiling_tflops", "pedantic_tflops",
	"ratio_to_pedantic", "samples", "err_max", "err_median", "fro_err", "err_bound", "equal_to_pedantic", "status",
};

GP_EXP_PROBE(sgemm_modes, modes_params, modes_cols, &modes_probe);
