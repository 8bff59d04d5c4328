/* insn_ffma.c — the measurement of tput_lds_ffma (E010: every R FFMAs consume one shared load)
 * and tput_occupancy (E004 style: FFMA rate vs active warps per SM); reports in insn_report.c.
 * tput_occupancy reads each block's SM id and clock64 window and takes each SM's own rate.
 * Pitfall: warps per SM is only true if every SM holds exactly the blocks asked for: dynamic
 * shared memory enforces it and the block records confirm it, point by point. */
#include "gp.h"
#include "experiment.h"
#include "measure.h"
#include "insn.h"
#include "insn_shape.h"

#include <math.h>
#include <string.h>

extern const unsigned char gp_image_probes_insn[];

/* ---------------------------------------------------------------- E010 tput_lds_ffma */

static const float mix_opnd[3] = { 0x1p-10f, 0x1p-10f, 1.0f }; /* shared value, b, start */

#define MIX_NAME(r) " " #r
#define MIX_IS(r) || (R) == (r)

static const struct gp_param mix_params[] = {
	{ "ffma_per_lds", GP_PARAM_INT, 1, 8, NULL, INSN_MIX_RATIOS(MIX_NAME) + 1,
	  "FFMAs consuming one shared load (1, 2, 4, 8)" },
	{ "addr", GP_PARAM_NAME, 0, 0, "distinct broadcast", "distinct broadcast",
	  "distinct: lane l reads word l; broadcast: every lane reads word 0" },
	GP_PARAMS_TPUT_GRID,
	{ "iters", GP_PARAM_INT, 1, 100000, NULL, "256", "loop trips of 32 x 8 FFMAs" },
};

static const char *const mix_cols[] = {
	"ffma_per_lds", "addr", "warps_per_sm", "ffma_per_thread", "time_ms_min", "time_ms", "time_ms_max",
	"spread", "clock_MHz", "ffma_per_clk_per_sm", "pct_of_fp32", "lds_warp_insts_per_clk_per_sm",
	"model_ffma_per_clk_per_sm", "status",
};

struct mix {
	CUdeviceptr out, opnd;
	const float *h_out;
	float want;
	size_t nthr;
	int R, iters, broadcast, lanes;
	double ffma_thread;
};

static int mix_setup(struct gp_meas *m)
{
	struct mix *c = m->ctx;
	const int R = c->R = (int)gp_meas_param(m, "ffma_per_lds"), bps = (int)gp_meas_param(m, "blocks_per_sm");
	const int threads = (int)gp_meas_param(m, "threads");
	const unsigned blocks = (unsigned)(bps * m->dev->sms);
	int rc;

	if (!(0 INSN_MIX_RATIOS(MIX_IS))) {
		gp_err("tput_lds_ffma: ffma_per_lds must be one of%s, not %d", INSN_MIX_RATIOS(MIX_NAME), R);
		return GP_ECONFIG;
	}
	c->iters = (int)gp_meas_param(m, "iters");
	c->broadcast = !strcmp(gp_meas_param_str(m, "addr"), "broadcast");
	c->nthr = (size_t)blocks * threads;
	c->ffma_thread = (double)c->iters * INSN_TPUT_STEPS * INSN_TPUT_ILP;
	c->lanes = gp_fp32_lanes_per_sm(m->dev->cc_major, m->dev->cc_minor);
	gp_meas_int(m, "warps_per_sm", (long long)bps * threads / 32);
	gp_meas_num(m, "ffma_per_thread", c->ffma_thread);
	gp_meas_num(m, "model_ffma_per_clk_per_sm", gp_mix_model(R, c->lanes ? c->lanes : 128, 1.0, 4.0));
	if ((rc = gp_meas_kernel(m, "mix_ffma%d", R)))
		return rc;
	if (gp_meas_resident(m, threads, bps))
		return 0;
	c->want = mix_opnd[2];
	for (long i = 0; i < (long)c->iters * INSN_TPUT_STEPS; i++)
		c->want = fmaf(mix_opnd[0], mix_opnd[1], c->want);
	if ((rc = gp_meas_buf(m, &c->out, c->nthr * sizeof(float), GP_POISON_NAN)) ||
	    (rc = gp_meas_input(m, &c->opnd, mix_opnd, sizeof mix_opnd)))
		return rc;
	c->h_out = gp_meas_readback(m, c->out, c->nthr * sizeof(float), GP_LAST_REP);
	gp_meas_launch(m, blocks, (unsigned)threads, 0);
	gp_meas_args(m, &c->out, &c->opnd, &c->iters, &c->broadcast, gp_meas_clock(m));
	return 0;
}

/* FFMA/clk/SM against the FP32 lanes; 32 banks deliver one distinct word each per clock: one
 * conflict-free warp-LDS per clock per SM at most. */
static void mix_finish(struct gp_meas *m)
{
	const struct mix *c = m->ctx;
	const double ops = gp_ops_per_clk_per_sm(c->ffma_thread * (double)c->nthr,
						 gp_meas_stat(m, "time_ms", GP_MEDIAN), gp_meas_mhz(m), m->dev->sms);
	const double lds = isnan(ops) ? 0 : ops / c->R / 32.0;

	gp_meas_check_f32(m, "thread", c->h_out, &c->want, c->nthr, 1);
	gp_meas_num(m, "ffma_per_clk_per_sm", isnan(ops) ? 0 : ops);
	gp_meas_num(m, "pct_of_fp32", c->lanes && !isnan(ops) ? gp_pct_of_rate(ops, c->lanes) : 0);
	gp_meas_num(m, "lds_warp_insts_per_clk_per_sm", lds);
	gp_meas_ceiling(m, "FFMA", ops, c->lanes, 0.02, "FFMA/clk/SM");
	if (!c->broadcast)
		gp_meas_ceiling(m, "distinct-address LDS (32 banks)", lds, 1.0, 0.02, "warp-LDS/clk/SM");
}

static const struct gp_probe mix_probe = {
	.runner = GP_RUN_EVENT, .image = gp_image_probes_insn, .setup = mix_setup, .finish = mix_finish,
	.primary = "time_ms", .ctx_size = sizeof(struct mix),
};

GP_EXP_PROBE(tput_lds_ffma, mix_params, mix_cols, &mix_probe);

/* ---------------------------------------------------------------- E004 style tput_occupancy */

static const struct {
	const char *name, *kernel;
	int ilp;
} occ_chains[] = {
#define OCC_ROW(name, kernel, ilp) { #name, #kernel, ilp },
	INSN_OCC_CHAINS(OCC_ROW)
#undef OCC_ROW
};

#define OCC_NAME(name, kernel, ilp) " " #name

static const float occ_ffma_opnd[3] = { 0x1.fffffep-1f, 0x1p-19f, 1.0f }; /* a, b, start */
static const float occ_lds_opnd[3] = { 1.0f, 0.0f, 0.0f };                /* FFMA(v, 1, 0) = v */

static const struct gp_param occ_params[] = {
	{ "chain", GP_PARAM_NAME, 0, 0, INSN_OCC_CHAINS(OCC_NAME) + 1, INSN_OCC_CHAINS(OCC_NAME) + 1,
	  "dependent chain per thread: FFMA with 1, 2 or 4 chains, or LDS -> FFMA" },
	{ "warps", GP_PARAM_INT, 1, 64, NULL, "1 2 3 4 6 8 10 12 16 20 24 28 32 40 48 56 64",
	  "active warps per SM (above 32: two blocks, so an even number)" },
	{ "iters", GP_PARAM_INT, 1, 100000, NULL, "256", "loop trips of 256 FFMAs per thread" },
};

static const char *const occ_cols[] = {
	"chain", "ilp", "warps_per_sm", "blocks_per_sm", "threads_per_block", "dyn_smem_bytes",
	"ffma_per_thread", "ops_per_clk_per_sm", "ops_per_clk_per_sm_min", "ops_per_clk_per_sm_max",
	"spread", "cycles_per_step", "pct_of_fp32", "clock_MHz", "status",
};

struct occ {
	CUdeviceptr out, blk, opnd;
	const float *h_out, *opnd_h;
	const unsigned long long *h_blk;
	float *want; /* per thread of a block */
	size_t nthr;
	unsigned blocks, smem;
	int iters, ilp, warps, k, threads, lanes, lds;
	long steps;
};

/* Dynamic shared memory that lets exactly k blocks share an SM: more than 1/(k+1) of it each.
 * The occupancy query has the last word, and the block placement is checked afterwards. */
static int occ_fit(struct gp_meas *m, struct occ *c)
{
	const struct gp_device *dev = m->dev;
	int fit = 0;

	c->smem = (unsigned)(dev->smem_per_sm / (c->k + 1) + 1024);
	if (c->smem > (unsigned)dev->smem_per_block_optin - 8192)
		c->smem = (unsigned)dev->smem_per_block_optin - 8192;
	gp_meas_int(m, "dyn_smem_bytes", c->smem);
	gp_cu.cuFuncSetAttribute(m->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)c->smem);
	gp_cu.cuFuncSetAttribute(m->fn, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 100);
	if (gp_cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(&fit, m->fn, c->threads, c->smem) != CUDA_SUCCESS)
		return GP_ECUDA;
	if (fit != c->k)
		return gp_meas_na(m, "%d blocks of %d threads with %u B shared fit per SM, wanted exactly %d", fit,
				  c->threads, c->smem, c->k);
	return 0;
}

/* FFMA chains: every thread and chain ends at the same value; LDS -> FFMA: lane l's offset. */
static int occ_expect(struct gp_meas *m, struct occ *c)
{
	float v = c->opnd_h[2];

	if (!(c->want = gp_meas_host(m, (size_t)c->threads * sizeof *c->want)))
		return GP_EFAIL;
	for (long s = 0; s < c->steps / c->ilp && !c->lds; s++)
		v = fmaf(v, c->opnd_h[0], c->opnd_h[1]);
	for (int i = 0; i < c->threads; i++) {
		const uint32_t off = (uint32_t)((4u * (i % 32u) + 128u * (uint64_t)c->steps) % INSN_RING_BYTES);
		if (c->lds)
			memcpy(&c->want[i], &off, sizeof off);
		else
			c->want[i] = v;
	}
	return 0;
}

/* The point's shape: W warps per SM in k = ceil(W / 32) equal blocks, each SM exactly full. */
static int occ_shape(struct gp_meas *m, struct occ *c)
{
	const char *chain = gp_meas_param_str(m, "chain");
	const char *kernel = occ_chains[0].kernel;

	c->ilp = 1;
	for (size_t i = 0; i < GP_ARRAY_SIZE(occ_chains); i++)
		if (!strcmp(occ_chains[i].name, chain)) {
			kernel = occ_chains[i].kernel;
			c->ilp = occ_chains[i].ilp;
		}
	c->lds = !strcmp(kernel, "occ_lds_ffma");
	c->opnd_h = c->lds ? occ_lds_opnd : occ_ffma_opnd;
	c->warps = (int)gp_meas_param(m, "warps");
	c->k = (c->warps + 31) / 32;
	c->threads = 32 * c->warps / c->k;
	c->blocks = (unsigned)(c->k * m->dev->sms);
	c->nthr = (size_t)c->blocks * c->threads;
	c->iters = (int)gp_meas_param(m, "iters");
	c->steps = (long)c->iters * INSN_LAT_UNROLL;
	c->lanes = gp_fp32_lanes_per_sm(m->dev->cc_major, m->dev->cc_minor);
	gp_meas_int(m, "ilp", c->ilp);
	gp_meas_int(m, "warps_per_sm", c->warps);
	gp_meas_int(m, "blocks_per_sm", c->k);
	gp_meas_int(m, "threads_per_block", c->threads);
	gp_meas_int(m, "ffma_per_thread", c->steps);
	if (c->warps % c->k)
		return gp_meas_na(m, "%d warps do not split into %d equal blocks", c->warps, c->k);
	return gp_meas_kernel(m, "%s", kernel);
}

static int occ_setup(struct gp_meas *m)
{
	struct occ *c = m->ctx;
	int rc;

	if ((rc = occ_shape(m, c)) || !gp_meas_ok(m) || (rc = occ_fit(m, c)) || !gp_meas_ok(m))
		return rc;
	if ((rc = occ_expect(m, c)) ||
	    (rc = gp_meas_buf(m, &c->out, c->nthr * sizeof(float), GP_POISON_NAN)) ||
	    (rc = gp_meas_buf(m, &c->blk, 3 * c->blocks * sizeof(unsigned long long), GP_NO_POISON)) ||
	    (rc = gp_meas_input(m, &c->opnd, c->opnd_h, 3 * sizeof(float))))
		return rc;
	c->h_out = gp_meas_readback(m, c->out, c->nthr * sizeof(float), GP_LAST_REP);
	c->h_blk = gp_meas_readback(m, c->blk, 3 * c->blocks * sizeof(unsigned long long), GP_EVERY_REP);
	gp_meas_launch(m, c->blocks, (unsigned)c->threads, c->smem);
	gp_meas_args(m, &c->out, &c->blk, &c->opnd, &c->iters, &c->ilp, gp_meas_clock(m));
	return 0;
}

/* The median over SMs of each SM's own rate; every SM must have run exactly k blocks. */
static void occ_sample(struct gp_meas *m)
{
	const struct occ *c = m->ctx;
	int sm, count;
	const double rate = gp_occ_rate(c->h_blk, c->blocks, c->k, (double)c->threads * c->steps, &sm, &count);

	if (sm >= 0)
		gp_meas_fail(m, "SM %d ran %d blocks, wanted %d: uneven placement", sm, count, c->k);
	gp_sample(m, "ops_per_clk_per_sm", isnan(rate) ? 0 : rate);
}

/* Cycles per chain step of one warp: W warps x 32 lanes x ILP chains share the rate. */
static void occ_finish(struct gp_meas *m)
{
	const struct occ *c = m->ctx;
	const double rate = gp_meas_stat(m, "ops_per_clk_per_sm", GP_MEDIAN);

	gp_meas_check_f32(m, "thread", c->h_out, c->want, c->nthr, (size_t)c->threads);
	gp_meas_num(m, "cycles_per_step", rate > 0 ? 32.0 * c->warps / rate * c->ilp : 0);
	gp_meas_num(m, "pct_of_fp32", c->lanes ? gp_pct_of_rate(rate, c->lanes) : 0);
	gp_meas_ceiling(m, "FFMA", rate, c->lanes, 0.02, "FFMA/clk/SM");
}

static const struct gp_probe occ_probe = {
	.runner = GP_RUN_SYNC, .image = gp_image_probes_insn, .setup = occ_setup, .sample = occ_sample,
	.finish = occ_finish, .primary = "ops_per_clk_per_sm", .ctx_size = sizeof(struct occ),
};

GP_EXP_PROBE(tput_occupancy, occ_params, occ_cols, &occ_probe);
