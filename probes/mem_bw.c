/* mem_bw.c — global-memory bandwidth: load widths and paths (E108/E004: bw_global), coalescing
 * and padding (E016: bw_coalesce, bw_padding), the L2/HBM ceilings (bw_hbm); kernels in mem.cu,
 * derive/report in mem_report.c. Event-timed grids; buffers are filled once (0x01 bytes) and
 * never poisoned, since a memset would leave its own lines in L2 for the next launch. Reads are
 * checked by the sum of the loaded words, stores by words of the destination, and no rate over
 * the HBM datasheet's (allowing for what L2 holds) is published. */
#include "gp.h"
#include "experiment.h"
#include "measure.h"
#include "mem_common.h"
#include "mem_model.h"
#include "mem_shape.h"

#include <math.h>
#include <string.h>

/* Every byte 0x01: each 32-bit word reads 0x01010101. */
#define FILL_BYTE 0x01
#define FILL_WORD 0x01010101u

/* A read-bandwidth point: the buffer, the per-thread sums and what they must add up to. */
struct bw {
	CUdeviceptr buf, out;
	const uint32_t *h_out;
	size_t nthr;
	uint32_t expect;
	double bytes; /* the bytes the GB/s counts */
};

/* A device buffer of the sweep's size filled with FILL_BYTE once; one that does not fit makes
 * the point n/a (0 all the same). */
static int fill_buf(struct gp_meas *m, CUdeviceptr *d, size_t bytes)
{
	if (gp_meas_buf_fit(m, d, bytes, GP_NO_POISON))
		return 0;
	GP_CU(cuMemsetD8(*d, FILL_BYTE, bytes));
	return 0;
error:
	return GP_ECUDA;
}

/* The filled buffer and the nthr per-thread sums, read back after the last repetition. */
static int bw_buffers(struct gp_meas *m, struct bw *b, size_t bytes)
{
	int rc;

	if ((rc = fill_buf(m, &b->buf, bytes)) || !gp_meas_ok(m) ||
	    gp_meas_buf_fit(m, &b->out, b->nthr * 4, GP_NO_POISON))
		return rc;
	b->h_out = gp_meas_readback(m, b->out, b->nthr * 4, GP_LAST_REP);
	return 0;
}

/* Sum of the per-thread sums, wrapping like the kernels' u32 adds, against the host's count;
 * then the rate, in GB/s of the bytes the probe counts. NaN for a point refused before it ran. */
static double bw_check_rate(struct gp_meas *m, const struct bw *b)
{
	uint32_t s = 0;

	if (!b->h_out)
		return NAN;
	for (size_t i = 0; i < b->nthr; i++)
		s += b->h_out[i];
	if (s != b->expect)
		gp_meas_fail(m, "sum of loaded words 0x%08x, expected 0x%08x: loads dropped or wrong", s, b->expect);
	return b->bytes / (gp_meas_stat(m, "time_ms", GP_MEDIAN) * 1e-3) / 1e9;
}

/* ------------------------------------------------------------------ E108 / E004 bw_global */

/* The parameter's names from mem_shape.h's list (" default nc cg cs": used from its second byte). */
#define LDG_PATH_NAME(w, p, q) " " #p
static const char ldg_paths[] = MEM_LDG_PATHS(LDG_PATH_NAME, 0);

static const struct gp_param bw_global_params[] = {
	{ "width", GP_PARAM_INT, 32, 128, NULL, "32 64 128", "bits per load: 32, 64 or 128" },
	{ "path", GP_PARAM_NAME, 0, 0, ldg_paths + 1, ldg_paths + 1,
	  "ld.global, .nc (LDG.CONSTANT), .cg (L2 only), .cs (streaming)" },
	{ "blocks_per_sm", GP_PARAM_INT, 1, 32, NULL, "2", "blocks per SM (seed: 26 x 512 on 13 SMX)" },
	{ "threads", GP_PARAM_INT, 32, 1024, NULL, "512", "threads per block" },
	{ "ilp", GP_PARAM_INT, 1, 8, NULL, "4", "independent loads in flight per thread: 1, 2, 4, 8 (seed: 4)" },
	{ "bytes", GP_PARAM_INT, 1L << 20, 1L << 38, NULL, "268435456", "buffer (seed: 256 MB)" },
	{ "passes", GP_PARAM_INT, 1, 1000, NULL, "4", "sweeps over the buffer per launch" },
};

static const char *const bw_global_cols[] = {
	"width_bits", "path", "pattern", "blocks", "threads_per_block", "warps_per_sm", "ilp",
	"bytes_in_flight_per_sm", "footprint_bytes", "stride_bytes", "bytes_read", "time_ms_min", "time_ms",
	"time_ms_max", "spread", "bandwidth_GBps", "hbm_peak_GBps", "pct_of_hbm_peak", "clock_MHz", "status",
};

struct bw_global {
	struct bw b;
	long long n; /* elements of the buffer */
	int passes;
};

/* A width and ILP there are kernels for (mem_shape.h). */
static int ldg_variant(int width, int ilp)
{
#define LDG_IS_WIDTH(w) width == (w) ||
#define LDG_IS_ILP(w, p, k) ilp == (k) ||
	return (MEM_LDG_WIDTHS(LDG_IS_WIDTH) 0) && (MEM_LDG_ILPS(LDG_IS_ILP, 0, 0) 0);
#undef LDG_IS_WIDTH
#undef LDG_IS_ILP
}

/* The launch's shape in the row: a point that cannot run still says what it would have been. */
static void bw_global_cells(struct gp_meas *m, const struct bw_global *g, int bps, int threads, size_t eb)
{
	const long long ilp = gp_meas_param(m, "ilp");
	char pattern[32];

	snprintf(pattern, sizeof pattern, "grid_stride_x%lld", ilp);
	gp_meas_int(m, "width_bits", gp_meas_param(m, "width"));
	gp_meas_str(m, "pattern", pattern);
	gp_meas_int(m, "blocks", (long long)bps * m->dev->sms);
	gp_meas_int(m, "threads_per_block", threads);
	gp_meas_int(m, "warps_per_sm", (long long)bps * threads / 32);
	gp_meas_int(m, "bytes_in_flight_per_sm", (long long)bps * threads * ilp * (long long)eb);
	gp_meas_int(m, "footprint_bytes", gp_meas_param(m, "bytes"));
	gp_meas_int(m, "stride_bytes", (long long)(g->b.nthr * eb));
	gp_meas_num(m, "bytes_read", g->b.bytes);
	gp_meas_num(m, "hbm_peak_GBps", mem_hbm_peak_GBps(m->dev));
}

/* Each thread loads ilp elements per trip at a stride of the whole grid; the trips that fit
 * the buffer whole are read, `passes` times. */
static int bw_global_setup(struct gp_meas *m)
{
	struct bw_global *g = m->ctx;
	const int width = (int)gp_meas_param(m, "width"), ilp = (int)gp_meas_param(m, "ilp");
	const int bps = (int)gp_meas_param(m, "blocks_per_sm"), threads = (int)gp_meas_param(m, "threads");
	const unsigned blocks = (unsigned)(bps * m->dev->sms);
	const size_t bytes = (size_t)gp_meas_param(m, "bytes"), eb = (size_t)width / 8, nthr = (size_t)blocks * threads;
	const size_t trips = bytes / eb / (nthr * (size_t)ilp), elems = trips * nthr * (size_t)ilp;
	int rc;

	g->b.nthr = nthr;
	g->n = (long long)(bytes / eb);
	g->passes = (int)gp_meas_param(m, "passes");
	g->b.bytes = (double)elems * (double)eb * g->passes;
	g->b.expect = (uint32_t)((uint64_t)elems * (uint64_t)g->passes * (eb / 4) * FILL_WORD);
	bw_global_cells(m, g, bps, threads, eb);
	if (!ldg_variant(width, ilp))
		return gp_meas_fail(m, "width must be 32/64/128 and ilp 1/2/4/8"), 0;
	if (!trips)
		return gp_meas_na(m, "%zu bytes is less than one trip of the grid", bytes);
	if ((rc = gp_meas_kernel(m, "bwg_ld%d_%s_%d", width, gp_meas_param_str(m, "path"), ilp)))
		return rc;
	if (gp_meas_resident(m, threads, bps))
		return 0;
	if ((rc = bw_buffers(m, &g->b, bytes)) || !gp_meas_ok(m))
		return rc;
	gp_meas_launch(m, blocks, (unsigned)threads, 0);
	gp_meas_args(m, &g->b.buf, &g->n, &g->passes, &g->b.out, gp_meas_clock(m));
	return 0;
}

static void bw_global_finish(struct gp_meas *m)
{
	const struct bw_global *g = m->ctx;
	const double gbps = bw_check_rate(m, &g->b), peak = mem_hbm_peak_GBps(m->dev);

	gp_meas_num(m, "bandwidth_GBps", gbps);
	gp_meas_num(m, "pct_of_hbm_peak", 100.0 * gbps / peak);
	if (gp_meas_param(m, "bytes") > 2L * m->dev->l2_bytes)
		gp_meas_ceiling(m, "a buffer over twice L2", gbps, peak, 0.02, "GB/s");
}

static const struct gp_probe bw_global_probe = {
	.runner = GP_RUN_EVENT, .image = gp_image_probes_mem, .setup = bw_global_setup,
	.finish = bw_global_finish, .primary = "time_ms", .ctx_size = sizeof(struct bw_global),
};

GP_EXP_PROBE(bw_global, bw_global_params, bw_global_cols, &bw_global_probe);

/* ------------------------------------------------------------------ E016 bw_coalesce, bw_padding */

#define COAL_BLOCKS_PER_SM 8
#define COAL_THREADS 256
#define COAL_ITERS 128 /* loads per thread: a multiple of COAL_UNROLL, or the sums would not add up */

_Static_assert(COAL_ITERS % COAL_UNROLL == 0, "coal_stride loads COAL_UNROLL at a time");

static const struct gp_param bw_coalesce_params[] = {
	{ "stride_words", GP_PARAM_INT, 1, 64, NULL, "1 2 3 4 8 16 32", "floats between neighbouring lanes" },
	{ "offset_words", GP_PARAM_INT, 0, 64, NULL, "0 1 4 8", "misalignment of the whole access in floats" },
};

static const char *const bw_coalesce_cols[] = {
	"pattern", "stride_words", "offset_words", "stride_bytes", "footprint_bytes", "bytes_useful",
	"time_ms_min", "time_ms", "time_ms_max", "spread", "bandwidth_GBps", "model_efficiency_pct",
	"sector_traffic_GBps", "hbm_peak_GBps", "clock_MHz", "status",
};

struct coal {
	struct bw b;
	long long stride, offset, rows, cols, lda; /* kernel arguments */
	int iters, cg;
	size_t footprint;
	double eff; /* the sector model's efficiency */
};

/* The launch both coalescing kernels share: COAL_BLOCKS_PER_SM x COAL_THREADS per SM. */
static void coal_grid(struct gp_meas *m, struct coal *c)
{
	c->b.nthr = (size_t)COAL_BLOCKS_PER_SM * (size_t)m->dev->sms * COAL_THREADS;
	gp_meas_launch(m, (unsigned)(COAL_BLOCKS_PER_SM * m->dev->sms), COAL_THREADS, 0);
	gp_meas_num(m, "hbm_peak_GBps", mem_hbm_peak_GBps(m->dev));
}

/* What the point reads and the sector model's share of it that is useful. */
static void coal_model(struct gp_meas *m, const struct coal *c)
{
	gp_meas_num(m, "bytes_useful", c->b.bytes);
	gp_meas_int(m, "footprint_bytes", (long long)c->footprint);
	gp_meas_num(m, "model_efficiency_pct", 100.0 * c->eff);
}

/* Thread g reads float (k * T + g) * stride + offset for k < COAL_ITERS. */
static int bw_coalesce_setup(struct gp_meas *m)
{
	struct coal *c = m->ctx;
	size_t words;
	int rc;

	c->stride = gp_meas_param(m, "stride_words");
	c->offset = gp_meas_param(m, "offset_words");
	c->iters = COAL_ITERS;
	coal_grid(m, c);
	words = ((size_t)c->iters * c->b.nthr - 1) * (size_t)c->stride + (size_t)c->offset + 1;
	c->footprint = words * 4;
	c->b.bytes = (double)c->iters * (double)c->b.nthr * 4;
	c->b.expect = (uint32_t)((uint64_t)c->iters * c->b.nthr * FILL_WORD);
	c->eff = mem_model_stride(4, c->stride, c->offset);
	coal_model(m, c);
	gp_meas_str(m, "pattern", "strided_warp");
	gp_meas_int(m, "stride_bytes", c->stride * 4);
	if ((rc = gp_meas_kernel(m, "coal_stride")) || (rc = bw_buffers(m, &c->b, c->footprint)) || !gp_meas_ok(m))
		return rc;
	gp_meas_args(m, &c->b.buf, &c->stride, &c->offset, &c->iters, &c->b.out, gp_meas_clock(m));
	return 0;
}

/* Each float is read once per launch from a span over L2: at most the L2-resident share of the
 * previous launch can come faster than HBM. */
static void bw_coalesce_finish(struct gp_meas *m)
{
	const struct coal *c = m->ctx;
	const double gbps = bw_check_rate(m, &c->b), l2 = m->dev->l2_bytes, w = (double)c->footprint;

	gp_meas_num(m, "bandwidth_GBps", gbps);
	gp_meas_num(m, "sector_traffic_GBps", gbps / c->eff);
	if (w > l2)
		gp_meas_ceiling(m, "useful loads allowing for L2", gbps, mem_hbm_peak_GBps(m->dev) * w / (w - l2), 0.02,
				"GB/s");
}

static const struct gp_probe bw_coalesce_probe = {
	.runner = GP_RUN_EVENT, .image = gp_image_probes_mem, .setup = bw_coalesce_setup,
	.finish = bw_coalesce_finish, .primary = "time_ms", .ctx_size = sizeof(struct coal),
};

GP_EXP_PROBE(bw_coalesce, bw_coalesce_params, bw_coalesce_cols, &bw_coalesce_probe);

static const struct gp_param bw_padding_params[] = {
	{ "rows", GP_PARAM_INT, 128, 1L << 20, NULL, "4096", "matrix rows (multiple of 128)" },
	{ "pad", GP_PARAM_INT, 0, 1024, NULL, "0 1 2 3 4 5 6 7 8 12 16 32", "lda = rows + pad" },
	{ "path", GP_PARAM_NAME, 0, 0, "default cg", "default", "ld.global or ld.global.cg" },
	{ "bytes", GP_PARAM_INT, 1L << 24, 1L << 36, NULL, "536870912", "matrix size (sets the columns)" },
};

static const char *const bw_padding_cols[] = {
	"pattern", "rows", "cols", "lda", "lda_mod_8", "pad", "path", "stride_bytes", "footprint_bytes",
	"bytes_useful", "time_ms_min", "time_ms", "time_ms_max", "spread", "bandwidth_GBps",
	"model_efficiency_pct", "model_sectors_per_request", "hbm_peak_GBps", "clock_MHz", "status",
};

/* A column-major rows x cols matrix with leading dimension lda = rows + pad, walked a column
 * per warp: each warp request is 32 consecutive floats of one column. */
static int bw_padding_setup(struct gp_meas *m)
{
	struct coal *c = m->ctx;
	int rc;

	coal_grid(m, c);
	c->rows = gp_meas_param(m, "rows");
	c->lda = c->rows + gp_meas_param(m, "pad");
	c->cg = !strcmp(gp_meas_param_str(m, "path"), "cg");
	c->cols = (long long)((size_t)gp_meas_param(m, "bytes") / 4 / (size_t)c->lda);
	c->footprint = (size_t)c->cols * (size_t)c->lda * 4;
	c->b.bytes = (double)c->rows * (double)c->cols * 4;
	c->b.expect = (uint32_t)((uint64_t)c->rows * (uint64_t)c->cols * FILL_WORD);
	c->eff = mem_model_lda(4, c->lda, 8);
	coal_model(m, c);
	gp_meas_str(m, "pattern", "column_walk");
	gp_meas_int(m, "cols", c->cols);
	gp_meas_int(m, "lda", c->lda);
	gp_meas_int(m, "lda_mod_8", c->lda % 8);
	gp_meas_int(m, "stride_bytes", c->lda * 4);
	gp_meas_num(m, "model_sectors_per_request", 4.0 / c->eff);
	if (c->rows % (COAL_UNROLL * 32) || c->cols < 1)
		return gp_meas_fail(m, "rows must be a multiple of %d and the matrix hold a column",
				    COAL_UNROLL * 32), 0;
	if ((rc = gp_meas_kernel(m, "coal_lda")) || (rc = bw_buffers(m, &c->b, c->footprint)) || !gp_meas_ok(m))
		return rc;
	gp_meas_args(m, &c->b.buf, &c->rows, &c->cols, &c->lda, &c->cg, &c->b.out, gp_meas_clock(m));
	return 0;
}

static void bw_padding_finish(struct gp_meas *m)
{
	const struct coal *c = m->ctx;
	const double gbps = bw_check_rate(m, &c->b);

	gp_meas_num(m, "bandwidth_GBps", gbps);
	if (c->footprint > 2 * (size_t)m->dev->l2_bytes)
		gp_meas_ceiling(m, "a matrix over twice L2", gbps, mem_hbm_peak_GBps(m->dev), 0.02, "GB/s");
}

static const struct gp_probe bw_padding_probe = {
	.runner = GP_RUN_EVENT, .image = gp_image_probes_mem, .setup = bw_padding_setup,
	.finish = bw_padding_finish, .primary = "time_ms", .ctx_size = sizeof(struct coal),
};

GP_EXP_PROBE(bw_padding, bw_padding_params, bw_padding_cols, &bw_padding_probe);

/* ------------------------------------------------------------------ bw_hbm */

static const struct gp_param bw_hbm_params[] = {
	{ "op", GP_PARAM_NAME, 0, 0, "l2_read read write copy dtod", "l2_read read write copy dtod",
	  "l2_read (.cg, footprint under L2), read, write, copy kernels, cuMemcpyDtoD" },
	{ "bytes", GP_PARAM_INT, 1L << 20, 1L << 38, NULL, "4294967296", "buffer for read/write/copy/dtod" },
	{ "l2_footprint", GP_PARAM_INT, 1L << 16, 1L << 30, NULL, "8388608", "buffer for l2_read" },
};

static const char *const bw_hbm_cols[] = {
	"op", "level", "pattern", "footprint_bytes", "stride_bytes", "passes", "bytes_moved", "time_ms_min",
	"time_ms", "time_ms_max", "spread", "bandwidth_GBps", "best_GBps", "ceiling_GBps", "pct_of_ceiling",
	"clock_MHz", "status",
};

#define HBM_THREADS 256
#define L2_READ_TOTAL (16ull << 30) /* bytes read per l2_read launch: a few ms */
#define HBM_PATTERN 0x5a5a5a5au     /* what hbm_write stores */
/* l2_read: the footprint's rate is steady within a context and differs from one to the next
 * (6.8-7.4 TB/s over 24 contexts on one H100), so its repetitions are spread over this many. */
#define HBM_L2_CONTEXTS 16

/* In the order of the op parameter's names; the reads first. */
enum hbm_op { HBM_L2_READ, HBM_READ, HBM_WRITE, HBM_COPY, HBM_DTOD };

struct hbm {
	struct bw b;     /* buf: the source, filled (also what write overwrites) */
	CUdeviceptr dst; /* write: buf itself; copy, dtod: a second buffer */
	long long n16;   /* HBM_VEC_BYTES vectors in the buffer */
	int passes, cg;
	unsigned pattern;
	enum hbm_op op;
	size_t bytes;
};

static enum hbm_op hbm_op(const char *name)
{
	static const char *const names[] = { "l2_read", "read", "write", "copy", "dtod" };
	size_t i = 0;

	while (i + 1 < GP_ARRAY_SIZE(names) && strcmp(names[i], name))
		i++;
	return (enum hbm_op)i;
}

/* HBM: the datasheet rate. L2: what the SMs' L1s can take in, 128 B/clk/SM (loose), at the
 * measured clock (the nominal one where there is none). */
static double hbm_ceiling(const struct gp_meas *m, int l2, double mhz)
{
	return l2 ? 128.0 * m->dev->sms * (mhz > 0 ? mhz : m->dev->clock_khz / 1e3) * 1e6 / 1e9
		  : mem_hbm_peak_GBps(m->dev);
}

static void hbm_cells(struct gp_meas *m, const struct hbm *h, int l2, int two)
{
	gp_meas_str(m, "level", l2 ? "L2" : "HBM");
	gp_meas_str(m, "pattern", h->op == HBM_DTOD ? "cuMemcpyDtoD" : "grid_stride_16B_x4");
	gp_meas_int(m, "footprint_bytes", (long long)h->bytes * (two ? 2 : 1));
	gp_meas_int(m, "stride_bytes", (long long)h->b.nthr * HBM_VEC_BYTES);
	gp_meas_int(m, "passes", h->passes);
	gp_meas_num(m, "bytes_moved", h->b.bytes);
	gp_meas_num(m, "ceiling_GBps", hbm_ceiling(m, l2, NAN));
}

/* The filled source, the destination of a copy, the sums of a read. */
static int hbm_buffers(struct gp_meas *m, struct hbm *h, int two)
{
	int rc;

	if ((rc = fill_buf(m, &h->b.buf, h->bytes)) || !gp_meas_ok(m) ||
	    (two && gp_meas_buf_fit(m, &h->dst, h->bytes, GP_NO_POISON)))
		return rc;
	if (h->op == HBM_WRITE)
		h->dst = h->b.buf; /* written in place */
	if (h->op <= HBM_READ && !gp_meas_buf_fit(m, &h->b.out, h->b.nthr * 4, GP_NO_POISON))
		h->b.h_out = gp_meas_readback(m, h->b.out, h->b.nthr * 4, GP_LAST_REP);
	return 0;
}

/* The kernel and its arguments; cuMemcpyDtoD (the launch hook) writes no clock sample, so its
 * clock is the harness's spin right after it. */
static int hbm_kernel(struct gp_meas *m, struct hbm *h)
{
	CUdeviceptr *clk;
	int rc;

	if (h->op == HBM_DTOD)
		return gp_meas_spin_clock(m), 0;
	if ((rc = gp_meas_kernel(m, h->op == HBM_WRITE ? "hbm_write" : h->op == HBM_COPY ? "hbm_copy" : "hbm_read")))
		return rc;
	clk = gp_meas_clock(m);
	if (h->op == HBM_WRITE)
		gp_meas_args(m, &h->dst, &h->n16, &h->pattern, clk);
	else if (h->op == HBM_COPY)
		gp_meas_args(m, &h->dst, &h->b.buf, &h->n16, clk);
	else
		gp_meas_args(m, &h->b.buf, &h->n16, &h->passes, &h->cg, &h->b.out, clk);
	return 0;
}

/* l2_read rereads a footprint under half of L2 (.cg: L1 would serve the rereads) for ~16 GiB a
 * launch; the HBM ops move a buffer over twice L2 once. Copies count read + write bytes. */
static int bw_hbm_setup(struct gp_meas *m)
{
	struct hbm *h = m->ctx;
	const int l2 = (h->op = hbm_op(gp_meas_param_str(m, "op"))) == HBM_L2_READ;
	const int two = h->op == HBM_COPY || h->op == HBM_DTOD;
	const unsigned per_sm = (unsigned)(m->dev->max_threads_per_sm / HBM_THREADS);
	const unsigned blocks = (per_sm ? per_sm : 1) * (unsigned)m->dev->sms;
	int rc;

	h->bytes = (size_t)gp_meas_param(m, l2 ? "l2_footprint" : "bytes") / HBM_VEC_BYTES * HBM_VEC_BYTES;
	h->n16 = (long long)(h->bytes / HBM_VEC_BYTES);
	h->passes = l2 ? (int)(L2_READ_TOTAL / h->bytes > 0 ? L2_READ_TOTAL / h->bytes : 1) : 1;
	h->cg = l2;
	h->pattern = HBM_PATTERN;
	h->b.nthr = (size_t)blocks * HBM_THREADS;
	h->b.bytes = (double)h->bytes * h->passes * (two ? 2 : 1);
	h->b.expect = (uint32_t)((uint64_t)h->n16 * (HBM_VEC_BYTES / 4) * (uint64_t)h->passes * FILL_WORD);
	hbm_cells(m, h, l2, two);
	if (!l2 && h->bytes <= 2 * (size_t)m->dev->l2_bytes)
		return gp_meas_na(m, "%zu bytes is not over twice the L2 size: not an HBM number", h->bytes);
	if (l2 && h->bytes > (size_t)m->dev->l2_bytes / 2)
		return gp_meas_na(m, "%zu bytes is over half the L2 size: not an L2 number", h->bytes);
	if (l2)
		gp_meas_contexts(m, HBM_L2_CONTEXTS);
	if ((rc = hbm_buffers(m, h, two)) || !gp_meas_ok(m))
		return rc;
	gp_meas_launch(m, blocks, HBM_THREADS, 0);
	return hbm_kernel(m, h);
}

/* cuMemcpyDtoD for dtod; the kernel setup() named for the rest. */
static int bw_hbm_launch(struct gp_meas *m)
{
	const struct hbm *h = m->ctx;

	if (h->op == HBM_DTOD)
		GP_CU(cuMemcpyDtoD(h->dst, h->b.buf, h->bytes));
	else
		GP_CU(cuLaunchKernel(m->fn, m->grid, 1, 1, m->block, 1, 1, 0, NULL, m->args, NULL));
	return 0;
error:
	return GP_ECUDA;
}

/* Three vectors of the destination (first, middle, last) must hold what was stored; then the
 * rate of the bytes moved. */
static double hbm_check_words(struct gp_meas *m, const struct hbm *h)
{
	const size_t at[] = { 0, (size_t)h->n16 / 2, (size_t)h->n16 - 1 };
	const uint32_t want = h->op == HBM_WRITE ? h->pattern : FILL_WORD;
	uint32_t w[HBM_VEC_BYTES / 4];

	for (size_t i = 0; i < GP_ARRAY_SIZE(at) && gp_meas_ok(m); i++) {
		if (gp_download(w, h->dst + at[i] * HBM_VEC_BYTES, sizeof w)) {
			gp_meas_fail(m, "vector %zu of the destination could not be read back", at[i]);
			break;
		}
		for (size_t k = 0; k < GP_ARRAY_SIZE(w) && gp_meas_ok(m); k++)
			if (w[k] != want)
				gp_meas_fail(m, "word %zu holds 0x%08x, expected 0x%08x: stores lost", at[i], w[k],
					     want);
	}
	return h->b.bytes / (gp_meas_stat(m, "time_ms", GP_MEDIAN) * 1e-3) / 1e9;
}

static void bw_hbm_finish(struct gp_meas *m)
{
	const struct hbm *h = m->ctx;
	const int l2 = h->op == HBM_L2_READ;
	const double gbps = h->op <= HBM_READ ? bw_check_rate(m, &h->b) : hbm_check_words(m, h);
	const double ceiling = hbm_ceiling(m, l2, gp_meas_mhz(m));

	const double best = h->b.bytes / (gp_meas_stat(m, "time_ms", GP_MIN) * 1e-3) / 1e9;

	gp_meas_num(m, "bandwidth_GBps", gbps);
	gp_meas_num(m, "best_GBps", best);
	gp_meas_num(m, "ceiling_GBps", ceiling);
	gp_meas_num(m, "pct_of_ceiling", 100.0 * gbps / ceiling);
	gp_meas_ceiling(m, l2 ? "L2 reads" : "HBM traffic", best, ceiling, 0.02, "GB/s");
}

static const struct gp_probe bw_hbm_probe = {
	.runner = GP_RUN_EVENT, .image = gp_image_probes_mem, .setup = bw_hbm_setup, .launch = bw_hbm_launch,
	.finish = bw_hbm_finish, .primary = "time_ms", .ctx_size = sizeof(struct hbm),
	.min_reps = 20, /* a few ms each; the write, copy and DtoD times can be bimodal: a steady best */
};

GP_EXP_PROBE(bw_hbm, bw_hbm_params, bw_hbm_cols, &bw_hbm_probe);
