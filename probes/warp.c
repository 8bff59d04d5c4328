/* warp.c — lat_warp and tput_warp for every entry of probes/warp.list; kernels in warp.cu,
 * report sections in warp_report.c.
 *
 * lat_warp times one warp's dependent chain per lane (256 x iters steps, clock64 per lane, the
 * timer's cost subtracted; the fastest lane is the latency: all lanes run in lockstep). tput_warp
 * fills every SM with 8 independent chains per thread and turns event time and the measured clock
 * into thread-operations per clock per SM, under the issue limit of 4 warp-instructions a clock
 * (128 thread-ops). Every lane's result must equal the host's replay of the whole warp, bit for
 * bit, or the row fails. Pitfall: a block must be whole warps, or a full-mask warp operation
 * waits for lanes that do not exist. */
#include "gp.h"
#include "experiment.h"
#include "measure.h"
#include "insn.h"
#include "warp.h"
#include "warp_shape.h"

#include <math.h>
#include <string.h>

extern const unsigned char gp_image_probes_warp[];

#define WARP_ISSUE_OPS_PER_CLK_SM 128.0

/* The point's operation with its SASS cell, or NULL with the point made n/a (not in the list, or
 * newer than the GPU). */
static const struct gp_warp_op *warp_op(struct gp_meas *m)
{
	const struct gp_warp_op *d = gp_warp_find(gp_meas_param_str(m, "op"));

	if (!d)
		return gp_meas_na(m, "not in probes/warp.list"), NULL;
	gp_meas_str(m, "sass", d->sass);
	if (m->dev->cc_major * 10 + m->dev->cc_minor >= d->cc)
		return d;
	gp_meas_na(m, "%s needs compute capability %d.%d", d->ptx, d->cc / 10, d->cc % 10);
	return NULL;
}

/* ---------------------------------------------------------------- lat_warp */

static const struct gp_param lat_warp_params[] = {
	{ "op", GP_PARAM_NAME, 0, 0, GP_WARP_CHOICES, GP_WARP_CHOICES, "warp operation (probes/warp.list)" },
	{ "iters", GP_PARAM_INT, 1, 100000, NULL, "64", "loop trips of 256 dependent steps" },
};

static const char *const lat_warp_cols[] = {
	"op", "sass", "steps_per_thread", "cycles_per_step", "cycles_per_step_min", "cycles_per_step_max", "spread",
	"latency_ns", "clock_MHz", "timer_overhead_cycles", "reps", "status",
};

struct lat_warp {
	const struct gp_warp_op *d;
	CUdeviceptr out, cyc;
	const uint32_t *h_out;
	const uint64_t *h_cyc;
	uint32_t want[32];
	int iters;
	long steps;
};

static int lat_warp_setup(struct gp_meas *m)
{
	struct lat_warp *c = m->ctx;
	int rc;

	if (!(c->d = warp_op(m)))
		return 0;
	c->iters = (int)gp_meas_param(m, "iters");
	c->steps = (long)c->iters * WARP_LAT_UNROLL;
	gp_meas_int(m, "steps_per_thread", c->steps);
	gp_warp_chain(c->d, 0, c->iters, WARP_LAT_UNROLL, c->want);
	if ((rc = gp_meas_kernel(m, "lat_warp_%s", c->d->name)) ||
	    (rc = gp_meas_buf(m, &c->out, 32 * sizeof(uint32_t), GP_POISON_NAN)) ||
	    (rc = gp_meas_buf(m, &c->cyc, 64 * sizeof(uint64_t), GP_NO_POISON)))
		return rc;
	c->h_out = gp_meas_readback(m, c->out, 32 * sizeof(uint32_t), GP_EVERY_REP);
	c->h_cyc = gp_meas_readback(m, c->cyc, 64 * sizeof(uint64_t), GP_EVERY_REP);
	gp_meas_launch(m, 1, 32, 0);
	gp_meas_args(m, &c->out, &c->cyc, &c->iters, gp_meas_clock(m));
	return 0;
}

static void lat_warp_sample(struct gp_meas *m)
{
	const struct lat_warp *c = m->ctx;
	double mn, ov;

	gp_meas_check_u32(m, "lane", c->h_out, c->want, 32, 32);
	mn = gp_chain_fastest(c->h_cyc, (double)c->steps, &ov);
	gp_sample(m, "cycles_per_step", isnan(mn) || isinf(mn) ? 0 : mn);
	gp_sample(m, "timer_overhead_cycles", ov);
}

static void lat_warp_finish(struct gp_meas *m)
{
	gp_meas_latency_ns(m, "cycles_per_step");
	gp_meas_floor(m, "a dependent warp step", gp_meas_stat(m, "cycles_per_step", GP_MIN), 1.0, 0, "cycles");
}

GP_EXP_SYNC(lat_warp, gp_image_probes_warp, "cycles_per_step", struct lat_warp);

/* ---------------------------------------------------------------- tput_warp */

static const struct gp_param tput_warp_params[] = {
	{ "op", GP_PARAM_NAME, 0, 0, GP_WARP_CHOICES, GP_WARP_CHOICES, "warp operation (probes/warp.list)" },
	GP_PARAMS_TPUT_GRID,
	{ "iters", GP_PARAM_INT, 1, 100000, NULL, "128", "loop trips of 32 x 8 independent steps" },
};

static const char *const tput_warp_cols[] = {
	"op", "sass", "blocks", "threads_per_block", "warps_per_sm", "ops_per_thread", "time_ms_min", "time_ms",
	"time_ms_max", "spread", "clock_MHz", "ops_per_clk_per_sm", "warp_insts_per_clk_per_sm",
	"ceiling_ops_per_clk_per_sm", "status",
};

struct tput_warp {
	const struct gp_warp_op *d;
	CUdeviceptr out;
	const uint32_t *h_out;
	uint32_t want[32];
	size_t nthr;
	int iters;
	double ops_thread;
};

static int tput_warp_setup(struct gp_meas *m)
{
	struct tput_warp *c = m->ctx;
	const int threads = (int)gp_meas_param(m, "threads"), bps = (int)gp_meas_param(m, "blocks_per_sm");
	const unsigned blocks = (unsigned)bps * (unsigned)m->dev->sms;
	int rc;

	if (!(c->d = warp_op(m)))
		return 0;
	if (threads % 32)
		return gp_meas_na(m, "%d threads: a full-mask warp operation needs whole warps", threads);
	c->iters = (int)gp_meas_param(m, "iters");
	c->nthr = (size_t)blocks * (size_t)threads;
	c->ops_thread = (double)c->iters * WARP_TPUT_STEPS * WARP_TPUT_ILP;
	gp_meas_int(m, "blocks", blocks);
	gp_meas_int(m, "threads_per_block", threads);
	gp_meas_int(m, "warps_per_sm", (long long)bps * threads / 32);
	gp_meas_num(m, "ops_per_thread", c->ops_thread);
	gp_meas_num(m, "ceiling_ops_per_clk_per_sm", WARP_ISSUE_OPS_PER_CLK_SM);
	if ((rc = gp_meas_kernel(m, "tput_warp_%s", c->d->name)))
		return rc;
	if (gp_meas_resident(m, threads, bps))
		return 0;
	gp_warp_tput_expect(c->d, c->iters, c->want);
	if ((rc = gp_meas_buf(m, &c->out, c->nthr * sizeof(uint32_t), GP_POISON_NAN)))
		return rc;
	c->h_out = gp_meas_readback(m, c->out, c->nthr * sizeof(uint32_t), GP_LAST_REP);
	gp_meas_launch(m, blocks, (unsigned)threads, 0);
	gp_meas_args(m, &c->out, &c->iters, gp_meas_clock(m));
	return 0;
}

static void tput_warp_finish(struct gp_meas *m)
{
	const struct tput_warp *c = m->ctx;
	const double ops = gp_ops_per_clk_per_sm(c->ops_thread * (double)c->nthr, gp_meas_stat(m, "time_ms", GP_MEDIAN),
						 gp_meas_mhz(m), m->dev->sms);

	if (c->h_out)
		gp_meas_check_u32(m, "thread", c->h_out, c->want, c->nthr, 32);
	else
		gp_meas_fail(m, "no host memory for the read-back");
	gp_meas_num(m, "ops_per_clk_per_sm", ops);
	gp_meas_num(m, "warp_insts_per_clk_per_sm", ops / 32.0);
	gp_meas_ceiling(m, "issue (4 schedulers x 32 lanes)", ops, WARP_ISSUE_OPS_PER_CLK_SM, 0.02, "ops/clk/SM");
}

static const struct gp_probe tput_warp_probe = {
	.runner = GP_RUN_EVENT, .image = gp_image_probes_warp, .setup = tput_warp_setup,
	.finish = tput_warp_finish, .primary = "time_ms", .ctx_size = sizeof(struct tput_warp),
};

GP_EXP_PROBE(tput_warp, tput_warp_params, tput_warp_cols, &tput_warp_probe);
