/* arith.c — the FP32 pipeline probes: E002 (lat_ffma) and E106 (tput_fp32); report sections in
 * arith_report.c.
 *
 * lat_ffma times one dependent FFMA chain per thread in a single block and reports, as seed 000
 * Table 3 does, the per-thread cycles per FFMA (min / average / max over threads), plus the
 * block-wide time from the first start to the last end, which is the honest "cycles per warp"
 * once warps outnumber the latency. tput_fp32 fills every SM and turns event time and the
 * measured SM clock into operations per clock per SM against the architectural FP32 rate.
 * Both check the arithmetic bit for bit against the host and refuse numbers past the issue
 * limit: that would mean the compiler removed work. lat_ffma's `operand` picks seed 000
 * Table 3 (reg: all registers) or today's forms of Table 2's "MAD with a memory operand"
 * (smem: an LDS feeds every FFMA and the FFMA's result is the next address; const: the
 * multiplier is a kernel parameter in the constant bank). */
#include "gp.h"
#include "arith_shape.h"
#include "experiment.h"
#include "measure.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

extern const unsigned char gp_image_probes_arith[];

/* Operands of every chain: b slightly below 1 and c chosen so values stay normal and keep
 * changing for millions of steps (fixed point c / (1 - b) = 2), making a skipped or repeated
 * operation visible in the final bits. */
static const float chain_bc[2] = { 1.0f - 0x1p-20f, 0x1p-19f };

/* operand=smem: FFMA(v, 1, 0) passes the loaded denormal through unchanged. */
static const float smem_bc[2] = { 1.0f, 0.0f };

/* Where lane l's LDS -> FFMA chase ends after n steps, as the float bits the kernel returns:
 * the byte offset of word l + 32 n on the ring. */
static float smem_chain_end(int lane, long n)
{
	const uint32_t off = 4u * (uint32_t)((lane + 32 * (n % (RING_WORDS / 32))) % RING_WORDS);
	float f;

	memcpy(&f, &off, sizeof f);
	return f;
}

static float start_value(unsigned tid)
{
	return 1.0f + (float)(tid % 7) * 0.125f;
}

enum fp_op { OP_FFMA, OP_FMUL, OP_FADD };

static float chain(enum fp_op op, float x, long n)
{
	const float b = chain_bc[0], c = chain_bc[1];

	for (long i = 0; i < n; i++) {
		switch (op) {
		case OP_FFMA: x = fmaf(x, b, c); break;
		case OP_FMUL: x = x * b; break;
		case OP_FADD: x = x + c; break;
		}
	}
	return x;
}

/* ---------------------------------------------------------------- E002 lat_ffma */

static const struct gp_param lat_ffma_params[] = {
	{ "threads", GP_PARAM_INT, 1, 1024, NULL,
	  "1 32 64 128 192 224 256 288 320 384 512 640 768 896 1024", "threads in the one block" },
	{ "iters", GP_PARAM_INT, 1, 1000000, NULL, "4096", "loop trips of 256 dependent FFMAs" },
	/* Last, so the sweep order and parameter positions of the threads/iters suites stay. */
	{ "operand", GP_PARAM_NAME, 0, 0, "reg smem const", "reg",
	  "where the FFMA's operand comes from: registers, a shared load (LDS -> FFMA), constant bank" },
};

static const char *const lat_ffma_cols[] = {
	"operand", "threads", "warps", "ffma_per_thread", "cycles_per_ffma_min", "cycles_per_ffma_avg",
	"cycles_per_ffma_max", "block_cycles_per_ffma", "block_cycles_per_ffma_min",
	"block_cycles_per_ffma_max", "spread", "cycles_per_warp", "latency_ns", "clock_MHz",
	"timer_overhead_cycles", "reps", "status",
};

struct lat_ffma {
	CUdeviceptr out, t0, t1, ovh, bc;
	const float *h_out;
	const unsigned long long *h_t0, *h_t1, *h_ovh;
	float ref[32], pb;
	int iters, threads, period;
	long n;
};

static int lat_ffma_setup(struct gp_meas *m)
{
	struct lat_ffma *c = m->ctx;
	const char *operand = gp_meas_param_str(m, "operand");
	const int smem = !strcmp(operand, "smem");
	const size_t th = (size_t)(c->threads = (int)gp_meas_param(m, "threads"));
	int rc;

	c->iters = (int)gp_meas_param(m, "iters");
	c->n = (long)c->iters * LAT_UNROLL;
	c->pb = chain_bc[0];
	c->period = smem ? 32 : 7;
	for (int k = 0; k < c->period; k++)
		c->ref[k] = smem ? smem_chain_end(k, c->n) : chain(OP_FFMA, start_value((unsigned)k), c->n);
	if ((rc = gp_meas_kernel(m, "lat_ffma%s", smem ? "_smem" : !strcmp(operand, "const") ? "_const" : "")) ||
	    (rc = gp_meas_buf(m, &c->out, th * sizeof(float), GP_POISON_NAN)) ||
	    (rc = gp_meas_buf(m, &c->t0, th * 8, GP_NO_POISON)) || (rc = gp_meas_buf(m, &c->t1, th * 8, GP_NO_POISON)) ||
	    (rc = gp_meas_buf(m, &c->ovh, th * 8, GP_NO_POISON)) ||
	    (rc = gp_meas_input(m, &c->bc, smem ? smem_bc : chain_bc, sizeof chain_bc)))
		return rc;
	c->h_out = gp_meas_readback(m, c->out, th * sizeof(float), GP_EVERY_REP);
	c->h_t0 = gp_meas_readback(m, c->t0, th * 8, GP_EVERY_REP);
	c->h_t1 = gp_meas_readback(m, c->t1, th * 8, GP_EVERY_REP);
	c->h_ovh = gp_meas_readback(m, c->ovh, th * 8, GP_EVERY_REP);
	gp_meas_launch(m, 1, (unsigned)th, 0);
	gp_meas_args(m, &c->out, &c->t0, &c->t1, &c->ovh, &c->bc, &c->iters, gp_meas_clock(m), &c->pb);
	gp_meas_int(m, "warps", (c->threads + 31) / 32);
	gp_meas_int(m, "ffma_per_thread", c->n);
	return 0;
}

/* Per thread: (end - start - timer overhead) / steps; block-wide: first start to last end. */
static void lat_ffma_sample(struct gp_meas *m)
{
	const struct lat_ffma *c = m->ctx;
	unsigned long long first = ~0ull, last = 0;
	double sum = 0, mn = INFINITY, mx = 0, ov = 0;

	gp_meas_check_f32(m, "thread", c->h_out, c->ref, (size_t)c->threads, (size_t)c->period);
	for (int i = 0; i < c->threads; i++) {
		const double cyc = ((double)(c->h_t1[i] - c->h_t0[i]) - (double)c->h_ovh[i]) / (double)c->n;
		sum += cyc;
		mn = fmin(mn, cyc);
		mx = fmax(mx, cyc);
		ov += (double)c->h_ovh[i];
		first = c->h_t0[i] < first ? c->h_t0[i] : first;
		last = c->h_t1[i] > last ? c->h_t1[i] : last;
	}
	ov /= c->threads;
	gp_sample(m, "cycles_per_ffma_min", mn);
	gp_sample(m, "cycles_per_ffma_avg", sum / c->threads);
	gp_sample(m, "cycles_per_ffma_max", mx);
	gp_sample(m, "block_cycles_per_ffma", ((double)(last - first) - ov) / (double)c->n);
	gp_sample(m, "timer_overhead_cycles", ov);
}

/* Ceiling: an SM issues at most `lanes` FFMA lanes per clock, so a block of W warps cannot
 * finish an FFMA per thread in fewer than W * 32 / lanes cycles. */
static void lat_ffma_finish(struct gp_meas *m)
{
	const struct lat_ffma *c = m->ctx;
	const int warps = (c->threads + 31) / 32, lanes = gp_fp32_lanes_per_sm(m->dev->cc_major, m->dev->cc_minor);
	const double blk = gp_meas_stat(m, "block_cycles_per_ffma", GP_MEDIAN);

	gp_meas_num(m, "cycles_per_warp", blk / warps);
	gp_meas_latency_ns(m, "cycles_per_ffma_min");
	if (lanes)
		gp_meas_floor(m, "block time per FFMA", blk, warps * 32.0 / lanes, 0.02, "cycles");
}

GP_EXP_SYNC(lat_ffma, gp_image_probes_arith, "block_cycles_per_ffma", struct lat_ffma);

/* ---------------------------------------------------------------- E106 tput_fp32 */

static const struct gp_param tput_fp32_params[] = {
	{ "op", GP_PARAM_NAME, 0, 0, "ffma fmul fadd", "ffma fmul fadd", "FP32 instruction" },
	GP_PARAMS_TPUT_GRID,
	{ "iters", GP_PARAM_INT, 1, 1000000, NULL, "4096", "loop trips of 16 x 8 independent ops" },
};

static const char *const tput_fp32_cols[] = {
	"op", "blocks", "threads_per_block", "warps_per_sm", "ops_per_thread", "time_ms_min",
	"time_ms", "time_ms_max", "spread", "clock_MHz", "ops_per_clk_per_sm",
	"peak_ops_per_clk_per_sm", "pct_of_peak", "tflops", "status",
};

struct tput_fp32 {
	CUdeviceptr out, bc;
	const float *h_out;
	float ref[7];
	int iters;
	size_t nthr;
	double ops_per_thread;
	enum fp_op op;
};

static int tput_fp32_setup(struct gp_meas *m)
{
	struct tput_fp32 *c = m->ctx;
	const char *opname = gp_meas_param_str(m, "op");
	const int threads = (int)gp_meas_param(m, "threads"), bps = (int)gp_meas_param(m, "blocks_per_sm");
	const unsigned blocks = (unsigned)(bps * m->dev->sms);
	int rc;

	c->op = !strcmp(opname, "ffma") ? OP_FFMA : !strcmp(opname, "fmul") ? OP_FMUL : OP_FADD;
	c->iters = (int)gp_meas_param(m, "iters");
	c->nthr = (size_t)blocks * threads;
	c->ops_per_thread = (double)c->iters * TPUT_UNROLL * TPUT_ILP;
	gp_meas_int(m, "blocks", blocks);
	gp_meas_int(m, "threads_per_block", threads);
	gp_meas_int(m, "warps_per_sm", (long long)bps * threads / 32);
	gp_meas_num(m, "ops_per_thread", c->ops_per_thread);
	if ((rc = gp_meas_kernel(m, "tput_%s", opname)))
		return rc;
	if (gp_meas_resident(m, threads, bps))
		return 0;
	for (int k = 0; k < 7; k++)
		for (int a = 0; a < TPUT_ILP; a++) {
			const float v = chain(c->op, start_value((unsigned)k) + 0.0625f * (float)a, (long)c->iters * TPUT_UNROLL);
			c->ref[k] = a ? c->ref[k] + v : v;
		}
	if ((rc = gp_meas_buf(m, &c->out, c->nthr * sizeof(float), GP_POISON_NAN)) ||
	    (rc = gp_meas_input(m, &c->bc, chain_bc, sizeof chain_bc)))
		return rc;
	c->h_out = gp_meas_readback(m, c->out, c->nthr * sizeof(float), GP_LAST_REP);
	gp_meas_launch(m, blocks, (unsigned)threads, 0);
	gp_meas_args(m, &c->out, &c->bc, &c->iters, gp_meas_clock(m));
	return 0;
}

/* ops/clk/SM = ops / (time x clock x SMs), against the FP32 lanes per SM. */
static void tput_fp32_finish(struct gp_meas *m)
{
	const struct tput_fp32 *c = m->ctx;
	const int lanes = gp_fp32_lanes_per_sm(m->dev->cc_major, m->dev->cc_minor);
	const double s = gp_meas_stat(m, "time_ms", GP_MEDIAN) * 1e-3;
	const double ops_clk = c->ops_per_thread * (double)c->nthr / (s * gp_meas_mhz(m) * 1e6 * m->dev->sms);

	gp_meas_check_f32(m, "thread", c->h_out, c->ref, c->nthr, 7);
	gp_meas_num(m, "ops_per_clk_per_sm", ops_clk);
	gp_meas_int(m, "peak_ops_per_clk_per_sm", lanes);
	gp_meas_num(m, "pct_of_peak", lanes ? 100.0 * ops_clk / lanes : NAN);
	gp_meas_num(m, "tflops", (c->op == OP_FFMA ? 2.0 : 1.0) * c->ops_per_thread * (double)c->nthr / s / 1e12);
	gp_meas_ceiling(m, "FP32 issue", ops_clk, lanes, 0.01, "ops/clk/SM");
}

static const struct gp_probe tput_fp32_probe = {
	.runner = GP_RUN_EVENT, .image = gp_image_probes_arith, .setup = tput_fp32_setup,
	.finish = tput_fp32_finish, .primary = "time_ms", .ctx_size = sizeof(struct tput_fp32),
};

GP_EXP_PROBE(tput_fp32, tput_fp32_params, tput_fp32_cols, &tput_fp32_probe);
