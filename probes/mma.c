/* mma.c — the measurement of lat_mma (H001) and tput_mma (H002) for every form of probes/mma.list;
 * report sections in mma_report.c. lat_mma times one warp's dependent accumulator chain with
 * clock64 (timer overhead subtracted); tput_mma runs MMA_CHAINS chains per warp on every SM and
 * divides the FLOP by the grid's own cycle window (the clock sample: launch overhead is not in
 * it, so short kernels still give a rate per clock). Every D element of every chain is checked
 * against the host's exact value; a rate above the form's peak, or a latency below what one
 * sub-partition's tensor core can do, fails the row. Pitfall: an iters whose sum the accumulator
 * cannot hold exactly is n/a, not a wrong check. */
#include "gp.h"
#include "experiment.h"
#include "measure.h"
#include "insn.h"
#include "mma.h"
#include "mma_shape.h"

#include <math.h>
#include <string.h>

extern const unsigned char gp_image_probes_mma[];

/* What both probes share: the form, the expected words, the operands. */
struct mma_point {
	const struct gp_mma *d;
	CUdeviceptr out, opnd;
	const uint32_t *h_out;
	uint32_t want[2];
	int iters, period, words;
	double peak;
};

/* The form of this point, or n/a (returns 1) where the device or the iters cannot form it. */
static int mma_form(struct gp_meas *m, struct mma_point *p)
{
	char why[256];
	long max;

	if (!(p->d = gp_mma_find(gp_meas_param_str(m, "variant"))))
		return gp_meas_na(m, "not in probes/mma.list"), 1;
	gp_meas_str(m, "ptx", p->d->ptx);
	gp_meas_str(m, "sass", p->d->sass);
	gp_meas_num(m, "flops_per_mma", gp_mma_flops(p->d));
	if (gp_mma_cannot(p->d, m->dev->cc_major, m->dev->cc_minor, why, sizeof why))
		return gp_meas_na(m, "%s", why), 1;
	p->iters = (int)gp_meas_param(m, "iters");
	if (p->iters > (max = gp_mma_max_iters(p->d)))
		return gp_meas_na(m, "iters %d: the %s accumulator would leave its exact range (at most %ld)",
				  p->iters, p->d->name, max), 1;
	p->words = gp_mma_words(p->d);
	p->period = gp_mma_expect(p->d, p->iters, p->want);
	p->peak = gp_mma_peak(p->d, m->dev->cc_major, m->dev->cc_minor);
	return 0;
}

/* The kernel, its poisoned result buffer of `threads` x chains and its operands. */
static int mma_buffers(struct gp_meas *m, struct mma_point *p, const char *kind, size_t threads, int chains,
		       enum gp_readback when)
{
	const size_t bytes = threads * (size_t)chains * (size_t)p->words * sizeof(uint32_t);
	uint64_t opnd[3];
	int rc;

	gp_mma_operands(p->d, opnd);
	if ((rc = gp_meas_kernel(m, "%s_%s", kind, p->d->name)) ||
	    (rc = gp_meas_buf(m, &p->out, bytes, GP_POISON_NAN)) || (rc = gp_meas_input(m, &p->opnd, opnd, sizeof opnd)))
		return rc;
	p->h_out = gp_meas_readback(m, p->out, bytes, when);
	return 0;
}

static void mma_check(struct gp_meas *m, const struct mma_point *p, size_t words)
{
	if (p->h_out)
		gp_meas_check_u32(m, "D word", p->h_out, p->want, words, (size_t)p->period);
}

/* ---------------------------------------------------------------- H001 lat_mma */

static const struct gp_param lat_mma_params[] = {
	{ "variant", GP_PARAM_NAME, 0, 0, GP_MMA_CHOICES, GP_MMA_CHOICES, "mma.sync form (probes/mma.list)" },
	{ "iters", GP_PARAM_INT, 1, 65536, NULL, "64", "loop trips of 64 dependent mma" },
};

static const char *const lat_mma_cols[] = {
	"variant", "ptx", "sass", "flops_per_mma", "iters", "mma_per_thread", "cycles_per_mma", "cycles_per_mma_min",
	"cycles_per_mma_max", "cycles_per_mma_spread", "spread", "latency_ns", "flops_per_clk_one_warp",
	"timer_overhead_cycles", "clock_MHz", "reps", "status",
};

struct lat_mma {
	struct mma_point p;
	CUdeviceptr cyc;
	const uint64_t *h_cyc;
	long steps;
};

static int lat_mma_setup(struct gp_meas *m)
{
	struct lat_mma *c = m->ctx;
	int rc;

	if (mma_form(m, &c->p))
		return 0;
	c->steps = (long)c->p.iters * MMA_TRIP_STEPS;
	gp_meas_int(m, "mma_per_thread", c->steps);
	if ((rc = mma_buffers(m, &c->p, "lat", 32, 1, GP_EVERY_REP)) ||
	    (rc = gp_meas_buf(m, &c->cyc, 64 * sizeof(uint64_t), GP_NO_POISON)))
		return rc;
	c->h_cyc = gp_meas_readback(m, c->cyc, 64 * sizeof(uint64_t), GP_EVERY_REP);
	gp_meas_launch(m, 1, 32, 0);
	gp_meas_args(m, &c->p.out, &c->cyc, &c->p.opnd, &c->p.iters, gp_meas_clock(m));
	return 0;
}

/* The fastest lane's (elapsed - timer overhead) / steps: the latency; the mean timer cost. */
static void lat_mma_sample(struct gp_meas *m)
{
	const struct lat_mma *c = m->ctx;
	double mn, ov;

	mma_check(m, &c->p, 32 * (size_t)c->p.words);
	mn = gp_chain_fastest(c->h_cyc, (double)c->steps, &ov);
	gp_sample(m, "cycles_per_mma", isnan(mn) ? 0 : mn);
	gp_sample(m, "timer_overhead_cycles", ov);
}

/* A dependent chain cannot beat one sub-partition's share (a quarter) of the SM's peak. */
static void lat_mma_finish(struct gp_meas *m)
{
	const struct lat_mma *c = m->ctx;
	const double cyc = gp_meas_latency_ns(m, "cycles_per_mma"), flops = gp_mma_flops(c->p.d);

	gp_meas_num(m, "flops_per_clk_one_warp", cyc > 0 ? flops / cyc : NAN);
	gp_meas_floor(m, "a dependent mma (one sub-partition's tensor rate)", gp_meas_stat(m, "cycles_per_mma", GP_MIN),
		      c->p.peak > 0 ? 4 * flops / c->p.peak : 1, 0.02, "cycles");
}

GP_EXP_SYNC(lat_mma, gp_image_probes_mma, "cycles_per_mma", struct lat_mma);

/* ---------------------------------------------------------------- H002 tput_mma */

static const struct gp_param tput_mma_params[] = {
	{ "variant", GP_PARAM_NAME, 0, 0, GP_MMA_CHOICES, GP_MMA_CHOICES, "mma.sync form (probes/mma.list)" },
	{ "blocks_per_sm", GP_PARAM_INT, 1, 32, NULL, "1 2 4 8", "resident blocks per SM" },
	{ "threads", GP_PARAM_INT, 32, 1024, NULL, "128", "threads per block (whole warps)" },
	{ "iters", GP_PARAM_INT, 1, 65536, NULL, "64", "loop trips of 64 mma on each of 4 chains" },
};

static const char *const tput_mma_cols[] = {
	"variant", "ptx", "sass", "flops_per_mma", "blocks_per_sm", "threads", "iters", "blocks", "warps_per_sm", "chains",
	"flops_per_clk_per_sm", "flops_per_clk_per_sm_min", "flops_per_clk_per_sm_max", "flops_per_clk_per_sm_spread",
	"spread", "tflops", "peak_flops_per_clk_per_sm", "pct_of_peak", "clock_MHz", "reps", "status",
};

struct tput_mma {
	struct mma_point p;
	size_t nthr;
	double flops;
};

static int tput_mma_setup(struct gp_meas *m)
{
	struct tput_mma *c = m->ctx;
	const int threads = (int)gp_meas_param(m, "threads"), bps = (int)gp_meas_param(m, "blocks_per_sm");
	const unsigned blocks = (unsigned)(bps * m->dev->sms);
	int rc;

	if (mma_form(m, &c->p))
		return 0;
	if (threads % 32)
		return gp_meas_na(m, "threads %d: mma.sync needs whole warps", threads);
	c->nthr = (size_t)blocks * (size_t)threads;
	c->flops = (double)c->nthr / 32 * MMA_CHAINS * MMA_TRIP_STEPS * c->p.iters * gp_mma_flops(c->p.d);
	gp_meas_int(m, "blocks", blocks);
	gp_meas_int(m, "warps_per_sm", (long long)bps * threads / 32);
	gp_meas_int(m, "chains", MMA_CHAINS);
	if ((rc = gp_meas_kernel(m, "tput_%s", c->p.d->name)))
		return rc;
	if (gp_meas_resident(m, threads, bps))
		return 0;
	if ((rc = mma_buffers(m, &c->p, "tput", c->nthr, MMA_CHAINS, GP_LAST_REP)))
		return rc;
	gp_meas_launch(m, blocks, (unsigned)threads, 0);
	gp_meas_args(m, &c->p.out, &c->p.opnd, &c->p.iters, gp_meas_clock(m));
	return 0;
}

/* FLOP over the grid's cycle window (block 0's SM clock from its start to the last block's end). */
static void tput_mma_sample(struct gp_meas *m)
{
	const struct tput_mma *c = m->ctx;
	const struct gp_clock_sample *s = gp_meas_clock_sample(m);

	if (s && s->clk1 > s->clk0)
		gp_sample(m, "flops_per_clk_per_sm", c->flops / (double)(s->clk1 - s->clk0) / m->dev->sms);
}

static void tput_mma_finish(struct gp_meas *m)
{
	const struct tput_mma *c = m->ctx;
	const double fpc = gp_meas_stat(m, "flops_per_clk_per_sm", GP_MEDIAN);

	mma_check(m, &c->p, c->nthr * MMA_CHAINS * (size_t)c->p.words);
	gp_meas_num(m, "tflops", fpc * m->dev->sms * gp_meas_mhz(m) / 1e6);
	if (!(fpc > 0))
		gp_meas_fail(m, "no cycle window: the clock sample is missing");
	if (!(c->p.peak > 0)) {
		gp_meas_str(m, "peak_flops_per_clk_per_sm", "");
		gp_meas_str(m, "pct_of_peak", "");
		return;
	}
	gp_meas_num(m, "peak_flops_per_clk_per_sm", c->p.peak);
	gp_meas_num(m, "pct_of_peak", gp_pct_of_rate(fpc, c->p.peak));
	gp_meas_ceiling(m, c->p.d->sparse ? "the sparse tensor peak" : "the dense tensor peak", fpc, c->p.peak,
				0.02, "FLOP/clk/SM");
}

GP_EXP_SYNC(tput_mma, gp_image_probes_mma, "flops_per_clk_per_sm", struct tput_mma);
