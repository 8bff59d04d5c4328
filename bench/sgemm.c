/* sgemm.c — host side of the GEMM ladder: sgemm, sgemm_shapes, sgemm_occupancy, sgemm_lda, dgemm.
 *
 * Each point: random inputs (fixed seed per size, uniform in [-1, 1], padding rows and allocation
 * slack filled with NaN so a kernel that reads what it must not poisons its own result), the
 * cuBLAS result as reference (itself checked on sampled entries against a host double-precision
 * dot product), the kernel's output poisoned with NaN, one checked run, then warm-up and timed
 * repetitions. A repetition times a batch of launches between two events (the batch is sized so
 * it lasts >= 2 ms: small problems are otherwise launch-latency bound and the event resolution
 * coarse). The SM clock is measured right after by an FFMA clock kernel on every SM. cuBLAS is
 * timed in the same child process on the same buffers; its numbers are cached per problem. */
#include "gp.h"
#include "blas.h"
#include "experiment.h"
#include "analysis.h"
#include "measure.h"
#include "sgemm.h"
#include "sgemm_map.h"
#include "stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

extern const unsigned char gp_image_bench_sgemm[];

#define BATCH_MS 2.0
#define MAX_BATCH 1000
#define CLOCK_ITERS 32768 /* x 64 dependent FFMAs ~ 4 ms at ~2 GHz (1 ms read up to 2069 MHz after the tensor-core kernels on the H100, above its 1980 maximum) */
#define REF_SAMPLES 64
#define SMEM_RESERVED_PER_BLOCK 1024 /* system shared memory per block (sm_80+) */

/* ---------------------------------------------------------------- inputs and reference, cached */

struct sg_case {
	int m, n, k, lda, ldb, ldc, elem;
	CUdeviceptr A, B, C, R;
	void *hA, *hB, *hR, *hC;
	double ref_err;        /* cuBLAS vs host double dot products on sampled entries */
	struct gp_stats blas;  /* cuBLAS time, ms */
	int blas_batch;
	int ready;
};

static struct sg_case cs_cache;

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [-1, 1), exact in float: 24 random bits. */
static double uniform(uint64_t *s)
{
	return (double)(splitmix(s) >> 40) * 0x1p-23 - 1.0;
}

/* rows x cols column-major with leading dimension ld, plus SG_SLACK_ELEMS; padding and slack NaN. */
static void fill(void *p, int elem, int rows, int cols, int ld, uint64_t seed)
{
	const size_t total = (size_t)ld * cols + SG_SLACK_ELEMS;

	for (size_t i = 0; i < total; i++) {
		const size_t r = i % (size_t)ld, c = i / (size_t)ld;
		const double v = (c < (size_t)cols && r < (size_t)rows) ? uniform(&seed) : NAN;
		if (elem == 8)
			((double *)p)[i] = v;
		else
			((float *)p)[i] = (float)v;
	}
}

static void case_free(struct sg_case *c)
{
	gp_free(c->A);
	gp_free(c->B);
	gp_free(c->C);
	gp_free(c->R);
	free(c->hA);
	free(c->hB);
	free(c->hR);
	free(c->hC);
	memset(c, 0, sizeof *c);
}

static int blas_call(const struct sg_case *c, CUdeviceptr out)
{
	return c->elem == 8 ? gp_blas_dgemm(c->m, c->n, c->k, c->A, c->lda, c->B, c->ldb, out, c->ldc)
			    : gp_blas_sgemm(c->m, c->n, c->k, c->A, c->lda, c->B, c->ldb, out, c->ldc);
}

static double host_elem(const void *p, int elem, size_t i)
{
	return elem == 8 ? ((const double *)p)[i] : (double)((const float *)p)[i];
}

/* Relative error of out (cuBLAS's or a kernel's) against host dot products in double on
 * REF_SAMPLES entries, the same entries every time. */
static double sampled_err(const struct sg_case *c, const void *out)
{
	uint64_t s = 0x5eed;
	double num = 0, den = 0;

	for (int t = 0; t < REF_SAMPLES; t++) {
		const int i = (int)(splitmix(&s) % (uint64_t)c->m), j = (int)(splitmix(&s) % (uint64_t)c->n);
		double x = 0;
		for (int l = 0; l < c->k; l++)
			x += host_elem(c->hA, c->elem, i + (size_t)l * c->lda) *
			     host_elem(c->hB, c->elem, l + (size_t)j * c->ldb);
		const double d = host_elem(out, c->elem, i + (size_t)j * c->ldc) - x;
		num += d * d;
		den += x * x;
	}
	return den > 0 ? sqrt(num / den) : sqrt(num);
}

/* Time `launch` in batches: warm-up, then reps batches of `batch` calls between two events. */
struct sg_job;
static int job_launch(const struct sg_job *j);
static int job_launch_cb(void *j)
{
	return job_launch(j);
}


struct sg_job {
	const struct sg_variant *v;
	const struct sg_case *c;
	CUfunction fn;
	unsigned grid[3], block[3], dyn;
	CUdeviceptr out;
};

static int job_launch(const struct sg_job *j)
{
	const struct sg_case *c = j->c;
	int m = c->m, n = c->n, k = c->k, lda = c->lda, ldb = c->ldb, ldc = c->ldc;
	CUdeviceptr A = c->A, B = c->B, C = j->out;
	void *args[] = { &m, &n, &k, &A, &lda, &B, &ldb, &C, &ldc };

	if (j->v->kind == SG_K_CUBLAS)
		return blas_call(c, j->out);
	GP_CU(cuLaunchKernel(j->fn, j->grid[0], j->grid[1], j->grid[2], j->block[0], j->block[1], j->block[2], j->dyn,
			     NULL, args, NULL));
	return 0;
error:
	return GP_ECUDA;
}

/* Inputs, reference and cuBLAS time for a problem; reused while consecutive points share it. */
static int case_get(struct gp_run *run, int m, int n, int k, int lda, int ldb, int ldc, int elem,
		    struct sg_case **out)
{
	struct sg_case *c = &cs_cache;
	const size_t na = (size_t)lda * k + SG_SLACK_ELEMS, nb = (size_t)ldb * n + SG_SLACK_ELEMS;
	const size_t nc = (size_t)ldc * n + SG_SLACK_ELEMS;
	const uint64_t seed = ((uint64_t)m * 1000003u + (uint64_t)n) * 1000033u + (uint64_t)k;
	struct sg_job j = { .v = sg_variant_find(elem == 8 ? "cublas_d" : "cublas"), .c = c };
	char why[256];
	int rc;

	if (c->ready && c->m == m && c->n == n && c->k == k && c->lda == lda && c->ldb == ldb && c->ldc == ldc &&
	    c->elem == elem) {
		*out = c;
		return 0;
	}
	case_free(c);
	if ((rc = gp_blas_load(why, sizeof why))) {
		gp_err("%s", why);
		return rc;
	}
	*c = (struct sg_case){ .m = m, .n = n, .k = k, .lda = lda, .ldb = ldb, .ldc = ldc, .elem = elem };
	c->hA = malloc(na * elem);
	c->hB = malloc(nb * elem);
	c->hR = malloc(nc * elem);
	c->hC = malloc(nc * elem);
	if (!c->hA || !c->hB || !c->hR || !c->hC) {
		case_free(c);
		return GP_EFAIL;
	}
	fill(c->hA, elem, m, k, lda, seed);
	fill(c->hB, elem, k, n, ldb, seed ^ 0xb0b0b0b0ull);
	if ((rc = gp_alloc(&c->A, na * elem)) || (rc = gp_alloc(&c->B, nb * elem)) || (rc = gp_alloc(&c->C, nc * elem)) ||
	    (rc = gp_alloc(&c->R, nc * elem)) || (rc = gp_upload(c->A, c->hA, na * elem)) ||
	    (rc = gp_upload(c->B, c->hB, nb * elem)))
		goto fail;
	/* NaN everywhere first: the reference's padding rows stay NaN and are never compared. */
	gp_cu.cuMemsetD8(c->R, 0xff, nc * elem);
	j.out = c->R;
	if ((rc = blas_call(c, c->R)) || (rc = gp_cu.cuCtxSynchronize() ? GP_ECUDA : 0) ||
	    (rc = gp_download(c->hR, c->R, nc * elem)))
		goto fail;
	c->ref_err = sampled_err(c, c->hR);
	if ((rc = gp_time_batches(job_launch_cb, &j, run->warmup, run->reps, BATCH_MS, MAX_BATCH,
					  &c->blas_batch, &c->blas)))
		goto fail;
	c->ready = 1;
	*out = c;
	return 0;
fail:
	case_free(c);
	return rc;
}

/* ---------------------------------------------------------------- the SM clock */

static double measure_clock(struct gp_run *run)
{
	struct gp_clock_sample s;
	CUdeviceptr d_cs = 0, d_sink = 0;
	CUfunction fn;
	int iters = CLOCK_ITERS;
	double mhz = 0;
	void *args[] = { &d_sink, &iters, &d_cs };

	if (gp_kernel(run->dev, gp_image_bench_sgemm, "sg_clock", &fn) || gp_alloc(&d_cs, sizeof s) ||
	    gp_alloc(&d_sink, 256 * sizeof(float)) || gp_launch(fn, (unsigned)run->dev->sms, 256, 0, args, NULL) ||
	    gp_download(&s, d_cs, sizeof s))
		goto out;
	mhz = gp_clock_mhz(&s);
out:
	gp_free(d_cs);
	gp_free(d_sink);
	return mhz;
}

/* ---------------------------------------------------------------- one point */

struct sg_spec {
	const char *kernel;
	int m, n, k, lda, ldb, ldc;
	int target_threads; /* > 0: reserve shared memory so only this many threads fit per SM */
	const char *shape;  /* sgemm_shapes */
	int w;
	int unit;           /* sgemm_lda */
};

#define SG_COMMON_COLS                                                                              \
	"kernel", "seed_kernel", "precision", "m", "n", "k", "lda", "ldb", "ldc", "threads_per_block", \
		"regs_per_thread", "static_smem_bytes", "dyn_smem_bytes", "local_bytes", "blocks_per_sm",   \
		"active_threads_per_sm", "launches_per_rep", "reps", "time_ms_min", "time_ms", "time_ms_max", \
		"spread", "gflops", "clock_MHz", "peak_gflops", "pct_of_peak", "cublas_gflops",             \
		"ratio_to_cublas", "rel_err", "err_bound", "ref_err", "fp64_err", "pipe", "ceiling_gflops",  \
		"math_mode", "status"

struct sg_result {
	int regs, static_smem, local, blocks_per_sm, threads, batch;
	unsigned dyn;
	struct gp_stats t;
	double clock, rel_err, fp64_err;
};

static void put_extras(struct gp_table *t, const struct sg_spec *s)
{
	if (gp_table_col(t, "shape") >= 0)
		gp_row_str(t, "shape", s->shape ? s->shape : "");
	if (gp_table_col(t, "w") >= 0)
		gp_row_int(t, "w", s->w);
	if (gp_table_col(t, "pad_unit") >= 0)
		gp_row_int(t, "pad_unit", s->unit);
	if (gp_table_col(t, "target_threads_per_sm") >= 0)
		gp_row_int(t, "target_threads_per_sm", s->target_threads);
}

static int put_row(struct gp_run *run, struct gp_table *t, const struct sg_spec *s, const struct sg_variant *v,
		   const struct sg_case *c, const struct sg_result *r, const char *status)
{
	const int lanes = v->elem == 8 ? sg_fp64_lanes_per_sm(run->dev->cc_major, run->dev->cc_minor)
				       : gp_fp32_lanes_per_sm(run->dev->cc_major, run->dev->cc_minor);
	const int ok = r && !strcmp(status, "ok");
	const double gf = ok ? sg_gflops(s->m, s->n, s->k, r->t.median) : NAN;
	const double peak = ok && r->clock > 0 ? sg_peak_gflops(lanes, run->dev->sms, r->clock) : NAN;
	const double bgf = c && c->ready ? sg_gflops(s->m, s->n, s->k, c->blas.median) : NAN;
	char err[128];

	gp_row_begin(t);
	gp_row_str(t, "kernel", s->kernel);
	gp_row_str(t, "seed_kernel", v ? v->seed : "");
	gp_row_str(t, "precision", v && v->elem == 8 ? "double" : "single");
	gp_row_int(t, "m", s->m);
	gp_row_int(t, "n", s->n);
	gp_row_int(t, "k", s->k);
	gp_row_int(t, "lda", s->lda);
	gp_row_int(t, "ldb", s->ldb);
	gp_row_int(t, "ldc", s->ldc);
	put_extras(t, s);
	gp_row_int(t, "threads_per_block", r ? r->threads : 0);
	gp_row_int(t, "regs_per_thread", r ? r->regs : 0);
	gp_row_int(t, "static_smem_bytes", r ? r->static_smem : 0);
	gp_row_int(t, "dyn_smem_bytes", r ? r->dyn : 0);
	gp_row_int(t, "local_bytes", r ? r->local : 0);
	gp_row_int(t, "blocks_per_sm", r ? r->blocks_per_sm : 0);
	gp_row_int(t, "active_threads_per_sm", r ? (long long)r->blocks_per_sm * r->threads : 0);
	gp_row_int(t, "launches_per_rep", r ? r->batch : 0);
	gp_row_int(t, "reps", run->reps);
	gp_row_num(t, "time_ms_min", ok ? r->t.min : NAN);
	gp_row_num(t, "time_ms", ok ? r->t.median : NAN);
	gp_row_num(t, "time_ms_max", ok ? r->t.max : NAN);
	gp_row_num(t, "spread", ok ? r->t.spread : NAN);
	gp_row_num(t, "gflops", gf);
	gp_row_num(t, "clock_MHz", r ? r->clock : NAN);
	gp_row_num(t, "peak_gflops", peak);
	gp_row_num(t, "pct_of_peak", ok ? 100.0 * gf / peak : NAN);
	gp_row_num(t, "cublas_gflops", bgf);
	gp_row_num(t, "ratio_to_cublas", ok ? gf / bgf : NAN);
	gp_row_num(t, "rel_err", r ? r->rel_err : NAN);
	gp_row_num(t, "err_bound", sg_err_bound(s->k, v ? v->elem : 4));
	gp_row_num(t, "ref_err", c && c->ready ? c->ref_err : NAN);
	gp_row_num(t, "fp64_err", r ? r->fp64_err : NAN);
	gp_row_str(t, "pipe", !v ? "" : v->kind == SG_K_CUBLAS ? "cublas" : v->tc ? "3xtf32 mma" : v->elem == 8 ? "fp64 fma"
													    : "fp32 fma");
	gp_row_num(t, "ceiling_gflops",
		   v && r && r->clock > 0 && v->kind != SG_K_CUBLAS
			   ? sg_ceiling_gflops(v, run->dev->cc_major, run->dev->cc_minor, run->dev->sms, r->clock)
			   : NAN);
	gp_row_str(t, "math_mode", GP_BLAS_MATH_MODE);
	gp_row_str(t, "status", status);
	if (gp_row_end(t, err, sizeof err)) {
		gp_err("internal: sgemm row: %s", err);
		return GP_EFAIL;
	}
	return 0;
}

/* Registers, shared memory, spills and resident blocks of a kernel at its launch shape. */
static int resources(struct sg_job *j, struct sg_result *r)
{
	int v;

	r->threads = (int)(j->block[0] * j->block[1] * j->block[2]);
	if (j->v->kind == SG_K_CUBLAS)
		return 0;
	GP_CU(cuFuncGetAttribute(&r->regs, CU_FUNC_ATTRIBUTE_NUM_REGS, j->fn));
	GP_CU(cuFuncGetAttribute(&r->static_smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, j->fn));
	GP_CU(cuFuncGetAttribute(&r->local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, j->fn));
	GP_CU(cuOccupancyMaxActiveBlocksPerMultiprocessor(&v, j->fn, r->threads, j->dyn));
	r->blocks_per_sm = v;
	r->dyn = j->dyn;
	return 0;
error:
	return GP_ECUDA;
}

static double rel_err(const struct sg_case *c)
{
	return c->elem == 8 ? sg_rel_err_d(c->hC, c->hR, c->m, c->n, c->ldc)
			    : sg_rel_err_f(c->hC, c->hR, c->m, c->n, c->ldc);
}

static int prepare_job(struct gp_run *run, const struct sg_spec *s, struct sg_job *j, struct sg_result *r,
		       char *status, size_t slen)
{
	const struct sg_variant *v = j->v;
	int rc;

	sg_launch_dims(v, s->m, s->n, j->grid, j->block);
	j->dyn = (unsigned)v->dyn_smem;
	if (v->kind == SG_K_CUBLAS)
		return resources(j, r);
	if ((rc = gp_kernel(run->dev, gp_image_bench_sgemm, v->name, &j->fn)))
		return rc;
	/* Carveout: the occupancy sweep needs the whole shared memory; elsewhere the driver's choice. */
	GP_CU(cuFuncSetAttribute(j->fn, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
				 s->target_threads > 0 ? 100 : -1));
	if (s->target_threads > 0) {
		int st = 0;
		const int threads = (int)(j->block[0] * j->block[1]);
		const int blocks = s->target_threads / threads;
		long dyn;
		GP_CU(cuFuncGetAttribute(&st, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, j->fn));
		dyn = blocks * threads == s->target_threads
			      ? sg_reserve_smem(blocks, st + v->dyn_smem, SMEM_RESERVED_PER_BLOCK, run->dev->smem_per_sm,
						run->dev->smem_per_block_optin)
			      : -1;
		if (dyn < 0) {
			snprintf(status, slen, "n/a: %d threads per SM is not a whole number of blocks that fit",
				 s->target_threads);
			return 0;
		}
		j->dyn = (unsigned)(dyn + v->dyn_smem);
	}
	if (j->dyn > 48 * 1024)
		GP_CU(cuFuncSetAttribute(j->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)j->dyn));
	return resources(j, r);
error:
	return GP_ECUDA;
}

static int measure_spec(struct gp_run *run, struct gp_table *t, const struct sg_spec *s)
{
	const struct sg_variant *v = sg_variant_find(s->kernel);
	struct sg_result r = { .rel_err = NAN, .fp64_err = NAN };
	struct sg_job j = { .v = v };
	struct sg_case *c = NULL;
	char status[256] = "ok", why[200];
	const size_t nc = (size_t)s->ldc * s->n + SG_SLACK_ELEMS;
	int rc;

	if (!v) {
		gp_err("internal: no GEMM variant %s", s->kernel);
		return GP_EFAIL;
	}
	if (sg_supports(v, s->m, s->n, s->k, s->lda, s->ldb, s->ldc, why, sizeof why)) {
		snprintf(status, sizeof status, "n/a: %s", why);
		return put_row(run, t, s, v, NULL, NULL, status);
	}
	if (v->tc && !sg_tf32_flops_per_clk_sm(run->dev->cc_major, run->dev->cc_minor)) {
		snprintf(status, sizeof status, "n/a: needs TF32 tensor cores (sm_80 or newer), this is sm_%d%d",
			 run->dev->cc_major, run->dev->cc_minor);
		return put_row(run, t, s, v, NULL, NULL, status);
	}
	if ((rc = case_get(run, s->m, s->n, s->k, s->lda, s->ldb, s->ldc, v->elem, &c))) {
		snprintf(status, sizeof status, "no reference: %s", gp_last_error());
		put_row(run, t, s, v, NULL, NULL, status);
		return rc;
	}
	if (c->ref_err > sg_err_bound(s->k, v->elem))
		snprintf(status, sizeof status, "cuBLAS reference off by %.3g on sampled entries (bound %.3g)",
			 c->ref_err, sg_err_bound(s->k, v->elem));
	j.c = c;
	j.out = c->C;
	if ((rc = prepare_job(run, s, &j, &r, status, sizeof status)))
		goto done;
	if (strncmp(status, "ok", 3)) {
		rc = gp_status_rc(status);
		goto row;
	}
	/* Correctness first: a poisoned output, one run, compared with the reference. */
	gp_cu.cuMemsetD8(c->C, 0xff, nc * v->elem);
	if ((rc = job_launch(&j)) || (rc = gp_cu.cuCtxSynchronize() ? GP_ECUDA : 0) ||
	    (rc = gp_download(c->hC, c->C, nc * v->elem)))
		goto done;
	r.rel_err = rel_err(c);
	r.fp64_err = sampled_err(c, c->hC);
	if (!(r.rel_err <= sg_err_bound(s->k, v->elem))) {
		snprintf(status, sizeof status, "wrong result: relative error %.3g above the bound %.3g", r.rel_err,
			 sg_err_bound(s->k, v->elem));
		rc = GP_EVALID;
		goto row;
	}
	/* Closer than the bound above, and against the exact result: a float kernel must be as
	 * accurate as FP32 done right (cuBLAS pedantic, same entries), not merely close to it; this
	 * is what separates an FP32-accurate 3xTF32 split from plain TF32 (~2^-11 per product). The
	 * host's double dot products are exact enough only for float (double kernels: recorded). */
	if (v->elem == 4 && !sg_accuracy_ok(r.fp64_err, c->ref_err)) {
		snprintf(status, sizeof status,
			 "less accurate than FP32: error %.3g against exact dot products, %.3g x cuBLAS's %.3g (limit %gx)",
			 r.fp64_err, r.fp64_err / c->ref_err, c->ref_err, SG_ACCURACY_FACTOR);
		rc = GP_EVALID;
		goto row;
	}
	if (v->kind == SG_K_CUBLAS) {
		r.t = c->blas;
		r.batch = c->blas_batch;
	} else if ((rc = gp_time_batches(job_launch_cb, &j, run->warmup, run->reps, BATCH_MS, MAX_BATCH,
					  &r.batch, &r.t))) {
		goto done;
	}
	r.clock = measure_clock(run);
	if (r.clock <= 0) {
		snprintf(status, sizeof status, "clock sample too short to measure the SM clock");
	} else {
		const double gf = sg_gflops(s->m, s->n, s->k, r.t.median);
		/* cuBLAS DGEMM may use the FP64 tensor cores (DMMA, twice the FMA rate on sm_90): its
		 * ceiling is 2x; cuBLAS SGEMM in pedantic mode and our FFMA kernels are held to the FMA
		 * peak, the 3xTF32 kernels to a third of the TF32 tensor rate. */
		const double ceiling = (v->kind == SG_K_CUBLAS && v->elem == 8 ? 2.0 : 1.0) *
				       sg_ceiling_gflops(v, run->dev->cc_major, run->dev->cc_minor, run->dev->sms, r.clock);
		if (ceiling > 0 && gf > 1.01 * ceiling)
			snprintf(status, sizeof status, "%.0f GFLOP/s above the %.0f GFLOP/s peak at %.0f MHz: broken probe",
				 gf, ceiling, r.clock);
	}
	rc = gp_status_rc(status);
row:
	if (put_row(run, t, s, v, c, &r, status))
		return GP_EFAIL;
	return rc;
done:
	snprintf(status, sizeof status, "CUDA error: %s", gp_last_error());
	put_row(run, t, s, v, c, &r, status);
	return rc ? rc : GP_ECUDA;
}

/* ---------------------------------------------------------------- parameters */

#define SGEMM_KERNELS                                                                               \
	"sgemm_01_naive sgemm_02_smem sgemm_03_smem32_ilp4 sgemm_04_volkov sgemm_05_volkov_lds128 "  \
	"sgemm_06_method1 sgemm_07_method2 sgemm_08_method3 sgemm_09_method4 sgemm_10_method5_v1 "   \
	"sgemm_11_method5_v2 sgemm_12_method5_v3 sgemm_13_method6 sgemm_14_method7 sgemm_15_method8 " \
	"sgemm_16_k3 sgemm_17_p4_tile sgemm_18_p4_smem_rowsplit sgemm_19_p4_smem sgemm_20_p4_cola "  \
	"sgemm_21_p4_fragdb sgemm_22_p4_smemdb sgemm_23_k1_8x8 sgemm_24_k1_12x12_base "              \
	"sgemm_25_k1_12x12_ld128 sgemm_26_k1_12x12 sgemm_27_k1_12x12_lds128 sgemm_28_k1_12x12_nordb " \
	"sgemm_29_warptile sgemm_30_cpasync3 sgemm_31_cpasync4_bk16 sgemm_32_cpasync3_128x256 "      \
	"sgemm_33_fragpipe sgemm_34_fragpipe_bk16 sgemm_35_regstage_128x256 "                         \
	"sgemm_36_regstage_256x128 sgemm_37_fragpipe_128x256 sgemm_38_fragpipe_128x256_bk16 "         \
	"sgemm_39_cp16_kmajor3 sgemm_40_cp16_kmajor4_128x256 sgemm_41_tc3xtf32 sgemm_42_tc3xtf32_4stage "   \
	"sgemm_43_tc3xtf32_128x256 sgemm_44_tc3xtf32_bk16 cublas"
#define DGEMM_KERNELS                                                                               \
	"dgemm_01_naive dgemm_02_smem16 dgemm_03_smem32 dgemm_04_ilp4 dgemm_05_k3_16x16 "             \
	"dgemm_05_k3_16x8 dgemm_05_k3_8x8 dgemm_05_k3_8x4 dgemm_05_k3_4x4 dgemm_05_k3_16x16_tw8 "      \
	"dgemm_05_k3_16x16_tw32 dgemm_05_k3_16x8_tw8 dgemm_05_k3_16x8_tw32 dgemm_06_k3_16x16_c "       \
	"dgemm_06_k3_16x8_c cublas_d"

static void sgemm_report(FILE *md, const struct gp_table *t, const struct gp_table *ref);
static void shapes_report(FILE *md, const struct gp_table *t, const struct gp_table *ref);
static void occupancy_report(FILE *md, const struct gp_table *t, const struct gp_table *ref);
static void lda_report(FILE *md, const struct gp_table *t, const struct gp_table *ref);
static void dgemm_report(FILE *md, const struct gp_table *t, const struct gp_table *ref);
static void sgemm_derive(struct gp_profile *prof, const struct gp_table *t);

/* ---- sgemm: square sizes (n = k = 0 mean "= m") and any m x n x k (seed 002: 2560 2560 1024). */

static const struct gp_param sgemm_params[] = {
	{ "m", GP_PARAM_INT, 1, 16384, NULL, "4096", "rows of A and C" },
	{ "n", GP_PARAM_INT, 0, 16384, NULL, "0", "columns of B and C (0: = m)" },
	{ "k", GP_PARAM_INT, 0, 16384, NULL, "0", "columns of A, rows of B (0: = m)" },
	{ "kernel", GP_PARAM_NAME, 0, 0, SGEMM_KERNELS, SGEMM_KERNELS, "ladder variant or cublas" },
};

static const char *const sgemm_cols[] = { SG_COMMON_COLS };

static int sgemm_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	struct sg_spec s = { .kernel = gp_point_str(pt, "kernel"), .m = (int)gp_point_int(pt, "m") };

	s.n = gp_point_int(pt, "n") ? (int)gp_point_int(pt, "n") : s.m;
	s.k = gp_point_int(pt, "k") ? (int)gp_point_int(pt, "k") : s.m;
	s.lda = s.m, s.ldb = s.k, s.ldc = s.m;
	return measure_spec(run, t, &s);
}

GP_EXP_IMPL(sgemm, sgemm_params, sgemm_cols, sgemm_measure);
GP_ANALYSIS(sgemm, sgemm_derive, sgemm_report);

/* ---- sgemm_shapes: seed 001 Figure 8's rectangular shapes [M, K, N], and seed 002's size. */

static const struct gp_param shapes_params[] = {
	{ "w", GP_PARAM_INT, 1, 4096, NULL, "768", "the unit W (shapes are multiples of W)" },
	{ "shape", GP_PARAM_NAME, 0, 0, "www w2w4w w4ww 4ww4w 4w2ww seed002", "www w2w4w w4ww 4ww4w 4w2ww",
	  "[M,K,N] = [W,W,W] [W,2W,4W] [W,4W,W] [4W,W,4W] [4W,2W,W]; seed002: 2560 x 1024 x 2560 (W ignored)" },
	{ "kernel", GP_PARAM_NAME, 0, 0, SGEMM_KERNELS, "sgemm_23_k1_8x8 sgemm_26_k1_12x12 sgemm_30_cpasync3 cublas",
	  "ladder variant or cublas" },
};

static const char *const shapes_cols[] = { "shape", "w", SG_COMMON_COLS };

static int shapes_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	struct sg_spec s = { .kernel = gp_point_str(pt, "kernel"), .shape = gp_point_str(pt, "shape"),
			     .w = (int)gp_point_int(pt, "w") };

	if (sg_shape(s.shape, s.w, &s.m, &s.k, &s.n)) {
		gp_err("internal: shape %s", s.shape);
		return GP_EFAIL;
	}
	s.lda = s.m, s.ldb = s.k, s.ldc = s.m;
	return measure_spec(run, t, &s);
}

GP_EXP_IMPL(sgemm_shapes, shapes_params, shapes_cols, shapes_measure);
GP_ANALYSIS(sgemm_shapes, NULL, shapes_report);

/* ---- sgemm_occupancy: GFLOP/s against active threads per SM, capped by reserved shared memory. */

static const struct gp_param occ_params[] = {
	{ "m", GP_PARAM_INT, 64, 16384, NULL, "4096", "square size" },
	{ "threads", GP_PARAM_INT, 32, 2048, NULL, "128 192 256 320 384 512 768 1024 1536 2048",
	  "target active threads per SM (whole blocks)" },
	{ "kernel", GP_PARAM_NAME, 0, 0, SGEMM_KERNELS, "sgemm_04_volkov sgemm_06_method1 sgemm_30_cpasync3",
	  "ladder variant" },
};

static const char *const occ_cols[] = { "target_threads_per_sm", SG_COMMON_COLS };

static int occ_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	struct sg_spec s = { .kernel = gp_point_str(pt, "kernel"), .m = (int)gp_point_int(pt, "m"),
			     .target_threads = (int)gp_point_int(pt, "threads") };

	s.n = s.k = s.lda = s.ldb = s.ldc = s.m;
	if (!strcmp(s.kernel, "cublas")) {
		s.target_threads = 0; /* cuBLAS picks its own launch: one unreserved row per size */
	}
	return measure_spec(run, t, &s);
}

GP_EXP_IMPL(sgemm_occupancy, occ_params, occ_cols, occ_measure);
GP_ANALYSIS(sgemm_occupancy, NULL, occupancy_report);

/* ---- sgemm_lda: leading dimensions padded to a multiple of `unit` (seed 000 Figures 42-49). */

static const struct gp_param lda_params[] = {
	{ "m", GP_PARAM_INT, 64, 16384, NULL, "4100 4096", "square size (32k + 4 is the seed's bad case)" },
	{ "unit", GP_PARAM_INT, 1, 256, NULL, "1 4 8 16 32", "lda, ldb, ldc rounded up to a multiple of this" },
	{ "kernel", GP_PARAM_NAME, 0, 0, SGEMM_KERNELS, "sgemm_12_method5_v3 sgemm_13_method6 sgemm_16_k3 cublas",
	  "ladder variant or cublas" },
};

static const char *const lda_cols[] = { "pad_unit", SG_COMMON_COLS };

static int lda_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	struct sg_spec s = { .kernel = gp_point_str(pt, "kernel"), .m = (int)gp_point_int(pt, "m"),
			     .unit = (int)gp_point_int(pt, "unit") };

	s.n = s.k = s.m;
	s.lda = s.ldb = s.ldc = (int)sg_round_up(s.m, s.unit);
	return measure_spec(run, t, &s);
}

GP_EXP_IMPL(sgemm_lda, lda_params, lda_cols, lda_measure);
GP_ANALYSIS(sgemm_lda, NULL, lda_report);

/* ---- dgemm: seed 003 in double against cuBLAS DGEMM. */

static const struct gp_param dgemm_params[] = {
	{ "n", GP_PARAM_INT, 1, 16384, NULL, "256 512 1024 2048", "square size" },
	{ "kernel", GP_PARAM_NAME, 0, 0, DGEMM_KERNELS, DGEMM_KERNELS, "seed 003 kernel or cublas_d" },
};

static const char *const dgemm_cols[] = { SG_COMMON_COLS };

static int dgemm_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	struct sg_spec s = { .kernel = gp_point_str(pt, "kernel"), .m = (int)gp_point_int(pt, "n") };

	s.n = s.k = s.lda = s.ldb = s.ldc = s.m;
	return measure_spec(run, t, &s);
}

GP_EXP_IMPL(dgemm, dgemm_params, dgemm_cols, dgemm_measure);
GP_ANALYSIS(dgemm, NULL, dgemm_report);

/* ---------------------------------------------------------------- derive */

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

/* The best ladder kernel at the largest square size measured, against cuBLAS there: overall,
 * and the best FFMA kernel alone (the 3xTF32 kernels use the tensor cores). */
static void sgemm_derive(struct gp_profile *prof, const struct gp_table *t)
{
	double big = 0, best = 0, ratio = NAN, blas = NAN, best_ff = 0, ratio_ff = NAN;
	const char *best_k = NULL, *best_ff_k = NULL;
	char method[160];

	for (size_t r = 0; r < t->nrows; r++)
		if (row_ok(t, r) && num(t, r, "m") == num(t, r, "n") && num(t, r, "m") == num(t, r, "k"))
			big = fmax(big, num(t, r, "m"));
	for (size_t r = 0; r < t->nrows; r++) {
		if (!row_ok(t, r) || num(t, r, "m") != big || num(t, r, "n") != big || num(t, r, "k") != big)
			continue;
		if (!strcmp(gp_table_get(t, r, "kernel"), "cublas")) {
			blas = num(t, r, "gflops");
		} else {
			const char *pipe = gp_table_get(t, r, "pipe");
			if (num(t, r, "gflops") > best) {
				best = num(t, r, "gflops");
				ratio = num(t, r, "ratio_to_cublas");
				best_k = gp_table_get(t, r, "kernel");
			}
			if ((!pipe || strcmp(pipe, "3xtf32 mma")) && num(t, r, "gflops") > best_ff) {
				best_ff = num(t, r, "gflops");
				ratio_ff = num(t, r, "ratio_to_cublas");
				best_ff_k = gp_table_get(t, r, "kernel");
			}
		}
	}
	if (best <= 0)
		return;
	snprintf(method, sizeof method, "best ladder kernel (%s), %.0f^3", best_k, big);
	gp_profile_add(prof, "sgemm_best_gflops", best, "GFLOP/s", method, "sgemm");
	if (!isnan(ratio))
		gp_profile_add(prof, "sgemm_best_ratio_to_cublas", ratio, "x", method, "sgemm");
	if (best_ff > 0 && best_ff_k != best_k) {
		snprintf(method, sizeof method, "best FP32 FFMA kernel (%s), %.0f^3", best_ff_k, big);
		gp_profile_add(prof, "sgemm_best_ffma_gflops", best_ff, "GFLOP/s", method, "sgemm");
		if (!isnan(ratio_ff))
			gp_profile_add(prof, "sgemm_best_ffma_ratio_to_cublas", ratio_ff, "x", method, "sgemm");
	}
	if (!isnan(blas))
		gp_profile_add(prof, "cublas_sgemm_gflops", blas, "GFLOP/s", GP_BLAS_MATH_MODE ", largest square size",
			       "sgemm");
}

/* ---------------------------------------------------------------- reports */

static const char *ref_or_dash(const struct gp_table *ref, const char *exp, const char *key)
{
	const char *v = gp_reference(ref, exp, key, NULL, NULL);
	return v ? v : "–";
}

/* The ok row of a kernel at (m, n, k) (n, k < 0: any), or -1. */
static long find_row(const struct gp_table *t, const char *kernel, double m, double n, double k, const char *xcol,
		     double x)
{
	for (size_t r = 0; r < t->nrows; r++)
		if (row_ok(t, r) && !strcmp(gp_table_get(t, r, "kernel"), kernel) && num(t, r, "m") == m &&
		    (n < 0 || num(t, r, "n") == n) && (k < 0 || num(t, r, "k") == k) && (!xcol || num(t, r, xcol) == x))
			return (long)r;
	return -1;
}

static void cell(FILE *md, const struct gp_table *t, long r, const char *col)
{
	const char *v = r >= 0 ? gp_table_get(t, (size_t)r, col) : NULL;
	fprintf(md, " %s |", v ? v : "–");
}

/* Distinct values of a numeric column over ok rows, ascending (at most max). */
static size_t distinct(const struct gp_table *t, const char *col, double *out, size_t max)
{
	size_t n = 0;

	for (size_t r = 0; r < t->nrows; r++) {
		const double v = num(t, r, col);
		size_t i;
		if (!row_ok(t, r) || isnan(v))
			continue;
		for (i = 0; i < n && out[i] != v; i++)
			;
		if (i < n || n == max)
			continue;
		out[n++] = v;
	}
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && out[j - 1] > out[j]; j--) {
			const double x = out[j];
			out[j] = out[j - 1];
			out[j - 1] = x;
		}
	return n;
}

static void sgemm_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const fig9[] = { "sgemm_24_k1_12x12_base", "sgemm_25_k1_12x12_ld128", "sgemm_26_k1_12x12",
					    "sgemm_27_k1_12x12_lds128", "sgemm_28_k1_12x12_nordb" };
	static const char *const fig9_paper[] = { "baseline", "+LD128: 27-35 %", "+LDG128: 5-12 %", "(Hopper step)",
						  "(ablation)" };
	double sizes[64], big = 0;
	const size_t ns = distinct(t, "m", sizes, GP_ARRAY_SIZE(sizes));

	for (size_t i = 0; i < ns; i++)
		if (find_row(t, "cublas", sizes[i], sizes[i], sizes[i], NULL, 0) >= 0)
			big = sizes[i];
	/* 1. Seed 000 Table 4 / Figure 18: cuBLAS vs Volkov over N. */
	fprintf(md, "Seed 000 Table 4 layout (Figure 18): GFLOP/s, R = time(Volkov) / time(cuBLAS); cuBLAS in %s.\n\n"
		    "| N | cuBLAS (here) | volkov (here) | R (here) | CUBLAS 2.3 (paper, C1060) | Volkov (paper) | R (paper) |\n"
		    "|---|---|---|---|---|---|---|\n", GP_BLAS_MATH_MODE);
	for (size_t i = 0; i < ns; i++) {
		const double n = sizes[i];
		const long rb = find_row(t, "cublas", n, n, n, NULL, 0), rv = find_row(t, "sgemm_04_volkov", n, n, n, NULL, 0);
		char kc[32], kv[32], kr[32];
		if (rb < 0 && rv < 0)
			continue;
		snprintf(kc, sizeof kc, "cublas_gflops@%.0f", n);
		snprintf(kv, sizeof kv, "volkov_gflops@%.0f", n);
		snprintf(kr, sizeof kr, "R@%.0f", n);
		fprintf(md, "| %.0f |", n);
		cell(md, t, rb, "gflops");
		cell(md, t, rv, "gflops");
		if (rv >= 0)
			fprintf(md, " %.4f |", 1.0 / num(t, (size_t)rv, "ratio_to_cublas"));
		else
			fprintf(md, " – |");
		fprintf(md, " %s | %s | %s |\n", ref_or_dash(ref, "sgemm", kc), ref_or_dash(ref, "sgemm", kv),
			ref_or_dash(ref, "sgemm", kr));
	}
	/* 2. The ladder at the largest size with cuBLAS, and Table 12's resources. */
	if (big > 0) {
		fprintf(md, "\nThe ladder at %.0f³ (seed 000 Table 12 resources beside it; %% of the FP32 peak at the "
			    "measured clock; ratio to cuBLAS in the same run).\n\n"
			    "| kernel | re-implements | pipe | GFLOP/s | %% of FP32 peak | × cuBLAS | error vs exact / cuBLAS's | "
			    "threads/block | registers | shared B (static+dyn) | spill (local) B | active threads/SM |\n"
			    "|---|---|---|---|---|---|---|---|---|---|---|---|\n", big);
		for (size_t v = 0; v < sg_nvariants; v++) {
			const long r = find_row(t, sg_variants[v].name, big, big, big, NULL, 0);
			if (r < 0)
				continue;
			fprintf(md, "| %s | %s |", sg_variants[v].name, sg_variants[v].seed);
			cell(md, t, r, "pipe");
			cell(md, t, r, "gflops");
			cell(md, t, r, "pct_of_peak");
			cell(md, t, r, "ratio_to_cublas");
			if (!isnan(num(t, (size_t)r, "fp64_err")) && num(t, (size_t)r, "ref_err") > 0)
				fprintf(md, " %.2f |", num(t, (size_t)r, "fp64_err") / num(t, (size_t)r, "ref_err"));
			else
				fprintf(md, " – |");
			cell(md, t, r, "threads_per_block");
			cell(md, t, r, "regs_per_thread");
			fprintf(md, " %.0f |", num(t, (size_t)r, "static_smem_bytes") + num(t, (size_t)r, "dyn_smem_bytes"));
			cell(md, t, r, "local_bytes");
			cell(md, t, r, "active_threads_per_sm");
			fputc('\n', md);
		}
		fprintf(md, "\nPaper (seed 000 Table 12, GT200): registers volkov %s, method1 %s, method2 %s, method3 %s, "
			    "method4 %s; active threads %s / %s / %s / %s / %s.\n",
			ref_or_dash(ref, "sgemm", "regs@volkov"), ref_or_dash(ref, "sgemm", "regs@method1"),
			ref_or_dash(ref, "sgemm", "regs@method2"), ref_or_dash(ref, "sgemm", "regs@method3"),
			ref_or_dash(ref, "sgemm", "regs@method4"), ref_or_dash(ref, "sgemm", "threads@volkov"),
			ref_or_dash(ref, "sgemm", "threads@method1"), ref_or_dash(ref, "sgemm", "threads@method2"),
			ref_or_dash(ref, "sgemm", "threads@method3"), ref_or_dash(ref, "sgemm", "threads@method4"));
		/* 3. Seed 001 Figure 9: the incremental steps as speedup over the baseline. */
		const long base = find_row(t, fig9[0], big, big, big, NULL, 0);
		if (base >= 0) {
			fprintf(md, "\nSeed 001 Figure 9 layout at %.0f³: speedup over the baseline (paper, K20m: +Reg ≈10 %%, "
				    "+Dual 84–106 %% have no Hopper counterpart).\n\n| step | kernel | GFLOP/s | speedup | paper |\n"
				    "|---|---|---|---|---|\n", big);
			for (size_t i = 0; i < GP_ARRAY_SIZE(fig9); i++) {
				const long r = find_row(t, fig9[i], big, big, big, NULL, 0);
				fprintf(md, "| %zu | %s |", i, fig9[i]);
				cell(md, t, r, "gflops");
				if (r >= 0)
					fprintf(md, " %.3f |", num(t, (size_t)r, "gflops") / num(t, (size_t)base, "gflops"));
				else
					fprintf(md, " – |");
				fprintf(md, " %s |\n", fig9_paper[i]);
			}
		}
		fprintf(md, "\nPublished anchors (H100 SXM): cuBLAS FP32 without TF32 %s TFLOP/s; best public SIMT kernel "
			    "(SGEMM_CUDA warptiling) %s TFLOP/s.\n", ref_or_dash(ref, "sgemm", "published_cublas_tflops"),
			ref_or_dash(ref, "sgemm", "published_simt_best_tflops"));
	}
	/* 4. Seed 002's size. */
	if (find_row(t, "cublas", 2560, 2560, 1024, NULL, 0) >= 0) {
		fprintf(md, "\nSeed 002 size 2560×2560×1024 (paper, Tesla P4: K2-2 row split %s %% → column split %s %% of peak).\n\n"
			    "| kernel | GFLOP/s | %% of peak | × cuBLAS |\n|---|---|---|---|\n",
			ref_or_dash(ref, "sgemm", "p4_rowsplit_pct"), ref_or_dash(ref, "sgemm", "p4_colsplit_pct"));
		for (size_t v = 0; v < sg_nvariants; v++) {
			const long r = find_row(t, sg_variants[v].name, 2560, 2560, 1024, NULL, 0);
			if (r < 0)
				continue;
			fprintf(md, "| %s |", sg_variants[v].name);
			cell(md, t, r, "gflops");
			cell(md, t, r, "pct_of_peak");
			cell(md, t, r, "ratio_to_cublas");
			fputc('\n', md);
		}
	}
	fputc('\n', md);
}

/* Seed 001 Figure 8: ratio to cuBLAS per shape and W. */
static void shapes_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const shapes[] = { "www", "w2w4w", "w4ww", "4ww4w", "4w2ww", "seed002" };
	double ws[64];
	const size_t nw = distinct(t, "w", ws, GP_ARRAY_SIZE(ws));

	fprintf(md, "Seed 001 Figure 8 layout: GFLOP/s (× cuBLAS) per shape [M,K,N] and W. Paper (K20m): 12288² %s vs "
		    "cuBLAS 7.0 %s TFLOP/s.\n\n| shape | W | kernel | GFLOP/s | × cuBLAS |\n|---|---|---|---|---|\n",
		ref_or_dash(ref, "sgemm_shapes", "k1_12x12_tflops@12288"), ref_or_dash(ref, "sgemm_shapes", "cublas_tflops@12288"));
	for (size_t s = 0; s < GP_ARRAY_SIZE(shapes); s++)
		for (size_t i = 0; i < nw; i++)
			for (size_t r = 0; r < t->nrows; r++) {
				if (!row_ok(t, r) || strcmp(gp_table_get(t, r, "shape"), shapes[s]) || num(t, r, "w") != ws[i])
					continue;
				fprintf(md, "| %s | %.0f | %s |", shapes[s], ws[i], gp_table_get(t, r, "kernel"));
				cell(md, t, (long)r, "gflops");
				cell(md, t, (long)r, "ratio_to_cublas");
				fputc('\n', md);
			}
	fputc('\n', md);
}

/* Seed 000 Tables 6, 7, 11: GFLOP/s per N and active threads per SM. */
static void occupancy_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	double th[32], ms[32];
	const size_t nt = distinct(t, "active_threads_per_sm", th, GP_ARRAY_SIZE(th));
	const size_t nm = distinct(t, "m", ms, GP_ARRAY_SIZE(ms));

	fprintf(md, "Seed 000 Tables 6 / 7 / 11 layout: GFLOP/s against active threads per SM (capped by reserving "
		    "shared memory; the count is the occupancy API's). Paper (C1060, N = 4096): volkov %s at 512 threads, "
		    "%s at 256; method1_variant %s at 320.\n\n| kernel | N |",
		ref_or_dash(ref, "sgemm_occupancy", "volkov@4096@512"), ref_or_dash(ref, "sgemm_occupancy", "volkov@4096@256"),
		ref_or_dash(ref, "sgemm_occupancy", "method1_variant@4096@320"));
	for (size_t i = 0; i < nt; i++)
		fprintf(md, " %.0f |", th[i]);
	fprintf(md, "\n|---|---|");
	for (size_t i = 0; i < nt; i++)
		fprintf(md, "---|");
	fputc('\n', md);
	for (size_t v = 0; v < sg_nvariants; v++)
		for (size_t j = 0; j < nm; j++) {
			int any = 0;
			for (size_t i = 0; i < nt; i++)
				any |= find_row(t, sg_variants[v].name, ms[j], -1, -1, "active_threads_per_sm", th[i]) >= 0;
			if (!any)
				continue;
			fprintf(md, "| %s | %.0f |", sg_variants[v].name, ms[j]);
			for (size_t i = 0; i < nt; i++)
				cell(md, t, find_row(t, sg_variants[v].name, ms[j], -1, -1, "active_threads_per_sm", th[i]),
				     "gflops");
			fputc('\n', md);
		}
	fputc('\n', md);
}

/* Seed 000 Figures 42-49: GFLOP/s per padding unit. */
static void lda_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	double us[16], ms[32];
	const size_t nu = distinct(t, "pad_unit", us, GP_ARRAY_SIZE(us)), nm = distinct(t, "m", ms, GP_ARRAY_SIZE(ms));

	fprintf(md, "Seed 000 Figures 42–49 layout: GFLOP/s with lda = ldb = ldc rounded up to a multiple of the unit. "
		    "Paper (C1060): unit 8 gives %s, unit 16 %s over unpadded for N > 1500.\n\n| kernel | N |",
		ref_or_dash(ref, "sgemm_lda", "gain@8"), ref_or_dash(ref, "sgemm_lda", "gain@16"));
	for (size_t i = 0; i < nu; i++)
		fprintf(md, " unit %.0f |", us[i]);
	fprintf(md, "\n|---|---|");
	for (size_t i = 0; i < nu; i++)
		fprintf(md, "---|");
	fputc('\n', md);
	for (size_t v = 0; v < sg_nvariants; v++)
		for (size_t j = 0; j < nm; j++) {
			if (find_row(t, sg_variants[v].name, ms[j], -1, -1, NULL, 0) < 0)
				continue;
			fprintf(md, "| %s | %.0f |", sg_variants[v].name, ms[j]);
			for (size_t i = 0; i < nu; i++)
				cell(md, t, find_row(t, sg_variants[v].name, ms[j], -1, -1, "pad_unit", us[i]), "gflops");
			fputc('\n', md);
		}
	fputc('\n', md);
}

/* Seed 003 Tables 2-4: GFLOP/s per N and kernel, paper's K80 numbers beside. */
static void dgemm_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	double ns[64];
	const size_t nn = distinct(t, "m", ns, GP_ARRAY_SIZE(ns));

	fprintf(md, "Seed 003 Tables 3 / 4 layout (double): GFLOP/s; %% of the FP64 FMA peak; cuBLAS DGEMM may run on the "
		    "FP64 tensor cores (check its SASS for DMMA).\n\n| N | kernel | GFLOP/s | %% of FP64 peak | × cuBLAS | "
		    "paper 16x8 (K80) | paper 16x16 (K80) |\n|---|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < nn; i++)
		for (size_t v = 0; v < sg_nvariants; v++) {
			const long r = find_row(t, sg_variants[v].name, ns[i], -1, -1, NULL, 0);
			char k1[32], k2[32];
			if (r < 0 || sg_variants[v].elem != 8)
				continue;
			snprintf(k1, sizeof k1, "16x8@%.0f", ns[i]);
			snprintf(k2, sizeof k2, "16x16@%.0f", ns[i]);
			fprintf(md, "| %.0f | %s |", ns[i], sg_variants[v].name);
			cell(md, t, r, "gflops");
			cell(md, t, r, "pct_of_peak");
			cell(md, t, r, "ratio_to_cublas");
			fprintf(md, " %s | %s |\n", ref_or_dash(ref, "dgemm", k1), ref_or_dash(ref, "dgemm", k2));
		}
	fputc('\n', md);
}
