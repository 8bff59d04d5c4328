/* smem.c — the on-chip memory probes: lat_smem and lat_const (single-thread chases checked to
 * come back to their start), bw_smem (E107 / seed 001 Figure 4: bytes per clock per SM from
 * clock64 in each block, one per SM, the median block, against 128 B/clk/SM or 32 lanes x width
 * broadcast) and bank_smem (each lane layout timed next to the conflict-free one in the same
 * repetition); kernels in smem.cu, derive/report in smem_report.c. */
#include "gp.h"
#include "experiment.h"
#include "measure.h"
#include "mem_common.h"
#include "mem_model.h"
#include "smem_shape.h"

#include <math.h>
#include <string.h>

/* A width there are kernels for (smem_shape.h). */
static int smem_width(int width)
{
#define SMEM_IS_WIDTH(bits, bytes) width == (bits) ||
	return SMEM_WIDTHS(SMEM_IS_WIDTH) 0;
#undef SMEM_IS_WIDTH
}

/* ------------------------------------------------------------------ lat_smem, lat_const */

static const struct gp_param lat_smem_params[] = {
	{ "footprint_bytes", GP_PARAM_INT, 8, 1L << 20, NULL, "1024 16384 49152", "shared bytes the chain spans" },
	{ "stride_bytes", GP_PARAM_INT, 4, 4096, NULL, "4 128", "slot spacing (multiple of 4)" },
	{ "loads", GP_PARAM_INT, 1024, 100000000, NULL, "262144", "timed loads (at least)" },
};

static const struct gp_param lat_const_params[] = {
	{ "footprint_bytes", GP_PARAM_INT, 8, CCHAIN_BYTES, NULL, "256 512 1024 1536 2048 3072 4096 6144 8192 16384 32768 49152 65536",
	  "constant bytes the chain spans" },
	{ "stride_bytes", GP_PARAM_INT, 4, 4096, NULL, "64", "slot spacing (multiple of 4)" },
	{ "loads", GP_PARAM_INT, 1024, 100000000, NULL, "262144", "timed loads (at least)" },
};

static const char *const lat_onchip_cols[] = {
	"pattern", "footprint_bytes", "stride_bytes", "slots", "loads", "cycles_per_load",
	"cycles_per_load_min", "cycles_per_load_max", "spread", "latency_ns", "timer_overhead_cycles",
	"clock_MHz", "status",
};

/* Both chases: out = {end, cycles, timer overhead}; the end must be `home`. */
struct onchip {
	CUdeviceptr out;
	const unsigned long long *h_out;
	unsigned long long home;
	long long steps, warm;
	int slots, stride;
	unsigned cstart;
};

/* Where gp_cchain lives: its global backing (to write the chain, slot i -> i + 1) and its
 * constant address (to chase, and where the chase must end). */
static int const_chain(struct gp_meas *m, struct onchip *x)
{
	uint32_t *img = gp_meas_host(m, CCHAIN_BYTES);
	unsigned long long caddr[2];
	CUfunction fa;
	void *args[] = { &x->out };
	int rc;

	if (!img)
		return GP_EFAIL;
	if ((rc = gp_kernel(m->dev, gp_image_probes_smem, "lat_const_addr", &fa)) ||
	    (rc = gp_launch(fa, 1, 1, 0, args, NULL)) || (rc = gp_download(caddr, x->out, sizeof caddr)))
		return rc;
	for (int i = 0; i < x->slots; i++)
		img[(size_t)i * x->stride / 4] =
			(uint32_t)(caddr[1] + (unsigned long long)((i + 1) % x->slots) * x->stride);
	x->cstart = (unsigned)caddr[1];
	x->home = caddr[1];
	return gp_meas_upload(m, caddr[0], img, CCHAIN_BYTES);
}

/* A sequential cycle of footprint / stride slots, chased for whole trips, and its result buffer
 * (poisoned: a launch that did not run cannot pass the check with the previous one's end). */
static int onchip_setup(struct gp_meas *m)
{
	struct onchip *x = m->ctx;
	const long long fp = gp_meas_param(m, "footprint_bytes"), loads = gp_meas_param(m, "loads");
	int rc;

	x->stride = (int)gp_meas_param(m, "stride_bytes");
	x->warm = x->slots = (int)(fp / x->stride);
	x->steps = (loads + x->slots - 1) / (x->slots ? x->slots : 1) * x->slots;
	gp_meas_str(m, "pattern", "sequential");
	gp_meas_int(m, "slots", x->slots);
	gp_meas_int(m, "loads", x->steps);
	if (x->stride % 4)
		return gp_meas_fail(m, "a %d-byte stride does not hold 4-byte addresses aligned", x->stride), 0;
	if (x->slots < 2)
		return gp_meas_na(m, "a %lld-byte footprint at a %d-byte stride holds %d slot(s); a chain needs 2", fp,
				  x->stride, x->slots);
	if ((rc = gp_meas_buf(m, &x->out, 3 * sizeof *x->h_out, GP_POISON_NAN)))
		return rc;
	x->h_out = gp_meas_readback(m, x->out, 3 * sizeof *x->h_out, GP_EVERY_REP);
	return 0;
}

/* The kernel builds the chain in its dynamic shared memory and warms it with one trip itself. */
static int lat_smem_setup(struct gp_meas *m)
{
	struct onchip *x = m->ctx;
	const long long fp = gp_meas_param(m, "footprint_bytes");
	int rc;

	if ((rc = onchip_setup(m)) || !gp_meas_ok(m))
		return rc;
	if (fp > m->dev->smem_per_block_optin)
		return gp_meas_na(m, "%lld bytes exceed the %d bytes of shared memory a block may have", fp,
				  m->dev->smem_per_block_optin);
	if ((rc = gp_meas_kernel(m, "lat_smem")))
		return rc;
	gp_meas_launch(m, 1, 1, (unsigned)fp);
	gp_meas_args(m, &x->slots, &x->stride, &x->steps, &x->out, gp_meas_clock(m));
	return 0;
}

/* The chain is written into the module's constant bank once; every launch warms it by a trip. */
static int lat_const_setup(struct gp_meas *m)
{
	struct onchip *x = m->ctx;
	int rc;

	if ((rc = onchip_setup(m)) || !gp_meas_ok(m) || (rc = gp_meas_kernel(m, "lat_const")) ||
	    (rc = const_chain(m, x)))
		return rc;
	gp_meas_launch(m, 1, 1, 0);
	gp_meas_args(m, &x->cstart, &x->warm, &x->steps, &x->out, gp_meas_clock(m));
	return 0;
}

static void onchip_sample(struct gp_meas *m)
{
	const struct onchip *x = m->ctx;

	if (x->h_out[0] != x->home)
		gp_meas_fail(m, "chain ended at 0x%llx, not at its start 0x%llx: loads skipped or stale", x->h_out[0],
			     x->home);
	mem_chase_sample(m, x->h_out, x->steps);
}

/* Floor: no on-chip load returns in fewer than 2 cycles. */
static void onchip_finish(struct gp_meas *m)
{
	mem_chase_finish(m, 2);
}

static const struct gp_probe lat_smem_probe = {
	.runner = GP_RUN_SYNC, .image = gp_image_probes_smem, .setup = lat_smem_setup, .sample = onchip_sample,
	.finish = onchip_finish, .primary = "cycles_per_load", .ctx_size = sizeof(struct onchip),
};

static const struct gp_probe lat_const_probe = {
	.runner = GP_RUN_SYNC, .image = gp_image_probes_smem, .setup = lat_const_setup, .sample = onchip_sample,
	.finish = onchip_finish, .primary = "cycles_per_load", .ctx_size = sizeof(struct onchip),
};

GP_EXP_PROBE(lat_smem, lat_smem_params, lat_onchip_cols, &lat_smem_probe);
GP_EXP_PROBE(lat_const, lat_const_params, lat_onchip_cols, &lat_const_probe);

/* ------------------------------------------------------------------ E107 bw_smem */

static const struct gp_param bw_smem_params[] = {
	{ "op", GP_PARAM_NAME, 0, 0, "lds sts", "lds sts", "shared load or store" },
	{ "width", GP_PARAM_INT, 32, 128, NULL, "32 64 128", "bits per access: 32, 64, 128" },
	{ "pattern", GP_PARAM_NAME, 0, 0, "conflict_free broadcast", "conflict_free broadcast",
	  "lane l at l x width, or every lane the same address" },
	{ "threads", GP_PARAM_INT, 32, 1024, NULL, "1024", "threads of the one block per SM" },
	{ "iters", GP_PARAM_INT, 1, 1000000, NULL, "16 64 256 1024 4096", "trips of 8 accesses (data volume)" },
};

static const char *const bw_smem_cols[] = {
	"op", "width_bits", "pattern", "threads", "warps_per_sm", "iters", "footprint_bytes", "stride_bytes",
	"bytes_per_sm", "cycles", "cycles_min", "cycles_max", "bytes_per_clk_per_sm", "ceiling_bytes_per_clk",
	"pct_of_128B", "GBps_per_sm", "GBps_total", "clock_MHz", "status",
};

struct bw_smem {
	CUdeviceptr cyc, sink;
	const unsigned long long *h_cyc;
	double *per;          /* one repetition's cycles per block */
	double bytes, ceiling; /* per SM; B/clk/SM */
	int iters;
};

/* One block per SM, each warp SMEM_WARP_BYTES of shared memory; 8 accesses per warp per trip. */
static int bw_smem_setup(struct gp_meas *m)
{
	struct bw_smem *s = m->ctx;
	const int width = (int)gp_meas_param(m, "width"), threads = (int)gp_meas_param(m, "threads");
	const int wb = width / 8, bc = !strcmp(gp_meas_param_str(m, "pattern"), "broadcast");
	const unsigned smem = (unsigned)(threads / 32) * SMEM_WARP_BYTES((unsigned)wb), sms = (unsigned)m->dev->sms;
	int rc;

	s->iters = (int)gp_meas_param(m, "iters");
	s->bytes = (double)threads * s->iters * SMEM_TRIP * wb;
	s->ceiling = bc ? 32.0 * wb : 128.0;
	gp_meas_int(m, "width_bits", width);
	gp_meas_int(m, "warps_per_sm", threads / 32);
	gp_meas_int(m, "footprint_bytes", smem);
	gp_meas_int(m, "stride_bytes", bc ? 0 : wb);
	gp_meas_num(m, "bytes_per_sm", s->bytes);
	gp_meas_num(m, "ceiling_bytes_per_clk", s->ceiling);
	if (!smem_width(width) || threads % 32)
		return gp_meas_fail(m, "width must be 32/64/128 and the block whole warps"), 0;
	if (smem > (unsigned)m->dev->smem_per_block_optin)
		return gp_meas_na(m, "%u bytes exceed the %d bytes of shared memory a block may have", smem,
				  m->dev->smem_per_block_optin);
	if (!(s->per = gp_meas_host(m, sms * sizeof *s->per)))
		return GP_EFAIL;
	if ((rc = gp_meas_kernel(m, "bw_%s%d_%s", gp_meas_param_str(m, "op"), width, bc ? "bc" : "cf")) ||
	    (rc = gp_meas_buf(m, &s->cyc, sms * sizeof *s->h_cyc, GP_POISON_NAN)) ||
	    (rc = gp_meas_buf(m, &s->sink, sms * 4, GP_NO_POISON)))
		return rc;
	s->h_cyc = gp_meas_readback(m, s->cyc, sms * sizeof *s->h_cyc, GP_EVERY_REP);
	gp_meas_launch(m, sms, (unsigned)threads, smem);
	gp_meas_args(m, &s->iters, &s->cyc, &s->sink, gp_meas_clock(m));
	return 0;
}

/* A repetition's cycles: the median block's. */
static void bw_smem_sample(struct gp_meas *m)
{
	const struct bw_smem *s = m->ctx;

	for (int b = 0; b < m->dev->sms; b++)
		s->per[b] = (double)s->h_cyc[b];
	gp_sample(m, "cycles", mem_median(s->per, (size_t)m->dev->sms));
}

static void bw_smem_finish(struct gp_meas *m)
{
	const struct bw_smem *s = m->ctx;
	const double bpc = s->bytes / gp_meas_stat(m, "cycles", GP_MEDIAN), mhz = gp_meas_mhz(m);

	gp_meas_num(m, "bytes_per_clk_per_sm", bpc);
	gp_meas_num(m, "pct_of_128B", 100.0 * bpc / 128.0);
	gp_meas_num(m, "GBps_per_sm", bpc * mhz * 1e6 / 1e9);
	gp_meas_num(m, "GBps_total", bpc * mhz * 1e6 / 1e9 * m->dev->sms);
	gp_meas_ceiling(m, "shared-memory bandwidth", bpc, s->ceiling, 0.02, "B/clk/SM");
}

GP_EXP_SYNC(bw_smem, gp_image_probes_smem, "cycles", struct bw_smem);

/* ------------------------------------------------------------------ bank_smem */

static const struct gp_param bank_smem_params[] = {
	{ "width", GP_PARAM_INT, 32, 128, NULL, "32 64 128", "bits per access: 32, 64, 128" },
	{ "pad", GP_PARAM_INT, 0, 1, NULL, "0 1", "padding elements per row of 32 ([.][32 + pad])" },
	{ "stride", GP_PARAM_INT, 0, 32, NULL, "1:32:1", "elements between neighbouring lanes" },
	{ "warps", GP_PARAM_INT, 1, 32, NULL, "4", "warps in the one block" },
	{ "iters", GP_PARAM_INT, 1, 1000000, NULL, "2048", "trips of 8 accesses per warp" },
};

static const char *const bank_smem_cols[] = {
	"width_bits", "pad", "stride", "pattern", "stride_bytes", "footprint_bytes", "warps", "cycles_per_access",
	"cycles_per_access_min", "cycles_per_access_max", "baseline_cycles_per_access", "conflict_degree_measured",
	"wavefronts_model", "conflict_degree_model", "clock_MHz", "status",
};

/* The point's lane layout and the conflict-free one (stride 1, no padding), each a launch of the
 * same kernel per repetition: the baseline first, with its clock sample to a scratch buffer, so
 * the point's clock is the measured layout's. */
struct bank {
	CUdeviceptr offs, base_offs, cyc, base_cyc, sink, base_clock;
	const unsigned long long *h_cyc, *h_base;
	void *base_args[5];
	double accesses; /* per launch: iters x SMEM_TRIP x warps */
	int iters, wave, minw;
};

/* Lane l's byte offset: element l * stride of rows of 32 elements plus pad padding elements. */
static void bank_offsets(unsigned *offs, int wb, int stride, int pad)
{
	for (int l = 0; l < 32; l++) {
		const long e = (long)l * stride;
		offs[l] = (unsigned)((e + e / 32 * pad) * wb);
	}
}

/* A layout's offsets uploaded once, and where its cycles come back. */
static int bank_layout(struct gp_meas *m, CUdeviceptr *offs, CUdeviceptr *cyc, const unsigned long long **h,
		       int wb, int stride, int pad)
{
	unsigned o[32];
	int rc;

	bank_offsets(o, wb, stride, pad);
	if ((rc = gp_meas_input(m, offs, o, sizeof o)) ||
	    (rc = gp_meas_buf(m, cyc, sizeof **h, GP_POISON_NAN)))
		return rc;
	*h = gp_meas_readback(m, *cyc, sizeof **h, GP_EVERY_REP);
	return 0;
}

static int bank_smem_setup(struct gp_meas *m)
{
	struct bank *k = m->ctx;
	const int width = (int)gp_meas_param(m, "width"), pad = (int)gp_meas_param(m, "pad");
	const int stride = (int)gp_meas_param(m, "stride"), warps = (int)gp_meas_param(m, "warps"), wb = width / 8;
	int rc;

	k->iters = (int)gp_meas_param(m, "iters");
	k->accesses = (double)k->iters * SMEM_TRIP * warps;
	k->wave = mem_bank_wavefronts(wb, stride, pad);
	k->minw = mem_bank_min_wavefronts(wb);
	gp_meas_int(m, "width_bits", width);
	gp_meas_str(m, "pattern", pad ? "padded_rows" : "plain_rows");
	gp_meas_int(m, "stride_bytes", (long long)stride * wb);
	gp_meas_int(m, "footprint_bytes", BANK_SMEM_BYTES);
	gp_meas_int(m, "wavefronts_model", k->wave);
	gp_meas_num(m, "conflict_degree_model", (double)k->wave / k->minw);
	if (!smem_width(width))
		return gp_meas_fail(m, "width must be 32, 64 or 128"), 0;
	if ((rc = gp_meas_kernel(m, "bank_lds%d", width)) ||
	    (rc = bank_layout(m, &k->offs, &k->cyc, &k->h_cyc, wb, stride, pad)) ||
	    (rc = bank_layout(m, &k->base_offs, &k->base_cyc, &k->h_base, wb, 1, 0)) ||
	    (rc = gp_meas_buf(m, &k->sink, 32 * 32 * 4, GP_NO_POISON)) ||
	    (rc = gp_meas_buf(m, &k->base_clock, 32, GP_NO_POISON)))
		return rc;
	gp_meas_launch(m, 1, (unsigned)warps * 32, BANK_SMEM_BYTES);
	gp_meas_args(m, &k->offs, &k->iters, &k->cyc, &k->sink, gp_meas_clock(m));
	memcpy(k->base_args, (void *[]){ &k->base_offs, &k->iters, &k->base_cyc, &k->sink, &k->base_clock },
	       sizeof k->base_args);
	return 0;
}

static int bank_smem_launch(struct gp_meas *m)
{
	struct bank *k = m->ctx;

	GP_CU(cuLaunchKernel(m->fn, 1, 1, 1, m->block, 1, 1, m->smem, NULL, k->base_args, NULL));
	GP_CU(cuLaunchKernel(m->fn, 1, 1, 1, m->block, 1, 1, m->smem, NULL, m->args, NULL));
	return 0;
error:
	return GP_ECUDA;
}

static void bank_smem_sample(struct gp_meas *m)
{
	const struct bank *k = m->ctx;

	gp_sample(m, "cycles_per_access", (double)*k->h_cyc / k->accesses);
	gp_sample(m, "baseline_cycles_per_access", (double)*k->h_base / k->accesses);
}

/* The banks deliver at most 128 distinct bytes per clock: an access needing `minw` wavefronts
 * cannot take fewer clocks (broadcast words are delivered once, so fewer wavefronts are fine). */
static void bank_smem_finish(struct gp_meas *m)
{
	const struct bank *k = m->ctx;
	const double cyc = gp_meas_stat(m, "cycles_per_access", GP_MEDIAN);
	const double base = gp_meas_stat(m, "baseline_cycles_per_access", GP_MEDIAN);

	gp_meas_num(m, "conflict_degree_measured", base > 0 ? cyc / base : NAN);
	if (k->wave >= k->minw)
		gp_meas_floor(m, "a warp access (the bank limit)", cyc, k->minw, 0.02, "cycles");
}

static const struct gp_probe bank_smem_probe = {
	.runner = GP_RUN_SYNC, .image = gp_image_probes_smem, .setup = bank_smem_setup, .launch = bank_smem_launch,
	.sample = bank_smem_sample, .finish = bank_smem_finish, .primary = "cycles_per_access",
	.ctx_size = sizeof(struct bank),
};

GP_EXP_PROBE(bank_smem, bank_smem_params, bank_smem_cols, &bank_smem_probe);
