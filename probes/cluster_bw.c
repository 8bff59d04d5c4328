/* cluster_bw.c — bw_dsm: the bandwidth of distributed shared memory. Every block of every
 * cluster that fits at once (one block per SM: each asks for more than half an SM's shared
 * memory) reads or writes, with all its warps, the shared memory of the block the pattern names:
 * its own through ld/st.shared (local) or through ld/st.shared::cluster (self), rank r ^ 1
 * (pair), r + 1 (ring) or rank 0 (all_to_one). Bytes per clock per SM from clock64 in each block
 * (the median block); a reading SM cannot take, nor a target SM serve, more than its shared
 * memory's 128 B/clk. The sum of every word read (or of each target's memory after the stores)
 * is checked against the host's. */
#include "gp.h"
#include "experiment.h"
#include "measure.h"
#include "cluster.h"
#include "cluster_shape.h"
#include "mem_common.h"

#include <stdint.h>
#include <string.h>

#define DSM_PAT_NAME(name, id) " " #name
static const char dsm_pattern_names[] = DSM_PATTERNS(DSM_PAT_NAME);

static const struct gp_param bw_dsm_params[] = {
	{ "op", GP_PARAM_NAME, 0, 0, "ld st", "ld", "shared loads or stores" },
	{ "pattern", GP_PARAM_NAME, 0, 0, dsm_pattern_names + 1, dsm_pattern_names + 1,
	  "whose memory rank r accesses: own (ld.shared), own (shared::cluster), r^1, r+1, rank 0" },
	{ "cluster", GP_PARAM_INT, 1, DSM_MAX_CLUSTER, NULL, "2", "blocks per cluster (above 8: non-portable)" },
	{ "width", GP_PARAM_INT, 32, 128, NULL, "128", "bits per access: 32, 64, 128" },
	{ "threads", GP_PARAM_INT, 32, 1024, NULL, "1024", "threads of the one block per SM" },
	{ "iters", GP_PARAM_INT, 1, 1000000, NULL, "256", "trips of 8 accesses per warp" },
};

static const char *const bw_dsm_cols[] = {
	"op", "pattern", "cluster", "width_bits", "threads", "iters", "blocks", "clusters", "bytes_per_block",
	"cycles", "cycles_min", "cycles_max", "spread", "bytes_per_clk_per_sm", "bytes_per_clk_per_target",
	"ceiling_bytes_per_clk", "pct_of_128B", "GBps_per_sm", "GBps_total", "clock_MHz", "status",
};

struct bw_dsm {
	struct cluster_ctx c;
	CUdeviceptr cyc, sum, sink;
	const unsigned long long *h_cyc;
	const uint32_t *h_sum;
	uint32_t *want; /* each block's checksum */
	double *per;    /* one repetition's cycles per block */
	double bytes;   /* per block */
	int pattern, iters, store;
	unsigned blocks;
};

static int dsm_pattern(const char *name)
{
#define DSM_PAT_IS(name_, id)                                                                      \
	if (!strcmp(name, #name_))                                                                 \
		return (id);
	DSM_PATTERNS(DSM_PAT_IS)
#undef DSM_PAT_IS
	return -1;
}

static int dsm_width(int width)
{
#define DSM_IS_WIDTH(bits, bytes) width == (bits) ||
	return DSM_WIDTHS(DSM_IS_WIDTH) 0;
#undef DSM_IS_WIDTH
}

/* What each block's sum must be: for loads, iters x the sum of its target's words (every word of
 * the region is read once per trip); for stores, the sum of its own words if some block writes
 * them (DSM_VALUE of its own rank), else 0 (the fill). Sums wrap at 32 bits, as on the GPU. */
static void bw_dsm_want(struct bw_dsm *s, unsigned nwords)
{
	uint32_t rank_sum[DSM_MAX_CLUSTER] = { 0 };

	for (unsigned r = 0; r < s->c.csize; r++)
		for (unsigned i = 0; i < nwords; i++)
			rank_sum[r] += DSM_VALUE(r, i);
	for (unsigned b = 0; b < s->blocks; b++) {
		const unsigned r = b % s->c.csize, t = DSM_TARGET((unsigned)s->pattern, r, s->c.csize);
		const int written = s->pattern != DSM_PAT_ALL_TO_ONE || r == 0;
		s->want[b] = s->store ? (written ? rank_sum[r] : 0u) : (uint32_t)s->iters * rank_sum[t];
	}
}

/* Buffers, read-backs and host arrays for `blocks` blocks. */
static int bw_dsm_bufs(struct gp_meas *m, struct bw_dsm *s)
{
	const unsigned n = s->blocks;
	int rc;

	if (!(s->per = gp_meas_host(m, n * sizeof *s->per)) || !(s->want = gp_meas_host(m, n * sizeof *s->want)))
		return GP_EFAIL;
	if ((rc = gp_meas_buf(m, &s->cyc, n * sizeof *s->h_cyc, GP_POISON_NAN)) ||
	    (rc = gp_meas_buf(m, &s->sum, n * sizeof *s->h_sum, 0)) || (rc = gp_meas_buf(m, &s->sink, n * 4, GP_NO_POISON)))
		return rc;
	s->h_cyc = gp_meas_readback(m, s->cyc, n * sizeof *s->h_cyc, GP_EVERY_REP);
	s->h_sum = gp_meas_readback(m, s->sum, n * sizeof *s->h_sum, GP_EVERY_REP);
	return 0;
}

/* The shared memory a block asks for: its data, and more than half an SM's so that no two blocks
 * share an SM (bytes per clock are then per SM). */
static unsigned bw_dsm_smem(const struct gp_meas *m, unsigned data)
{
	const unsigned half = (unsigned)m->dev->smem_per_sm / 2 + 1024;

	return data > half ? data : half < (unsigned)m->dev->smem_per_block_optin ? half : data;
}

/* The kernel for the op, width and pattern, as many clusters as fit at once (at most one block per
 * SM), their buffers and checksums, the launch. */
static int bw_dsm_grid(struct gp_meas *m, struct bw_dsm *s, int width, unsigned threads, unsigned data)
{
	const unsigned smem = bw_dsm_smem(m, data);
	char kernel[64];
	int rc, fit;

	snprintf(kernel, sizeof kernel, "bw_dsm_%s%d_%s", s->store ? "st" : "ld", width,
		 s->pattern == DSM_PAT_LOCAL ? "local" : "cluster");
	if ((rc = cluster_kernel(m, kernel, s->c.csize, threads, smem, &fit)) || !fit)
		return rc;
	fit = fit < m->dev->sms / (int)s->c.csize ? fit : m->dev->sms / (int)s->c.csize;
	if (fit < 1)
		return gp_meas_na(m, "a cluster of %u blocks needs more than the %d SMs", s->c.csize, m->dev->sms);
	s->blocks = (unsigned)fit * s->c.csize;
	gp_meas_int(m, "clusters", fit);
	gp_meas_int(m, "blocks", s->blocks);
	if ((rc = bw_dsm_bufs(m, s)))
		return rc;
	bw_dsm_want(s, data / 4);
	gp_meas_launch(m, s->blocks, threads, smem);
	gp_meas_args(m, &s->pattern, &s->iters, &s->cyc, &s->sum, &s->sink, gp_meas_clock(m));
	return 0;
}

static int bw_dsm_setup(struct gp_meas *m)
{
	struct bw_dsm *s = m->ctx;
	const int width = (int)gp_meas_param(m, "width"), threads = (int)gp_meas_param(m, "threads");
	const unsigned data = (unsigned)threads / 32 * DSM_WARP_BYTES((unsigned)width / 8);

	s->c.csize = (unsigned)gp_meas_param(m, "cluster");
	s->pattern = dsm_pattern(gp_meas_param_str(m, "pattern"));
	s->iters = (int)gp_meas_param(m, "iters");
	s->store = !strcmp(gp_meas_param_str(m, "op"), "st");
	s->bytes = (double)threads * s->iters * DSM_TRIP * (width / 8);
	gp_meas_int(m, "width_bits", width);
	gp_meas_num(m, "bytes_per_block", s->bytes);
	gp_meas_num(m, "ceiling_bytes_per_clk", 128);
	if (!dsm_width(width) || threads % 32 || s->pattern < 0)
		return gp_meas_fail(m, "width must be 32/64/128 and the block whole warps"), 0;
	if (s->pattern == DSM_PAT_PAIR && s->c.csize % 2)
		return gp_meas_na(m, "pairs (rank r with r ^ 1) need an even cluster, not %u", s->c.csize);
	if (cluster_na(m))
		return 0;
	if (data > (unsigned)m->dev->smem_per_block_optin)
		return gp_meas_na(m, "%u bytes exceed the %d bytes of shared memory a block may have", data,
				  m->dev->smem_per_block_optin);
	return bw_dsm_grid(m, s, width, (unsigned)threads, data);
}

/* Every block's checksum, then the repetition's cycles: the median block's. */
static void bw_dsm_sample(struct gp_meas *m)
{
	const struct bw_dsm *s = m->ctx;

	for (unsigned b = 0; b < s->blocks; b++)
		if (s->h_sum[b] != s->want[b]) {
			gp_meas_fail(m, "block %u (rank %u): checksum 0x%08x, want 0x%08x: accesses lost or misdirected", b,
				     b % s->c.csize, s->h_sum[b], s->want[b]);
			break;
		}
	for (unsigned b = 0; b < s->blocks; b++)
		s->per[b] = (double)s->h_cyc[b];
	gp_sample(m, "cycles", mem_median(s->per, s->blocks));
}

/* Ceilings: 128 B/clk into a reading SM, and out of a target SM (all_to_one: cluster readers). */
static void bw_dsm_finish(struct gp_meas *m)
{
	const struct bw_dsm *s = m->ctx;
	const double bpc = s->bytes / gp_meas_stat(m, "cycles", GP_MEDIAN), mhz = gp_meas_mhz(m);
	const double served = bpc * (s->pattern == DSM_PAT_ALL_TO_ONE ? s->c.csize : 1);

	gp_meas_num(m, "bytes_per_clk_per_sm", bpc);
	gp_meas_num(m, "bytes_per_clk_per_target", served);
	gp_meas_num(m, "pct_of_128B", 100.0 * bpc / 128.0);
	gp_meas_num(m, "GBps_per_sm", bpc * mhz * 1e6 / 1e9);
	gp_meas_num(m, "GBps_total", bpc * mhz * 1e6 / 1e9 * s->blocks);
	gp_meas_ceiling(m, "shared-memory bandwidth into an SM", bpc, 128, 0.02, "B/clk/SM");
	gp_meas_ceiling(m, "shared-memory bandwidth out of a target SM", served, 128, 0.02, "B/clk/SM");
}

static const struct gp_probe bw_dsm_probe = {
	.runner = GP_RUN_SYNC, .image = gp_image_probes_cluster, .setup = bw_dsm_setup, .launch = cluster_launch,
	.sample = bw_dsm_sample, .finish = bw_dsm_finish, .primary = "cycles", .ctx_size = sizeof(struct bw_dsm),
};

GP_EXP_PROBE(bw_dsm, bw_dsm_params, bw_dsm_cols, &bw_dsm_probe);
