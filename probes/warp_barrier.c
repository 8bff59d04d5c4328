/* warp_barrier.c — lat_barrier: what one block barrier costs against the block's size. One block
 * runs 32 x iters barriers back to back; thread 0's clock64 around them, the timer's cost
 * subtracted, over their count is cycles per barrier (every thread waits at each, so thread 0's
 * time is the barrier's period). bar_sync: bar.sync 0 (__syncthreads). mbarrier: every thread
 * arrives on a shared mbarrier counting the block and waits for the phase's parity (try_wait on
 * sm_90, test_wait polled on sm_80; the PTX, not cuda::barrier). Checks, untimed: bar_sync rounds
 * where each thread reads another warp's word written before the barrier; mbarrier stands exactly
 * after the phases it ran. Floor: every warp issues at least one instruction per barrier, four
 * warps a clock. Kernels in warp.cu, report in warp_report.c. */
#include "gp.h"
#include "experiment.h"
#include "measure.h"
#include "insn.h"
#include "warp_shape.h"

#include <math.h>
#include <string.h>

extern const unsigned char gp_image_probes_warp[];

static const struct gp_param lat_barrier_params[] = {
	{ "kind", GP_PARAM_NAME, 0, 0, "bar_sync mbarrier", "bar_sync mbarrier",
	  "bar.sync 0, or mbarrier arrive + wait (cc >= 8.0)" },
	{ "threads", GP_PARAM_INT, 1, 1024, NULL, "32 64 128 256 512 1024", "threads in the one block" },
	{ "iters", GP_PARAM_INT, 1, 100000, NULL, "64", "loop trips of 32 barriers" },
};

static const char *const lat_barrier_cols[] = {
	"kind", "threads", "warps", "barriers", "cycles_per_barrier", "cycles_per_barrier_min",
	"cycles_per_barrier_max", "spread", "ns_per_barrier", "clock_MHz", "timer_overhead_cycles", "reps", "status",
};

struct lat_barrier {
	CUdeviceptr out, bad;
	const uint64_t *h_out;
	const uint32_t *h_bad;
	int iters, threads;
	long barriers;
};

static int lat_barrier_setup(struct gp_meas *m)
{
	struct lat_barrier *c = m->ctx;
	const int mbar = !strcmp(gp_meas_param_str(m, "kind"), "mbarrier");
	int rc;

	c->threads = (int)gp_meas_param(m, "threads");
	c->iters = (int)gp_meas_param(m, "iters");
	c->barriers = (long)c->iters * BAR_UNROLL;
	gp_meas_int(m, "warps", (c->threads + 31) / 32);
	gp_meas_int(m, "barriers", c->barriers);
	if (mbar && m->dev->cc_major < 8)
		return gp_meas_na(m, "mbarrier needs compute capability 8.0");
	if ((rc = gp_meas_kernel(m, mbar ? "lat_mbarrier" : "lat_bar_sync")) ||
	    (rc = gp_meas_buf(m, &c->out, 2 * sizeof(uint64_t), GP_POISON_NAN)) ||
	    (rc = gp_meas_buf(m, &c->bad, (size_t)c->threads * sizeof(uint32_t), GP_POISON_NAN)))
		return rc;
	c->h_out = gp_meas_readback(m, c->out, 2 * sizeof(uint64_t), GP_EVERY_REP);
	c->h_bad = gp_meas_readback(m, c->bad, (size_t)c->threads * sizeof(uint32_t), GP_EVERY_REP);
	gp_meas_launch(m, 1, (unsigned)c->threads, 0);
	gp_meas_args(m, &c->out, &c->bad, &c->iters, gp_meas_clock(m));
	return 0;
}

static void lat_barrier_sample(struct gp_meas *m)
{
	const struct lat_barrier *c = m->ctx;
	const double cyc = gp_chain_cycles_per_step((double)c->h_out[0], (double)c->h_out[1], (double)c->barriers);

	for (int t = 0; t < c->threads; t++)
		if (c->h_bad[t]) {
			gp_meas_fail(m, "thread %d: %u of its checks saw the barrier not hold (%#x)", t, c->h_bad[t],
				     c->h_bad[t]);
			break;
		}
	gp_sample(m, "cycles_per_barrier", isnan(cyc) ? 0 : cyc);
	gp_sample(m, "timer_overhead_cycles", (double)c->h_out[1]);
}

static void lat_barrier_finish(struct gp_meas *m)
{
	const struct lat_barrier *c = m->ctx;
	const double cyc = gp_meas_stat(m, "cycles_per_barrier", GP_MEDIAN), warps = (c->threads + 31) / 32;

	gp_meas_num(m, "ns_per_barrier", cyc / gp_meas_mhz(m) * 1e3);
	gp_meas_floor(m, "a barrier", gp_meas_stat(m, "cycles_per_barrier", GP_MIN), fmax(1.0, warps / 4.0), 0,
		      "cycles");
}

GP_EXP_SYNC(lat_barrier, gp_image_probes_warp, "cycles_per_barrier", struct lat_barrier);
