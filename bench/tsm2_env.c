/* tsm2_env.c — what every TSM2X point stands on, measured through the harness. Once per experiment:
 * the streaming HBM read rate (timed batches over 1 GiB), one pointer chase (the model's memory
 * latency) and the SM clock under an FFMA load. Per (m, k, n, precision): A and B from the hash,
 * cuBLAS's result as reference (checked on sampled entries against host dot products) and its
 * time. Pitfall: the problem outlives a point, so its buffers are the one thing freed by hand (at
 * the experiment's end at the latest: gp_meas_keep). */
#include "gp.h"
#include "blas.h"
#include "measure.h"
#include "sgemm.h"
#include "tsm2.h"
#include "tsm2_bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

extern const unsigned char gp_image_bench_tsm2_aux[], gp_image_bench_sgemm_clock[];

#define CLOCK_ITERS 32768           /* ~4 ms of FFMA chains (bench/sgemm_clock.cu) */
#define REF_SAMPLES 64
#define STREAM_BYTES (1024ul << 20) /* 1 GiB: 20 x the 50 MB L2 */
#define CHASE_HOPS 4096
#define CHASE_SEGS 16 /* chain segments: one per repetition, each cold */

struct tsm2_env tsm2_env;

/* ---------------------------------------------------------------- the stream, the chase, the clock */

struct stream {
	CUdeviceptr buf, sink;
	long n4;
};

/* Grid-stride float4 reads of a zeroed 1 GiB buffer, 4 SM-fulls of 512-thread blocks. */
static int stream_setup(struct gp_meas *m)
{
	struct stream *c = m->ctx;
	int rc;

	c->n4 = (long)(STREAM_BYTES / 16);
	if ((rc = gp_meas_kernel(m, "tsm2_stream")) || (rc = gp_meas_buf(m, &c->buf, STREAM_BYTES, 0)) ||
	    (rc = gp_meas_buf(m, &c->sink, 1024 * sizeof(float), GP_NO_POISON)))
		return rc;
	gp_meas_launch(m, (unsigned)m->dev->sms * 4, 512, 0);
	gp_meas_args(m, &c->buf, &c->n4, &c->sink);
	return 0;
}

static const struct gp_probe stream_probe = {
	.runner = GP_RUN_BATCH, .image = gp_image_bench_tsm2_aux, .setup = stream_setup, .primary = "time_ms",
	.ctx_size = sizeof(struct stream), .batch_ms = TSM2_BATCH_MS, .max_batch = TSM2_MAX_BATCH,
};

struct chase {
	CUdeviceptr buf, out, sink, flush;
	CUfunction chase, clock, fill;
	const unsigned long long *h_out;
	long lines;
	size_t flush_bytes;
	int hops, iters, seg;
};

/* The chain: hop h at a pseudo-random 128-byte line of 1 GiB, pointing at hop h + 1. */
static int chase_setup(struct gp_meas *m)
{
	struct chase *c = m->ctx;
	CUfunction chain;
	int rc;

	c->lines = (long)(STREAM_BYTES / TSM2_CHASE_LINE);
	c->flush_bytes = 4 * (size_t)(m->dev->l2_bytes > 16 << 20 ? m->dev->l2_bytes : 16 << 20);
	c->hops = CHASE_HOPS;
	c->iters = CLOCK_ITERS;
	if ((rc = gp_meas_kernel(m, "tsm2_chain")) || (rc = gp_meas_buf(m, &c->buf, STREAM_BYTES, GP_NO_POISON)) ||
	    (rc = gp_meas_buf(m, &c->out, 2 * sizeof(unsigned long long), GP_NO_POISON)) ||
	    (rc = gp_meas_buf(m, &c->sink, 1024 * sizeof(float), GP_NO_POISON)) ||
	    (rc = gp_kernel(m->dev, gp_image_bench_tsm2_aux, "tsm2_chase", &c->chase)) ||
	    (rc = gp_meas_buf(m, &c->flush, c->flush_bytes, GP_NO_POISON)) ||
	    (rc = gp_kernel(m->dev, gp_image_bench_tsm2_aux, "tsm2_fill_f", &c->fill)) ||
	    (rc = gp_kernel(m->dev, gp_image_bench_sgemm_clock, "sg_clock", &c->clock)))
		return rc;
	chain = m->fn;
	c->h_out = gp_meas_readback(m, c->out, 2 * sizeof(unsigned long long), GP_EVERY_REP);
	gp_meas_clock(m);
	const int all = c->hops * CHASE_SEGS;
	return gp_launch(chain, (unsigned)((all + 255) / 256), 256, 0, (void *[]){ &c->buf, &c->lines, (void *)&all },
			 NULL);
}

/* The chain is CHASE_SEGS segments of `hops`; each repetition chases the next one, after plain
 * stores over 4 L2 sizes, so that what the chain's own writes and the last repetition left in
 * the L2 is pushed out (its lines are distinct: bench/tsm2.h, tsm2_chase_line). Then the GEMM
 * benches' FFMA clock kernel, one block of 256 per SM, writes the clock sample. */
_Static_assert(((STREAM_BYTES / TSM2_CHASE_LINE) & (STREAM_BYTES / TSM2_CHASE_LINE - 1)) == 0,
	       "tsm2_chase_line needs a power-of-two number of lines");
static int chase_launch(struct gp_meas *m)
{
	struct chase *c = m->ctx;
	const long first = (long)(c->seg++ % CHASE_SEGS) * c->hops;
	CUdeviceptr start = c->buf + (CUdeviceptr)(tsm2_chase_line((uint64_t)first, c->lines) * TSM2_CHASE_LINE);

	const int n = (int)(c->flush_bytes / sizeof(float)), one = 1;
	const long total = n;
	const unsigned long long seed = (unsigned long long)c->seg;

	GP_CU(cuLaunchKernel(c->fill, (unsigned)m->dev->sms * 4, 1, 1, 256, 1, 1, 0, NULL,
			     (void *[]){ &c->flush, (void *)&n, (void *)&one, (void *)&n, (void *)&total, (void *)&seed },
			     NULL));
	GP_CU(cuLaunchKernel(c->chase, 1, 1, 1, 1, 1, 1, 0, NULL, (void *[]){ &start, &c->hops, &c->out }, NULL));
	GP_CU(cuLaunchKernel(c->clock, (unsigned)m->dev->sms, 1, 1, 256, 1, 1, 0, NULL,
			     (void *[]){ &c->sink, &c->iters, gp_meas_clock(m) }, NULL));
	return 0;
error:
	return GP_ECUDA;
}

static void chase_sample(struct gp_meas *m)
{
	const struct chase *c = m->ctx;

	gp_sample(m, "lat_clk", (double)c->h_out[0] / c->hops);
}

static const struct gp_probe chase_probe = {
	.runner = GP_RUN_SYNC, .image = gp_image_bench_tsm2_aux, .setup = chase_setup, .launch = chase_launch,
	.sample = chase_sample, .primary = "lat_clk", .ctx_size = sizeof(struct chase),
};

/* One probe at a point without parameters into a table of its own: the row's cells. A row that
 * is not ok leaves the points that need it nothing to stand on: GP_ECUDA, its status as the error. */
static int measure_into(struct gp_run *run, const struct gp_probe *pr, const char *col1, const char *col2,
			double *v1, double *v2)
{
	const char *cols[] = { col1, col2 ? col2 : "status", "status" };
	const struct gp_exp_impl im = { .probe = pr };
	const struct gp_point pt = { 0 };
	struct gp_table *t = gp_table_new(cols, col2 ? 3 : 2);
	int rc = t ? gp_measure(run, &im, &pt, t) : GP_EFAIL;

	if ((!rc || rc == GP_EVALID) && !(t->nrows == 1 && gp_table_row_ok(t, 0))) {
		gp_err("tsm2: %s", t->nrows ? gp_table_get(t, 0, "status") : "no row");
		rc = GP_ECUDA;
	}
	if (!rc) {
		*v1 = gp_table_num(t, 0, col1);
		if (col2)
			*v2 = gp_table_num(t, 0, col2);
	}
	gp_table_free(t);
	return rc;
}

/* Measured once per experiment, as when each had a process of its own (gp_meas_keep). */
static void env_drop(void)
{
	memset(&tsm2_env, 0, sizeof tsm2_env);
}

int tsm2_env_get(struct gp_run *run)
{
	struct gp_run stream_run = { .dev = run->dev, .reps = run->reps > 3 ? run->reps : 3, .warmup = 1 };
	struct gp_run chase_run = { .dev = run->dev, .reps = 5, .warmup = 1 }; /* median of 5 */
	const struct gp_device *d = run->dev;
	struct tsm2_env e = { 0 };
	double ms = NAN;
	int rc;

	if (tsm2_env.done)
		return 0;
	if ((rc = measure_into(&stream_run, &stream_probe, "time_ms", NULL, &ms, NULL)) ||
	    (rc = measure_into(&chase_run, &chase_probe, "lat_clk", "clock_MHz", &e.lat_clk, &e.clock_mhz)))
		return rc;
	e.stream_gbps = tsm2_gbps((double)STREAM_BYTES, ms);
	e.datasheet_gbps = 2.0 * d->mem_clock_khz * 1e3 * (d->mem_bus_bits / 8.0) / 1e9;
	e.done = e.clock_mhz > 0 && e.stream_gbps > 0;
	if (!e.done) {
		gp_err("tsm2: no clock or streaming read rate measured");
		return GP_ECUDA;
	}
	tsm2_env = e;
	gp_meas_keep(env_drop);
	return 0;
}

int tsm2_fma_lanes(const struct gp_device *d, int elem)
{
	return elem == 8 ? sg_fp64_lanes_per_sm(d->cc_major, d->cc_minor) : gp_fp32_lanes_per_sm(d->cc_major, d->cc_minor);
}

void tsm2_hw_fill(const struct gp_device *d, int elem, double lat_comp, struct tsm2_hw *hw)
{
	if (lat_comp <= 0)
		lat_comp = elem == 8 ? 8 : 4; /* sm_80+ FFMA / DFMA dependent-issue latency */
	*hw = (struct tsm2_hw){ .sms = d->sms, .regs_per_sm = d->regs_per_sm, .smem_per_sm = d->smem_per_sm,
				.max_threads_per_sm = d->max_threads_per_sm, .max_blocks_per_sm = d->max_blocks_per_sm,
				.clock_hz = tsm2_env.clock_mhz * 1e6, .band_Bps = tsm2_env.stream_gbps * 1e9,
				.lat_mem_clk = tsm2_env.lat_clk, .lat_comp_clk = lat_comp, .lanes = tsm2_fma_lanes(d, elem) };
	hw->perf_flops = 2.0 * hw->lanes * hw->sms * hw->clock_hz;
}

/* ---------------------------------------------------------------- the problem, cached */

static struct tsm2_problem prob;

static uint64_t seed_of(int m, int k, int n)
{
	return ((uint64_t)m * 1000003u + (uint64_t)n) * 1000033u + (uint64_t)k;
}

static void problem_free(struct tsm2_problem *p)
{
	gp_free(p->A);
	gp_free(p->B);
	gp_free(p->R);
	free(p->hR);
	memset(p, 0, sizeof *p);
}

int tsm2_blas(const struct tsm2_problem *p, CUdeviceptr out)
{
	return p->elem == 8 ? gp_blas_dgemm(p->m, p->n, p->k, p->A, p->m, p->B, p->k, out, p->m)
			    : gp_blas_sgemm(p->m, p->n, p->k, p->A, p->m, p->B, p->k, out, p->m);
}

/* cuBLAS's time: its launch rewrites R with the same result. */
static int blas_launch(struct gp_meas *m)
{
	return tsm2_blas(&prob, prob.R);
}

static const struct gp_probe blas_probe = {
	.runner = GP_RUN_BATCH, .image = gp_image_bench_tsm2_aux, .launch = blas_launch, .primary = "time_ms",
	.batch_ms = TSM2_BATCH_MS, .max_batch = TSM2_MAX_BATCH,
};

/* rows x cols (ld = rows) from tsm2_uniform(seed, r + c x rows), then TSM2_SLACK NaN. */
static int fill(struct gp_run *run, CUdeviceptr p, int elem, int rows, int cols, uint64_t seed)
{
	CUfunction fn;
	long total = (long)rows * cols + TSM2_SLACK;
	int ld = rows;
	unsigned long long s = seed;

	if (gp_kernel(run->dev, gp_image_bench_tsm2_aux, elem == 8 ? "tsm2_fill_d" : "tsm2_fill_f", &fn))
		return GP_ECUDA;
	return gp_launch(fn, (unsigned)run->dev->sms * 8, 256, 0, (void *[]){ &p, &rows, &cols, &ld, &total, &s }, NULL);
}

static double hval(const void *p, int elem, size_t i)
{
	return elem == 8 ? ((const double *)p)[i] : (double)((const float *)p)[i];
}

/* cuBLAS against host dot products (double) on sampled entries, A and B from the hash. */
static double check_reference(const struct tsm2_problem *c)
{
	const uint64_t seed = seed_of(c->m, c->k, c->n);
	uint64_t s = 0x5eed;
	double num = 0, den = 0;

	for (int t = 0; t < REF_SAMPLES; t++) {
		s = s * 6364136223846793005ull + 1442695040888963407ull;
		const int i = (int)((s >> 33) % (uint64_t)c->m), j = (int)((s >> 13) % (uint64_t)c->n);
		double x = 0;
		for (int l = 0; l < c->k; l++) {
			double a = tsm2_uniform(seed, (uint64_t)i + (uint64_t)l * c->m);
			double b = tsm2_uniform(seed ^ 0xb0b0b0b0ull, (uint64_t)l + (uint64_t)j * c->k);
			if (c->elem == 4)
				a = (float)a, b = (float)b;
			x += a * b;
		}
		const double d = hval(c->hR, c->elem, i + (size_t)j * c->m) - x;
		num += d * d;
		den += x * x;
	}
	return den > 0 ? sqrt(num / den) : sqrt(num);
}

/* A, B and R allocated and filled; R poisoned before cuBLAS writes it, then read back. */
static int problem_make(struct gp_run *run, struct tsm2_problem *c)
{
	const size_t na = (size_t)c->m * c->k + TSM2_SLACK, nb = (size_t)c->k * c->n + TSM2_SLACK;
	const size_t nc = (size_t)c->m * c->n + TSM2_SLACK;
	const uint64_t seed = seed_of(c->m, c->k, c->n);
	const int e = c->elem;
	int rc;

	if (!(c->hR = malloc(nc * e)))
		return GP_EFAIL;
	if ((rc = gp_alloc(&c->A, na * e)) || (rc = gp_alloc(&c->B, nb * e)) || (rc = gp_alloc(&c->R, nc * e)) ||
	    (rc = fill(run, c->A, e, c->m, c->k, seed)) || (rc = fill(run, c->B, e, c->k, c->n, seed ^ 0xb0b0b0b0ull)))
		return rc;
	gp_cu.cuMemsetD8(c->R, 0xff, nc * e);
	if ((rc = tsm2_blas(c, c->R)) || (rc = gp_cu.cuCtxSynchronize() ? GP_ECUDA : 0) ||
	    (rc = gp_download(c->hR, c->R, nc * e)))
		return rc;
	c->ref_err = check_reference(c);
	return measure_into(run, &blas_probe, "time_ms", NULL, &c->blas_ms, NULL);
}

static void prob_drop(void)
{
	problem_free(&prob);
}

int tsm2_problem_get(struct gp_run *run, int m, int k, int n, int elem, const struct tsm2_problem **out)
{
	char why[256];
	int rc;

	*out = &prob;
	if (prob.ready && prob.m == m && prob.k == k && prob.n == n && prob.elem == elem)
		return 0;
	problem_free(&prob);
	if ((rc = gp_blas_load(why, sizeof why))) {
		gp_err("%s", why);
		return rc;
	}
	prob = (struct tsm2_problem){ .m = m, .k = k, .n = n, .elem = elem };
	if ((rc = problem_make(run, &prob))) {
		problem_free(&prob);
		return rc;
	}
	prob.ready = 1;
	gp_meas_keep(prob_drop);
	return 0;
}
