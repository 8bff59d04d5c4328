/* clockcheck.c — selftest_clock (T002): the SM clock as every probe measures it (clock64 over
 * %globaltimer) beside the same cycles over the CUDA-event time of the launch and the global
 * timer's own rate against the events. A clock_MHz above the card's maximum with an event-based
 * rate below it means the global timer, not the SM, is off. Event time includes the launch
 * (a few microseconds): only windows of a millisecond and more compare cleanly. CUDA events read
 * the GPU's own global timer too; the host's monotonic clock around each launch is the check
 * that does not depend on it. */
#include "gp.h"
#include "experiment.h"
#include "measure.h"

#include <math.h>
#include <string.h>

extern const unsigned char gp_image_probes_clockcheck[];

static const struct gp_param clock_params[] = {
	{ "load", GP_PARAM_NAME, 0, 0, "idle ffma mma", "idle ffma mma",
	  "one spinning warp, FFMA on every SM, or TF32 mma.sync on every SM (cc >= 8.0)" },
	{ "window_us", GP_PARAM_INT, 10, 1000000, NULL, "100 1000 10000 100000", "length of the timed window" },
};

static const char *const clock_cols[] = {
	"load", "window_us", "blocks", "clock_MHz", "clock_MHz_min", "clock_MHz_max", "event_clock_MHz",
	"event_clock_MHz_min", "event_clock_MHz_max", "globaltimer_per_event", "host_clock_MHz",
	"host_clock_MHz_min", "host_clock_MHz_max", "globaltimer_per_host", "globaltimer_tick_ns", "max_clock_MHz", "time_ms", "reps", "status",
};

struct clockcheck {
	CUdeviceptr tick, out;
	const unsigned long long *h_tick;
	long long ns;
	int iters, idle;
	double host_t0, host_t1;
};

/* The host's monotonic clock around each launch: the one timer that is not the GPU's own (CUDA
 * events read the same global timer as %globaltimer). It includes the launch and the wait, a few
 * microseconds: only the 10 and 100 ms windows compare cleanly. */
static int clock_before(struct gp_meas *m)
{
	((struct clockcheck *)m->ctx)->host_t0 = gp_now();
	return 0;
}

static int clock_after_rep(struct gp_meas *m)
{
	((struct clockcheck *)m->ctx)->host_t1 = gp_now();
	return 0;
}

static int clock_setup(struct gp_meas *m)
{
	struct clockcheck *c = m->ctx;
	const char *load = gp_meas_param_str(m, "load");
	const int ffma = !strcmp(load, "ffma"), mma = !strcmp(load, "mma");
	const unsigned blocks = ffma || mma ? 8u * (unsigned)m->dev->sms : 1u;
	int rc;

	if (mma && m->dev->cc_major < 8)
		return gp_meas_na(m, "TF32 mma.sync needs compute capability 8.0");
	c->ns = gp_meas_param(m, "window_us") * 1000LL;
	c->idle = !ffma && !mma;
	/* 64 warps per SM at 4 issues per clock: one trip of 128 FFMAs per warp takes ~2048 cycles;
	 * a trip of 64 mma.sync (2048 FLOP each) per warp at a dense rate of at most 2048 FLOP per
	 * clock per SM takes at least 4096 cycles (longer is a longer window, which is measured). */
	c->iters = (int)(c->ns * (m->dev->clock_khz / 1e6) / (mma ? 4096.0 : 2048.0)) + 1;
	gp_meas_int(m, "blocks", blocks);
	gp_meas_num(m, "max_clock_MHz", m->dev->clock_khz / 1e3);
	if ((rc = gp_meas_kernel(m, ffma ? "clock_ffma" : mma ? "clock_mma" : "clock_idle")) ||
	    (rc = gp_meas_buf(m, &c->tick, sizeof *c->h_tick, 0)) ||
	    (rc = gp_meas_buf(m, &c->out, (size_t)blocks * 256 * sizeof(float), GP_NO_POISON)))
		return rc;
	c->h_tick = gp_meas_readback(m, c->tick, sizeof *c->h_tick, GP_EVERY_REP);
	gp_meas_launch(m, blocks, ffma || mma ? 256 : 32, 0);
	if (ffma || mma)
		gp_meas_args(m, &c->iters, &c->out, gp_meas_clock(m));
	else
		gp_meas_args(m, &c->ns, &c->tick, gp_meas_clock(m));
	return 0;
}

/* The same window's cycles over the event time, and the global timer's rate against the events. */
static void clock_sample(struct gp_meas *m)
{
	const struct gp_clock_sample *s = gp_meas_clock_sample(m);
	const struct clockcheck *c = m->ctx;

	if (!s || !(m->rep_ms > 0))
		return;
	gp_sample(m, "event_clock_MHz", (double)(s->clk1 - s->clk0) / (m->rep_ms * 1e3));
	gp_sample(m, "globaltimer_per_event", (double)(s->ns1 - s->ns0) / (m->rep_ms * 1e6));
	if (c->host_t1 > c->host_t0) {
		gp_sample(m, "host_clock_MHz", (double)(s->clk1 - s->clk0) / ((c->host_t1 - c->host_t0) * 1e6));
		gp_sample(m, "globaltimer_per_host", (double)(s->ns1 - s->ns0) / ((c->host_t1 - c->host_t0) * 1e9));
	}
}

static void clock_finish(struct gp_meas *m)
{
	const struct clockcheck *c = m->ctx;

	gp_meas_num(m, "globaltimer_tick_ns", c->idle && c->h_tick && *c->h_tick != ~0ull ? (double)*c->h_tick : NAN);
	gp_meas_ceiling(m, "the SM clock over event time", gp_meas_stat(m, "event_clock_MHz", GP_MEDIAN),
			m->dev->clock_khz / 1e3, 0.01, "MHz");
}

static const struct gp_probe clock_probe = {
	.runner = GP_RUN_EVENT, .image = gp_image_probes_clockcheck, .setup = clock_setup,
	.before = clock_before, .after = clock_after_rep, .sample = clock_sample, .finish = clock_finish, .primary = "clock_MHz", .ctx_size = sizeof(struct clockcheck),
};

GP_EXP_PROBE(selftest_clock, clock_params, clock_cols, &clock_probe);
