/* tma_bw.c — streaming global memory into shared memory, event-timed over every SM: bw_tma (H021),
 * TMA copies through a ring of mbarrier stages (one producer lane issues, four consumer warps
 * check each box and release it), and bw_cpasync (H022), cp.async (LDGSTS) of 4/8/16 bytes in
 * stages against ld.global + st.shared of the same width. Each byte of an HBM footprint (over
 * twice L2) is read once per launch; an L2 footprint (under half of L2) is read in passes. Every
 * word that lands is checked against its source index in the kernel, so a copy that moved nothing
 * fails the row. Ceilings: the HBM datasheet rate (probes/mem_common.c), and for L2 what shared
 * memory can take, 128 B/clk/SM at the measured clock. bw_tma_mc (H023) is bw_tma with cluster
 * multicast: rank 0 of each cluster copies a box into every rank (kernels in tma_mc_90a.cu). */
#include "gp.h"
#include "experiment.h"
#include "measure.h"
#include "mem_common.h"
#include "cluster.h"
#include "tma_common.h"

#include <string.h>

/* Repetitions of an HBM stream are a fraction of a millisecond and their times can be bimodal:
 * enough of them that the best and the median are each steady from run to run. */
#define STREAM_MIN_REPS 20

/* What the rows of both experiments share: the launch, the footprint and what it read. */
struct stream {
	CUdeviceptr src, out;
	const unsigned *h_out;
	size_t nthr;
	unsigned long long total; /* boxes or chunks a launch copies (passes x the footprint's) */
	double bytes;             /* bytes a launch copies */
	int stages, l2;
};

/* The per-thread (bad, checked) pairs, zeroed before every repetition, read after the last. */
static int stream_out(struct gp_meas *m, struct stream *s)
{
	int rc;

	if ((rc = gp_meas_buf(m, &s->out, 2 * s->nthr * sizeof *s->h_out, 0)))
		return rc;
	s->h_out = gp_meas_readback(m, s->out, 2 * s->nthr * sizeof *s->h_out, GP_LAST_REP);
	return 0;
}

/* blocks_per_sm blocks of `threads` with `smem` each must fit on an SM; a point that asks for
 * more is n/a where the suite named it, and left out of a default sweep (1: the caller returns 0). */
static int stream_fits(struct gp_meas *m, int threads, unsigned smem)
{
	const int want = (int)gp_meas_param(m, "blocks_per_sm"), fit = tma_resident(m->fn, threads, smem);

	if (fit >= want)
		return 0;
	if (gp_point_given(m->pt, "blocks_per_sm"))
		gp_meas_na(m, "only %d blocks of %d threads with %u B of shared memory fit per SM, asked for %d", fit,
			   threads, smem, want);
	else
		gp_meas_skip(m);
	return 1;
}

/* The rate of what the launch read, at the median and at the best repetition (HBM streaming
 * times can be bimodal: STREAM's best rate is the steady statistic then), against its ceiling:
 * the HBM datasheet's, or shared memory's 128 B/clk/SM for an L2 footprint. */
static void stream_rate(struct gp_meas *m, const struct stream *s)
{
	const double gbps = s->bytes / (gp_meas_stat(m, "time_ms", GP_MEDIAN) * 1e-3) / 1e9;
	const double best = s->bytes / (gp_meas_stat(m, "time_ms", GP_MIN) * 1e-3) / 1e9;
	const double mhz = gp_meas_mhz(m) > 0 ? gp_meas_mhz(m) : m->dev->clock_khz / 1e3;
	const double ceiling = s->l2 ? 128.0 * m->dev->sms * mhz * 1e6 / 1e9 : mem_hbm_peak_GBps(m->dev);

	gp_meas_num(m, "bandwidth_GBps", gbps);
	gp_meas_num(m, "best_GBps", best);
	gp_meas_num(m, "ceiling_GBps", ceiling);
	gp_meas_num(m, "pct_of_ceiling", 100.0 * gbps / ceiling);
	gp_meas_ceiling(m, s->l2 ? "shared-memory fill from L2" : "HBM reads", best, ceiling, 0.02, "GB/s");
}

/* The words checked against what the launch read, then its rate. */
static void stream_finish(struct gp_meas *m, const struct stream *s)
{
	tma_check_words(m, s->h_out, s->nthr, s->bytes / TMA_ELEM);
	stream_rate(m, s);
}

/* ------------------------------------------------------------------ H021 bw_tma */

static const struct gp_param bw_tma_params[] = {
	{ "copy", GP_PARAM_NAME, 0, 0, "bulk 1d 2d 3d 4d 5d", "bulk 2d",
	  "cp.async.bulk (bulk) or cp.async.bulk.tensor.Nd (a tiled UINT32 tensor map of rank N)" },
	{ "box_bytes", GP_PARAM_INT, 16, 32768, NULL, "1024 4096 16384 32768", "bytes per copy (a power of two)" },
	{ "stages", GP_PARAM_INT, 1, TMA_MAX_STAGES, NULL, "4", "boxes in the ring of each block" },
	{ "blocks_per_sm", GP_PARAM_INT, 1, 32, NULL, "1 2", "resident blocks per SM (one producer lane each)" },
	{ "bytes", GP_PARAM_INT, 1L << 20, 1L << 38, NULL, "1073741824",
	  "footprint, read once (over twice L2: an HBM rate; under it, held to shared memory's rate)" },
};

static const char *const bw_tma_cols[] = {
	"copy", "rank", "box_bytes", "box_dims", "stages", "blocks_per_sm", "blocks", "threads_per_block",
	"bytes_in_flight_per_sm", "footprint_bytes", "level", "bytes_read", "time_ms_min", "time_ms", "time_ms_max",
	"spread", "bandwidth_GBps", "best_GBps", "ceiling_GBps", "pct_of_ceiling", "clock_MHz", "reps", "status",
};

struct bw_tma {
	struct tma_map map;
	struct tma_geom g;
	struct stream s;
};

/* The row's shape before anything can refuse the point. */
static const char *bw_tma_geom(struct gp_meas *m, struct bw_tma *b)
{
	const int rank = tma_rank(gp_meas_param_str(m, "copy")), bps = (int)gp_meas_param(m, "blocks_per_sm");
	const char *why = tma_geom_make(&b->g, rank, (unsigned long long)gp_meas_param(m, "box_bytes"),
					(unsigned long long)gp_meas_param(m, "bytes"));
	char dims[64];

	b->s.stages = (int)gp_meas_param(m, "stages");
	b->s.total = b->g.nboxes;
	b->s.bytes = why ? 0 : (double)tma_footprint(&b->g);
	b->s.nthr = (size_t)bps * (size_t)m->dev->sms * TMA_BW_THREADS;
	tma_box_dims(&b->g, dims, sizeof dims);
	gp_meas_int(m, "rank", rank);
	gp_meas_str(m, "box_dims", why ? "" : dims);
	gp_meas_int(m, "blocks", (long long)bps * m->dev->sms);
	gp_meas_int(m, "threads_per_block", TMA_BW_THREADS);
	gp_meas_int(m, "bytes_in_flight_per_sm", (long long)bps * b->s.stages * (long long)b->g.box_bytes);
	gp_meas_int(m, "footprint_bytes", (long long)b->s.bytes);
	gp_meas_num(m, "bytes_read", b->s.bytes);
	/* Over twice L2: an HBM rate; smaller footprints (the sanitizer's) are held to shared memory's. */
	b->s.l2 = b->s.bytes <= 2.0 * m->dev->l2_bytes;
	gp_meas_str(m, "level", b->s.l2 ? "l2+hbm" : "hbm");
	return why;
}

static int bw_tma_setup(struct gp_meas *m)
{
	struct bw_tma *b = m->ctx;
	const char *why = bw_tma_geom(m, b);
	const unsigned smem = TMA_BARRIER_BYTES + (unsigned)(b->s.stages * tma_stage_stride(b->g.box_bytes));
	int rc;

	if (m->dev->cc_major < 9)
		return gp_meas_na(m, "TMA needs compute capability 9.0");
	if (why)
		return gp_point_given(m->pt, "box_bytes") ? gp_meas_na(m, "%s", why) : gp_meas_skip(m);
	if ((rc = gp_meas_kernel(m, "tma_bw_%s", gp_meas_param_str(m, "copy"))))
		return rc;
	if (stream_fits(m, TMA_BW_THREADS, smem))
		return 0;
	if ((rc = tma_source(m, &b->g, &b->s.src, tma_map(&b->map))) == 1)
		return 0;
	if (rc || (rc = stream_out(m, &b->s)))
		return rc;
	gp_meas_launch(m, (unsigned)(b->s.nthr / TMA_BW_THREADS), TMA_BW_THREADS, smem);
	gp_meas_args(m, tma_map(&b->map), &b->g, &b->s.src, &b->s.stages, &b->s.total, &b->s.out, gp_meas_clock(m));
	return 0;
}

static void bw_tma_finish(struct gp_meas *m)
{
	stream_finish(m, &((struct bw_tma *)m->ctx)->s);
}

static const struct gp_probe bw_tma_probe = {
	.runner = GP_RUN_EVENT, .image = gp_image_probes_tma, .setup = bw_tma_setup, .finish = bw_tma_finish,
	.primary = "time_ms", .ctx_size = sizeof(struct bw_tma),
	.min_reps = STREAM_MIN_REPS,
};

GP_EXP_PROBE(bw_tma, bw_tma_params, bw_tma_cols, &bw_tma_probe);

/* ------------------------------------------------------------------ H023 bw_tma_mc */

/* bw_tma with cluster multicast (kernels in tma_mc_90a.cu): rank 0 of each cluster of `cluster`
 * blocks issues every box once to all ranks; each rank checks its copy. Read: the footprint once,
 * against the HBM datasheet; landed: cluster x that in shared memory, against 128 B/clk/SM. */
extern const unsigned char gp_image_probes_tma_mc_90a[];

static const struct gp_param bw_tma_mc_params[] = {
	{ "copy", GP_PARAM_NAME, 0, 0, "1d 2d 3d 4d 5d", "2d", "cp.async.bulk.tensor.Nd...multicast::cluster" },
	{ "box_bytes", GP_PARAM_INT, 16, 32768, NULL, "4096 16384", "bytes per copy (a power of two)" },
	{ "stages", GP_PARAM_INT, 1, TMA_MAX_STAGES, NULL, "4", "boxes in the ring of each block" },
	{ "cluster", GP_PARAM_INT, 2, 8, NULL, "2 4", "blocks per cluster: the ranks every box is multicast to" },
	{ "blocks_per_sm", GP_PARAM_INT, 1, 32, NULL, "1", "resident blocks per SM (clusters as fit at once)" },
	{ "bytes", GP_PARAM_INT, 1L << 20, 1L << 38, NULL, "1073741824", "footprint, read once by the clusters" },
};

static const char *const bw_tma_mc_cols[] = {
	"copy", "rank", "box_bytes", "box_dims", "stages", "cluster", "blocks_per_sm", "clusters", "blocks",
	"threads_per_block", "bytes_in_flight_per_sm", "footprint_bytes", "level", "bytes_read", "bytes_landed", "time_ms_min", "time_ms", "time_ms_max", "spread",
	"bandwidth_GBps", "best_GBps", "ceiling_GBps", "pct_of_ceiling", "landed_GBps", "landed_ceiling_GBps",
	"landed_pct_of_ceiling", "clock_MHz", "reps", "status",
};

struct bw_tma_mc {
	struct cluster_ctx c; /* first: the launch hook reads it */
	struct bw_tma t;
};

/* As many clusters as fit at once, at most blocks_per_sm x SMs blocks: each copies its share. */
static int bw_tma_mc_grid(struct gp_meas *m, struct bw_tma_mc *b, unsigned smem)
{
	const int want = (int)gp_meas_param(m, "blocks_per_sm") * m->dev->sms / (int)b->c.csize;
	int rc, fit;
	char name[32];

	snprintf(name, sizeof name, "tma_mc_%s", gp_meas_param_str(m, "copy"));
	if ((rc = cluster_kernel(m, name, b->c.csize, TMA_BW_THREADS, smem, &fit)) || !fit)
		return rc ? rc : 1;
	fit = fit < want ? fit : want;
	if (fit < 1)
		return gp_meas_na(m, "a cluster of %u blocks needs more than the %d SMs", b->c.csize, m->dev->sms), 1;
	b->t.s.nthr = (size_t)fit * b->c.csize * TMA_BW_THREADS;
	gp_meas_int(m, "clusters", fit);
	gp_meas_int(m, "blocks", (long long)fit * b->c.csize);
	gp_meas_num(m, "bytes_landed", b->t.s.bytes * b->c.csize);
	return 0;
}

static int bw_tma_mc_setup(struct gp_meas *m)
{
	struct bw_tma_mc *b = m->ctx;
	const char *why = bw_tma_geom(m, &b->t);
	const unsigned smem = TMA_BARRIER_BYTES + (unsigned)(b->t.s.stages * tma_stage_stride(b->t.g.box_bytes));
	int rc;

	b->c.csize = (unsigned)gp_meas_param(m, "cluster");
	if (m->dev->cc_major != 9 || m->dev->cc_minor != 0)
		return gp_meas_na(m, "TMA multicast is built for sm_90a: compute capability 9.0 only");
	if (why)
		return gp_point_given(m->pt, "box_bytes") ? gp_meas_na(m, "%s", why) : gp_meas_skip(m);
	if ((rc = bw_tma_mc_grid(m, b, smem)))
		return rc == 1 ? 0 : rc;
	if ((rc = tma_source(m, &b->t.g, &b->t.s.src, tma_map(&b->t.map))) == 1)
		return 0;
	if (rc || (rc = stream_out(m, &b->t.s)))
		return rc;
	gp_meas_launch(m, (unsigned)(b->t.s.nthr / TMA_BW_THREADS), TMA_BW_THREADS, smem);
	gp_meas_args(m, tma_map(&b->t.map), &b->t.g, &b->t.s.src, &b->t.s.stages, &b->t.s.total, &b->t.s.out,
		     gp_meas_clock(m));
	return 0;
}

/* Every rank's words checked; the footprint's read rate against HBM (or, for an L2 footprint,
 * shared memory), and the landed rate (cluster copies) against shared memory's 128 B/clk/SM. */
static void bw_tma_mc_finish(struct gp_meas *m)
{
	const struct bw_tma_mc *b = m->ctx;
	const struct stream *s = &b->t.s;
	const double mhz = gp_meas_mhz(m) > 0 ? gp_meas_mhz(m) : m->dev->clock_khz / 1e3;
	const double smem_ceiling = 128.0 * m->dev->sms * mhz * 1e6 / 1e9;
	const double landed = s->bytes * b->c.csize / (gp_meas_stat(m, "time_ms", GP_MEDIAN) * 1e-3) / 1e9;

	tma_check_words(m, s->h_out, s->nthr, s->bytes * b->c.csize / TMA_ELEM);
	stream_rate(m, s);
	gp_meas_num(m, "landed_GBps", landed);
	gp_meas_num(m, "landed_ceiling_GBps", smem_ceiling);
	gp_meas_num(m, "landed_pct_of_ceiling", 100.0 * landed / smem_ceiling);
	gp_meas_ceiling(m, "bytes landed in shared memory", landed, smem_ceiling, 0.02, "GB/s");
}

static const struct gp_probe bw_tma_mc_probe = {
	.runner = GP_RUN_EVENT, .image = gp_image_probes_tma_mc_90a, .setup = bw_tma_mc_setup,
	.launch = cluster_launch, .finish = bw_tma_mc_finish, .primary = "time_ms", .ctx_size = sizeof(struct bw_tma_mc),
	.min_reps = STREAM_MIN_REPS,
};

GP_EXP_PROBE(bw_tma_mc, bw_tma_mc_params, bw_tma_mc_cols, &bw_tma_mc_probe);

/* ------------------------------------------------------------------ H022 bw_cpasync */

/* The method parameter's names from tma_shape.h's list (used from the second byte). */
#define CPA_NAME(name, w, async, cg, ptx) " " #name
static const char cpa_names[] = CPA_METHODS(CPA_NAME);
#undef CPA_NAME

struct cpa_method {
	const char *name, *ptx;
	int width, async;
};

static const struct cpa_method cpa_methods[] = {
#define CPA_ROW(name, w, async, cg, ptx) { #name, ptx, w, async },
	CPA_METHODS(CPA_ROW)
#undef CPA_ROW
};

static const struct gp_param bw_cpasync_params[] = {
	{ "method", GP_PARAM_NAME, 0, 0, cpa_names + 1, cpa_names + 1,
	  "cp.async 4/8/16 B (.ca; .cg skips L1, 16 B only) or ld.global + st.shared of 4/8/16 B" },
	{ "level", GP_PARAM_NAME, 0, 0, "hbm l2", "hbm l2", "footprint over twice L2 read once, or under half of L2 re-read" },
	{ "stages", GP_PARAM_INT, 1, CPA_MAX_STAGES, NULL, "1 4",
	  "chunks in the ring of each block (cp.async; ld + st rows are at 1)" },
	{ "blocks_per_sm", GP_PARAM_INT, 1, 32, NULL, "2 8", "resident blocks per SM" },
	{ "threads", GP_PARAM_INT, 32, 1024, NULL, "256", "threads per block (a multiple of 32)" },
	{ "bytes", GP_PARAM_INT, 1L << 20, 1L << 38, NULL, "1073741824", "footprint for level hbm" },
	{ "l2_footprint", GP_PARAM_INT, 1L << 16, 1L << 30, NULL, "8388608", "footprint for level l2" },
	{ "l2_read", GP_PARAM_INT, 1L << 16, 1L << 40, NULL, "2147483648", "bytes a level-l2 launch reads (in passes)" },
};

static const char *const bw_cpasync_cols[] = {
	"method", "ptx", "width_bytes", "level", "stages", "blocks_per_sm", "threads", "blocks", "chunk_bytes",
	"bytes_in_flight_per_sm", "footprint_bytes", "passes", "bytes_read", "time_ms_min", "time_ms", "time_ms_max",
	"spread", "bandwidth_GBps", "best_GBps", "ceiling_GBps", "pct_of_ceiling", "clock_MHz", "reps", "status",
};

struct cpasync {
	struct stream s;
	unsigned long long nchunks;
	double footprint;
};

static const struct cpa_method *cpa_find(const char *name)
{
	const struct cpa_method *k = GP_FIND_NAME(cpa_methods, GP_ARRAY_SIZE(cpa_methods), name);

	return k ? k : &cpa_methods[0];
}

/* Chunks of threads x CPA_VEC x width bytes, a power of two of them in the footprint; an L2
 * footprint is read in passes, l2_read bytes a launch (2 GB by default: about a millisecond). */
static void cpa_shape(struct gp_meas *m, struct cpasync *c, const struct cpa_method *k, unsigned long long chunk)
{
	const int bps = (int)gp_meas_param(m, "blocks_per_sm"), threads = (int)gp_meas_param(m, "threads");
	const unsigned long long want = (unsigned long long)gp_meas_param(m, c->s.l2 ? "l2_footprint" : "bytes");
	const unsigned long long fp = chunk > want ? 0 : chunk << (63 - __builtin_clzll(want / chunk));
	const unsigned long long total = (unsigned long long)gp_meas_param(m, "l2_read");
	const unsigned long long passes = c->s.l2 && fp ? (total + fp - 1) / fp : 1;
	const int stages = k->async ? c->s.stages : 1;

	c->nchunks = fp / chunk;
	c->footprint = (double)fp;
	c->s.total = c->nchunks * passes;
	c->s.bytes = (double)fp * (double)passes;
	c->s.nthr = (size_t)bps * (size_t)m->dev->sms * (size_t)threads;
	gp_meas_str(m, "ptx", k->ptx);
	gp_meas_int(m, "width_bytes", k->width);
	gp_meas_int(m, "blocks", (long long)bps * m->dev->sms);
	gp_meas_int(m, "chunk_bytes", (long long)chunk);
	gp_meas_int(m, "bytes_in_flight_per_sm", (long long)bps * (long long)chunk * (stages > 1 ? stages - 1 : 1));
	gp_meas_int(m, "footprint_bytes", (long long)fp);
	gp_meas_int(m, "passes", (long long)passes);
	gp_meas_num(m, "bytes_read", c->s.bytes);
}

/* The footprint must be at its level and the method possible on this GPU. */
static int cpa_formable(struct gp_meas *m, const struct cpasync *c, const struct cpa_method *k, int threads)
{
	const double fp = c->footprint, l2 = m->dev->l2_bytes;

	if (!k->async && c->s.stages != 1)
		return gp_meas_skip(m), 1; /* ld + st has no ring: its row is at stages = 1 */
	if (k->async && m->dev->cc_major < 8)
		return gp_meas_na(m, "cp.async needs compute capability 8.0"), 1;
	if (threads % 32)
		return gp_meas_na(m, "threads must be a multiple of 32"), 1;
	if (!c->nchunks)
		return gp_meas_na(m, "the footprint is smaller than one chunk"), 1;
	if (c->s.l2 && fp > l2 / 2)
		return gp_meas_na(m, "%.0f bytes is over half the L2 size: not an L2 number", fp), 1;
	if (!c->s.l2 && fp <= 2 * l2)
		return gp_meas_na(m, "%.0f bytes is not over twice the L2 size: not an HBM number", fp), 1;
	return 0;
}

static int bw_cpasync_setup(struct gp_meas *m)
{
	struct cpasync *c = m->ctx;
	const struct cpa_method *k = cpa_find(gp_meas_param_str(m, "method"));
	const int threads = (int)gp_meas_param(m, "threads");
	const unsigned long long chunk = (unsigned long long)threads * CPA_VEC * (unsigned long long)k->width;
	unsigned smem;
	int rc;

	c->s.l2 = !strcmp(gp_meas_param_str(m, "level"), "l2");
	c->s.stages = (int)gp_meas_param(m, "stages");
	smem = (unsigned)(chunk * (unsigned long long)c->s.stages);
	cpa_shape(m, c, k, chunk);
	if (cpa_formable(m, c, k, threads))
		return 0;
	if ((rc = gp_meas_kernel(m, "cpa_%s", k->name)))
		return rc;
	if (stream_fits(m, threads, smem))
		return 0;
	if ((rc = tma_fill_buf(m, &c->s.src, (size_t)(c->nchunks * chunk))) == 1)
		return 0;
	if (rc || (rc = stream_out(m, &c->s)))
		return rc;
	gp_meas_launch(m, (unsigned)(c->s.nthr / (size_t)threads), (unsigned)threads, smem);
	gp_meas_args(m, &c->s.src, &c->nchunks, &c->s.total, &c->s.stages, &c->s.out, gp_meas_clock(m));
	return 0;
}

static void bw_cpasync_finish(struct gp_meas *m)
{
	stream_finish(m, &((struct cpasync *)m->ctx)->s);
}

static const struct gp_probe bw_cpasync_probe = {
	.runner = GP_RUN_EVENT, .image = gp_image_probes_tma, .setup = bw_cpasync_setup,
	.finish = bw_cpasync_finish, .primary = "time_ms", .ctx_size = sizeof(struct cpasync),
	.min_reps = STREAM_MIN_REPS,
};

GP_EXP_PROBE(bw_cpasync, bw_cpasync_params, bw_cpasync_cols, &bw_cpasync_probe);
