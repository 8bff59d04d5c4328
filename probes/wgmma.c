/* wgmma.c — the measurement of lat_wgmma (H010) and tput_wgmma (H011): Hopper's warpgroup MMA,
 * wgmma.mma_async, for every entry of probes/wgmma.list (kernels in wgmma_90a.cu, report in
 * wgmma_report.c). lat_wgmma times one warpgroup's fence -> mma -> commit -> wait 0 sequence,
 * dependent through the accumulator, with clock64; tput_wgmma fills every SM with warpgroups
 * issuing batches of mma_async into one accumulator and divides the FLOP by event time and the
 * clock measured under that load. Every accumulator element of every thread is checked against
 * count x K (A and B hold 1.0), so a skipped or serialized-away instruction fails the row.
 * Pitfalls: the image is sm_90a, which loads on compute capability 9.0 only (n/a elsewhere); an
 * N = 256 accumulator takes 128 registers a thread (ptxas gives the A-from-registers kernels of
 * N >= 128 64 more), so a block holds at most 2 warpgroups at N = 256, 3 at N = 128; FP8
 * accumulates with ~14 bits, so long runs check the last loop trip's sum (wg_expect). */
#include "gp.h"
#include "experiment.h"
#include "measure.h"
#include "wgmma_shape.h"

#include <math.h>
#include <string.h>

extern const unsigned char gp_image_probes_wgmma_90a[];

struct wg_type {
	const char *name;
	int k;
	unsigned one; /* the 32-bit word of 1.0s A and B are filled with */
	int integer;  /* s32 accumulator (else f32) */
	int exact;    /* the accumulator holds count x K exactly up to 2^exact */
	const char *rate, *sass;
};

#define WG_TYPE(T, K, ONE, INT, EXACT, RATE, SASS) { #T, K, ONE, INT, EXACT, RATE, SASS },
static const struct wg_type wg_types[] = { WGMMA_TYPES(WG_TYPE) };
#undef WG_TYPE

struct wg_kernel {
	const char *type;
	int n;
	const char *src;
	int sparse;
};

#define WGMMA(T, N, S, SP) { #T, N, #S, SP },
static const struct wg_kernel wg_kernels[] = {
#include "wgmma.list"
};
#undef WGMMA

/* The `type` choices, each after a space (the parameter skips the first). */
#define WG_TYPE_NAME(T, ...) " " #T
static const char wg_type_names_sp[] = WGMMA_TYPES(WG_TYPE_NAME);
#undef WG_TYPE_NAME

#define WG_PARAMS_KERNEL                                                                            \
	{ "type", GP_PARAM_NAME, 0, 0, wg_type_names_sp + 1, wg_type_names_sp + 1,                  \
	  "A and B type (f32 accumulator; s32 for s8)" },                                            \
	{ "n", GP_PARAM_INT, 8, WGMMA_MAX_N, NULL, "8 16 32 64 128 256", "N of m64nNk<K> (probes/wgmma.list)" }, \
	{ "a_src", GP_PARAM_NAME, 0, 0, "ss rs", "ss rs", "A from shared memory (ss) or registers (rs)" }, \
	{ "sparse", GP_PARAM_INT, 0, 1, NULL, "0 1", "1: wgmma.mma_async.sp (2:4 sparse A, K doubled)" }

/* What one point runs: the list's kernel, its type, the work of one instruction. */
struct wg_point {
	const struct wg_type *t;
	int n, sparse, ss, count; /* ss: A from shared memory; count: instructions into each accumulator */
	unsigned reset;       /* 1: each loop trip starts the accumulator afresh (see wg_expect) */
	double flop;          /* per instruction: 2 x 64 x N x K (sparse: K doubled) */
	double rate;          /* dense (sparse: 2 x) tensor FLOP/clk/SM; 0 if unknown */
	unsigned want;        /* every accumulator element's bits at the end: count x K */
};

static const struct wg_type *wg_type_find(const char *name)
{
	return GP_FIND_NAME(wg_types, GP_ARRAY_SIZE(wg_types), name);
}

/* 2: the list has (type, n, src, sparse); 1: it has the form at another N only; 0: not at all. */
static int wg_listed(const char *type, int n, const char *src, int sparse)
{
	int found = 0;

	for (size_t i = 0; i < GP_ARRAY_SIZE(wg_kernels); i++)
		if (!strcmp(wg_kernels[i].type, type) && !strcmp(wg_kernels[i].src, src) && wg_kernels[i].sparse == sparse)
			found = wg_kernels[i].n == n ? 2 : found > 1 ? found : 1;
	return found;
}

/* A point the list has no kernel for: n/a where the suite asked for it, no row where the
 * parameter that rules it out is at its defaults (the default sweep's cross product). */
static int wg_unlisted(struct gp_meas *m, int listed)
{
	const int given = listed ? gp_point_given(m->pt, "n")
				 : gp_point_given(m->pt, "type") && gp_point_given(m->pt, "sparse");

	return given ? gp_meas_na(m, "not in probes/wgmma.list") : gp_meas_skip(m);
}

/* The point's kernel (kind "lat" or "tput") and cells; 1 when the row is n/a or skipped (setup
 * returns 0), -1 (an error code in *rc) when loading failed. */
static int wg_kernel_for(struct gp_meas *m, const char *kind, struct wg_point *w, int *rc)
{
	const char *type = gp_meas_param_str(m, "type"), *src = gp_meas_param_str(m, "a_src");
	int listed;

	w->n = (int)gp_meas_param(m, "n");
	w->sparse = (int)gp_meas_param(m, "sparse");
	w->t = wg_type_find(type);
	if (m->dev->cc_major != 9 || m->dev->cc_minor != 0) {
		*rc = gp_meas_na(m, "wgmma needs sm_90a: compute capability 9.0 only");
		return 1;
	}
	if ((listed = wg_listed(type, w->n, src, w->sparse)) < 2 || !w->t) {
		*rc = wg_unlisted(m, listed);
		return 1;
	}
	w->ss = !strcmp(src, "ss");
	w->flop = 2.0 * WGMMA_M * w->n * w->t->k * (w->sparse ? 2 : 1);
	w->rate = gp_tensor_flops_per_clk_sm(w->t->rate, m->dev->cc_major, m->dev->cc_minor) * (w->sparse ? 2 : 1);
	gp_meas_int(m, "k", w->t->k * (w->sparse ? 2 : 1));
	gp_meas_str(m, "sass", w->t->sass);
	*rc = gp_meas_kernel(m, "wgmma_%s_%s_n%d_%s%s", kind, type, w->n, src, w->sparse ? "_sp" : "");
	return *rc ? -1 : 0;
}

/* Each element's value after `count` instructions of K products of 1 x 1, as the accumulator
 * type's bits. Where count x K passes the type's exact range (FP8's 2^14 first), the first
 * instruction of every loop trip of `per_trip` starts the accumulator afresh (scale-d false):
 * the last trip's per_trip x K is then what each element must hold. */
static void wg_expect(struct gp_meas *m, struct wg_point *w, long count, int per_trip)
{
	const int reset = (double)count * w->t->k > (double)(1L << w->t->exact);
	const double v = (double)(reset ? per_trip : count) * w->t->k;
	const float f = (float)v;

	w->count = (int)count;
	w->reset = (unsigned)reset;
	gp_meas_int(m, "acc_reset", reset);
	if (w->t->integer)
		w->want = (unsigned)(long)v;
	else
		memcpy(&w->want, &f, sizeof w->want);
}

/* What both experiments hand their kernels: per thread its loop cycles and its accumulators'
 * min and max, read back `when`. */
struct wg_run {
	struct wg_point w;
	CUdeviceptr cyc, res;
	const unsigned long long *h_cyc;
	const unsigned *h_res;
	unsigned fill, meta;
	int iters;
	size_t nthr;
};

static int wg_launch(struct gp_meas *m, struct wg_run *c, unsigned grid, unsigned block, enum gp_readback when)
{
	int rc;

	c->nthr = (size_t)grid * block;
	c->fill = c->w.t->one;
	c->meta = WGMMA_SP_META;
	if ((rc = gp_meas_buf(m, &c->cyc, c->nthr * sizeof(unsigned long long), GP_NO_POISON)) ||
	    (rc = gp_meas_buf(m, &c->res, 2 * c->nthr * sizeof(unsigned), GP_POISON_NAN)))
		return rc;
	c->h_cyc = gp_meas_readback(m, c->cyc, c->nthr * sizeof(unsigned long long), when);
	c->h_res = gp_meas_readback(m, c->res, 2 * c->nthr * sizeof(unsigned), when);
	gp_meas_launch(m, grid, block, 0);
	gp_meas_args(m, &c->fill, &c->meta, &c->w.reset, &c->iters, &c->cyc, &c->res, gp_meas_clock(m));
	return 0;
}

/* Every thread's accumulators against count x K; the slowest thread's loop cycles (a
 * warpgroup's instruction completes when its last warp's part does). */
static unsigned long long wg_check(struct gp_meas *m, const struct wg_run *c)
{
	unsigned long long mx = 0;

	gp_meas_check_u32(m, "accumulator min/max of thread", c->h_res, &c->w.want, 2 * c->nthr, 1);
	for (size_t i = 0; i < c->nthr; i++)
		mx = c->h_cyc[i] > mx ? c->h_cyc[i] : mx;
	return mx;
}

/* ---------------------------------------------------------------- H010 lat_wgmma */

static const struct gp_param lat_wgmma_params[] = {
	WG_PARAMS_KERNEL,
	{ "iters", GP_PARAM_INT, 1, 100000, NULL, "256", "loop trips of 2 fence -> mma -> commit -> wait sequences" },
};

static const char *const lat_wgmma_cols[] = {
	"type", "n", "a_src", "sparse", "k", "sass", "iters", "acc_reset", "cycles", "cycles_min", "cycles_max",
	"cycles_spread", "latency_ns", "flop_per_mma", "clock_MHz", "reps", "status",
};

static int lat_wgmma_setup(struct gp_meas *m)
{
	struct wg_run *c = m->ctx;
	int rc = 0;

	if (wg_kernel_for(m, "lat", &c->w, &rc))
		return rc;
	c->iters = (int)gp_meas_param(m, "iters");
	wg_expect(m, &c->w, (long)c->iters * WGMMA_LAT_UNROLL, WGMMA_LAT_UNROLL);
	gp_meas_num(m, "flop_per_mma", c->w.flop);
	return wg_launch(m, c, 1, WGMMA_THREADS, GP_EVERY_REP);
}

static void lat_wgmma_sample(struct gp_meas *m)
{
	const struct wg_run *c = m->ctx;

	gp_sample(m, "cycles", (double)wg_check(m, c) / c->w.count);
}

/* No instruction completes faster than the whole SM's tensor rate does its FLOP. */
static void lat_wgmma_finish(struct gp_meas *m)
{
	const struct wg_run *c = m->ctx;

	gp_meas_num(m, "latency_ns", gp_meas_stat(m, "cycles", GP_MEDIAN) / gp_meas_mhz(m) * 1e3);
	if (c->w.rate > 0)
		gp_meas_floor(m, "one mma at the SM's tensor rate", gp_meas_stat(m, "cycles", GP_MIN),
			      c->w.flop / c->w.rate, 0.02, "cycles");
}

GP_EXP_SYNC(lat_wgmma, gp_image_probes_wgmma_90a, "cycles", struct wg_run);

/* ---------------------------------------------------------------- H011 tput_wgmma */

static const struct gp_param tput_wgmma_params[] = {
	WG_PARAMS_KERNEL,
	{ "warpgroups", GP_PARAM_INT, 1, WGMMA_MAX_WG, NULL, "2", "warpgroups per block (the kernel allows 3 at N = 128, 2 at N = 256)" },
	{ "blocks_per_sm", GP_PARAM_INT, 1, 4, NULL, "1", "resident blocks per SM" },
	{ "kernel_us", GP_PARAM_INT, 50, 20000, NULL, "2000",
	  "trips sized so the kernel would last this long at the dense peak and the maximum clock" },
};

static const char *const tput_wgmma_cols[] = {
	"type", "n", "a_src", "sparse", "warpgroups", "blocks_per_sm", "kernel_us", "k", "sass", "blocks",
	"warpgroups_per_sm", "mma_per_warpgroup", "acc_reset", "time_ms_min", "time_ms", "time_ms_max", "spread",
	"clock_MHz", "max_clock_MHz", "clock_pct_of_max", "flop_per_clk_per_sm", "loop_flop_per_clk_per_sm", "tflops",
	"smem_bytes_per_mma", "smem_bound_flop_per_clk_per_sm",
	"peak_flop_per_clk_per_sm", "peak_tflops_at_clock", "pct_of_dense", "reps", "status",
};

struct tput_wgmma {
	struct wg_run r;
	int wgs_sm;
};

/* Trips so that the SM's warpgroups would take kernel_us at the peak rate and maximum clock (at
 * least one; at most 20 ms x 4096 FLOP/clk x 2 GHz / 16384 FLOP = 10^7 instructions a warpgroup). */
static void tput_trips(struct gp_meas *m, struct tput_wgmma *c)
{
	const double peak_flop = (c->r.w.rate > 0 ? c->r.w.rate : 4096.0) * m->dev->clock_khz * 1e3 *
				 (double)gp_meas_param(m, "kernel_us") * 1e-6;

	c->r.iters = (int)ceil(peak_flop / (c->r.w.flop * WGMMA_TPUT_BATCH * c->wgs_sm));
	wg_expect(m, &c->r.w, (long)c->r.iters * WGMMA_TPUT_BATCH, WGMMA_TPUT_BATCH);
	gp_meas_int(m, "mma_per_warpgroup", (long long)c->r.iters * WGMMA_TPUT_BATCH);
}

static int tput_wgmma_setup(struct gp_meas *m)
{
	struct tput_wgmma *c = m->ctx;
	const int wgs = (int)gp_meas_param(m, "warpgroups"), bps = (int)gp_meas_param(m, "blocks_per_sm");
	const unsigned blocks = (unsigned)(bps * m->dev->sms);
	int rc = 0, maxt = 0;

	if (wg_kernel_for(m, "tput", &c->r.w, &rc))
		return rc;
	gp_cu.cuFuncGetAttribute(&maxt, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, m->fn);
	if (wgs * WGMMA_THREADS > maxt)
		return gp_meas_na(m, "%d warpgroups: the kernel allows %d threads a block", wgs, maxt);
	if (gp_meas_resident(m, wgs * WGMMA_THREADS, bps))
		return 0;
	c->wgs_sm = wgs * bps;
	tput_trips(m, c);
	gp_meas_int(m, "blocks", blocks);
	gp_meas_int(m, "warpgroups_per_sm", c->wgs_sm);
	gp_meas_num(m, "max_clock_MHz", m->dev->clock_khz / 1e3);
	return wg_launch(m, &c->r, blocks, (unsigned)wgs * WGMMA_THREADS, GP_LAST_REP);
}

/* The rate the operand reads allow: every instruction reads B (N rows of K; sparse: 2K) and, SS,
 * A's 64 rows from shared memory, WGMMA_SMEM_BYTES_PER_CLK a clock. */
static void tput_smem_bound(struct gp_meas *m, const struct wg_point *w)
{
	const double bytes = (w->ss ? WGMMA_A_BYTES : 0) + (double)w->n * WGMMA_ROW_BYTES * (w->sparse ? 2 : 1);

	gp_meas_num(m, "smem_bytes_per_mma", bytes);
	gp_meas_num(m, "smem_bound_flop_per_clk_per_sm", w->flop * WGMMA_SMEM_BYTES_PER_CLK / bytes);
}

/* FLOP per clock per SM at the clock measured under this load, TFLOP/s, and the share of the
 * type's dense (sparse: 2x) tensor rate; above it the probe is broken. */
static void tput_wgmma_finish(struct gp_meas *m)
{
	const struct tput_wgmma *c = m->ctx;
	const struct wg_point *w = &c->r.w;
	const double ms = gp_meas_stat(m, "time_ms", GP_MEDIAN), mhz = gp_meas_mhz(m);
	const double flop_sm = w->flop * w->count * c->wgs_sm, per_clk = flop_sm / (ms * 1e-3 * mhz * 1e6);
	const unsigned long long cycles = wg_check(m, &c->r); /* the last repetition's slowest loop */
	const double loop = cycles ? flop_sm / (double)cycles : NAN;

	gp_meas_num(m, "flop_per_clk_per_sm", per_clk);
	gp_meas_num(m, "loop_flop_per_clk_per_sm", loop);
	gp_meas_num(m, "tflops", flop_sm * m->dev->sms / (ms * 1e-3) / 1e12);
	gp_meas_num(m, "clock_pct_of_max", 100.0 * mhz / (m->dev->clock_khz / 1e3));
	tput_smem_bound(m, w);
	if (!(w->rate > 0)) {
		gp_meas_str(m, "peak_flop_per_clk_per_sm", "");
		gp_meas_str(m, "peak_tflops_at_clock", "");
		gp_meas_str(m, "pct_of_dense", "");
		return;
	}
	gp_meas_num(m, "peak_flop_per_clk_per_sm", w->rate);
	gp_meas_num(m, "peak_tflops_at_clock", w->rate * m->dev->sms * mhz * 1e6 / 1e12);
	gp_meas_num(m, "pct_of_dense", 100.0 * per_clk / w->rate);
	gp_meas_ceiling(m, "the tensor rate", per_clk, w->rate, 0.02, "FLOP/clk/SM");
	gp_meas_ceiling(m, "the tensor rate inside the loop", loop, w->rate, 0.02, "FLOP/clk/SM");
}

static const struct gp_probe tput_wgmma_probe = {
	.runner = GP_RUN_EVENT, .image = gp_image_probes_wgmma_90a, .setup = tput_wgmma_setup,
	.finish = tput_wgmma_finish, .primary = "time_ms", .ctx_size = sizeof(struct tput_wgmma),
};

GP_EXP_PROBE(tput_wgmma, tput_wgmma_params, tput_wgmma_cols, &tput_wgmma_probe);
