/* insn.c — the measurement of lat_insn and tput_insn (E006 / E106 table) for every entry of
 * probes/insn.list; report sections in insn_report.c. lat_insn times one warp's dependent chain
 * with clock64 (timer overhead subtracted), tput_insn fills every SM with 8 independent chains per
 * thread and divides by event time and the measured SM clock. Every result is checked against the
 * host's replay: bit for bit, or for MUFU within a tolerance and "moves when one step is added".
 * Pitfall: ptxas optimises PTX too; tests/test_gpu_insn.c checks one SASS instruction a step. */
#include "gp.h"
#include "experiment.h"
#include "measure.h"
#include "insn.h"
#include "insn_shape.h"

#include <math.h>
#include <string.h>

extern const unsigned char gp_image_probes_insn[];

static int dev_cc(const struct gp_meas *m)
{
	return m->dev->cc_major * 10 + m->dev->cc_minor;
}

/* The instruction's SASS and rate class on this device, and the class's rate (0: unknown). */
static int insn_cells(struct gp_meas *m, const struct gp_insn *d)
{
	const char *rate = gp_insn_rate(d, dev_cc(m));
	const int r = gp_arch_rate(rate, m->dev->cc_major, m->dev->cc_minor);

	gp_meas_str(m, "sass", gp_insn_sass(d, dev_cc(m)));
	gp_meas_str(m, "klass", rate);
	gp_meas_int(m, "arch_ops_per_clk_per_sm", r);
	return r;
}

/* Result words against the host's, bit for bit through the harness's checks: the register's
 * bits, the low word of a 32-bit chain. `gs` and `ws` have room for n and period doubles. */
static void check_exact(struct gp_meas *m, const struct gp_insn *d, const uint64_t *got, const uint64_t *want,
			size_t n, size_t period, void *gs, void *ws)
{
	double *gd = gs, *wd = ws;
	uint32_t *gu = gs, *wu = ws;
	const int f64 = d->type == GP_INSN_F64;

	if (f64) {
		memcpy(wd, want, period * sizeof *wd);
		memcpy(gd, got, n * sizeof *gd);
		gp_meas_check_f64(m, "thread", gd, wd, n, period);
		return;
	}
	for (size_t i = 0; i < period; i++)
		wu[i] = (uint32_t)want[i];
	for (size_t i = 0; i < n; i++)
		gu[i] = (uint32_t)got[i];
	gp_meas_check_u32(m, "thread", gu, wu, n, period);
}

/* ---------------------------------------------------------------- E006 lat_insn */

static const struct gp_param lat_insn_params[] = {
	{ "insn", GP_PARAM_NAME, 0, 0, GP_INSN_LAT_CHOICES, GP_INSN_LAT_CHOICES,
	  "instruction with a dependent chain (probes/insn.list)" },
	{ "iters", GP_PARAM_INT, 1, 100000, NULL, "1024", "loop trips of 256 dependent steps" },
};

static const char *const lat_insn_cols[] = {
	"insn", "sass", "klass", "steps_per_thread", "cycles_per_step", "cycles_per_step_min",
	"cycles_per_step_max", "spread", "latency_ns", "clock_MHz", "timer_overhead_cycles",
	"arch_ops_per_clk_per_sm", "warps_to_hide_at_arch_rate", "reps", "status",
};

struct lat_insn {
	const struct gp_insn *d;
	CUdeviceptr out, cyc, opnd;
	const uint64_t *h_out, *h_cyc;
	uint64_t ref[INSN_CLASSES];
	void *gs, *ws; /* check_exact's room */
	int iters, tail, rate;
	float pconst;
	long steps;
};

static int lat_insn_setup(struct gp_meas *m)
{
	struct lat_insn *c = m->ctx;
	uint64_t opnd[INSN_OPND_WORDS];
	int rc;

	if (!(c->d = gp_insn_find(gp_meas_param_str(m, "insn"))) || !c->d->lat)
		return gp_meas_na(m, "no dependent chain: see tput_insn");
	c->iters = (int)gp_meas_param(m, "iters");
	c->steps = (long)c->iters * INSN_LAT_UNROLL;
	c->pconst = c->d->c;
	c->rate = insn_cells(m, c->d);
	gp_meas_int(m, "steps_per_thread", c->steps);
	gp_insn_operands(c->d, opnd);
	for (unsigned k = 0; k < INSN_CLASSES; k++)
		c->ref[k] = gp_insn_chain(c->d, c->d->start(k), c->iters, INSN_LAT_UNROLL, 1);
	if ((rc = gp_meas_kernel(m, "lat_%s", c->d->name)) ||
	    (rc = gp_meas_buf(m, &c->out, 32 * sizeof(uint64_t), GP_POISON_NAN)) ||
	    (rc = gp_meas_buf(m, &c->cyc, 64 * sizeof(uint64_t), GP_NO_POISON)) ||
	    (rc = gp_meas_input(m, &c->opnd, opnd, sizeof opnd)))
		return rc;
	c->h_out = gp_meas_readback(m, c->out, 32 * sizeof(uint64_t), GP_EVERY_REP);
	c->h_cyc = gp_meas_readback(m, c->cyc, 64 * sizeof(uint64_t), GP_EVERY_REP);
	c->gs = gp_meas_host(m, 32 * sizeof(double));
	c->ws = gp_meas_host(m, INSN_CLASSES * sizeof(double));
	gp_meas_launch(m, 1, 32, 0);
	gp_meas_args(m, &c->out, &c->cyc, &c->opnd, &c->iters, &c->tail, gp_meas_clock(m), &c->pconst);
	return 0;
}

/* MUFU's host replay is approximate (double precision): within 1 % of it. */
static void check_near(struct gp_meas *m, const struct lat_insn *c)
{
	for (unsigned i = 0; i < 32; i++)
		if (!gp_insn_match(c->d, c->h_out[i], c->ref[i % INSN_CLASSES])) {
			gp_meas_fail(m, "thread %u: result %#llx, host %#llx: beyond the tolerance", i,
				     (unsigned long long)c->h_out[i], (unsigned long long)c->ref[i % INSN_CLASSES]);
			return;
		}
}

/* The fastest thread's (elapsed - timer overhead) / steps: the latency; the mean timer cost. */
static void lat_insn_sample(struct gp_meas *m)
{
	struct lat_insn *c = m->ctx;
	double mn, ov;

	if (c->d->approx)
		check_near(m, c);
	else
		check_exact(m, c->d, c->h_out, c->ref, 32, INSN_CLASSES, c->gs, c->ws);
	mn = gp_chain_fastest(c->h_cyc, (double)c->steps, &ov);
	gp_sample(m, "cycles_per_step", isnan(mn) ? 0 : mn);
	gp_sample(m, "timer_overhead_cycles", ov);
}

/* MUFU's host replay is approximate, so its chain must also move when one (untimed) step is
 * added, to what the host's step gives: iters = 0 with no tail, then with one. */
static void lat_tail_check(struct gp_meas *m, struct lat_insn *c)
{
	const uint64_t want = gp_insn_chain(c->d, c->d->start(0), 1, 1, 1);
	const int iters = c->iters;
	uint64_t r[2] = { 0, 0 };
	int rc = 0;

	c->iters = 0;
	for (c->tail = 0; c->tail < 2 && !rc; c->tail++)
		rc = gp_launch(m->fn, 1, 32, 0, m->args, NULL) || gp_download(&r[c->tail], c->out, sizeof r[0]);
	c->iters = iters;
	c->tail = 0;
	if (rc)
		gp_meas_fail(m, "the one-step run of the chain failed");
	else if (r[0] == r[1] || !gp_insn_match(c->d, r[1], want))
		gp_meas_fail(m, "%s: one more step left the result at %#llx (host %#llx)", c->d->name,
			     (unsigned long long)r[1], (unsigned long long)want);
}

/* Latency is in cycles from clock64; the SM clock only converts it to ns. */
static void lat_insn_finish(struct gp_meas *m)
{
	struct lat_insn *c = m->ctx;
	const double cyc = gp_meas_latency_ns(m, "cycles_per_step");
	const double per_warp = gp_cycles_per_warp_at_rate(c->rate / (double)gp_insn_results(c->d));

	if (c->rate > 0)
		gp_meas_num(m, "warps_to_hide_at_arch_rate", gp_warps_to_hide(cyc, per_warp));
	else
		gp_meas_str(m, "warps_to_hide_at_arch_rate", "");
	gp_meas_floor(m, "a dependent step", gp_meas_stat(m, "cycles_per_step", GP_MIN), 1.0, 0, "cycles");
	if (c->d->approx && gp_meas_ok(m))
		lat_tail_check(m, c);
}

GP_EXP_SYNC(lat_insn, gp_image_probes_insn, "cycles_per_step", struct lat_insn);

/* ---------------------------------------------------------------- E106 tput_insn */

static const struct gp_param tput_insn_params[] = {
	{ "insn", GP_PARAM_NAME, 0, 0, GP_INSN_CHOICES, GP_INSN_CHOICES, "instruction (probes/insn.list)" },
	GP_PARAMS_TPUT_GRID,
	{ "iters", GP_PARAM_INT, 1, 100000, NULL, "1024", "loop trips of 32 x 8 independent steps" },
};

static const char *const tput_insn_cols[] = {
	"insn", "sass", "klass", "blocks", "threads_per_block", "warps_per_sm", "ops_per_thread",
	"time_ms_min", "time_ms", "time_ms_max", "spread", "clock_MHz", "ops_per_clk_per_sm",
	"warp_insts_per_clk_per_sm", "arch_ops_per_clk_per_sm", "pct_of_arch", "status",
};

struct tput_insn {
	const struct gp_insn *d;
	CUdeviceptr out, opnd;
	const uint64_t *h_out;
	uint64_t *want; /* per thread of a period */
	void *gs, *ws;  /* check_exact's room */
	size_t nthr, period;
	int iters, rate;
	float pconst;
	double ops_thread;
};

/* What each thread must end with: the expectations repeat every 7 threads (classes), or every
 * block for a shared chase (chain k of lane l starts at word l + 32 k). */
static int tput_expect(struct gp_meas *m, struct tput_insn *c, int threads)
{
	const unsigned p = gp_insn_period(c->d);

	c->period = p == INSN_CLASSES ? p : (size_t)threads;
	c->want = gp_meas_host(m, c->period * sizeof *c->want);
	c->ws = gp_meas_host(m, c->period * sizeof(double));
	c->gs = gp_meas_host(m, c->nthr * sizeof(double));
	if (!c->want || !c->ws || !c->gs)
		return GP_EFAIL;
	for (size_t i = 0; i < c->period; i++)
		c->want[i] = gp_insn_tput_expect(c->d, (unsigned)(i % p), c->iters);
	return 0;
}

static int tput_insn_setup(struct gp_meas *m)
{
	struct tput_insn *c = m->ctx;
	const int threads = (int)gp_meas_param(m, "threads"), bps = (int)gp_meas_param(m, "blocks_per_sm");
	const unsigned blocks = (unsigned)(bps * m->dev->sms);
	uint64_t opnd[INSN_OPND_WORDS];
	int rc;

	if (!(c->d = gp_insn_find(gp_meas_param_str(m, "insn"))))
		return gp_meas_na(m, "not in probes/insn.list");
	c->iters = (int)gp_meas_param(m, "iters");
	c->nthr = (size_t)blocks * threads;
	c->ops_thread = (double)c->iters * INSN_TPUT_STEPS * INSN_TPUT_ILP * gp_insn_results(c->d);
	c->pconst = c->d->c;
	c->rate = insn_cells(m, c->d);
	gp_meas_int(m, "blocks", blocks);
	gp_meas_int(m, "threads_per_block", threads);
	gp_meas_int(m, "warps_per_sm", (long long)bps * threads / 32);
	gp_meas_num(m, "ops_per_thread", c->ops_thread);
	if ((rc = gp_meas_kernel(m, "tput_%s", c->d->name)))
		return rc;
	if (gp_meas_resident(m, threads, bps))
		return 0;
	gp_insn_operands(c->d, opnd);
	if ((rc = gp_meas_buf(m, &c->out, c->nthr * sizeof(uint64_t), GP_POISON_NAN)) ||
	    (rc = gp_meas_input(m, &c->opnd, opnd, sizeof opnd)) || (rc = tput_expect(m, c, threads)))
		return rc;
	c->h_out = gp_meas_readback(m, c->out, c->nthr * sizeof(uint64_t), GP_LAST_REP);
	gp_meas_launch(m, blocks, (unsigned)threads, 0);
	gp_meas_args(m, &c->out, &c->opnd, &c->iters, gp_meas_clock(m), &c->pconst);
	return 0;
}

/* MUFU's throughput result (a XOR of approximate values) is only checked to be no poison. */
static void tput_check(struct gp_meas *m, const struct tput_insn *c)
{
	for (size_t i = 0; i < c->nthr && c->d->approx; i++)
		if (c->h_out[i] == ~0ull) {
			gp_meas_fail(m, "thread %zu: result still the poison: steps skipped", i);
			return;
		}
	if (!c->d->approx)
		check_exact(m, c->d, c->h_out, c->want, c->nthr, c->period, c->gs, c->ws);
}

/* ops/clk/SM against the Guide's rate where known, and always against the issue limit of four
 * warp-instructions per clock per SM (128 thread-instructions). */
static void tput_insn_finish(struct gp_meas *m)
{
	const struct tput_insn *c = m->ctx;
	const int results = gp_insn_results(c->d);
	const double ops = gp_ops_per_clk_per_sm(c->ops_thread * (double)c->nthr,
						 gp_meas_stat(m, "time_ms", GP_MEDIAN), gp_meas_mhz(m), m->dev->sms);

	tput_check(m, c);
	gp_meas_num(m, "ops_per_clk_per_sm", isnan(ops) ? 0 : ops);
	gp_meas_num(m, "warp_insts_per_clk_per_sm", isnan(ops) ? 0 : ops / results / 32.0);
	if (c->rate > 0 && !isnan(ops))
		gp_meas_num(m, "pct_of_arch", gp_pct_of_rate(ops, c->rate));
	else
		gp_meas_str(m, "pct_of_arch", "");
	gp_meas_ceiling(m, c->d->name, ops, c->rate, 0.02, "ops/clk/SM");
	gp_meas_ceiling(m, "issue (4 schedulers)", ops / results, 128, 0.02, "instructions/clk/SM");
}

static const struct gp_probe tput_insn_probe = {
	.runner = GP_RUN_EVENT, .image = gp_image_probes_insn, .setup = tput_insn_setup,
	.finish = tput_insn_finish, .primary = "time_ms", .ctx_size = sizeof(struct tput_insn),
};

GP_EXP_PROBE(tput_insn, tput_insn_params, tput_insn_cols, &tput_insn_probe);
