/* l2map.c — lat_l2_map (H050): the L2-hit latency from every SM to each of `lines` sample lines
 * (kernel in l2map.cu, derive/report in l2map_report.c). One block per SM, all measuring at once,
 * each keeping the fastest of `trials` chains per line; the harness repeats the launch and a cell
 * is the median over the repetitions. The table is tidy, one row per (SM, line), for a heat map:
 * the probe measures one summary row per point (scratch), and l2map_measure writes the cells the
 * probe left in l2map_sink as rows with that row's status, clock and repetitions. Checked: every
 * chase ends on its line, every SM ran exactly one block (a block's %smid, poisoned outputs), no
 * cell below an L2 hit's floor. Pitfall: blocks land on SMs in a different order every launch,
 * so cells are keyed by %smid, never by block. */
#include "gp.h"
#include "experiment.h"
#include "measure.h"
#include "mem_common.h"
#include "l2map_shape.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

extern const unsigned char gp_image_probes_l2map[];

static const struct gp_param l2map_params[] = {
	{ "lines", GP_PARAM_INT, 8, L2MAP_MAX_LINES, NULL, "128", "sample lines every SM times" },
	{ "stride_bytes", GP_PARAM_INT, L2MAP_LINE, 1L << 24, NULL, "4224",
	  "spacing of the sample lines (a multiple of 128; not a power of two, so lines spread over slices)" },
	{ "trials", GP_PARAM_INT, 1, 64, NULL, "4", "timed chains per line and SM (the fastest is kept)" },
};

/* The probe's own row: the point's summary (not written; l2map_measure writes the cells). */
static const char *const l2map_probe_cols[] = {
	"lines", "stride_bytes", "trials", "sms", "cycles", "cycles_min", "cycles_max", "timer_overhead_cycles",
	"latency_ns", "clock_MHz", "reps", "status",
};

static const char *const l2map_cols[] = {
	"sm", "line", "offset_bytes", "lines", "stride_bytes", "trials", "cycles", "cycles_min", "cycles_max",
	"latency_ns", "timer_overhead_cycles", "clock_MHz", "reps", "status",
};

/* The cells the probe leaves for l2map_measure: per SM (ascending %smid) and line, one load's
 * cycles, median / min / max over the repetitions. */
struct l2map_cells {
	int nsm, lines;
	unsigned *smid;
	double *med, *min, *max;
};

/* Set by l2map_measure around its one gp_measure call (measurement is single-threaded). */
static struct l2map_cells *l2map_sink;

struct l2map {
	CUdeviceptr base, smid, cyc, ovh, bad;
	const unsigned *h_smid, *h_cyc, *h_ovh, *h_bad;
	unsigned long long addr;
	long long stride;
	int lines, trials, nsm, nvals;
	unsigned *ids;  /* the SMs' %smid, ascending (from the first launch) */
	double *vals;   /* [repetition][sm][line] cycles per load */
	double *tmp;    /* scratch for medians */
};

/* The sample lines (each holding its own address) and the per-block results (poisoned: a launch
 * that did not run leaves %smid 0xffffffff, which no check passes). */
static int l2map_buffers(struct gp_meas *m, struct l2map *x)
{
	const size_t nb = (size_t)x->nsm, cells = nb * (size_t)x->lines;
	CUfunction fi;
	void *args[] = { &x->addr, &x->lines, &x->stride };
	int rc;

	if ((rc = gp_meas_buf(m, &x->smid, nb * 4, GP_POISON_NAN)) || (rc = gp_meas_buf(m, &x->cyc, cells * 4, GP_POISON_NAN)) ||
	    (rc = gp_meas_buf(m, &x->ovh, nb * 4, GP_POISON_NAN)) || (rc = gp_meas_buf(m, &x->bad, nb * 4, GP_POISON_NAN)))
		return rc;
	x->h_smid = gp_meas_readback(m, x->smid, nb * 4, GP_EVERY_REP);
	x->h_cyc = gp_meas_readback(m, x->cyc, cells * 4, GP_EVERY_REP);
	x->h_ovh = gp_meas_readback(m, x->ovh, nb * 4, GP_EVERY_REP);
	x->h_bad = gp_meas_readback(m, x->bad, nb * 4, GP_EVERY_REP);
	x->ids = gp_meas_host(m, nb * sizeof *x->ids);
	x->vals = gp_meas_host(m, (size_t)m->cap * cells * sizeof *x->vals);
	x->tmp = gp_meas_host(m, (cells > (size_t)m->cap ? cells : (size_t)m->cap) * sizeof *x->tmp);
	if (!x->ids || !x->vals || !x->tmp)
		return GP_EFAIL;
	x->addr = (unsigned long long)x->base;
	if ((rc = gp_kernel(m->dev, gp_image_probes_l2map, "l2map_init", &fi)))
		return rc;
	return gp_launch(fi, 1, 256, 0, args, NULL);
}

/* One block per SM: each asks for the most shared memory a block may have, so no second one fits
 * beside it (where a block may have no more than half an SM's, the %smid check still holds). */
static int l2map_setup(struct gp_meas *m)
{
	struct l2map *x = m->ctx;
	int rc;

	x->lines = (int)gp_meas_param(m, "lines");
	x->stride = gp_meas_param(m, "stride_bytes");
	x->trials = (int)gp_meas_param(m, "trials");
	x->nsm = m->dev->sms;
	gp_meas_int(m, "sms", x->nsm);
	if (x->stride % L2MAP_LINE)
		return gp_meas_fail(m, "a %lld-byte stride is not a whole number of %d-byte lines", x->stride,
				    L2MAP_LINE), 0;
	if (gp_meas_buf_fit(m, &x->base, (size_t)x->lines * (size_t)x->stride, GP_NO_POISON))
		return 0;
	if ((rc = gp_meas_kernel(m, "l2map_lat")) || (rc = l2map_buffers(m, x)))
		return rc;
	gp_meas_launch(m, (unsigned)x->nsm, 32, (unsigned)m->dev->smem_per_block_optin);
	gp_meas_args(m, &x->addr, &x->lines, &x->stride, &x->trials, &x->smid, &x->cyc, &x->ovh, &x->bad,
		     gp_meas_clock(m));
	return 0;
}

static int cmp_unsigned(const void *a, const void *b)
{
	const unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

/* Every chase ended on its line and every SM ran one block: the %smid of the blocks, sorted, are
 * distinct and (after the first launch) the same set every launch. 0 when so. */
static int l2map_check(struct gp_meas *m, struct l2map *x)
{
	unsigned *s = (unsigned *)x->tmp; /* tmp holds at least nsm doubles */

	for (int b = 0; b < x->nsm; b++)
		if (x->h_bad[b])
			return gp_meas_fail(m, "%u chase(s) of block %d did not end on their line: loads skipped or stale",
					    x->h_bad[b], b), 1;
	memcpy(s, x->h_smid, (size_t)x->nsm * sizeof *s);
	qsort(s, (size_t)x->nsm, sizeof *s, cmp_unsigned);
	for (int b = 1; b < x->nsm; b++)
		if (s[b] == s[b - 1])
			return gp_meas_fail(m, "SM %u ran two blocks: not every SM was measured", s[b]), 1;
	if (m->rep == -m->run->warmup)
		memcpy(x->ids, s, (size_t)x->nsm * sizeof *s);
	else if (memcmp(x->ids, s, (size_t)x->nsm * sizeof *s))
		return gp_meas_fail(m, "the blocks ran on another set of SMs than the first launch's"), 1;
	return 0;
}

/* One launch's cells, each block's under its SM; the metrics are the median cell and overhead. */
static void l2map_sample(struct gp_meas *m)
{
	struct l2map *x = m->ctx;
	const size_t cells = (size_t)x->nsm * (size_t)x->lines;
	double *v = x->vals + (size_t)(m->rep < 0 ? 0 : m->rep) * cells;

	if (l2map_check(m, x) || m->rep < 0 || m->rep >= m->cap)
		return;
	for (int b = 0; b < x->nsm; b++) {
		const unsigned *k = bsearch(&x->h_smid[b], x->ids, (size_t)x->nsm, sizeof *x->ids, cmp_unsigned);
		double *row = v + (size_t)(k - x->ids) * (size_t)x->lines;
		for (int i = 0; i < x->lines; i++)
			row[i] = ((double)x->h_cyc[(size_t)b * x->lines + i] - x->h_ovh[b]) / L2MAP_CHAIN;
		x->tmp[b] = x->h_ovh[b];
	}
	gp_sample(m, "timer_overhead_cycles", mem_median(x->tmp, (size_t)x->nsm));
	memcpy(x->tmp, v, cells * sizeof *v);
	gp_sample(m, "cycles", mem_median(x->tmp, cells));
	x->nvals = m->rep + 1;
}

/* Each cell's median, min and max over the repetitions, into the sink; the floor on the fastest. */
static void l2map_finish(struct gp_meas *m)
{
	struct l2map *x = m->ctx;
	struct l2map_cells *c = l2map_sink;
	const size_t cells = (size_t)x->nsm * (size_t)x->lines;
	double lo = INFINITY;

	gp_meas_latency_ns(m, "cycles");
	for (size_t k = 0; k < cells && x->nvals > 0; k++) {
		for (int r = 0; r < x->nvals; r++)
			x->tmp[r] = x->vals[(size_t)r * cells + k];
		if (c && c->med) {
			c->med[k] = mem_median(x->tmp, (size_t)x->nvals);
			c->min[k] = x->tmp[0];
			c->max[k] = x->tmp[x->nvals - 1];
		}
		lo = fmin(lo, x->tmp[0]);
	}
	if (c && c->med && x->nvals > 0) {
		c->nsm = x->nsm;
		memcpy(c->smid, x->ids, (size_t)x->nsm * sizeof *x->ids);
	}
	if (isfinite(lo))
		gp_meas_floor(m, "the fastest L2 hit", lo, L2MAP_FLOOR_CYCLES, 0, "cycles");
}

static const struct gp_probe l2map_probe = {
	.runner = GP_RUN_SYNC, .image = gp_image_probes_l2map, .setup = l2map_setup, .sample = l2map_sample,
	.finish = l2map_finish, .primary = "cycles", .ctx_size = sizeof(struct l2map),
};

static const struct gp_exp_impl l2map_point = {
	.params = l2map_params, .nparams = GP_ARRAY_SIZE(l2map_params), .columns = l2map_probe_cols,
	.ncolumns = GP_ARRAY_SIZE(l2map_probe_cols), .probe = &l2map_probe,
};

/* ------------------------------------------------------------------ the rows */

static void put_num(struct gp_table *t, const char *col, double v, int have)
{
	if (have)
		gp_row_num(t, col, v);
	else
		gp_row_str(t, col, "");
}

/* Row (s, i) of the cells (none: the one row of a point without cells), with the probe row's
 * status, clock and repetitions. */
static int l2map_row(struct gp_table *out, const struct gp_table *in, const struct l2map_cells *c,
		     const struct gp_point *pt, int s, int i)
{
	static const char *const from_probe[] = { "timer_overhead_cycles", "clock_MHz", "reps", "status" };
	const int have = c->nsm > 0;
	const size_t k = (size_t)s * (size_t)c->lines + (size_t)i;
	const double mhz = gp_table_num(in, 0, "clock_MHz");
	char err[128];

	gp_row_begin(out);
	put_num(out, "sm", have ? c->smid[s] : 0, have);
	put_num(out, "line", i, have);
	put_num(out, "offset_bytes", (double)i * (double)gp_point_int(pt, "stride_bytes"), have);
	gp_row_int(out, "lines", gp_point_int(pt, "lines"));
	gp_row_int(out, "stride_bytes", gp_point_int(pt, "stride_bytes"));
	gp_row_int(out, "trials", gp_point_int(pt, "trials"));
	put_num(out, "cycles", have ? c->med[k] : 0, have);
	put_num(out, "cycles_min", have ? c->min[k] : 0, have);
	put_num(out, "cycles_max", have ? c->max[k] : 0, have);
	put_num(out, "latency_ns", have ? c->med[k] / mhz * 1e3 : 0, have && mhz > 0);
	for (size_t f = 0; f < GP_ARRAY_SIZE(from_probe); f++)
		gp_row_str(out, from_probe[f], gp_table_get(in, 0, from_probe[f]));
	return gp_row_end(out, err, sizeof err) ? GP_EFAIL : 0;
}

/* The probe measures the point once; its cells become the rows, SM by SM. */
static int l2map_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *out)
{
	const int lines = (int)gp_point_int(pt, "lines");
	const size_t cells = (size_t)run->dev->sms * (size_t)lines;
	struct l2map_cells c = { .lines = lines, .smid = calloc((size_t)run->dev->sms, sizeof *c.smid),
				 .med = calloc(cells, sizeof(double)), .min = calloc(cells, sizeof(double)),
				 .max = calloc(cells, sizeof(double)) };
	struct gp_table *in = gp_exp_table(&l2map_point);
	int rc = GP_EFAIL;

	if (in && c.smid && c.med && c.min && c.max) {
		l2map_sink = &c;
		rc = gp_measure(run, &l2map_point, pt, in);
		l2map_sink = NULL;
	}
	if ((!rc || rc == GP_EVALID) && in->nrows)
		for (int s = 0; s < (c.nsm ? c.nsm : 1); s++)
			for (int i = 0; i < (c.nsm ? lines : 1); i++)
				if (l2map_row(out, in, &c, pt, s, i))
					rc = GP_EFAIL;
	free(c.smid);
	free(c.med);
	free(c.min);
	free(c.max);
	gp_table_free(in);
	return rc;
}

GP_EXP_IMPL(lat_l2_map, l2map_params, l2map_cols, l2map_measure);
