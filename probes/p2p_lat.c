/* p2p_lat.c — lat_p2p's probe (p2p.c runs it once per pair on dst): one thread on dst chases a
 * random cycle of 64-bit pointers laid out by src in its own memory (footprint / stride slots,
 * Sattolo's shuffle with a fixed seed), one lap untimed, then `steps` timed loads; the host replays
 * the cycle and the chase must end where the replay does. Cycles per load from clock64 minus the
 * timer's overhead; nanoseconds at the clock the kernel measured. */
#include "gp.h"
#include "experiment.h"
#include "measure.h"
#include "p2p_run.h"
#include "p2p_shape.h"

#include <math.h>
#include <string.h>

#define P2P_MAX_SLOTS (1L << 24)

static const struct gp_param lat_p2p_params[] = {
	{ "footprint_bytes", GP_PARAM_INT, 1L << 16, 1L << 34, NULL, "268435456",
	  "bytes of src's memory the chase spreads over (above its L2 to time its DRAM)" },
	{ "stride_bytes", GP_PARAM_INT, 64, 1L << 24, NULL, "65536", "spacing of the slots (a multiple of 8)" },
	{ "steps", GP_PARAM_INT, 64, 1L << 22, NULL, "4096", "timed dependent loads" },
	{ "pairs", GP_PARAM_NAME, 0, 0, "all device", "all", "every ordered pair of GPUs, or those with the run's GPU" },
};

static const char *const lat_p2p_cols[] = {
	"footprint_bytes", "stride_bytes", "steps", "pairs", "src", "dst", "exec", "link", "p2p_access",
	"latency_ns", "latency_ns_min", "latency_ns_max", "cycles", "spread", "timer_overhead_cycles",
	"clock_MHz", "reps", "status",
};

struct lat {
	struct p2p_bufs b;
	CUdeviceptr chain, next, out;
	const unsigned long long *h_out;
	unsigned long long start, want;
	long long slots, stride, warm, steps;
};

/* next[i]: one random cycle through all slots (Sattolo), from a fixed seed. */
static void lat_cycle(unsigned *next, long long n)
{
	unsigned long long s = 0x2545f4914f6cdd1dull;

	for (long long i = 0; i < n; i++)
		next[i] = (unsigned)i;
	for (long long i = n - 1; i > 0; i--) {
		long long j;
		unsigned t;
		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		j = (long long)(s % (unsigned long long)i);
		t = next[i], next[i] = next[j], next[j] = t;
	}
}

/* The cycle in src's memory (laid out by src), and where warm + steps loads from slot 0 end. */
static int lat_chain(struct gp_meas *m, struct lat *x, const struct p2p_pair *p)
{
	unsigned *next = gp_meas_host(m, (size_t)x->slots * sizeof *next);
	void *args[] = { &x->chain, &x->next, &x->slots, &x->stride };
	long long idx = 0;
	int rc;

	if (!next)
		return GP_EFAIL;
	lat_cycle(next, x->slots);
	if ((rc = p2p_buf_on(m, &x->b, p->sdev, &x->chain, (size_t)(x->slots * x->stride))) ||
	    (rc = p2p_buf_on(m, &x->b, p->sdev, &x->next, (size_t)x->slots * sizeof *next)))
		return rc;
	if ((rc = p2p_on(p->sdev)) || (rc = gp_upload(x->next, next, (size_t)x->slots * sizeof *next)) ||
	    (rc = p2p_on(m->dev)) || (rc = p2p_kernel_on(m, p->sdev, "p2p_chain", args, 0)))
		return rc;
	for (long long k = 0; k < x->warm + x->steps; k++)
		idx = next[idx];
	x->start = x->chain;
	x->want = x->chain + (unsigned long long)(idx * x->stride);
	return 0;
}

static int lat_p2p_setup(struct gp_meas *m)
{
	const struct p2p_pair *p = p2p_pair_now();
	struct lat *x = m->ctx;
	int rc;

	x->stride = gp_meas_param(m, "stride_bytes");
	x->slots = gp_meas_param(m, "footprint_bytes") / x->stride;
	x->steps = gp_meas_param(m, "steps");
	x->warm = x->slots;
	p2p_pair_cells(m, p);
	if (p->na)
		return gp_meas_na(m, "%s", p->na);
	if (x->stride % 8 || x->slots < 2 || x->slots > P2P_MAX_SLOTS)
		return gp_meas_na(m, "stride_bytes must be a multiple of 8 giving 2 to %ld slots", P2P_MAX_SLOTS);
	if (!p->access)
		return gp_meas_na(m, "no peer access between GPU %d and GPU %d", p->src, p->dst);
	if ((rc = lat_chain(m, x, p)))
		return rc > 0 ? 0 : rc;
	if ((rc = gp_meas_buf(m, &x->out, 3 * sizeof(unsigned long long), 0xff)) ||
	    (rc = gp_meas_kernel(m, "p2p_chase")))
		return rc;
	x->h_out = gp_meas_readback(m, x->out, 3 * sizeof(unsigned long long), GP_EVERY_REP);
	gp_meas_launch(m, 1, 1, 0);
	gp_meas_args(m, &x->start, &x->warm, &x->steps, &x->out, gp_meas_clock(m));
	return 0;
}

static void lat_p2p_sample(struct gp_meas *m)
{
	const struct lat *x = m->ctx;
	const struct gp_clock_sample *cs = gp_meas_clock_sample(m);
	const double mhz = cs ? gp_clock_mhz(cs) : 0;
	const double cyc = ((double)x->h_out[1] - (double)x->h_out[2]) / (double)x->steps;

	if (x->h_out[0] != x->want) {
		gp_meas_fail(m, "the chase ended at %#llx, the replay at %#llx", x->h_out[0], x->want);
		return;
	}
	gp_sample(m, "cycles", cyc);
	gp_sample(m, "timer_overhead_cycles", (double)x->h_out[2]);
	if (mhz > 0)
		gp_sample(m, "latency_ns", cyc / mhz * 1e3);
}

/* A load cannot take less than a cycle; a chase that did not wait for its loads would. */
static void lat_p2p_finish(struct gp_meas *m)
{
	gp_meas_floor(m, "cycles per dependent load", gp_meas_stat(m, "cycles", GP_MIN), 1, 0, "cycles");
}

static void lat_p2p_cleanup(struct gp_meas *m)
{
	p2p_bufs_free(m, &((struct lat *)m->ctx)->b);
}

static const struct gp_probe lat_p2p_probe = {
	.runner = GP_RUN_SYNC, .image = gp_image_probes_p2p, .setup = lat_p2p_setup, .sample = lat_p2p_sample,
	.finish = lat_p2p_finish, .cleanup = lat_p2p_cleanup, .primary = "latency_ns", .ctx_size = sizeof(struct lat),
};

static const struct gp_exp_impl lat_p2p_pair = {
	.params = lat_p2p_params, .nparams = GP_ARRAY_SIZE(lat_p2p_params), .columns = lat_p2p_cols,
	.ncolumns = GP_ARRAY_SIZE(lat_p2p_cols), .probe = &lat_p2p_probe,
};

static int lat_p2p_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *out)
{
	return p2p_measure(run, pt, out, &lat_p2p_pair, 1);
}

GP_EXP_IMPL(lat_p2p, lat_p2p_params, lat_p2p_cols, lat_p2p_measure);
