/* tma.c — lat_tma (H020): the latency of one TMA copy into shared memory, from before its
 * mbarrier.arrive.expect_tx to the mbarrier.try_wait that sees the bytes land (clock64, one
 * warp, copies one after another), for cp.async.bulk and cp.async.bulk.tensor.1d..5d, per box
 * size, with the data in L2 (the same boxes copied once untimed first) or in HBM (a footprint over
 * twice L2, a box never copied before, and L2 overwritten by a scrub buffer's poison before every
 * repetition). Random boxes over the footprint: an HBM copy pays the TLB misses a random LDG
 * chase of that footprint would. Every word of every box is checked; the shared helpers of the
 * family (geometry, tensor maps, the source pattern) are here too, bw_tma and bw_cpasync in
 * tma_bw.c. */
#include "gp.h"
#include "experiment.h"
#include "measure.h"
#include "tma_common.h"

#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------------ the family's helpers */

CUtensorMap *tma_map(struct tma_map *m)
{
	return (CUtensorMap *)(((uintptr_t)m->raw + 127) & ~(uintptr_t)127);
}

int tma_rank(const char *copy)
{
#define TMA_RANK_OF(name, rank) if (!strcmp(copy, #name)) return rank;
	TMA_COPIES(TMA_RANK_OF)
#undef TMA_RANK_OF
	return -1;
}

static int log2u(unsigned long long v)
{
	int l = 0;

	while (v >> (l + 1))
		l++;
	return l;
}

/* Dimension 0 and the rows of a box: 128-byte rows (a GEMM tile's) spread as evenly as powers
 * of two allow over dimensions 1..rank-1; a 1-d box is one row of at most 256 elements. */
static const char *tma_box_shape(struct tma_geom *g, int rank, unsigned long long elems)
{
	const unsigned b0 = rank == 1 || elems < TMA_BOX_ROW_ELEMS ? (unsigned)elems : TMA_BOX_ROW_ELEMS;
	const int lgr = log2u(elems / b0);

	if (b0 > TMA_MAX_BOX_DIM)
		return "a 1-d tensor box holds at most 256 elements (1 KB of UINT32)";
	g->box[0] = b0;
	for (int d = 1; d < rank; d++) {
		const int share = lgr / (rank - 1) + (d - 1 < lgr % (rank - 1));
		g->box[d] = 1u << share;
		if (g->box[d] > TMA_MAX_BOX_DIM)
			return "a box dimension over 256 elements: use a higher rank or a smaller box";
	}
	for (int d = 0; d < rank; d++)
		g->lgb[d] = log2u(g->box[d]);
	return NULL;
}

const char *tma_geom_make(struct tma_geom *g, int rank, unsigned long long box_bytes, unsigned long long bytes)
{
	unsigned long long slab = TMA_ELEM, n;
	const char *why;

	memset(g, 0, sizeof *g);
	g->rank = rank;
	g->box_bytes = box_bytes;
	if (box_bytes < 16 || (box_bytes & (box_bytes - 1)))
		return "box_bytes must be a power of two of at least 16";
	if (rank == 0) {
		if (!(n = bytes / box_bytes))
			return "the footprint is smaller than one box";
		g->nboxes = 1ull << log2u(n);
		return NULL;
	}
	if ((why = tma_box_shape(g, rank, box_bytes / TMA_ELEM)))
		return why;
	/* Dimension 0: 4 KB rows (rank 1: the whole footprint); the middle ones TMA_MID_SPREAD
	 * boxes each; the last what is left of the footprint, a power of two of boxes. */
	for (int d = 0; d < rank - 1; d++) {
		g->gdim[d] = d == 0 ? TMA_ROW_ELEMS : g->box[d] * TMA_MID_SPREAD;
		g->lgn[d] = log2u(g->gdim[d] / g->box[d]);
		slab *= g->gdim[d];
	}
	slab *= g->box[rank - 1];
	if (!(n = bytes / slab))
		return "the footprint is smaller than one row of boxes";
	g->lgn[rank - 1] = log2u(n);
	g->gdim[rank - 1] = g->box[rank - 1] << g->lgn[rank - 1];
	g->estride[0] = 1;
	for (int d = 1; d < rank; d++)
		g->estride[d] = g->estride[d - 1] * g->gdim[d - 1];
	g->nboxes = 1;
	for (int d = 0; d < rank; d++)
		g->nboxes <<= g->lgn[d];
	return NULL;
}

unsigned long long tma_footprint(const struct tma_geom *g)
{
	return g->nboxes * g->box_bytes;
}

void tma_box_dims(const struct tma_geom *g, char *buf, size_t len)
{
	size_t o = 0;

	if (g->rank == 0) {
		snprintf(buf, len, "%llu B", g->box_bytes);
		return;
	}
	buf[0] = 0;
	for (int d = 0; d < g->rank && o < len; d++)
		o += (size_t)snprintf(buf + o, len - o, "%s%u", d ? "x" : "", g->box[d]);
}

int tma_fill_buf(struct gp_meas *m, CUdeviceptr *d, size_t bytes)
{
	unsigned long long n = bytes / TMA_ELEM;
	void *args[] = { d, &n };
	CUfunction fn;
	int rc;

	if (gp_meas_buf_fit(m, d, bytes, GP_NO_POISON))
		return 1;
	if ((rc = gp_kernel(m->dev, gp_image_probes_tma, "tma_fill", &fn)))
		return rc;
	return gp_launch(fn, (unsigned)m->dev->sms * 8, 256, 0, args, NULL);
}

int tma_source(struct gp_meas *m, const struct tma_geom *g, CUdeviceptr *src, CUtensorMap *map)
{
	cuuint64_t dims[TMA_MAX_RANK], strides[TMA_MAX_RANK];
	cuuint32_t box[TMA_MAX_RANK], es[TMA_MAX_RANK];
	int rc;

	if ((rc = tma_fill_buf(m, src, tma_footprint(g))) || g->rank == 0)
		return rc;
	for (int d = 0; d < g->rank; d++) {
		dims[d] = g->gdim[d];
		box[d] = g->box[d];
		es[d] = 1;
		if (d)
			strides[d - 1] = g->estride[d] * TMA_ELEM;
	}
	GP_CU(cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_UINT32, (cuuint32_t)g->rank, (void *)(uintptr_t)*src,
				     dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
				     CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
	return 0;
error:
	return GP_ECUDA;
}

int tma_resident(CUfunction fn, int threads, unsigned smem)
{
	int n = 0;

	if (gp_cu.cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)smem) != CUDA_SUCCESS ||
	    gp_cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, fn, threads, smem) != CUDA_SUCCESS)
		return 0;
	return n;
}

void tma_check_words(struct gp_meas *m, const unsigned *out, size_t nthr, double want_words)
{
	double bad = 0, words = 0;

	if (!out)
		return;
	for (size_t t = 0; t < nthr; t++) {
		bad += out[2 * t];
		words += out[2 * t + 1];
	}
	if (bad > 0)
		gp_meas_fail(m, "%.0f of %.0f words in shared memory differ from their source: copies lost or misplaced",
			     bad, words);
	else if (words != want_words)
		gp_meas_fail(m, "%.0f words checked, expected %.0f: copies missing", words, want_words);
}

/* ------------------------------------------------------------------ H020 lat_tma */

static const struct gp_param lat_tma_params[] = {
	{ "copy", GP_PARAM_NAME, 0, 0, "bulk 1d 2d 3d 4d 5d", "bulk 1d 2d 3d 4d 5d",
	  "cp.async.bulk (bulk) or cp.async.bulk.tensor.Nd (a tiled UINT32 tensor map of rank N)" },
	{ "box_bytes", GP_PARAM_INT, 16, 32768, NULL, "128 1024 4096 16384", "bytes per copy (a power of two)" },
	{ "level", GP_PARAM_NAME, 0, 0, "l2 hbm", "l2 hbm", "where the boxes are: L2 (copied once first) or HBM" },
	{ "steps", GP_PARAM_INT, 16, 4096, NULL, "4096",
	  "copies timed one after another (a repetition's value is their mean; HBM copies vary by hundreds of cycles)" },
	{ "bytes", GP_PARAM_INT, 1L << 20, 1L << 36, NULL, "268435456", "footprint for level hbm (over twice L2)" },
	{ "l2_footprint", GP_PARAM_INT, 1L << 16, 1L << 30, NULL, "4194304", "footprint for level l2 (under half of L2)" },
};

static const char *const lat_tma_cols[] = {
	"copy", "rank", "box_bytes", "box_dims", "level", "footprint_bytes", "steps", "cycles_per_copy_min",
	"cycles_per_copy", "cycles_per_copy_max", "spread", "fastest_copy_cycles", "slowest_copy_cycles", "latency_ns",
	"floor_cycles", "clock_MHz", "reps", "status",
};

struct lat_tma {
	struct tma_map map;
	struct tma_geom g;
	CUdeviceptr src, out, scrub;
	const unsigned long long *h_out;
	unsigned long long first;
	int steps, warm;
};

/* What the point is, in the row, before anything can refuse it. */
static const char *lat_tma_geom(struct gp_meas *m, struct lat_tma *c, int *l2)
{
	const int rank = tma_rank(gp_meas_param_str(m, "copy"));
	const char *why;
	char dims[64];

	*l2 = !strcmp(gp_meas_param_str(m, "level"), "l2");
	why = tma_geom_make(&c->g, rank, (unsigned long long)gp_meas_param(m, "box_bytes"),
			    (unsigned long long)gp_meas_param(m, *l2 ? "l2_footprint" : "bytes"));
	tma_box_dims(&c->g, dims, sizeof dims);
	gp_meas_int(m, "rank", rank);
	gp_meas_str(m, "box_dims", why ? "" : dims);
	gp_meas_int(m, "footprint_bytes", why ? 0 : (long long)tma_footprint(&c->g));
	gp_meas_num(m, "floor_cycles", (double)c->g.box_bytes / 128.0);
	return why;
}

static int lat_tma_setup(struct gp_meas *m)
{
	struct lat_tma *c = m->ctx;
	int l2, rc;
	const char *why = lat_tma_geom(m, c, &l2);
	const unsigned long long fp = tma_footprint(&c->g), l2b = (unsigned long long)m->dev->l2_bytes;

	c->steps = (int)gp_meas_param(m, "steps");
	c->warm = l2;
	if (m->dev->cc_major < 9)
		return gp_meas_na(m, "TMA needs compute capability 9.0");
	if (why)
		return gp_point_given(m->pt, "box_bytes") ? gp_meas_na(m, "%s", why) : gp_meas_skip(m);
	if (l2 && fp > l2b / 2)
		return gp_meas_na(m, "%llu bytes is over half the L2 size: not an L2 latency", fp);
	if (!l2 && fp <= 2 * l2b)
		return gp_meas_na(m, "%llu bytes is not over twice the L2 size: not an HBM latency", fp);
	if ((rc = gp_meas_kernel(m, "tma_lat_%s", gp_meas_param_str(m, "copy"))) ||
	    (rc = gp_meas_buf(m, &c->out, 8 * sizeof *c->h_out, 0)) ||
	    (!l2 && (rc = gp_meas_buf(m, &c->scrub, 2 * l2b, 0))))
		return rc;
	if ((rc = tma_source(m, &c->g, &c->src, tma_map(&c->map))) == 1)
		return 0;
	if (rc)
		return rc;
	c->h_out = gp_meas_readback(m, c->out, 8 * sizeof *c->h_out, GP_EVERY_REP);
	gp_meas_launch(m, 1, TMA_LAT_THREADS, TMA_BARRIER_BYTES + (unsigned)c->g.box_bytes);
	gp_meas_args(m, tma_map(&c->map), &c->g, &c->src, &c->steps, &c->first, &c->warm, &c->out, gp_meas_clock(m));
	return 0;
}

/* Boxes no earlier repetition copied: an HBM box was never in L2 (the scrub's poison overwrote
 * what the last repetition left there). */
static int lat_tma_before(struct gp_meas *m)
{
	struct lat_tma *c = m->ctx;

	c->first = (unsigned long long)(m->rep + m->run->warmup) * (unsigned long long)(c->steps + 1);
	return 0;
}

static void lat_tma_sample(struct gp_meas *m)
{
	const struct lat_tma *c = m->ctx;
	const double want = (double)(c->warm ? 2 : 1) * (c->steps + 1) * (double)(c->g.box_bytes / TMA_ELEM);

	if (c->h_out[3])
		gp_meas_fail(m, "%llu of %llu words in shared memory differ from their source: copies lost or misplaced",
			     c->h_out[3], c->h_out[4]);
	else if ((double)c->h_out[4] != want)
		gp_meas_fail(m, "%llu words checked, expected %.0f: copies missing", c->h_out[4], want);
	gp_sample(m, "cycles_per_copy", (double)c->h_out[0] / c->steps);
	gp_sample(m, "fastest_copy_cycles", (double)c->h_out[1]);
	gp_sample(m, "slowest_copy_cycles", (double)c->h_out[2]);
}

static void lat_tma_finish(struct gp_meas *m)
{
	const struct lat_tma *c = m->ctx;
	gp_meas_latency_ns(m, "cycles_per_copy");
	/* No copy lands faster than shared memory takes its bytes (128 B/clk). */
	gp_meas_floor(m, "the fastest copy", gp_meas_stat(m, "fastest_copy_cycles", GP_MIN),
		      (double)c->g.box_bytes / 128.0, 0.0, "cycles");
}

static const struct gp_probe lat_tma_probe = {
	.runner = GP_RUN_SYNC, .image = gp_image_probes_tma, .setup = lat_tma_setup, .before = lat_tma_before,
	.sample = lat_tma_sample, .finish = lat_tma_finish, .primary = "cycles_per_copy",
	.ctx_size = sizeof(struct lat_tma),
};

GP_EXP_PROBE(lat_tma, lat_tma_params, lat_tma_cols, &lat_tma_probe);
