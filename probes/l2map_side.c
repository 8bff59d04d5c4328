/* l2map_side.c — bw_l2_side (H051): the L2 read bandwidth from each side of the L2 as the SMs see
 * it (kernels in l2map.cu, derive/report in l2map_side_report.c). Each point first maps its own
 * pool, a buffer of L2 size / l2_div: every SM times every pool line with lat_l2_map's chase
 * (l2map_lat, twice: the faster of the two per cell, their difference the noise), and lat_l2_map's
 * analysis (l2map_analysis.c) groups the SMs and splits the lines into each group's near and far
 * ones. The map is of the buffer the point then streams, since where a line lives follows its
 * physical address, and no address hash is assumed. Then every SM of a side (or the lowest such
 * %smid alone) streams only its group's near lines, only its far ones, or every pool line
 * (ld.global.cg.v2, one block per SM). Checked: every chase stayed on its line, every SM ran one
 * block, each warp's sum of the words it read, no rate above 128 B/clk/SM (what an SM's L1 takes
 * in). Pitfall: blocks land on SMs in another order every launch, so a block finds its list by
 * %smid, and the host checks each warp's sum against the list of the SM its block reported. */
#include "gp.h"
#include "experiment.h"
#include "measure.h"
#include "l2map_analysis.h"
#include "l2map_shape.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

extern const unsigned char gp_image_probes_l2map[];

#define SIDE_CEILING_BPC 128.0 /* B/clk an SM's L1 takes in */
#define SIDE_L1_MARGIN 4       /* a read set at least this many times an SM's shared memory */
#define SIDE_NOISE_EVERY 16    /* the map's noise: the median over every 16th cell */

static const struct gp_param side_params[] = {
	{ "side", GP_PARAM_NAME, 0, 0, "near far all", "near far all",
	  "lines each reading SM streams: its group's near ones, its far ones, or every pool line" },
	{ "sms", GP_PARAM_NAME, 0, 0, "all one", "all one", "every SM of a side reads at once, or the lowest such %smid alone" },
	{ "l2_div", GP_PARAM_INT, 2, 1024, NULL, "8", "the pool is the L2 size / l2_div (a side reads about half of it)" },
	{ "threads", GP_PARAM_INT, 128, 1024, NULL, "1024", "threads of each SM's one block (a multiple of 32)" },
	{ "mib_per_sm", GP_PARAM_INT, 1, 4096, NULL, "128", "MiB each reading SM streams per launch" },
};

static const char *const side_cols[] = {
	"side", "sms", "l2_div", "threads", "mib_per_sm", "footprint_bytes", "lines", "map_noise_cycles", "sides",
	"sms_in_sides", "sms_reading", "reader_sm", "near_lines", "far_lines", "read_set_bytes", "near_cycles",
	"far_cycles", "bytes_moved", "time_ms_min", "time_ms", "time_ms_max", "spread", "bandwidth_GBps",
	"bytes_per_clk_per_sm", "ceiling_bytes_per_clk_per_sm", "pct_of_ceiling", "clock_MHz", "reps", "status",
};

enum side_kind { SIDE_NEAR, SIDE_FAR, SIDE_ALL };

struct side {
	CUdeviceptr pool, lists, off, len, sums, smid;
	const uint64_t *h_sums;
	const unsigned *h_smid;
	unsigned *lst, *h_off, *h_len; /* the lists and the per-%smid tables, host copies */
	size_t nlst;
	unsigned long long base;
	long long per_warp;
	unsigned slots;
	int nids, reader, nw, lines, readers;
	enum side_kind kind;
};

/* The pool's lines, each holding its own address in every word. */
static int side_pool(struct gp_meas *m, struct side *x)
{
	long long words = (long long)x->lines * (L2MAP_LINE / 8);
	void *args[] = { &x->base, &words };
	CUfunction fn;
	int rc;

	if (gp_meas_buf_fit(m, &x->pool, (size_t)x->lines * L2MAP_LINE, GP_NO_POISON))
		return 0;
	x->base = (unsigned long long)x->pool;
	if ((rc = gp_kernel(m->dev, gp_image_probes_l2map, "l2side_fill", &fn)))
		return rc;
	return gp_launch(fn, (unsigned)m->dev->sms * 4, 256, 0, args, NULL);
}

static int cmp_unsigned(const void *a, const void *b)
{
	const unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

static int cmp_double(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The map's device buffers (one set for both launches) and one launch's host copies. */
struct map_dev {
	CUdeviceptr smid, cyc, ovh, bad, cs;
};

struct map_run {
	unsigned *h_smid, *h_cyc, *h_ovh, *h_bad;
};

static int map_dev_bufs(struct gp_meas *m, const struct side *x, struct map_dev *dv)
{
	const size_t nb = (size_t)m->dev->sms, cells = nb * (size_t)x->lines;
	int rc;

	if ((rc = gp_meas_buf(m, &dv->smid, nb * 4, GP_NO_POISON)) || (rc = gp_meas_buf(m, &dv->cyc, cells * 4, GP_NO_POISON)) ||
	    (rc = gp_meas_buf(m, &dv->ovh, nb * 4, GP_NO_POISON)) || (rc = gp_meas_buf(m, &dv->bad, nb * 4, GP_NO_POISON)))
		return rc;
	return gp_meas_buf(m, &dv->cs, sizeof(struct gp_clock_sample), GP_NO_POISON);
}

/* One launch of the chase per SM over every pool line, its results downloaded into r. */
static int map_launch(struct gp_meas *m, const struct side *x, struct map_dev *dv, struct map_run *r)
{
	const size_t nb = (size_t)m->dev->sms, cells = nb * (size_t)x->lines;
	unsigned long long base = x->base;
	long long stride = L2MAP_LINE;
	int lines = x->lines, trials = 1;
	void *args[] = { &base, &lines, &stride, &trials, &dv->smid, &dv->cyc, &dv->ovh, &dv->bad, &dv->cs };
	CUfunction fn;
	int rc;

	if ((rc = gp_kernel(m->dev, gp_image_probes_l2map, "l2map_lat", &fn)) ||
	    (rc = gp_launch(fn, (unsigned)nb, 32, (unsigned)m->dev->smem_per_block_optin, args, NULL)))
		return rc;
	if (gp_download(r->h_smid, dv->smid, nb * 4) || gp_download(r->h_cyc, dv->cyc, cells * 4) ||
	    gp_download(r->h_ovh, dv->ovh, nb * 4) || gp_download(r->h_bad, dv->bad, nb * 4))
		return GP_ECUDA;
	return 0;
}

/* Host memory for two launches' copies, the sorted %smid (2 nb) and the noise samples (nd), in
 * one block the caller frees (the harness keeps only a few host blocks a point). */
static void *map_host(size_t nb, size_t cells, size_t nd, struct map_run *r, unsigned **ids, double **d)
{
	double *mem = malloc(nd * sizeof *mem + (2 * (3 * nb + cells) + 2 * nb) * sizeof(unsigned));
	unsigned *u = (unsigned *)(mem + nd);

	if (!mem)
		return NULL;
	*d = mem;
	for (int k = 0; k < 2; k++) {
		r[k].h_smid = u;
		r[k].h_ovh = u + nb;
		r[k].h_bad = u + 2 * nb;
		r[k].h_cyc = u + 3 * nb;
		u += 3 * nb + cells;
	}
	*ids = u;
	return mem;
}

/* Every chase stayed on its line and every SM ran one block, the same SMs in both launches: the
 * sorted %smid into ids. 0 when so (else the row has failed). */
static int map_check(struct gp_meas *m, const struct map_run *r, unsigned *ids, size_t nb)
{
	unsigned *two = ids + nb;

	for (int k = 0; k < 2; k++)
		for (size_t b = 0; b < nb; b++)
			if (r[k].h_bad[b])
				return gp_meas_fail(m, "%u map chase(s) of block %zu did not end on their line", r[k].h_bad[b], b), 1;
	memcpy(ids, r[0].h_smid, nb * sizeof *ids);
	memcpy(two, r[1].h_smid, nb * sizeof *ids);
	qsort(ids, nb, sizeof *ids, cmp_unsigned);
	qsort(two, nb, sizeof *ids, cmp_unsigned);
	for (size_t b = 1; b < nb; b++)
		if (ids[b] == ids[b - 1])
			return gp_meas_fail(m, "SM %u ran two map blocks: not every SM was mapped", ids[b]), 1;
	if (memcmp(ids, two, nb * sizeof *ids))
		return gp_meas_fail(m, "the two map launches ran on different sets of SMs"), 1;
	if (nb > L2MAP_SMS || ids[nb - 1] >= L2MAP_SMS)
		return gp_meas_fail(m, "%%smid up to %u: the analysis holds %d SMs", ids[nb - 1], L2MAP_SMS), 1;
	return 0;
}

/* Launch k's cells into row order (ascending %smid), cycles per load; launch 1 keeps the faster of
 * the two and writes |a - b| of every SIDE_NOISE_EVERY-th cell into d. */
static void map_cells(struct l2m *c, const struct map_run *r, const unsigned *ids, int k, double *d)
{
	for (size_t b = 0; b < c->nsm; b++) {
		const unsigned *p = bsearch(&r->h_smid[b], ids, c->nsm, sizeof *ids, cmp_unsigned);
		const size_t at = (size_t)(p - ids) * c->nl;
		for (size_t i = 0; i < c->nl; i++) {
			const double v = ((double)r->h_cyc[b * c->nl + i] - r->h_ovh[b]) / L2MAP_CHAIN;
			if (k && (at + i) % SIDE_NOISE_EVERY == 0)
				d[(at + i) / SIDE_NOISE_EVERY] = fabs(c->v[at + i] - v);
			c->v[at + i] = k ? fmin(c->v[at + i], v) : v;
		}
	}
}

/* The map of the pool into u (zeroed first; 1: u holds cells; 0: not, with *rc an error code or 0
 * for a failed row). The noise is half the median |difference| of the two launches over every
 * SIDE_NOISE_EVERY-th cell, as lat_l2_map's is half the median range of its repetitions. */
static int side_map(struct gp_meas *m, const struct side *x, struct l2m_sum *u, int *rc)
{
	const size_t nb = (size_t)m->dev->sms, cells = nb * (size_t)x->lines;
	const size_t nd = (cells + SIDE_NOISE_EVERY - 1) / SIDE_NOISE_EVERY;
	struct map_dev dv;
	struct map_run r[2];
	unsigned *ids = NULL;
	double *d = NULL;
	void *mem;
	int ok;

	memset(u, 0, sizeof *u);
	if ((*rc = map_dev_bufs(m, x, &dv)))
		return 0;
	if (!(mem = map_host(nb, cells, nd, r, &ids, &d)))
		return *rc = GP_EFAIL, 0;
	ok = !(*rc = map_launch(m, x, &dv, &r[0])) && !(*rc = map_launch(m, x, &dv, &r[1])) && !map_check(m, r, ids, nb) &&
	     (u->m.v = malloc(cells * sizeof *u->m.v));
	if (ok) {
		u->m.nsm = nb;
		u->m.nl = (size_t)x->lines;
		for (size_t s = 0; s < nb; s++)
			u->m.sm[s] = ids[s];
		map_cells(&u->m, &r[0], ids, 0, NULL);
		map_cells(&u->m, &r[1], ids, 1, d);
		qsort(d, nd, sizeof *d, cmp_double);
		u->m.noise = d[nd / 2] / 2;
	} else if (!*rc && gp_meas_ok(m)) {
		*rc = GP_EFAIL; /* out of memory */
	}
	free(mem);
	return ok;
}

static double median_of(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Lines group g sees as near (near = 1) or far. */
static unsigned group_count(const struct l2m_sum *u, size_t g, int near)
{
	unsigned n = 0;

	for (size_t i = 0; i < u->m.nl; i++)
		n += l2m_near(u, g, i) == near;
	return n;
}

/* The readers' medians: their group's near and far line counts, their mean map latency on them. */
static void side_cells(struct gp_meas *m, const struct side *x, const struct l2m_sum *u, const unsigned char *sel,
		       int real)
{
	double *v = gp_meas_host(m, 4 * u->m.nsm * sizeof *v);
	size_t n = 0;

	if (!v)
		return;
	for (size_t s = 0; s < u->m.nsm && real; s++)
		if (sel[s]) {
			v[n] = group_count(u, (size_t)u->grp[s], 1);
			v[u->m.nsm + n] = group_count(u, (size_t)u->grp[s], 0);
			v[2 * u->m.nsm + n] = u->side[s].near;
			v[3 * u->m.nsm + n++] = u->side[s].far;
		}
	gp_meas_num(m, "near_lines", median_of(v, n));
	gp_meas_num(m, "far_lines", median_of(v + u->m.nsm, n));
	gp_meas_num(m, "near_cycles", median_of(v + 2 * u->m.nsm, n));
	gp_meas_num(m, "far_cycles", median_of(v + 3 * u->m.nsm, n));
	gp_meas_int(m, "sms_reading", x->readers);
	gp_meas_num(m, "reader_sm", x->reader >= 0 ? x->reader : NAN); /* numeric column: none for all SMs */
}

/* Which SMs read (sel, row order): those of the groups that count as sides, every SM where there
 * are none; the lowest of them alone for sms = one (x->reader). */
static void side_readers(struct side *x, const struct l2m_sum *u, int real, int one, unsigned char *sel)
{
	x->readers = 0;
	x->reader = -1;
	for (size_t s = 0; s < u->m.nsm; s++) {
		sel[s] = (!real || l2m_in_sel(u, s, L2M_GROUPED)) && !(one && x->readers);
		if (sel[s] && one)
			x->reader = (int)u->m.sm[s];
		x->readers += sel[s];
	}
}

/* List `g` of the point's kind appended at x->nlst: group g's near or far lines, or every line. */
static unsigned side_list(struct side *x, const struct l2m_sum *u, size_t g)
{
	const unsigned at = (unsigned)x->nlst;

	for (size_t i = 0; i < u->m.nl; i++)
		if (x->kind == SIDE_ALL || l2m_near(u, g, i) == (x->kind == SIDE_NEAR))
			x->lst[x->nlst++] = (unsigned)i;
	return at;
}

/* The lists and each %smid's offset and length in them (0 for an SM that does not read), and the
 * readers' median read set; n/a where a reader's list is too short for the kernel. */
static int side_lists(struct gp_meas *m, struct side *x, const struct l2m_sum *u, const unsigned char *sel)
{
	const size_t nlists = x->kind == SIDE_ALL ? 1 : u->ng;
	unsigned *at = gp_meas_host(m, nlists * sizeof *at), *len = gp_meas_host(m, nlists * sizeof *len);
	double *set = gp_meas_host(m, u->m.nsm * sizeof *set);
	size_t n = 0;

	x->nids = (int)u->m.sm[u->m.nsm - 1] + 1;
	x->h_off = gp_meas_host(m, (size_t)x->nids * sizeof *x->h_off);
	x->h_len = gp_meas_host(m, (size_t)x->nids * sizeof *x->h_len);
	x->lst = gp_meas_host(m, (nlists * u->m.nl + 1) * sizeof *x->lst);
	if (!at || !len || !set || !x->h_off || !x->h_len || !x->lst)
		return GP_EFAIL;
	for (size_t g = 0; g < nlists; g++) {
		at[g] = side_list(x, u, g);
		len[g] = (unsigned)x->nlst - at[g];
	}
	for (size_t s = 0; s < u->m.nsm; s++) {
		const size_t g = x->kind == SIDE_ALL ? 0 : (size_t)u->grp[s], id = (size_t)u->m.sm[s];
		if (!sel[s])
			continue;
		x->h_off[id] = at[g];
		x->h_len[id] = len[g];
		set[n++] = (double)len[g] * L2MAP_LINE;
		if (len[g] < L2SIDE_MIN_LINES)
			return gp_meas_na(m, "SM %zu's group has %u such lines: under the %d the stream needs", id, len[g],
					  L2SIDE_MIN_LINES);
	}
	gp_meas_num(m, "read_set_bytes", median_of(set, n));
	return 0;
}

/* The pool's size from the device: l2_div of the L2, each side's half well above an SM's shared
 * memory (at least the size of its L1's data part). 0, or the point is n/a. */
static int side_size(struct gp_meas *m, struct side *x)
{
	const long long bytes = (long long)m->dev->l2_bytes / gp_meas_param(m, "l2_div") / L2MAP_LINE * L2MAP_LINE;

	x->lines = (int)(bytes / L2MAP_LINE);
	gp_meas_int(m, "footprint_bytes", bytes);
	gp_meas_int(m, "lines", x->lines);
	if (bytes / 2 < (long long)SIDE_L1_MARGIN * m->dev->smem_per_sm)
		return gp_meas_na(m, "a %lld-byte pool's half is under %d x an SM's %d bytes of shared memory: not clearly past L1",
				  bytes, SIDE_L1_MARGIN, m->dev->smem_per_sm);
	if ((size_t)m->dev->sms > L2MAP_SMS)
		return gp_meas_na(m, "%d SMs: the analysis holds %d", m->dev->sms, L2MAP_SMS);
	return 0;
}

/* Map the pool, group the SMs, pick the readers and build their lists. */
static int side_classify(struct gp_meas *m, struct side *x)
{
	struct l2m_sum u;
	unsigned char *sel = gp_meas_host(m, (size_t)m->dev->sms);
	size_t grouped = 0;
	int rc = 0, real;

	if (!sel)
		return GP_EFAIL;
	if (!side_map(m, x, &u, &rc) || (rc = !l2m_classify(&u) ? GP_EFAIL : 0))
		return rc;
	real = l2m_real_groups(&u) > 0;
	l2m_side_median(&u, L2M_GROUPED, 0, &grouped);
	gp_meas_num(m, "map_noise_cycles", u.m.noise);
	gp_meas_int(m, "sides", (long long)l2m_real_groups(&u));
	gp_meas_int(m, "sms_in_sides", real ? (long long)grouped : 0);
	if (!real && x->kind != SIDE_ALL)
		rc = gp_meas_na(m, "no L2 sides detected on this pool (lat_l2_map's evidence rules): near and far undefined");
	else {
		side_readers(x, &u, real, !strcmp(gp_meas_param_str(m, "sms"), "one"), sel);
		side_cells(m, x, &u, sel, real);
		rc = side_lists(m, x, &u, sel);
	}
	l2m_free(&u);
	return rc;
}

/* Dynamic shared memory for one stream block per SM: just over half an SM's, so no second block
 * fits, leaving the rest of the L1 for the lists (their loads are ordinary, L1-cached ones). */
static unsigned side_smem(const struct gp_device *d)
{
	const unsigned half = (unsigned)d->smem_per_sm / 2 + 1024;

	return half < (unsigned)d->smem_per_block_optin ? half : (unsigned)d->smem_per_block_optin;
}

/* The stream: the lists, the tables, the per-warp sums and block %smid (read back after the last
 * repetition), one block of `threads` per SM, each warp per_warp lines. */
static int side_stream(struct gp_meas *m, struct side *x, int threads)
{
	const size_t nb = (size_t)m->dev->sms;
	int rc;

	x->nw = threads / 32;
	x->per_warp = (gp_meas_param(m, "mib_per_sm") << 20) / L2MAP_LINE / x->nw / (4 * L2SIDE_UNROLL) * (4 * L2SIDE_UNROLL);
	x->slots = (unsigned)x->nids * (unsigned)x->nw;
	gp_meas_num(m, "bytes_moved", (double)x->readers * x->nw * (double)x->per_warp * L2MAP_LINE);
	if (x->per_warp < 4 * L2SIDE_UNROLL)
		return gp_meas_na(m, "%ld MiB per SM is under one step of every warp", gp_meas_param(m, "mib_per_sm"));
	if ((rc = gp_meas_input(m, &x->lists, x->lst, x->nlst * sizeof *x->lst)) ||
	    (rc = gp_meas_input(m, &x->off, x->h_off, (size_t)x->nids * sizeof *x->h_off)) ||
	    (rc = gp_meas_input(m, &x->len, x->h_len, (size_t)x->nids * sizeof *x->h_len)) ||
	    (rc = gp_meas_buf(m, &x->sums, nb * (size_t)x->nw * 8, GP_POISON_NAN)) ||
	    (rc = gp_meas_buf(m, &x->smid, nb * 4, GP_POISON_NAN)) || (rc = gp_meas_kernel(m, "l2side_stream")))
		return rc;
	x->h_sums = gp_meas_readback(m, x->sums, nb * (size_t)x->nw * 8, GP_LAST_REP);
	x->h_smid = gp_meas_readback(m, x->smid, nb * 4, GP_LAST_REP);
	gp_meas_launch(m, (unsigned)nb, (unsigned)threads, side_smem(m->dev));
	gp_meas_args(m, &x->base, &x->lists, &x->off, &x->len, &x->nids, &x->reader, &x->per_warp, &x->slots, &x->sums,
		     &x->smid, gp_meas_clock(m));
	return 0;
}

static int side_setup(struct gp_meas *m)
{
	struct side *x = m->ctx;
	const char *k = gp_meas_param_str(m, "side");
	const int threads = (int)gp_meas_param(m, "threads");
	int rc;

	x->kind = !strcmp(k, "near") ? SIDE_NEAR : !strcmp(k, "far") ? SIDE_FAR : SIDE_ALL;
	gp_meas_num(m, "ceiling_bytes_per_clk_per_sm", SIDE_CEILING_BPC);
	if (threads % 32)
		return gp_meas_na(m, "%d threads is not a whole number of warps", threads);
	if ((rc = side_size(m, x)) || !gp_meas_ok(m) || (rc = side_pool(m, x)) || !gp_meas_ok(m) ||
	    (rc = side_classify(m, x)) || !gp_meas_ok(m))
		return rc;
	return side_stream(m, x, threads);
}

/* What one warp's sum must be: 16 words a line, each the line's address, over per_warp entries
 * of its SM's list from the warp's start, cyclically (pre: prefix sums of the lists). */
static uint64_t warp_expect(const struct side *x, const uint64_t *pre, unsigned id, unsigned w)
{
	const unsigned off = x->h_off[id], len = x->h_len[id];
	const uint64_t start = (uint64_t)(id * (unsigned)x->nw + w) * len / x->slots;
	const uint64_t full = (uint64_t)x->per_warp / len, rem = (uint64_t)x->per_warp % len;
	uint64_t idx = full * (pre[off + len] - pre[off]);

	if (start + rem <= len)
		idx += pre[off + start + rem] - pre[off + start];
	else
		idx += (pre[off + len] - pre[off + start]) + (pre[off + start + rem - len] - pre[off]);
	return 16 * ((uint64_t)x->per_warp * x->base + (uint64_t)L2MAP_LINE * idx);
}

/* Every SM ran one block, the readers are the SMs the lists name, and every warp read exactly
 * its lines (a warp that does not read sums 0). 0 when so. */
static int side_check(struct gp_meas *m, const struct side *x)
{
	uint64_t *pre = gp_meas_host(m, (x->nlst + 1) * sizeof *pre);
	unsigned *seen = gp_meas_host(m, (size_t)x->nids * sizeof *seen);
	int readers = 0;

	if (!pre || !seen)
		return 1;
	for (size_t k = 0; k < x->nlst; k++)
		pre[k + 1] = pre[k] + x->lst[k];
	for (int b = 0; b < m->dev->sms; b++) {
		const unsigned id = x->h_smid[b];
		const int reads = (int)id < x->nids && x->h_len[id] && (x->reader < 0 || (int)id == x->reader);
		if ((int)id < x->nids && seen[id]++)
			return gp_meas_fail(m, "SM %u ran two stream blocks: not one block per SM", id), 1;
		for (int w = 0; w < x->nw; w++) {
			const uint64_t got = x->h_sums[(size_t)b * x->nw + w], want = reads ? warp_expect(x, pre, id, (unsigned)w) : 0;
			if (got != want)
				return gp_meas_fail(m, "warp %d on SM %u summed 0x%016llx, expected 0x%016llx: lines skipped or wrong",
						    w, id, (unsigned long long)got, (unsigned long long)want), 1;
		}
		readers += reads;
	}
	if (readers != x->readers)
		return gp_meas_fail(m, "%d SMs streamed, the lists name %d", readers, x->readers), 1;
	return 0;
}

/* The rate of the bytes the readers streamed, per reading SM and clock, under 128 B/clk/SM. */
static void side_finish(struct gp_meas *m)
{
	struct side *x = m->ctx;
	const double t = gp_meas_stat(m, "time_ms", GP_MEDIAN) * 1e-3, mhz = gp_meas_mhz(m);
	const double bytes = (double)x->readers * x->nw * (double)x->per_warp * L2MAP_LINE;
	const double bpc = bytes / (t * mhz * 1e6 * x->readers);

	if (!x->h_sums || !x->h_smid || side_check(m, x))
		return;
	gp_meas_num(m, "bandwidth_GBps", bytes / t / 1e9);
	gp_meas_num(m, "bytes_per_clk_per_sm", bpc);
	gp_meas_num(m, "pct_of_ceiling", 100 * bpc / SIDE_CEILING_BPC);
	gp_meas_ceiling(m, "L2 reads into each reading SM", bpc, SIDE_CEILING_BPC, 0.02, "B/clk/SM");
}

static const struct gp_probe side_probe = {
	.runner = GP_RUN_EVENT, .image = gp_image_probes_l2map, .setup = side_setup, .finish = side_finish,
	.primary = "time_ms", .ctx_size = sizeof(struct side),
};

/* A fresh measuring process: which lines are near and far follows the pool's physical pages,
 * and those follow what the process allocated before (isolate.h). */
GP_EXP_PROBE_FRESH(bw_l2_side, side_params, side_cols, &side_probe);
