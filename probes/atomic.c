/* atomic.c — lat_atomic and tput_atomic for every entry of probes/atomic.list; kernels in
 * atomic.cu, report sections in atomic_report.c.
 *
 * lat_atomic: one thread's dependent chain of 64 x iters atomics on one slot (global: the line
 * lives in L2, where global atomics execute; shared: the SM's shared memory), clock64 around it,
 * the timer's cost subtracted; the chain's and the slot's last bits must equal the host's replay.
 * tput_atomic: every thread of a full grid issues 8 atomics a trip on the address of its group of
 * k threads; events time the launch. Every address must hold what its updates leave (count, the
 * extreme operand, one of its threads' values) and the XOR of each group's results what the
 * update order cannot change, or the row fails. Ceiling: 32 thread-ops per clock per SM for
 * every form: an SM has 32 load/store lanes (Volta to Hopper whitepapers) and its memory pipe
 * takes at most one warp-wide instruction a clock (the 128 B/clk/SM of shared memory is the same
 * bound); no published L2 atomic rate is defensible enough to bound global atomics further. */
#include "gp.h"
#include "experiment.h"
#include "measure.h"
#include "atomic.h"
#include "atomic_shape.h"
#include "insn.h"

#include <math.h>
#include <string.h>

extern const unsigned char gp_image_probes_atomic[];

#define ATOM_CEILING_OPS_PER_CLK_SM 32.0

static const char *sass_of(const struct gp_atomic *a, int shared, int red)
{
	return shared ? a->sass_shared : red ? a->sass_red : a->sass_global;
}

/* ---------------------------------------------------------------- lat_atomic */

static const struct gp_param lat_atomic_params[] = {
	{ "op", GP_PARAM_NAME, 0, 0, GP_ATOMIC_CHOICES, GP_ATOMIC_CHOICES, "atomic operation (probes/atomic.list)" },
	{ "space", GP_PARAM_NAME, 0, 0, "global shared", "global shared", "where the slot lives" },
	{ "iters", GP_PARAM_INT, 1, 100000, NULL, "16", "loop trips of 64 dependent atomics" },
};

static const char *const lat_atomic_cols[] = {
	"op", "space", "sass", "steps", "cycles_per_op", "cycles_per_op_min", "cycles_per_op_max", "spread",
	"latency_ns", "clock_MHz", "timer_overhead_cycles", "reps", "status",
};

struct lat_atomic {
	const struct gp_atomic *a;
	CUdeviceptr slot, out, in;
	const uint64_t *h_out;
	uint64_t want_slot, want_x;
	int iters;
	long steps;
};

static int lat_atomic_setup(struct gp_meas *m)
{
	struct lat_atomic *c = m->ctx;
	const char *space = gp_meas_param_str(m, "space");
	uint64_t in[ATOM_LAT_IN];
	int rc;

	if (!(c->a = gp_atomic_find(gp_meas_param_str(m, "op"))))
		return gp_meas_na(m, "not in probes/atomic.list");
	c->iters = (int)gp_meas_param(m, "iters");
	c->steps = (long)c->iters * ATOM_LAT_UNROLL;
	in[0] = c->a->s0;
	in[1] = c->a->x0;
	in[2] = c->a->y;
	in[3] = 0;
	gp_atomic_chain(c->a, c->steps, &c->want_slot, &c->want_x);
	gp_meas_str(m, "sass", sass_of(c->a, !strcmp(space, "shared"), 0));
	gp_meas_int(m, "steps", c->steps);
	if ((rc = gp_meas_kernel(m, "lat_%s_%s", c->a->name, space)) || (rc = gp_meas_buf(m, &c->slot, 8, GP_NO_POISON)) ||
	    (rc = gp_meas_buf(m, &c->out, ATOM_LAT_OUT * sizeof(uint64_t), GP_POISON_NAN)) ||
	    (rc = gp_meas_input(m, &c->in, in, sizeof in)))
		return rc;
	c->h_out = gp_meas_readback(m, c->out, ATOM_LAT_OUT * sizeof(uint64_t), GP_EVERY_REP);
	gp_meas_launch(m, 1, 1, 0);
	gp_meas_args(m, &c->slot, &c->out, &c->in, &c->iters, gp_meas_clock(m));
	return 0;
}

/* The chain and the slot against the replay: a skipped, repeated or merged step shows in both. */
static void lat_atomic_sample(struct gp_meas *m)
{
	const struct lat_atomic *c = m->ctx;
	const uint64_t x = gp_atomic_mask(c->a, c->h_out[0]), s = gp_atomic_mask(c->a, c->h_out[1]);
	const double cyc = gp_chain_cycles_per_step((double)c->h_out[2], (double)c->h_out[3], (double)c->steps);

	if (x != c->want_x || s != c->want_slot)
		gp_meas_fail(m, "%s: chain %#llx, slot %#llx; host %#llx, %#llx", c->a->name, (unsigned long long)x,
			     (unsigned long long)s, (unsigned long long)c->want_x, (unsigned long long)c->want_slot);
	gp_sample(m, "cycles_per_op", isnan(cyc) ? 0 : cyc);
	gp_sample(m, "timer_overhead_cycles", (double)c->h_out[3]);
}

static void lat_atomic_finish(struct gp_meas *m)
{
	gp_meas_latency_ns(m, "cycles_per_op");
	gp_meas_floor(m, "a dependent atomic", gp_meas_stat(m, "cycles_per_op", GP_MIN), 1.0, 0, "cycles");
}

GP_EXP_SYNC(lat_atomic, gp_image_probes_atomic, "cycles_per_op", struct lat_atomic);

/* ---------------------------------------------------------------- tput_atomic */

static const struct gp_param tput_atomic_params[] = {
	{ "op", GP_PARAM_NAME, 0, 0, GP_ATOMIC_CHOICES, "add_u32 add_f32", "atomic operation (probes/atomic.list)" },
	{ "space", GP_PARAM_NAME, 0, 0, "global shared", "global shared", "where the addresses live" },
	{ "ret", GP_PARAM_NAME, 0, 0, "atom red", "atom red", "atom: the result is used; red: no result" },
	{ "k", GP_PARAM_INT, 0, 1 << 20, NULL, "1 32 0",
	  "threads per address (0: every thread of the grid; shared: of the block)" },
	{ "layout", GP_PARAM_NAME, 0, 0, "packed lines", "packed",
	  "addresses side by side, or one per 128-byte line (global only)" },
	GP_PARAMS_TPUT_GRID,
	{ "iters", GP_PARAM_INT, 1, 100000, NULL, "256",
	  "loop trips of 8 atomics at k = 1 (shared: x8; divided by k, shared by at most 32: atomic_shape.h)" },
};

static const char *const tput_atomic_cols[] = {
	"op", "space", "ret", "k", "layout", "placements", "sass", "blocks", "threads_per_block", "warps_per_sm", "threads_per_addr",
	"addresses", "trips", "ops_total", "time_ms_min", "time_ms", "time_ms_max", "spread", "clock_MHz",
	"ops_per_clk_per_sm", "best_ops_per_clk_per_sm", "ops_per_clk", "gops", "ceiling_ops_per_clk_per_sm", "status",
};

struct tput_atomic {
	const struct gp_atomic *a;
	CUdeviceptr g, acc, fin;
	CUdeviceptr place;        /* global: ATOM_PLACEMENTS copies of the slots, pstride apart */
	size_t gbytes, pstride;
	unsigned nplace, cur;     /* copies; the one the last repetition used */
	const void *h_slots;      /* global slots (every copy) or each block's shared slots */
	const uint64_t *h_acc;
	int shared, red, trips, threads;
	unsigned k, stride, blocks, naddr; /* naddr: per block for shared, in the grid for global */
	unsigned one;                      /* the kernels' operand unit (atomic.cu) */
	size_t nthr;
};

/* Threads per address, or 0 with the point made n/a: k must tile the domain exactly. */
static unsigned tput_group(struct gp_meas *m, const struct tput_atomic *c)
{
	const long k = gp_meas_param(m, "k");
	const unsigned long dom = c->shared ? (unsigned long)c->threads : (unsigned long)c->nthr;
	const unsigned long keff = k ? (unsigned long)k : dom;

	if (c->shared && keff > (unsigned long)c->threads)
		return gp_meas_na(m, "k = %ld: a shared address is shared by one block's %d threads at most", k, c->threads), 0;
	if (dom % keff || (keff > (unsigned long)c->threads && keff % (unsigned long)c->threads))
		return gp_meas_na(m, "k = %ld does not divide the %lu threads into whole groups", k, dom), 0;
	return (unsigned)keff;
}

static void tput_cells(struct gp_meas *m, const struct tput_atomic *c, int bps)
{
	gp_meas_str(m, "sass", sass_of(c->a, c->shared, c->red));
	gp_meas_int(m, "blocks", c->blocks);
	gp_meas_int(m, "threads_per_block", c->threads);
	gp_meas_int(m, "warps_per_sm", (long long)bps * c->threads / 32);
	gp_meas_int(m, "threads_per_addr", c->k);
	gp_meas_int(m, "addresses", (long long)c->naddr * (c->shared ? c->blocks : 1));
	gp_meas_int(m, "trips", c->trips);
	gp_meas_num(m, "ops_total", (double)c->nthr * c->trips * ATOM_TPUT_UNROLL);
	gp_meas_num(m, "ceiling_ops_per_clk_per_sm", ATOM_CEILING_OPS_PER_CLK_SM);
}

/* Global slots: ATOM_PLACEMENTS copies (atomic_shape.h), each repetition zeroing and using the
 * next (tput_atomic_before); a shared run copies each block's slots to fin. Read back after the
 * last repetition with every thread's result XOR. */
static int tput_buffers(struct gp_meas *m, struct tput_atomic *c)
{
	const size_t w = (size_t)gp_atomic_bytes(c->a);
	const size_t fbytes = c->shared ? (size_t)c->blocks * c->naddr * w : 8;
	int rc;

	c->gbytes = c->shared ? 8 : (size_t)c->naddr * c->stride * w;
	c->nplace = c->shared || c->gbytes > ATOM_PLACE_MAX_BYTES ? 1 : ATOM_PLACEMENTS;
	c->pstride = (c->gbytes + ATOM_PLACE_ALIGN - 1) / ATOM_PLACE_ALIGN * ATOM_PLACE_ALIGN;
	gp_meas_int(m, "placements", c->nplace);
	if (c->nplace > 1)
		gp_meas_contexts(m, ATOM_CONTEXTS);
	if (gp_meas_buf_fit(m, &c->place, c->pstride * c->nplace, GP_NO_POISON))
		return 0;
	c->g = c->place;
	if ((rc = gp_meas_buf(m, &c->fin, fbytes, GP_POISON_NAN)) ||
	    (rc = gp_meas_buf(m, &c->acc, c->nthr * sizeof(uint64_t), GP_POISON_NAN)))
		return rc;
	c->h_slots = gp_meas_readback(m, c->shared ? c->fin : c->place, c->shared ? fbytes : c->pstride * c->nplace,
				      GP_LAST_REP);
	c->h_acc = gp_meas_readback(m, c->acc, c->nthr * sizeof(uint64_t), GP_LAST_REP);
	gp_meas_launch(m, c->blocks, (unsigned)c->threads, 0);
	gp_meas_args(m, &c->g, &c->acc, &c->fin, &c->trips, &c->k, &c->stride, &c->one, gp_meas_clock(m));
	return 0;
}

static int tput_atomic_setup(struct gp_meas *m)
{
	struct tput_atomic *c = m->ctx;
	const char *space = gp_meas_param_str(m, "space"), *ret = gp_meas_param_str(m, "ret");
	const int bps = (int)gp_meas_param(m, "blocks_per_sm"), iters = (int)gp_meas_param(m, "iters");
	const int lines = !strcmp(gp_meas_param_str(m, "layout"), "lines");
	int rc;

	if (!(c->a = gp_atomic_find(gp_meas_param_str(m, "op"))))
		return gp_meas_na(m, "not in probes/atomic.list");
	c->shared = !strcmp(space, "shared");
	c->red = !strcmp(ret, "red");
	c->threads = (int)gp_meas_param(m, "threads");
	c->blocks = (unsigned)bps * (unsigned)m->dev->sms;
	c->nthr = (size_t)c->blocks * (size_t)c->threads;
	if (c->red && !c->a->has_red)
		return gp_meas_na(m, "%s has no red form (PTX red takes add, min, max, inc, dec and bitwise ops)", c->a->name);
	if (c->shared && lines)
		return gp_meas_na(m, "shared memory has no lines: packed is its conflict-free layout");
	if (!(c->k = tput_group(m, c)))
		return 0;
	c->trips = gp_atomic_trips(iters, c->shared, c->k);
	c->one = 1;
	c->stride = lines ? ATOM_LINE_BYTES / (unsigned)gp_atomic_bytes(c->a) : 1;
	c->naddr = (unsigned)((c->shared ? (size_t)c->threads : c->nthr) / c->k);
	tput_cells(m, c, bps);
	if ((rc = gp_meas_kernel(m, "tput_%s_%s_%s", c->a->name, space, ret)))
		return rc;
	if (gp_meas_resident(m, c->threads, bps))
		return 0;
	return tput_buffers(m, c);
}

/* Before every repetition (warm-up included): the next copy of the global slots, zeroed. */
static int tput_atomic_before(struct gp_meas *m)
{
	struct tput_atomic *c = m->ctx;

	c->cur = (unsigned)(((m->rep % (int)c->nplace) + (int)c->nplace) % (int)c->nplace);
	c->g = c->place + c->cur * c->pstride;
	GP_CU(cuMemsetD8(c->g, 0, c->gbytes));
	return 0;
error:
	return GP_ECUDA;
}

static uint64_t slot_bits(const struct tput_atomic *c, size_t i)
{
	const char *h = (const char *)c->h_slots + (c->shared ? 0 : c->cur * c->pstride);

	if (gp_atomic_bytes(c->a) == 8)
		return ((const uint64_t *)h)[i];
	return ((const uint32_t *)h)[i];
}

/* Address i of domain d (a block for shared, the grid for global): its last value, and the XOR of
 * its group's results where the update order cannot change it. 1 when it failed. */
static int tput_check_one(struct gp_meas *m, const struct tput_atomic *c, unsigned d, unsigned i, long n,
			  uint64_t add_xor)
{
	const unsigned t0 = i * c->k;
	const uint64_t got = slot_bits(c, c->shared ? (size_t)d * c->naddr + i : (size_t)i * c->stride);
	const size_t first = (size_t)d * (size_t)c->threads + t0;
	uint64_t x = 0, want;
	int checked;

	if (!gp_atomic_final_ok(c->a, got, t0, c->k, n)) {
		gp_meas_fail(m, "%s address %u of %s %u: %#llx is not what %u threads x %ld updates leave", c->a->name, i,
			     c->shared ? "block" : "grid", d, (unsigned long long)got, c->k, n);
		return 1;
	}
	if (c->red)
		return 0;
	want = gp_atomic_returns_xor(c->a, got, t0, c->k, n, add_xor, &checked);
	for (unsigned t = 0; checked && t < c->k; t++)
		x ^= c->h_acc[first + t];
	if (!checked || gp_atomic_mask(c->a, x) == gp_atomic_mask(c->a, want))
		return 0;
	gp_meas_fail(m, "%s address %u of %s %u: the results XOR to %#llx, not %#llx: an update was lost or repeated",
		     c->a->name, i, c->shared ? "block" : "grid", d, (unsigned long long)x, (unsigned long long)want);
	return 1;
}

static void tput_check(struct gp_meas *m, const struct tput_atomic *c)
{
	const long n = (long)c->trips * ATOM_TPUT_UNROLL;
	const unsigned domains = c->shared ? c->blocks : 1;
	const uint64_t add_xor = c->a->kind == GP_AKIND_ADD && !c->red ? gp_atomic_add_xor(c->a, (uint64_t)c->k * n) : 0;

	if (!c->h_slots || !c->h_acc) {
		gp_meas_fail(m, "no host memory for the read-back");
		return;
	}
	for (unsigned d = 0; d < domains; d++)
		for (unsigned i = 0; i < c->naddr; i++)
			if (tput_check_one(m, c, d, i, n, add_xor))
				return;
}

static void tput_atomic_finish(struct gp_meas *m)
{
	const struct tput_atomic *c = m->ctx;
	const double ops = (double)c->nthr * c->trips * ATOM_TPUT_UNROLL, ms = gp_meas_stat(m, "time_ms", GP_MEDIAN);
	const double r = gp_ops_per_clk_per_sm(ops, ms, gp_meas_mhz(m), m->dev->sms);
	const double best = gp_ops_per_clk_per_sm(ops, gp_meas_stat(m, "time_ms", GP_MIN), gp_meas_mhz(m), m->dev->sms);

	tput_check(m, c);
	gp_meas_num(m, "ops_per_clk_per_sm", r);
	gp_meas_num(m, "best_ops_per_clk_per_sm", best);
	gp_meas_num(m, "ops_per_clk", r * m->dev->sms);
	gp_meas_num(m, "gops", ms > 0 ? ops / (ms * 1e-3) / 1e9 : NAN);
	gp_meas_ceiling(m, "the SM's load/store lanes", best, ATOM_CEILING_OPS_PER_CLK_SM, 0.02, "ops/clk/SM");
}

static const struct gp_probe tput_atomic_probe = {
	.runner = GP_RUN_EVENT, .image = gp_image_probes_atomic, .setup = tput_atomic_setup,
	.before = tput_atomic_before, .finish = tput_atomic_finish, .primary = "time_ms",
	.ctx_size = sizeof(struct tput_atomic),
	/* Two repetitions on every placement of the global slots (atomic_shape.h). */
	.min_reps = 2 * ATOM_PLACEMENTS,
};

GP_EXP_PROBE(tput_atomic, tput_atomic_params, tput_atomic_cols, &tput_atomic_probe);
