/* tsm2.c — host side of TSM2X (seed 004): tsm2r, tsm2l, tsm2_search.
 *
 * Each point: A and B filled on the device from a hash (bench/tsm2.h; padding slack NaN), the
 * cuBLAS result as reference (itself checked on sampled entries against host double dot products
 * recomputed from the same hash), the kernel's output poisoned with NaN, one checked run (relative
 * Frobenius error <= 64 u sqrt(k)), then timed batches of >= 2 ms between events. The same process
 * measures, once, the SM clock (FFMA clock kernel), the streaming HBM read rate (the denominator of
 * pct_of_hbm_read) and the global-memory latency by pointer chase (the model's latency_mem); the
 * model (bench/tsm2_model.c) is fed those and the device attributes. Bandwidth is compulsory bytes
 * (A, B read once, C written once) over time; above the datasheet HBM rate while the problem does
 * not fit L2 the row is a broken probe. V4 (split-k, beyond the paper) adds into C: every launch,
 * timed ones included, is a memset of C to 0 followed by the kernel, and its atomics' traffic is
 * not counted as bytes; its slice count is the fewest that make TSM2_KSPLIT_WAVES waves of
 * resident blocks (cuOccupancy for that kernel and shared memory; tsm2.h says why 4) unless the
 * ksplit parameter names one. */
#include "gp.h"
#include "blas.h"
#include "experiment.h"
#include "analysis.h"
#include "measure.h"
#include "sgemm.h"
#include "stats.h"
#include "tsm2.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

extern const unsigned char gp_image_bench_tsm2[];

#define BATCH_MS 2.0
#define MAX_BATCH 1000
#define CLOCK_ITERS 32768 /* ~4 ms: see bench/sgemm.c */
#define REF_SAMPLES 64
#define SLACK 1024                   /* NaN elements after every matrix */
#define STREAM_BYTES (1024ul << 20)   /* 1 GiB: 20 x the 50 MB L2 */
#define CHASE_HOPS 4096

/* ---------------------------------------------------------------- per-process measurements */

struct tsm2_env {
	int done;
	double clock_mhz, stream_gbps, lat_clk, datasheet_gbps;
};
static struct tsm2_env env;



struct stream_ctx {
	CUfunction fn;
	CUdeviceptr buf, sink;
	long n4;
	unsigned grid;
};

static int stream_launch(void *p)
{
	struct stream_ctx *s = p;
	void *args[] = { &s->buf, &s->n4, &s->sink };
	return gp_launch(s->fn, s->grid, 512, 0, args, NULL);
}

static double measure_clock(struct gp_run *run, CUdeviceptr sink)
{
	struct gp_clock_sample s;
	CUdeviceptr d_cs = 0;
	CUfunction fn;
	int iters = CLOCK_ITERS;
	double mhz = 0;
	void *args[] = { &sink, &iters, &d_cs };

	if (gp_kernel(run->dev, gp_image_bench_tsm2, "tsm2_clock", &fn) || gp_alloc(&d_cs, sizeof s) ||
	    gp_launch(fn, (unsigned)run->dev->sms, 256, 0, args, NULL) || gp_download(&s, d_cs, sizeof s))
		goto out;
	mhz = gp_clock_mhz(&s);
out:
	gp_free(d_cs);
	return mhz;
}

/* Clock, streaming read rate and chase latency, once per process. */
static int env_get(struct gp_run *run)
{
	struct stream_ctx s = { .n4 = (long)(STREAM_BYTES / 16) };
	struct gp_stats st;
	CUfunction chain, chase;
	CUdeviceptr out = 0;
	unsigned long long res[2];
	long lines = (long)(STREAM_BYTES / 128);
	int hops = CHASE_HOPS, batch, rc = GP_ECUDA;

	if (env.done)
		return 0;
	env.datasheet_gbps = 2.0 * run->dev->mem_clock_khz * 1e3 * (run->dev->mem_bus_bits / 8.0) / 1e9;
	if (gp_kernel(run->dev, gp_image_bench_tsm2, "tsm2_stream", &s.fn) ||
	    gp_kernel(run->dev, gp_image_bench_tsm2, "tsm2_chain", &chain) ||
	    gp_kernel(run->dev, gp_image_bench_tsm2, "tsm2_chase", &chase) || gp_alloc(&s.buf, STREAM_BYTES) ||
	    gp_alloc(&s.sink, 1024 * sizeof(float)) || gp_alloc(&out, sizeof res))
		goto out;
	gp_cu.cuMemsetD8(s.buf, 0, STREAM_BYTES);
	s.grid = (unsigned)run->dev->sms * 4;
	if ((rc = gp_time_batches(stream_launch, &s, 1, run->reps > 3 ? run->reps : 3, BATCH_MS, MAX_BATCH,
					  &batch, &st)))
		goto out;
	env.stream_gbps = tsm2_gbps((double)STREAM_BYTES, st.median);
	{
		void *a1[] = { &s.buf, &lines, &hops };
		CUdeviceptr start;
		if ((rc = gp_launch(chain, (unsigned)((hops + 255) / 256), 256, 0, a1, NULL)))
			goto out;
		start = s.buf + (CUdeviceptr)((long)((tsm2_uniform(0xc4a5e, 0) + 1.0) * 0.5 * (double)lines) * 128);
		void *a2[] = { &start, &hops, &out };
		if ((rc = gp_launch(chase, 1, 1, 0, a2, NULL)) || (rc = gp_download(res, out, sizeof res)))
			goto out;
		env.lat_clk = (double)res[0] / hops;
	}
	env.clock_mhz = measure_clock(run, s.sink);
	env.done = env.clock_mhz > 0 && env.stream_gbps > 0;
	rc = env.done ? 0 : GP_ECUDA;
out:
	gp_free(s.buf);
	gp_free(s.sink);
	gp_free(out);
	return rc;
}

static int fma_lanes(const struct gp_device *d, int elem)
{
	return elem == 8 ? sg_fp64_lanes_per_sm(d->cc_major, d->cc_minor) : gp_fp32_lanes_per_sm(d->cc_major, d->cc_minor);
}

/* The model's inputs: attributes + this process's measurements; lat_comp from the parameter. */
static void hw_fill(const struct gp_run *run, int elem, double lat_comp, struct tsm2_hw *hw)
{
	const struct gp_device *d = run->dev;

	if (lat_comp <= 0)
		lat_comp = elem == 8 ? 8 : 4; /* sm_80+ FFMA / DFMA dependent-issue latency */
	*hw = (struct tsm2_hw){ .sms = d->sms, .regs_per_sm = d->regs_per_sm, .smem_per_sm = d->smem_per_sm,
				.max_threads_per_sm = d->max_threads_per_sm, .max_blocks_per_sm = d->max_blocks_per_sm,
				.clock_hz = env.clock_mhz * 1e6, .band_Bps = env.stream_gbps * 1e9,
				.lat_mem_clk = env.lat_clk, .lat_comp_clk = lat_comp, .lanes = fma_lanes(d, elem) };
	hw->perf_flops = 2.0 * hw->lanes * hw->sms * hw->clock_hz;
}

/* ---------------------------------------------------------------- the problem, cached */

struct tcase {
	int m, k, n, elem, ready;
	CUdeviceptr A, B, C, R;
	void *hC, *hR;
	double ref_err;
	struct gp_stats blas;
	int blas_batch;
};
static struct tcase tc;

static uint64_t seed_of(int m, int k, int n)
{
	return ((uint64_t)m * 1000003u + (uint64_t)n) * 1000033u + (uint64_t)k;
}

static void tcase_free(struct tcase *c)
{
	gp_free(c->A);
	gp_free(c->B);
	gp_free(c->C);
	gp_free(c->R);
	free(c->hC);
	free(c->hR);
	memset(c, 0, sizeof *c);
}

static int blas(const struct tcase *c, CUdeviceptr out)
{
	return c->elem == 8 ? gp_blas_dgemm(c->m, c->n, c->k, c->A, c->m, c->B, c->k, out, c->m)
			    : gp_blas_sgemm(c->m, c->n, c->k, c->A, c->m, c->B, c->k, out, c->m);
}

static int blas_launch(void *p)
{
	struct tcase *c = p;
	return blas(c, c->C);
}

static int fill_dev(struct gp_run *run, CUdeviceptr p, int elem, int rows, int cols, uint64_t seed)
{
	CUfunction fn;
	long total = (long)rows * cols + SLACK;
	int ld = rows;
	unsigned long long s = seed;
	void *args[] = { &p, &rows, &cols, &ld, &total, &s };

	if (gp_kernel(run->dev, gp_image_bench_tsm2, elem == 8 ? "tsm2_fill_d" : "tsm2_fill_f", &fn))
		return GP_ECUDA;
	return gp_launch(fn, (unsigned)run->dev->sms * 8, 256, 0, args, NULL);
}

static double hval(const void *p, int elem, size_t i)
{
	return elem == 8 ? ((const double *)p)[i] : (double)((const float *)p)[i];
}

/* cuBLAS against host dot products (double) on sampled entries, A and B from the hash. */
static double check_reference(const struct tcase *c)
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

static int tcase_get(struct gp_run *run, int m, int k, int n, int elem, struct tcase **out)
{
	struct tcase *c = &tc;
	const size_t na = (size_t)m * k + SLACK, nb = (size_t)k * n + SLACK, nc = (size_t)m * n + SLACK;
	const uint64_t seed = seed_of(m, k, n);
	char why[256];
	int rc;

	if (c->ready && c->m == m && c->k == k && c->n == n && c->elem == elem) {
		*out = c;
		return 0;
	}
	tcase_free(c);
	if ((rc = gp_blas_load(why, sizeof why))) {
		gp_err("%s", why);
		return rc;
	}
	*c = (struct tcase){ .m = m, .k = k, .n = n, .elem = elem };
	if (!(c->hC = malloc(nc * elem)) || !(c->hR = malloc(nc * elem))) {
		rc = GP_EFAIL;
		goto fail;
	}
	if ((rc = gp_alloc(&c->A, na * elem)) || (rc = gp_alloc(&c->B, nb * elem)) || (rc = gp_alloc(&c->C, nc * elem)) ||
	    (rc = gp_alloc(&c->R, nc * elem)) || (rc = fill_dev(run, c->A, elem, m, k, seed)) ||
	    (rc = fill_dev(run, c->B, elem, k, n, seed ^ 0xb0b0b0b0ull)))
		goto fail;
	gp_cu.cuMemsetD8(c->R, 0xff, nc * elem);
	if ((rc = blas(c, c->R)) || (rc = gp_cu.cuCtxSynchronize() ? GP_ECUDA : 0) ||
	    (rc = gp_download(c->hR, c->R, nc * elem)))
		goto fail;
	c->ref_err = check_reference(c);
	if ((rc = gp_time_batches(blas_launch, c, run->warmup, run->reps, BATCH_MS, MAX_BATCH,
					  &c->blas_batch, &c->blas)))
		goto fail;
	c->ready = 1;
	*out = c;
	return 0;
fail:
	tcase_free(c);
	return rc;
}

/* ---------------------------------------------------------------- one point */

struct spec {
	enum tsm2_kind kind;
	int elem, m, k, n, t1, t2, t3, tcf;
	int ksplit; /* V4: k slices asked for, 0 = TSM2_KSPLIT_WAVES waves */
	double lat_comp;
};

struct job {
	const struct spec *s;
	struct tcase *c;
	CUfunction fn;
	unsigned grid, block, smem;
	unsigned ks; /* gridDim.y: V4's k slices as used, 1 for every other kernel */
};

static int job_launch(void *p)
{
	struct job *j = p;
	struct tcase *c = j->c;
	int m = c->m, k = c->k, n = c->n, lda = c->m, ldb = c->k, ldc = c->m;
	CUdeviceptr A = c->A, B = c->B, C = c->C;
	void *args[] = { &m, &k, &n, &A, &lda, &B, &ldb, &C, &ldc };

	if (j->s->kind == TSM2_CUBLAS)
		return blas(c, c->C);
	/* V4 adds into C, zeroed first inside every timed launch, on the NULL stream in order with
	 * the kernel and the timing events. elem is 4 or 8: whole words, and zero words are 0.0. */
	if (j->s->kind == TSM2_V4)
		GP_CU(cuMemsetD32Async(C, 0, (size_t)m * n * c->elem / 4, NULL));
	GP_CU(cuLaunchKernel(j->fn, j->grid, j->ks, 1, j->block, 1, 1, j->smem, NULL, args, NULL));
	return 0;
error:
	return GP_ECUDA;
}

struct result {
	int regs, local, blocks_per_sm, batch;
	struct gp_stats t;
	double rel_err;
};

#define TSM2_COLS                                                                                     \
	"kernel", "precision", "m", "k", "n", "t1", "t2", "t3", "tcf", "ksplit",                      \
		"threads_per_block", "blocks", "regs_per_thread", "local_bytes", "smem_bytes",        \
		"active_threads_per_sm", "launches_per_rep", "reps", "time_ms_min", "time_ms",        \
		"time_ms_max", "spread", "gflops", "cublas_time_ms", "cublas_gflops",                 \
		"speedup_vs_cublas", "bytes", "achieved_GBps", "cublas_GBps", "hbm_read_GBps",        \
		"datasheet_GBps", "pct_of_hbm_read", "cublas_pct_of_hbm_read", "l2_resident",         \
		"clock_MHz", "lat_mem_clk", "t2_threshold", "model_occupancy", "model_util_mem",      \
		"model_util_comp", "model_time_ms", "model_pct_of_hbm_read", "rel_err", "err_bound",  \
		"ref_err", "math_mode", "status"

static const char *const tsm2_cols[] = { TSM2_COLS };
static const char *row_choice = "grid"; /* tsm2_search's "choice" column */

static int put_row(struct gp_run *run, struct gp_table *t, const struct job *j, const struct result *r,
		   const char *status)
{
	const struct spec *s = j->s;
	const struct tcase *c = j->c && j->c->ready ? j->c : NULL;
	const int ok = r && !strcmp(status, "ok");
	const double bytes = tsm2_bytes(s->m, s->k, s->n, s->elem);
	const double gbps = ok ? tsm2_gbps(bytes, r->t.median) : NAN, bgbps = c ? tsm2_gbps(bytes, c->blas.median) : NAN;
	struct tsm2_hw hw;
	double occ = NAN, um = NAN, uc = NAN, mt = NAN, thr = NAN;
	char err[128];

	if (env.done) {
		hw_fill(run, s->elem, s->lat_comp, &hw);
		thr = tsm2_t2_threshold(&hw, s->elem);
		if (s->kind >= TSM2_V2 && s->kind <= TSM2_L2 && r && r->regs > 0) {
			/* Threads that carry rows: m per k slice for TSM2R, the grid for TSM2L (m / tcf). */
			const double rows = s->kind == TSM2_L1 || s->kind == TSM2_L2
						    ? fmin((double)s->m, (double)j->grid * j->block)
						    : (double)s->m * j->ks;
			occ = tsm2_resident(&hw, tsm2_occupancy(&hw, r->regs, s->t1, s->t2, s->elem), rows);
			um = tsm2_util_mem(&hw, occ, s->t3, s->elem);
			uc = tsm2_util_comp(&hw, occ, s->t2, s->t3);
			mt = 1e3 * tsm2_model_time(&hw, s->m, s->k, s->n, s->t1, s->t2, s->t3, s->elem, r->regs, rows);
		}
	}
	gp_row_begin(t);
	if (gp_table_col(t, "choice") >= 0)
		gp_row_str(t, "choice", row_choice);
	gp_row_str(t, "kernel", tsm2_kind_name(s->kind));
	gp_row_str(t, "precision", s->elem == 8 ? "double" : "single");
	gp_row_int(t, "m", s->m);
	gp_row_int(t, "k", s->k);
	gp_row_int(t, "n", s->n);
	gp_row_int(t, "t1", s->t1);
	gp_row_int(t, "t2", s->t2);
	gp_row_int(t, "t3", s->t3);
	gp_row_int(t, "tcf", s->tcf);
	gp_row_int(t, "ksplit", j->ks);
	gp_row_int(t, "threads_per_block", j->block);
	gp_row_int(t, "blocks", (long long)j->grid * j->ks);
	gp_row_int(t, "regs_per_thread", r ? r->regs : 0);
	gp_row_int(t, "local_bytes", r ? r->local : 0);
	gp_row_int(t, "smem_bytes", j->smem);
	gp_row_int(t, "active_threads_per_sm", r ? (long long)r->blocks_per_sm * j->block : 0);
	gp_row_int(t, "launches_per_rep", r ? r->batch : 0);
	gp_row_int(t, "reps", run->reps);
	gp_row_num(t, "time_ms_min", ok ? r->t.min : NAN);
	gp_row_num(t, "time_ms", ok ? r->t.median : NAN);
	gp_row_num(t, "time_ms_max", ok ? r->t.max : NAN);
	gp_row_num(t, "spread", ok ? r->t.spread : NAN);
	gp_row_num(t, "gflops", ok ? tsm2_gflops(s->m, s->k, s->n, r->t.median) : NAN);
	gp_row_num(t, "cublas_time_ms", c ? c->blas.median : NAN);
	gp_row_num(t, "cublas_gflops", c ? tsm2_gflops(s->m, s->k, s->n, c->blas.median) : NAN);
	gp_row_num(t, "speedup_vs_cublas", ok && c ? c->blas.median / r->t.median : NAN);
	gp_row_num(t, "bytes", bytes);
	gp_row_num(t, "achieved_GBps", gbps);
	gp_row_num(t, "cublas_GBps", bgbps);
	gp_row_num(t, "hbm_read_GBps", env.done ? env.stream_gbps : NAN);
	gp_row_num(t, "datasheet_GBps", env.done ? env.datasheet_gbps : NAN);
	gp_row_num(t, "pct_of_hbm_read", env.done ? 100.0 * gbps / env.stream_gbps : NAN);
	gp_row_num(t, "cublas_pct_of_hbm_read", env.done ? 100.0 * bgbps / env.stream_gbps : NAN);
	gp_row_int(t, "l2_resident", bytes <= run->dev->l2_bytes);
	gp_row_num(t, "clock_MHz", env.done ? env.clock_mhz : NAN);
	gp_row_num(t, "lat_mem_clk", env.done ? env.lat_clk : NAN);
	gp_row_num(t, "t2_threshold", thr);
	gp_row_num(t, "model_occupancy", occ);
	gp_row_num(t, "model_util_mem", um);
	gp_row_num(t, "model_util_comp", uc);
	gp_row_num(t, "model_time_ms", mt);
	gp_row_num(t, "model_pct_of_hbm_read", env.done && mt > 0 ? 100.0 * tsm2_gbps(bytes, mt) / env.stream_gbps : NAN);
	gp_row_num(t, "rel_err", r ? r->rel_err : NAN);
	gp_row_num(t, "err_bound", tsm2_err_bound(s->k, s->elem));
	gp_row_num(t, "ref_err", c ? c->ref_err : NAN);
	gp_row_str(t, "math_mode", GP_BLAS_MATH_MODE);
	gp_row_str(t, "status", status);
	if (gp_row_end(t, err, sizeof err)) {
		gp_err("internal: tsm2 row: %s", err);
		return GP_EFAIL;
	}
	return 0;
}

/* Kernel, geometry, resources; status "n/a: ..." when the instance cannot run on this device. */
static int prepare(struct gp_run *run, struct job *j, struct result *r, char *status, size_t len)
{
	const struct spec *s = j->s;
	char name[64];
	int maxt = 0, v = 0;

	if (s->kind == TSM2_CUBLAS) {
		j->block = j->grid = j->smem = 0;
		return 0;
	}
	j->block = (unsigned)s->t1;
	j->grid = (unsigned)tsm2_blocks(s->m, s->t1, s->kind == TSM2_L1 || s->kind == TSM2_L2 ? s->tcf : 1);
	j->smem = (unsigned)tsm2_smem_bytes(s->kind, s->t1, s->t2, s->elem);
	if (tsm2_kernel_name(s->kind, s->elem, s->t2, s->t3, name, sizeof name) ||
	    gp_kernel(run->dev, gp_image_bench_tsm2, name, &j->fn))
		return GP_ECUDA;
	GP_CU(cuFuncGetAttribute(&r->regs, CU_FUNC_ATTRIBUTE_NUM_REGS, j->fn));
	GP_CU(cuFuncGetAttribute(&r->local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, j->fn));
	GP_CU(cuFuncGetAttribute(&maxt, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, j->fn));
	if (maxt < s->t1) {
		snprintf(status, len, "n/a: %s uses %d registers, at most %d threads per block", name, r->regs, maxt);
		return 0;
	}
	if (j->smem > (unsigned)run->dev->smem_per_block_optin) {
		snprintf(status, len, "n/a: %u B shared memory per block > %d", j->smem, run->dev->smem_per_block_optin);
		return 0;
	}
	if (j->smem > 48 * 1024)
		GP_CU(cuFuncSetAttribute(j->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)j->smem));
	GP_CU(cuOccupancyMaxActiveBlocksPerMultiprocessor(&v, j->fn, s->t1, j->smem));
	r->blocks_per_sm = v;
	if (s->kind == TSM2_V4)
		j->ks = (unsigned)tsm2_ksplit_choose(s->ksplit, run->dev->sms, v, (int)j->grid, s->k, s->t1);
	return 0;
error:
	return GP_ECUDA;
}

static int measure_spec(struct gp_run *run, struct gp_table *t, const struct spec *s)
{
	struct result r = { .rel_err = NAN };
	struct job j = { .s = s, .ks = 1 };
	char status[256] = "ok", why[200];
	const size_t nc = (size_t)s->m * s->n + SLACK;
	int rc;

	if (tsm2_supports(s->kind, s->elem, s->m, s->k, s->n, s->t1, s->t2, s->t3, s->tcf, why, sizeof why)) {
		snprintf(status, sizeof status, "n/a: %s", why);
		return put_row(run, t, &j, NULL, status);
	}
	if ((double)s->m * s->k * s->elem > 0.6 * (double)run->dev->mem_bytes) {
		snprintf(status, sizeof status, "n/a: A (%.1f GB) does not fit with the stream buffer",
			 (double)s->m * s->k * s->elem / 1e9);
		return put_row(run, t, &j, NULL, status);
	}
	if ((rc = env_get(run)) || (rc = tcase_get(run, s->m, s->k, s->n, s->elem, &j.c))) {
		snprintf(status, sizeof status, "no reference: %s", gp_last_error());
		put_row(run, t, &j, NULL, status);
		return rc;
	}
	if ((rc = prepare(run, &j, &r, status, sizeof status)))
		goto fail;
	if (strncmp(status, "ok", 3))
		return put_row(run, t, &j, &r, status);
	gp_cu.cuMemsetD8(j.c->C, 0xff, nc * s->elem);
	if ((rc = job_launch(&j)) || (rc = gp_cu.cuCtxSynchronize() ? GP_ECUDA : 0) ||
	    (rc = gp_download(j.c->hC, j.c->C, nc * s->elem)))
		goto fail;
	r.rel_err = tsm2_rel_err(j.c->hC, j.c->hR, s->elem, s->m, s->n);
	if (j.c->ref_err > tsm2_err_bound(s->k, s->elem))
		snprintf(status, sizeof status, "cuBLAS reference off by %.3g on sampled entries", j.c->ref_err);
	else if (!(r.rel_err <= tsm2_err_bound(s->k, s->elem)))
		snprintf(status, sizeof status, "wrong result: relative error %.3g above the bound %.3g", r.rel_err,
			 tsm2_err_bound(s->k, s->elem));
	if (strcmp(status, "ok")) {
		put_row(run, t, &j, &r, status);
		return GP_EVALID;
	}
	if (s->kind == TSM2_CUBLAS) {
		r.t = j.c->blas;
		r.batch = j.c->blas_batch;
	} else if ((rc = gp_time_batches(job_launch, &j, run->warmup, run->reps, BATCH_MS, MAX_BATCH,
					  &r.batch, &r.t))) {
		goto fail;
	}
	{
		const double bytes = tsm2_bytes(s->m, s->k, s->n, s->elem), gbps = tsm2_gbps(bytes, r.t.median);
		const double peak = 2.0 * fma_lanes(run->dev, s->elem) * run->dev->sms * env.clock_mhz * 1e-3;
		const double gf = tsm2_gflops(s->m, s->k, s->n, r.t.median);
		/* cuBLAS DGEMM may use DMMA (2x the FMA rate on sm_90). */
		const double fceil = (s->kind == TSM2_CUBLAS && s->elem == 8 ? 2.0 : 1.0) * peak;
		if (bytes > run->dev->l2_bytes && gbps > 1.02 * env.datasheet_gbps)
			snprintf(status, sizeof status, "%.0f GB/s above the %.0f GB/s HBM datasheet rate: broken probe",
				 gbps, env.datasheet_gbps);
		else if (fceil > 0 && gf > 1.01 * fceil)
			snprintf(status, sizeof status, "%.0f GFLOP/s above the %.0f peak: broken probe", gf, fceil);
	}
	rc = gp_status_rc(status);
	if (put_row(run, t, &j, &r, status))
		return GP_EFAIL;
	return rc;
fail:
	snprintf(status, sizeof status, "CUDA error: %s", gp_last_error());
	put_row(run, t, &j, &r, status);
	return rc ? rc : GP_ECUDA;
}

/* ---------------------------------------------------------------- parameters */

static int elem_of(const char *p)
{
	return p && !strcmp(p, "double") ? 8 : 4;
}

/* t2 = 0: min(n, 32) rounded down to a compiled power of two (the paper's t2 = n). */
static int t2_auto(int t2, int n)
{
	int v = 2;
	if (t2 > 0)
		return t2;
	while (v * 2 <= n && v < 32)
		v *= 2;
	return v;
}

static const struct gp_param tsm2r_params[] = {
	{ "precision", GP_PARAM_NAME, 0, 0, "single double", "single double", "float or double" },
	{ "m", GP_PARAM_INT, 1, 65536, NULL, "10240 15360 20480 25600 30720", "rows of A and C" },
	{ "kdiv", GP_PARAM_INT, 1, 1024, NULL, "1", "k = m / kdiv (paper: 1 .. 8)" },
	{ "n", GP_PARAM_INT, 1, 1024, NULL, "2 4 8 16", "columns of B and C" },
	{ "kernel", GP_PARAM_NAME, 0, 0, "v0 v1 v2 v3 v4 cublas", "v0 v1 v2 v3 v4 cublas",
	  "ladder step (v4: V3 + split-k, beyond the paper) or cublas" },
	{ "t1", GP_PARAM_INT, 32, 1024, NULL, "128", "threads per block = rows of the B tile" },
	{ "t2", GP_PARAM_INT, 0, 32, NULL, "0", "C columns per thread (0: n, at most 32)" },
	{ "t3", GP_PARAM_INT, 1, 32, NULL, "16", "A elements per thread per step" },
	{ "ksplit", GP_PARAM_INT, 0, TSM2_KSPLIT_MAX, NULL, "0",
	  "v4: k slices (0: fewest for 4 waves of resident blocks; at most one per t1-long B tile); other kernels run at 0, 1" },
};

static int tsm2r_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	struct spec s = { .elem = elem_of(gp_point_str(pt, "precision")), .m = (int)gp_point_int(pt, "m"),
			  .n = (int)gp_point_int(pt, "n"), .t1 = (int)gp_point_int(pt, "t1"),
			  .t3 = (int)gp_point_int(pt, "t3"), .tcf = 1 };

	if (tsm2_kind_parse(gp_point_str(pt, "kernel"), &s.kind))
		return GP_EFAIL;
	s.k = s.m / (int)gp_point_int(pt, "kdiv");
	s.ksplit = (int)gp_point_int(pt, "ksplit");
	if (s.kind != TSM2_V4) {
		/* ksplit means nothing to them: no row per swept value above 1 */
		if (s.ksplit > 1)
			return 0;
		s.ksplit = 0;
	}
	s.t2 = t2_auto((int)gp_point_int(pt, "t2"), s.n);
	if (s.kind == TSM2_V0 || s.kind == TSM2_V1)
		s.t3 = s.kind == TSM2_V1 ? 1 : 0;
	if (s.kind == TSM2_V0)
		s.t2 = 0;
	if (s.kind == TSM2_CUBLAS)
		s.t1 = s.t2 = s.t3 = 0;
	return measure_spec(run, t, &s);
}

static const struct gp_param tsm2l_params[] = {
	{ "precision", GP_PARAM_NAME, 0, 0, "single double", "single double", "float or double" },
	{ "m", GP_PARAM_INT, 1, 100000000, NULL, "10000 100000 1000000 10000000", "rows of A and C" },
	{ "k", GP_PARAM_INT, 1, 1024, NULL, "8 16", "columns of A = rows and columns of B (n = k)" },
	{ "kernel", GP_PARAM_NAME, 0, 0, "v3 l1 l2 cublas", "l1 l2 cublas", "TSM2L Opt1 / Opt2, TSM2R V3, cublas" },
	{ "tcf", GP_PARAM_INT, 1, 1024, NULL, "1 2 4 8 16 32 64", "thread-count factor: m / tcf threads" },
	{ "t1", GP_PARAM_INT, 32, 1024, NULL, "128", "threads per block" },
	{ "t3", GP_PARAM_INT, 0, 32, NULL, "0", "A elements per step (0: k, at most 16)" },
	{ "lat_comp", GP_PARAM_INT, 0, 64, NULL, "0", "FMA latency in clocks for the model (0: FFMA 4, DFMA 8)" },
};

static int tsm2l_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	struct spec s = { .elem = elem_of(gp_point_str(pt, "precision")), .m = (int)gp_point_int(pt, "m"),
			  .k = (int)gp_point_int(pt, "k"), .t1 = (int)gp_point_int(pt, "t1"),
			  .tcf = (int)gp_point_int(pt, "tcf"), .t3 = (int)gp_point_int(pt, "t3"),
			  .lat_comp = (double)gp_point_int(pt, "lat_comp") };

	if (tsm2_kind_parse(gp_point_str(pt, "kernel"), &s.kind))
		return GP_EFAIL;
	s.n = s.k;
	s.t2 = t2_auto(0, s.n);
	if (s.t3 <= 0)
		s.t3 = t2_auto(0, s.k > 16 ? 16 : s.k);
	if (s.kind == TSM2_V3 && s.t3 < 4)
		s.t3 = 4;
	if (s.kind != TSM2_L1 && s.kind != TSM2_L2)
		s.tcf = 1;
	if (s.kind == TSM2_CUBLAS)
		s.t1 = s.t2 = s.t3 = 0;
	if (s.kind == TSM2_CUBLAS || s.kind == TSM2_V3) {
		/* one row per (m, k) for the tcf-independent kernels */
		if (gp_point_int(pt, "tcf") != 1)
			return 0;
	}
	return measure_spec(run, t, &s);
}

/* tsm2_search: V3 over every compiled (t2, t3) x the t1 list, then the model's choice and the
 * brute-force best printed as two extra rows (kernel "model" / "brute"). */
static const struct gp_param search_params[] = {
	{ "precision", GP_PARAM_NAME, 0, 0, "single double", "single double", "float or double" },
	{ "m", GP_PARAM_INT, 1, 65536, NULL, "20480", "m = k" },
	{ "n", GP_PARAM_INT, 1, 1024, NULL, "2 4 8 16 64 128", "columns of B" },
	{ "lat_comp", GP_PARAM_INT, 0, 64, NULL, "0", "FMA latency in clocks for the model (0: FFMA 4, DFMA 8)" },
};

static const char *const search_cols[] = { "choice", TSM2_COLS };

static int search_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	static const int t1s[] = { 64, 128, 256, 512, 0 };
	struct spec s = { .kind = TSM2_V3, .elem = elem_of(gp_point_str(pt, "precision")), .m = (int)gp_point_int(pt, "m"),
			  .n = (int)gp_point_int(pt, "n"), .tcf = 1, .lat_comp = (double)gp_point_int(pt, "lat_comp") };
	struct tsm2_choice best = { .cost = INFINITY }, model;
	struct tsm2_hw hw;
	int rc = 0, worst = 0;

	s.k = s.m;
	for (const int *a = t1s; *a; a++)
		for (const int *b = tsm2_t2_values; *b; b++)
			for (const int *c = tsm2_t3_values; *c; c++) {
				char why[128];
				size_t row = t->nrows;
				double ms;
				s.t1 = *a, s.t2 = *b, s.t3 = *c;
				if (s.t2 > s.n || tsm2_supports(s.kind, s.elem, s.m, s.k, s.n, s.t1, s.t2, s.t3, 1, why, sizeof why))
					continue;
				row_choice = "grid";
				rc = measure_spec(run, t, &s);
				if (rc != 0 && rc != GP_EVALID)
					return rc;
				worst = rc ? rc : worst;
				if (row < t->nrows && !gp_table_get_double(t, row, "time_ms", &ms) && ms < best.cost)
					best = (struct tsm2_choice){ s.t1, s.t2, s.t3, ms };
			}
	if (!env.done)
		return worst ? worst : GP_ECUDA;
	hw_fill(run, s.elem, s.lat_comp, &hw);
	if (!tsm2_model_choose(&hw, s.m, s.k, s.n, 128, s.elem, &model)) {
		s.t1 = model.t1, s.t2 = model.t2, s.t3 = model.t3;
		row_choice = "model";
		rc = measure_spec(run, t, &s);
		worst = rc ? rc : worst;
	}
	if (isfinite(best.cost)) {
		s.t1 = best.t1, s.t2 = best.t2, s.t3 = best.t3;
		row_choice = "brute";
		rc = measure_spec(run, t, &s);
		row_choice = "grid";
		worst = rc ? rc : worst;
	}
	return worst;
}

/* ---------------------------------------------------------------- reports */

static int row_ok(const struct gp_table *t, size_t r)
{
	const char *s = gp_table_get(t, r, "status");
	return s && !strcmp(s, "ok");
}

static double num(const struct gp_table *t, size_t r, const char *col)
{
	double v = NAN;
	gp_table_get_double(t, r, col, &v);
	return v;
}

static const char *ref_or_dash(const struct gp_table *ref, const char *exp, const char *key)
{
	const char *v = gp_reference(ref, exp, key, NULL, NULL);
	return v ? v : "–";
}

/* Average, min and max of a column over ok rows of a kernel/precision (n <= nmax). */
static void summary(const struct gp_table *t, const char *kernel, const char *prec, double nmax, const char *col,
		    double *avg, double *lo, double *hi)
{
	double s = 0;
	int c = 0;

	*lo = INFINITY, *hi = -INFINITY;
	for (size_t r = 0; r < t->nrows; r++) {
		const double v = num(t, r, col);
		if (!row_ok(t, r) || strcmp(gp_table_get(t, r, "kernel"), kernel) ||
		    strcmp(gp_table_get(t, r, "precision"), prec) || num(t, r, "n") > nmax || isnan(v))
			continue;
		s += v, c++;
		*lo = fmin(*lo, v), *hi = fmax(*hi, v);
	}
	*avg = c ? s / c : NAN;
}

static void ladder_report(FILE *md, const struct gp_table *t, const struct gp_table *ref, const char *exp,
			  const char *const *kernels, size_t nk, double nmax)
{
	static const char *const precs[] = { "single", "double" };

	fprintf(md, "Speedup over cuBLAS (%s, same run) and achieved bandwidth as %% of the streaming HBM read rate "
		    "measured in the same run (n <= %.0f): average [min, max].\n\n| kernel | precision | speedup avg | "
		    "speedup range | %% of HBM read avg | max |\n|---|---|---|---|---|---|\n", GP_BLAS_MATH_MODE, nmax);
	for (size_t i = 0; i < nk; i++)
		for (size_t p = 0; p < 2; p++) {
			double a, lo, hi, ba, blo, bhi;
			summary(t, kernels[i], precs[p], nmax, "speedup_vs_cublas", &a, &lo, &hi);
			summary(t, kernels[i], precs[p], nmax, "pct_of_hbm_read", &ba, &blo, &bhi);
			if (isnan(a))
				continue;
			fprintf(md, "| %s | %s | %.2f | %.2f – %.2f | %.1f | %.1f |\n", kernels[i], precs[p], a, lo, hi, ba,
				bhi);
		}
	if (!strcmp(exp, "tsm2r"))
		fprintf(md, "\nPaper: K40c V1/V0 %s, V2 adds %s, V3 adds %s; V100 V3 single up to %s (avg %s), double up "
			    "to %s (avg %s); issue 7 goal: >= 1.3x cuBLAS average, >= 90 %% of HBM read at the largest "
			    "sizes.\n\n", ref_or_dash(ref, exp, "k40c_v1_over_v0"), ref_or_dash(ref, exp, "k40c_v2_gain"),
			ref_or_dash(ref, exp, "k40c_v3_gain"), ref_or_dash(ref, exp, "v100_single_max_speedup"),
			ref_or_dash(ref, exp, "v100_single_avg_speedup"), ref_or_dash(ref, exp, "v100_double_max_speedup"),
			ref_or_dash(ref, exp, "v100_double_avg_speedup"));
	else
		fprintf(md, "\nPaper (V100, k = n = 8, 16): single %s (avg %s), double %s (avg %s); bandwidth up to %s "
			    "of peak (avg %s).\n\n", ref_or_dash(ref, exp, "v100_single_speedup_range"),
			ref_or_dash(ref, exp, "v100_single_avg_speedup"), ref_or_dash(ref, exp, "v100_double_speedup_range"),
			ref_or_dash(ref, exp, "v100_double_avg_speedup"), ref_or_dash(ref, exp, "v100_max_bw_util"),
			ref_or_dash(ref, exp, "v100_avg_bw_util"));
}

static void tsm2r_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const k[] = { "v0", "v1", "v2", "v3", "v4" };
	ladder_report(md, t, ref, "tsm2r", k, GP_ARRAY_SIZE(k), 16);
}

static void tsm2l_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const k[] = { "v3", "l1", "l2" };
	ladder_report(md, t, ref, "tsm2l", k, GP_ARRAY_SIZE(k), 1024);
}

static void search_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	fprintf(md, "Model (Algorithm 5 over the compiled grid, t1 = 128, fed by this run's clock, streaming read rate "
		    "and chase latency) against the brute-force best over (t1, t2, t3). Paper V100 brute force: single "
		    "t3 = %s, double t3 = %s.\n\n| precision | m | n | choice | t1 | t2 | t3 | time ms | %% of HBM read | "
		    "model time ms | t2_threshold |\n|---|---|---|---|---|---|---|---|---|---|---|\n",
		ref_or_dash(ref, "tsm2_search", "v100_single_t3"), ref_or_dash(ref, "tsm2_search", "v100_double_t3"));
	for (size_t r = 0; r < t->nrows; r++) {
		const char *c = gp_table_get(t, r, "choice");
		if (!row_ok(t, r) || !c || !strcmp(c, "grid"))
			continue;
		fprintf(md, "| %s | %.0f | %.0f | %s | %.0f | %.0f | %.0f | %.4g | %.1f | %.4g | %.1f |\n",
			gp_table_get(t, r, "precision"), num(t, r, "m"), num(t, r, "n"), c, num(t, r, "t1"), num(t, r, "t2"),
			num(t, r, "t3"), num(t, r, "time_ms"), num(t, r, "pct_of_hbm_read"), num(t, r, "model_time_ms"),
			num(t, r, "t2_threshold"));
	}
	fputc('\n', md);
}

/* Profile (n <= 16, the paper's range): V3's and V4's average speedup over cuBLAS and best
 * fraction of the HBM read rate per precision, and the speedup a kernel at exactly the measured
 * HBM read rate would have over cuBLAS on the same points (the bandwidth ceiling of any TSM2R:
 * the compulsory bytes cannot move faster). */
static void tsm2r_derive(struct gp_profile *prof, const struct gp_table *t)
{
	static const char *const precs[] = { "single", "double" }, *const kernels[] = { "v3", "v4" };
	char key[64], method[160];
	double a, lo, hi;

	for (size_t p = 0; p < GP_ARRAY_SIZE(precs); p++) {
		const char *vs = strcmp(precs[p], "double") ? "vs cuBLAS SGEMM pedantic" : "vs cuBLAS DGEMM";
		double ceil_sum = 0;
		int ceil_n = 0;
		for (size_t k = 0; k < GP_ARRAY_SIZE(kernels); k++) {
			summary(t, kernels[k], precs[p], 16, "speedup_vs_cublas", &a, &lo, &hi);
			snprintf(key, sizeof key, "tsm2r_%s_%s_speedup_avg", kernels[k], precs[p]);
			snprintf(method, sizeof method, "n <= 16, %s, same run", vs);
			if (!isnan(a))
				gp_profile_add(prof, key, a, "x", method, "tsm2r");
			summary(t, kernels[k], precs[p], 16, "pct_of_hbm_read", &a, &lo, &hi);
			snprintf(key, sizeof key, "tsm2r_%s_%s_max_pct_hbm_read", kernels[k], precs[p]);
			if (!isnan(a))
				gp_profile_add(prof, key, hi, "%", "n <= 16, of the streaming read rate, same run", "tsm2r");
		}
		for (size_t r = 0; r < t->nrows; r++) {
			const double c = num(t, r, "cublas_pct_of_hbm_read");
			if (!row_ok(t, r) || strcmp(gp_table_get(t, r, "kernel"), "cublas") ||
			    strcmp(gp_table_get(t, r, "precision"), precs[p]) || num(t, r, "n") > 16 || !(c > 0))
				continue;
			ceil_sum += 100.0 / c, ceil_n++;
		}
		snprintf(key, sizeof key, "tsm2r_%s_speedup_ceiling_avg", precs[p]);
		if (ceil_n)
			gp_profile_add(prof, key, ceil_sum / ceil_n, "x",
				       "n <= 16: cuBLAS time / compulsory bytes at the measured HBM read rate", "tsm2r");
	}
}

GP_EXP_IMPL(tsm2r, tsm2r_params, tsm2_cols, tsm2r_measure);
GP_ANALYSIS(tsm2r, tsm2r_derive, tsm2r_report);

GP_EXP_IMPL(tsm2l, tsm2l_params, tsm2_cols, tsm2l_measure);
GP_ANALYSIS(tsm2l, NULL, tsm2l_report);

GP_EXP_IMPL(tsm2_search, search_params, search_cols, search_measure);
GP_ANALYSIS(tsm2_search, NULL, search_report);
