/* tsm2.c — TSM2X (seed 004) measured: tsm2r, tsm2l and tsm2_search, one GP_RUN_BATCH probe. A
 * point is one kernel (or cuBLAS) on one problem (tsm2_env.c): C poisoned with NaN, timed batches
 * of >= 2 ms, C after the last launch held to the cuBLAS reference (64 u sqrt(k)). Rates are
 * compulsory bytes (A, B read once, C written once) over time; above the datasheet HBM rate while
 * the problem exceeds L2 the row is a broken probe. Pitfall: V4 and V5 add into C, so every launch
 * is a memset of C and the kernel, and their atomics' traffic is not counted. Reports: tsm2_report.c. */
#include "gp.h"
#include "blas.h"
#include "experiment.h"
#include "measure.h"
#include "tsm2.h"
#include "tsm2_bench.h"

#include <math.h>
#include <string.h>

/* The image of every grid entry, in the list's order (tsm2_instance's index). */
#define TSM2(img, kind, P, t2, t3) extern const unsigned char gp_image_bench_tsm2_##img[];
#include "tsm2.list"
#undef TSM2
static const unsigned char *const images[] = {
#define TSM2(img, kind, P, t2, t3) gp_image_bench_tsm2_##img,
#include "tsm2.list"
#undef TSM2
};
extern const unsigned char gp_image_bench_tsm2_aux[];

struct spec {
	enum tsm2_kind kind;
	int elem, m, k, n, t1, t2, t3, tcf;
	int ksplit;         /* V4: k slices asked for, 0 = TSM2_KSPLIT_WAVES waves */
	double lat_comp;    /* the model's FMA latency, 0 = FFMA 4 / DFMA 8 */
	const char *choice; /* tsm2_search's "choice" column */
};

/* A point: its spec, the problem, C, the kernel's arguments and resources. */
struct point {
	struct spec s;
	const struct tsm2_problem *p;
	CUdeviceptr A, B, C;
	const void *hC;
	int m, k, n, lda, ldb, ldc;
	int regs, local, blocks_per_sm;
	unsigned grid, ks; /* ks: gridDim.y, V4's k slices as used, 1 for every other kernel */
};

/* ---------------------------------------------------------------- the kernel */

const unsigned char *tsm2_image(int instance)
{
	return instance >= 0 && (size_t)instance < GP_ARRAY_SIZE(images) ? images[instance] : NULL;
}

/* The instance's function from the image the grid puts it in; GP_EFAIL for one not in the grid. */
static int kernel_of(struct gp_device *dev, const struct spec *s, CUfunction *fn, char *name, size_t len)
{
	const int i = tsm2_instance(s->kind, s->elem, s->t2, s->t3);

	if (i < 0 || tsm2_kernel_name(s->kind, s->elem, s->t2, s->t3, name, len))
		return GP_EFAIL;
	return gp_kernel(dev, tsm2_image(i), name, fn);
}

/* 0 if the device can launch fn with t1 threads and smem bytes of shared memory, else -1 and why. */
static int launchable(const struct gp_device *dev, CUfunction fn, const char *name, int t1, unsigned smem,
		      char *why, size_t len)
{
	int maxt = 0, regs = 0;

	if (gp_cu.cuFuncGetAttribute(&maxt, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn) ||
	    gp_cu.cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn))
		return snprintf(why, len, "%s: no attributes", name), -1;
	if (maxt < t1)
		return snprintf(why, len, "%s uses %d registers, at most %d threads per block", name, regs, maxt), -1;
	if (smem > (unsigned)dev->smem_per_block_optin)
		return snprintf(why, len, "%u B shared memory per block > %d", smem, dev->smem_per_block_optin), -1;
	return 0;
}

/* ---------------------------------------------------------------- the row's cells */

static void ints(struct gp_meas *m, const char *const *cols, const long long *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		gp_meas_int(m, cols[i], v[i]);
}

/* What the point is, before anything runs (an n/a row keeps these). */
static void spec_cells(struct gp_meas *m)
{
	const struct point *c = m->ctx;
	const struct spec *s = &c->s;
	const double bytes = tsm2_bytes(s->m, s->k, s->n, s->elem);
	static const char *const cols[] = { "m", "k", "n", "t1", "t2", "t3", "tcf", "ksplit", "threads_per_block",
					    "blocks", "regs_per_thread", "local_bytes", "smem_bytes",
					    "active_threads_per_sm", "launches_per_rep", "l2_resident" };
	const long long v[] = { s->m, s->k, s->n, s->t1, s->t2, s->t3, s->tcf, 1, 0, 0, 0, 0, 0, 0, 0,
				bytes <= (double)m->dev->l2_bytes };

	ints(m, cols, v, GP_ARRAY_SIZE(cols));
	gp_meas_str(m, "choice", s->choice ? s->choice : "grid");
	gp_meas_str(m, "kernel", tsm2_kind_name(s->kind));
	gp_meas_str(m, "precision", s->elem == 8 ? "double" : "single");
	gp_meas_num(m, "bytes", bytes);
	gp_meas_num(m, "err_bound", tsm2_err_bound(s->k, s->elem));
	gp_meas_str(m, "math_mode", GP_BLAS_MATH_MODE);
}

/* The process's measurements, where they exist (a first point that is n/a has none yet). */
static void env_cells(struct gp_meas *m)
{
	const struct point *c = m->ctx;
	const struct tsm2_env *e = &tsm2_env;
	struct tsm2_hw hw;

	tsm2_hw_fill(m->dev, c->s.elem, c->s.lat_comp, &hw);
	gp_meas_num(m, "hbm_read_GBps", e->done ? e->stream_gbps : NAN);
	gp_meas_num(m, "datasheet_GBps", e->done ? e->datasheet_gbps : NAN);
	gp_meas_num(m, "clock_MHz", e->done ? e->clock_mhz : NAN);
	gp_meas_num(m, "lat_mem_clk", e->done ? e->lat_clk : NAN);
	gp_meas_num(m, "t2_threshold", e->done ? tsm2_t2_threshold(&hw, c->s.elem) : NAN);
}

/* cuBLAS's time on the problem (the baseline row: its own) and what follows from it. */
static void blas_cells(struct gp_meas *m, double ms)
{
	const struct spec *s = &((const struct point *)m->ctx)->s;
	const double gbps = tsm2_gbps(tsm2_bytes(s->m, s->k, s->n, s->elem), ms);

	gp_meas_num(m, "cublas_time_ms", ms);
	gp_meas_num(m, "cublas_gflops", tsm2_gflops(s->m, s->k, s->n, ms));
	gp_meas_num(m, "cublas_GBps", gbps);
	gp_meas_num(m, "cublas_pct_of_hbm_read", 100.0 * gbps / tsm2_env.stream_gbps);
}

/* M403-M405 and Algorithm 5's time for the launch as made; NaN for V0, V1 and cuBLAS. Threads
 * that carry rows: m per k slice for TSM2R (m / 2 for V5: two rows a thread), the grid for TSM2L
 * (m / tcf). */
static void model_cells(struct gp_meas *m)
{
	const struct point *c = m->ctx;
	const struct spec *s = &c->s;
	const int tsm2l = s->kind == TSM2_L1 || s->kind == TSM2_L2;
	const double rows = tsm2l ? fmin((double)s->m, (double)c->grid * s->t1)
				  : (double)s->m * c->ks / tsm2_rows_per_thread(s->kind, s->tcf, s->elem);
	const double bytes = tsm2_bytes(s->m, s->k, s->n, s->elem);
	double occ = NAN, um = NAN, uc = NAN, mt = NAN;
	struct tsm2_hw hw;

	if (tsm2_env.done && s->kind >= TSM2_V2 && s->kind <= TSM2_L2 && c->regs > 0) {
		tsm2_hw_fill(m->dev, s->elem, s->lat_comp, &hw);
		occ = tsm2_resident(&hw, tsm2_occupancy(&hw, c->regs, s->t1, s->t2, s->elem), rows);
		um = tsm2_util_mem(&hw, occ, s->t3, s->elem);
		uc = tsm2_util_comp(&hw, occ, s->t2, s->t3);
		mt = 1e3 * tsm2_model_time(&hw, s->m, s->k, s->n, s->t1, s->t2, s->t3, s->elem, c->regs, rows);
	}
	gp_meas_num(m, "model_occupancy", occ);
	gp_meas_num(m, "model_util_mem", um);
	gp_meas_num(m, "model_util_comp", uc);
	gp_meas_num(m, "model_time_ms", mt);
	gp_meas_num(m, "model_pct_of_hbm_read", mt > 0 ? 100.0 * tsm2_gbps(bytes, mt) / tsm2_env.stream_gbps : NAN);
}

/* ---------------------------------------------------------------- the probe */

/* Kernel, geometry, resources; n/a when this device cannot launch the instance so. V4's slices:
 * the fewest that make TSM2_KSPLIT_WAVES waves of resident blocks (cuOccupancy for this kernel
 * and shared memory) unless the ksplit parameter names a count. */
static int prepare(struct gp_meas *m)
{
	struct point *c = m->ctx;
	const struct spec *s = &c->s;
	const unsigned smem = (unsigned)tsm2_smem_bytes(s->kind, s->t1, s->t2, s->t3, s->elem);
	char name[64], why[200];
	int rc, v = 0;

	c->grid = (unsigned)tsm2_blocks(s->m, s->t1, tsm2_rows_per_thread(s->kind, s->tcf, s->elem));
	if ((rc = kernel_of(m->dev, s, &m->fn, name, sizeof name)))
		return rc;
	GP_CU(cuFuncGetAttribute(&c->regs, CU_FUNC_ATTRIBUTE_NUM_REGS, m->fn));
	GP_CU(cuFuncGetAttribute(&c->local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, m->fn));
	ints(m, (const char *const[]){ "threads_per_block", "blocks", "regs_per_thread", "local_bytes", "smem_bytes" },
	     (const long long[]){ s->t1, c->grid, c->regs, c->local, smem }, 5);
	if (launchable(m->dev, m->fn, name, s->t1, smem, why, sizeof why))
		return model_cells(m), gp_meas_na(m, "%s", why);
	if (smem > 48 * 1024)
		GP_CU(cuFuncSetAttribute(m->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)smem));
	GP_CU(cuOccupancyMaxActiveBlocksPerMultiprocessor(&v, m->fn, s->t1, smem));
	c->blocks_per_sm = v;
	if (tsm2_splits_k(s->kind))
		c->ks = (unsigned)tsm2_ksplit_for(s->kind, s->ksplit, m->dev->sms, v, (int)c->grid, s->k, s->t1);
	ints(m, (const char *const[]){ "ksplit", "blocks", "active_threads_per_sm" },
	     (const long long[]){ c->ks, (long long)c->grid * c->ks, (long long)v * s->t1 }, 3);
	gp_meas_launch_2d(m, c->grid, c->ks, (unsigned)s->t1, 1, smem);
	gp_meas_args(m, &c->m, &c->k, &c->n, &c->A, &c->lda, &c->B, &c->ldb, &c->C, &c->ldc);
	return 0;
error:
	return GP_ECUDA;
}

/* Shared by the three experiments once their setup has filled the spec. */
static int point_setup(struct gp_meas *m)
{
	struct point *c = m->ctx;
	const struct spec *s = &c->s;
	const size_t nc = (size_t)s->m * s->n + TSM2_SLACK;
	char why[200];
	int rc;

	if (s->kind == TSM2_CUBLAS) /* no block, no tiles: the cuBLAS rows carry 0 */
		c->s.t1 = c->s.t2 = c->s.t3 = 0;
	c->ks = 1;
	spec_cells(m);
	env_cells(m);
	if (tsm2_supports(s->kind, s->elem, s->m, s->k, s->n, s->t1, s->t2, s->t3, s->tcf, why, sizeof why))
		return gp_meas_na(m, "%s", why);
	if ((double)s->m * s->k * s->elem > 0.6 * (double)m->dev->mem_bytes)
		return gp_meas_na(m, "A (%.1f GB) does not fit with the stream buffer", (double)s->m * s->k * s->elem / 1e9);
	if ((rc = tsm2_env_get(m->run)) || (rc = tsm2_problem_get(m->run, s->m, s->k, s->n, s->elem, &c->p)) ||
	    (rc = gp_meas_buf(m, &c->C, nc * s->elem, GP_POISON_NAN)))
		return rc;
	env_cells(m);
	blas_cells(m, c->p->blas_ms);
	gp_meas_num(m, "ref_err", c->p->ref_err);
	c->hC = gp_meas_readback(m, c->C, nc * s->elem, GP_LAST_REP);
	c->A = c->p->A, c->B = c->p->B;
	c->m = c->lda = c->ldc = s->m, c->k = c->ldb = s->k, c->n = s->n;
	return s->kind == TSM2_CUBLAS ? 0 : prepare(m);
}

/* One launch: cuBLAS for the baseline; V4 and V5 add into C, zeroed first inside every timed launch,
 * on the NULL stream in order with the kernel and the timing events (elem is 4 or 8: whole
 * words, and zero words are 0.0). */
static int point_launch(struct gp_meas *m)
{
	const struct point *c = m->ctx;

	if (c->s.kind == TSM2_CUBLAS)
		return tsm2_blas(c->p, c->C);
	if (tsm2_splits_k(c->s.kind))
		GP_CU(cuMemsetD32Async(c->C, 0, (size_t)c->s.m * c->s.n * c->s.elem / 4, NULL));
	GP_CU(cuLaunchKernel(m->fn, m->grid, m->grid_y, 1, m->block, 1, 1, m->smem, NULL, m->args, NULL));
	return 0;
error:
	return GP_ECUDA;
}

/* C after the last launch against the reference (itself checked against the host). */
static void point_sample(struct gp_meas *m)
{
	const struct point *c = m->ctx;
	const double bound = tsm2_err_bound(c->s.k, c->s.elem);
	const double err = tsm2_rel_err(c->hC, c->p->hR, c->s.elem, c->s.m, c->s.n);

	gp_meas_num(m, "rel_err", err);
	if (c->p->ref_err > bound)
		gp_meas_fail(m, "cuBLAS reference off by %.3g on sampled entries", c->p->ref_err);
	else if (!(err <= bound))
		gp_meas_fail(m, "wrong result: relative error %.3g above the bound %.3g", err, bound);
}

/* Rates from the median time; ceilings: the HBM datasheet rate (once the problem exceeds L2) and
 * the FMA peak at the measured clock (cuBLAS DGEMM may use DMMA: 2x the FMA rate on sm_90). */
static void point_finish(struct gp_meas *m)
{
	const struct point *c = m->ctx;
	const struct spec *s = &c->s;
	const double t = gp_meas_stat(m, "time_ms", GP_MEDIAN), bytes = tsm2_bytes(s->m, s->k, s->n, s->elem);
	const double gbps = tsm2_gbps(bytes, t), gf = tsm2_gflops(s->m, s->k, s->n, t);
	const double peak = 2.0 * tsm2_fma_lanes(m->dev, s->elem) * m->dev->sms * tsm2_env.clock_mhz * 1e-3;
	const double bms = s->kind == TSM2_CUBLAS ? t : c->p->blas_ms;

	gp_meas_int(m, "launches_per_rep", m->batch);
	blas_cells(m, bms);
	model_cells(m);
	if (bytes > (double)m->dev->l2_bytes)
		gp_meas_ceiling(m, "compulsory bytes", gbps, tsm2_env.datasheet_gbps, 0.02, "GB/s");
	gp_meas_ceiling(m, "2 m n k", gf, (s->kind == TSM2_CUBLAS && s->elem == 8 ? 2.0 : 1.0) * peak, 0.01,
			"GFLOP/s");
	if (!gp_meas_ok(m)) /* a failed row's rates stay nan */
		return;
	gp_meas_num(m, "gflops", gf);
	gp_meas_num(m, "speedup_vs_cublas", bms / t);
	gp_meas_num(m, "achieved_GBps", gbps);
	gp_meas_num(m, "pct_of_hbm_read", 100.0 * gbps / tsm2_env.stream_gbps);
}

#define TSM2_PROBE(setup_)                                                                          \
	{                                                                                            \
		.runner = GP_RUN_BATCH, .image = gp_image_bench_tsm2_aux, .setup = setup_,           \
		.launch = point_launch, .sample = point_sample, .finish = point_finish,              \
		.primary = "time_ms", .ctx_size = sizeof(struct point), .batch_ms = TSM2_BATCH_MS,   \
		.max_batch = TSM2_MAX_BATCH,                                                         \
	}

/* ---------------------------------------------------------------- the experiments */

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

/* What tsm2r and tsm2l read alike: precision, m, t1, t3 and the kernel (GP_EFAIL for a name the
 * parameter's choices should have refused). */
static int spec_begin(struct gp_meas *m, struct spec *s)
{
	const char *kernel = gp_meas_param_str(m, "kernel");

	*s = (struct spec){ .elem = elem_of(gp_meas_param_str(m, "precision")), .m = (int)gp_meas_param(m, "m"),
			    .t1 = (int)gp_meas_param(m, "t1"), .t3 = (int)gp_meas_param(m, "t3"), .tcf = 1 };
	if (tsm2_kind_parse(kernel, &s->kind)) {
		gp_err("internal: tsm2 kernel '%s'", kernel);
		return GP_EFAIL;
	}
	return 0;
}

/* ---- tsm2r: the TSM2R ladder and V4 against cuBLAS */

static const struct gp_param tsm2r_params[] = {
	{ "precision", GP_PARAM_NAME, 0, 0, "single double", "single double", "float or double" },
	{ "m", GP_PARAM_INT, 1, 65536, NULL, "10240 15360 20480 25600 30720", "rows of A and C" },
	{ "kdiv", GP_PARAM_INT, 1, 1024, NULL, "1", "k = m / kdiv (paper: 1 .. 8)" },
	{ "n", GP_PARAM_INT, 1, 1024, NULL, "2 4 8 16", "columns of B and C" },
	{ "kernel", GP_PARAM_NAME, 0, 0, "v0 v1 v2 v3 v4 v5 v6 cublas", "v0 v1 v2 v3 v4 v5 v6 cublas",
	  "ladder step (beyond the paper: v4 = V3 + split-k, v5 = V4 + LDS.128 B for 2 rows a thread, v6 = V5 with 16 "
	  "bytes of contiguous rows a thread: 4 floats, 2 doubles) or cublas" },
	{ "t1", GP_PARAM_INT, 32, 1024, NULL, "128", "threads per block = rows of the B tile" },
	{ "t2", GP_PARAM_INT, 0, 32, NULL, "0", "C columns per thread (0: n, at most 32)" },
	{ "t3", GP_PARAM_INT, 0, 32, NULL, "0",
	  "A elements per thread per step (0: 16 for V2..V4; V5, V6: the compiled t3 keeping the most A bytes in flight)" },
	{ "ksplit", GP_PARAM_INT, 0, TSM2_KSPLIT_MAX, NULL, "0",
	  "v4, v5, v6: k slices (0: v4, v5 the fewest for 4 waves of resident blocks, v6 2 waves rounded down; at most one "
	  "per t1-long B tile); other kernels run at 0, 1" },
};

/* t3 = 0: 16 for V2..V4 (the paper's setting, as before); for V5 the compiled t3 of this t2
 * whose launch keeps the most A bytes in flight per SM (tsm2_inflight_bytes at the kernel's own
 * occupancy, registers and shared memory as cuOccupancy finds them; the smaller t3 on a tie). 16
 * where none is compiled: the point is then n/a as for any pair the grid lacks. */
static int t3_auto(struct gp_meas *m, const struct spec *s)
{
	int t3s[16], best = 16, blocks;
	double most = 0;

	if (s->kind != TSM2_V5 && s->kind != TSM2_V6)
		return 16;
	tsm2_axis(s->kind, s->elem, 1, t3s, GP_ARRAY_SIZE(t3s));
	for (const int *t = t3s; *t; t++) {
		struct spec c = *s;
		const int smem = (int)tsm2_smem_bytes(c.kind, c.t1, c.t2, *t, c.elem);
		char name[64];
		CUfunction fn;
		c.t3 = *t;
		if (tsm2_instance(c.kind, c.elem, c.t2, c.t3) < 0 || c.t1 % c.t3 || kernel_of(m->dev, &c, &fn, name, sizeof name) ||
		    (smem > 48 * 1024 && gp_cu.cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem)) ||
		    gp_cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fn, c.t1, (size_t)smem))
			continue;
		if (tsm2_inflight_bytes(c.kind, blocks, c.t1, c.t3, c.elem) > most)
			most = tsm2_inflight_bytes(c.kind, blocks, c.t1, c.t3, c.elem), best = c.t3;
	}
	return best;
}

static int tsm2r_setup(struct gp_meas *m)
{
	struct spec *s = &((struct point *)m->ctx)->s;
	int rc;

	if ((rc = spec_begin(m, s)))
		return rc;
	if (!tsm2_splits_k(s->kind) && gp_meas_param(m, "ksplit") > 1)
		return gp_meas_skip(m); /* ksplit means nothing to it: one row, at ksplit 0 or 1 */
	s->n = (int)gp_meas_param(m, "n");
	s->k = s->m / (int)gp_meas_param(m, "kdiv");
	s->ksplit = tsm2_splits_k(s->kind) ? (int)gp_meas_param(m, "ksplit") : 0;
	s->t2 = t2_auto((int)gp_meas_param(m, "t2"), s->n);
	if (s->kind == TSM2_V0 || s->kind == TSM2_V1)
		s->t3 = s->kind == TSM2_V1 ? 1 : 0;
	else if (s->t3 == 0 && s->kind != TSM2_CUBLAS)
		s->t3 = t3_auto(m, s);
	if (s->kind == TSM2_V0)
		s->t2 = 0;
	return point_setup(m);
}

static const struct gp_probe tsm2r_probe = TSM2_PROBE(tsm2r_setup);
GP_EXP_PROBE(tsm2r, tsm2r_params, tsm2_cols, &tsm2r_probe);

/* ---- tsm2l: TSM2L Opt1 / Opt2 over the thread-count factor */

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

static int tsm2l_setup(struct gp_meas *m)
{
	struct spec *s = &((struct point *)m->ctx)->s;
	int rc;

	if ((rc = spec_begin(m, s)))
		return rc;
	if ((s->kind == TSM2_CUBLAS || s->kind == TSM2_V3) && gp_meas_param(m, "tcf") != 1)
		return gp_meas_skip(m); /* tcf means nothing to it: one row per (m, k), at tcf 1 */
	s->n = s->k = (int)gp_meas_param(m, "k");
	s->lat_comp = (double)gp_meas_param(m, "lat_comp");
	s->t2 = t2_auto(0, s->n);
	if (s->t3 <= 0)
		s->t3 = t2_auto(0, s->k > 16 ? 16 : s->k);
	if (s->kind == TSM2_V3 && s->t3 < 4)
		s->t3 = 4;
	if (s->kind == TSM2_L1 || s->kind == TSM2_L2)
		s->tcf = (int)gp_meas_param(m, "tcf");
	return point_setup(m);
}

static const struct gp_probe tsm2l_probe = TSM2_PROBE(tsm2l_setup);
GP_EXP_PROBE(tsm2l, tsm2l_params, tsm2_cols, &tsm2l_probe);

/* ---- tsm2_search: V3 over the grid against the model's choice */

/* The experiment's parameters, and a row's: these plus the configuration and which row it is. */
#define SEARCH_PARAMS                                                                                        \
	{ "precision", GP_PARAM_NAME, 0, 0, "single double", "single double", "float or double" },           \
	{ "m", GP_PARAM_INT, 1, 65536, NULL, "20480", "m = k" },                                             \
	{ "n", GP_PARAM_INT, 1, 1024, NULL, "2 4 8 16 64 128", "columns of B" },                             \
	{ "lat_comp", GP_PARAM_INT, 0, 64, NULL, "0", "FMA latency in clocks for the model (0: FFMA 4, DFMA 8)" }
static const struct gp_param search_params[] = { SEARCH_PARAMS };
static const struct gp_param search_row_params[] = {
	SEARCH_PARAMS,
	{ "t1", GP_PARAM_INT, 32, 1024, NULL, "128", "threads per block" },
	{ "t2", GP_PARAM_INT, 2, 32, NULL, "2", "C columns per thread" },
	{ "t3", GP_PARAM_INT, 2, 32, NULL, "4", "A elements per step" },
	{ "choice", GP_PARAM_NAME, 0, 0, "grid model brute", "grid", "a grid point, the model's or the best" },
};
static const char *const search_cols[] = { "choice", TSM2_COLS };

static int search_setup(struct gp_meas *m)
{
	struct spec *s = &((struct point *)m->ctx)->s;

	*s = (struct spec){ .kind = TSM2_V3, .elem = elem_of(gp_meas_param_str(m, "precision")),
			    .m = (int)gp_meas_param(m, "m"), .k = (int)gp_meas_param(m, "m"),
			    .n = (int)gp_meas_param(m, "n"), .tcf = 1, .lat_comp = (double)gp_meas_param(m, "lat_comp"),
			    .t1 = (int)gp_meas_param(m, "t1"), .t2 = (int)gp_meas_param(m, "t2"),
			    .t3 = (int)gp_meas_param(m, "t3"), .choice = gp_meas_param_str(m, "choice") };
	return point_setup(m);
}

static const struct gp_probe search_probe = TSM2_PROBE(search_setup);
static const struct gp_exp_impl search_row = { .probe = &search_probe };

struct search {
	struct gp_run *run;
	const struct gp_point *pt;
	struct gp_table *t;
	struct tsm2_choice best; /* cost: the best ok grid row's time */
	int worst;
};

/* One row of the search: the experiment's point plus (t1, t2, t3, choice). */
static int search_one(struct search *sr, int t1, int t2, int t3, const char *choice)
{
	struct gp_point row = { .params = search_row_params, .nparams = GP_ARRAY_SIZE(search_row_params) };
	const long v[] = { t1, t2, t3 };
	char num[3][16];
	int rc;

	memcpy(row.str, sr->pt->str, sizeof(row.str[0]) * sr->pt->nparams);
	memcpy(row.num, sr->pt->num, sizeof(row.num[0]) * sr->pt->nparams);
	for (size_t i = 0; i < 3; i++) {
		snprintf(num[i], sizeof num[i], "%ld", v[i]);
		row.str[sr->pt->nparams + i] = num[i];
		row.num[sr->pt->nparams + i] = v[i];
	}
	row.str[sr->pt->nparams + 3] = choice;
	rc = gp_measure(sr->run, &search_row, &row, sr->t);
	sr->worst = rc ? rc : sr->worst;
	return rc;
}

/* A grid point the device can launch; its time if it is the best so far. */
static int search_grid(struct search *sr, int elem, int t1, int t2, int t3)
{
	const int m = (int)gp_point_int(sr->pt, "m"), n = (int)gp_point_int(sr->pt, "n");
	const struct spec s = { .kind = TSM2_V3, .elem = elem, .t1 = t1, .t2 = t2, .t3 = t3 };
	const size_t row = sr->t->nrows;
	char why[200], name[64];
	CUfunction fn;
	int rc;

	/* n/a by construction: a t2 above n, a configuration the grid or this device cannot run */
	if (t2 > n || tsm2_supports(TSM2_V3, elem, m, m, n, t1, t2, t3, 1, why, sizeof why))
		return 0;
	if ((rc = kernel_of(sr->run->dev, &s, &fn, name, sizeof name)))
		return rc;
	if (launchable(sr->run->dev, fn, name, t1, (unsigned)tsm2_smem_bytes(TSM2_V3, t1, t2, t3, elem), why, sizeof why))
		return 0;
	rc = search_one(sr, t1, t2, t3, "grid");
	if (rc != 0 && rc != GP_EVALID)
		return rc;
	if (row < sr->t->nrows && gp_table_row_ok(sr->t, row) && gp_table_num(sr->t, row, "time_ms") < sr->best.cost)
		sr->best = (struct tsm2_choice){ t1, t2, t3, gp_table_num(sr->t, row, "time_ms") };
	return 0;
}

/* V3 over every compiled (t2, t3) x the t1 list, then the model's choice and the brute-force
 * best as two more rows (choice "model" / "brute"). */
static int search_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	static const int t1s[] = { 64, 128, 256, 512, 0 };
	const int elem = elem_of(gp_point_str(pt, "precision")), m = (int)gp_point_int(pt, "m");
	struct search sr = { .run = run, .pt = pt, .t = t, .best = { .cost = INFINITY } };
	struct tsm2_choice model;
	struct tsm2_hw hw;
	int t2s[16], t3s[16], rc;

	tsm2_axis(TSM2_V3, elem, 0, t2s, GP_ARRAY_SIZE(t2s));
	tsm2_axis(TSM2_V3, elem, 1, t3s, GP_ARRAY_SIZE(t3s));
	for (const int *a = t1s; *a; a++)
		for (const int *b = t2s; *b; b++)
			for (const int *c = t3s; *c; c++)
				if ((rc = search_grid(&sr, elem, *a, *b, *c)))
					return rc;
	if ((rc = tsm2_env_get(run))) /* measured by the first grid row, unless n left none */
		return rc;
	tsm2_hw_fill(run->dev, elem, (double)gp_point_int(pt, "lat_comp"), &hw);
	if (!tsm2_model_choose(&hw, m, m, (int)gp_point_int(pt, "n"), 128, elem, &model))
		search_one(&sr, model.t1, model.t2, model.t3, "model");
	if (isfinite(sr.best.cost))
		search_one(&sr, sr.best.t1, sr.best.t2, sr.best.t3, "brute");
	return sr.worst;
}

GP_EXP_IMPL(tsm2_search, search_params, search_cols, search_measure);
