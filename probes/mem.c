/* mem.c — host side of the global-memory probes: latency ladder by pointer chase (E003:
 * lat_mem, lat_mem_tlb, lat_mem_dist), load widths and paths (E108/E004: bw_global),
 * coalescing and padding (E016: bw_coalesce, bw_padding) and L2/HBM bandwidth (bw_hbm).
 *
 * Chases: the host builds a single cycle through line-spaced slots (Sattolo, fixed seed) and a
 * kernel writes it; one thread follows it with clock64 around the timed part. Every launch's
 * final pointer is checked against the host's walk of the same cycle, so a skipped or merged
 * load is a failed row, never a published latency. Large footprints are chased for a fixed
 * number of loads (the slots are spread wider, at most 2^21 of them) so the default sweep stays
 * cheap; footprints that could be cached are warmed with one full trip first. */
#include "gp.h"
#include "changepoint.h"
#include "experiment.h"
#include "analysis.h"
#include "measure.h"
#include "mem_common.h"
#include "mem_model.h"
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CHAIN_MAX_SLOTS (1u << 21)
#define CHAIN_SEED 0x6770726f6265ull
#define LINE 128

/* ------------------------------------------------------------------ the chain */

struct chain {
	CUdeviceptr base;
	size_t footprint, spacing, slots;
	int skew;
	uint32_t *next;
};

static uint64_t slot_addr(const struct chain *c, uint64_t i)
{
	uint64_t off = i * c->spacing;

	if (c->skew)
		off += ((i * 4224ull) % c->spacing) & ~127ull;
	return (uint64_t)c->base + off;
}

/* Distinct 128-byte lines the cycle touches: what a cache must hold for every load to hit. */
static size_t chain_lines_bytes(const struct chain *c)
{
	return c->spacing >= LINE ? c->slots * LINE : (c->footprint + LINE - 1) / LINE * LINE;
}

static void chain_free(struct chain *c)
{
	gp_free(c->base);
	free(c->next);
	memset(c, 0, sizeof *c);
}

/* Lay out a cycle over `footprint` bytes with slots at least `stride` apart. */
static int chain_build(struct gp_run *run, struct chain *c, size_t footprint, size_t stride, int random,
		       int skew, char *status, size_t len)
{
	CUdeviceptr d_next = 0;
	CUfunction fn;
	long long n, sp;
	int rc;
	void *args[] = { &c->base, &d_next, &n, &sp, &c->skew };

	memset(c, 0, sizeof *c);
	c->footprint = footprint;
	c->skew = skew;
	c->spacing = stride;
	while (footprint / c->spacing > CHAIN_MAX_SLOTS)
		c->spacing *= 2;
	c->slots = footprint / c->spacing;
	if (stride % 8) {
		mem_fail(status, len, "refused: a %zu-byte stride does not hold 8-byte pointers aligned", stride);
		return GP_EVALID;
	}
	/* A sweep crosses every stride with every footprint: a footprint under two strides is not a
	 * chain, a point the sweep cannot form rather than a failure. */
	if (c->slots < 2) {
		mem_fail(status, len, "n/a: a %zu-byte footprint at a %zu-byte stride holds %zu slot(s); a chain needs 2",
			 footprint, stride, c->slots);
		return GP_EVALID;
	}
	c->next = malloc(c->slots * sizeof *c->next);
	if (!c->next)
		return GP_EFAIL;
	if (random)
		mem_chain_random(c->next, c->slots, CHAIN_SEED);
	else
		mem_chain_sequential(c->next, c->slots);
	if ((rc = mem_alloc(&c->base, footprint, status, len)) ||
	    (rc = mem_alloc(&d_next, c->slots * sizeof *c->next, status, len)))
		goto done;
	n = (long long)c->slots;
	sp = (long long)c->spacing;
	if ((rc = gp_upload(d_next, c->next, c->slots * sizeof *c->next)) ||
	    (rc = gp_kernel(run->dev, gp_image_probes_mem, "mem_chain_scatter", &fn)) ||
	    (rc = gp_launch(fn, (unsigned)(c->slots / 256 + 1 < 65535 ? c->slots / 256 + 1 : 65535), 256, 0,
			    args, NULL)))
		goto done;
done:
	gp_free(d_next);
	return rc;
}

/* ------------------------------------------------------------------ E003 lat_mem, lat_mem_tlb */

static const char *const lat_mem_cols[] = {
	"pattern", "path", "stride_bytes", "footprint_bytes", "slot_spacing_bytes", "slots",
	"lines_touched_bytes", "loads_per_launch", "warmed", "chain_check", "cycles_per_load",
	"cycles_per_load_min", "cycles_per_load_max", "spread", "latency_ns", "clock_MHz",
	"timer_overhead_cycles", "reps", "status",
};

static const struct gp_param lat_mem_params[] = {
	{ "pattern", GP_PARAM_NAME, 0, 0, "random stride", "random",
	  "random: one random cycle over the slots; stride: slot i -> i + 1" },
	{ "path", GP_PARAM_NAME, 0, 0, "default cg nc", "default cg",
	  "ld.global (L1+L2), ld.global.cg (L2 only), ld.global.nc (non-coherent path)" },
	{ "stride_bytes", GP_PARAM_INT, 8, 1L << 30, NULL, "128", "slot spacing (widened for huge footprints)" },
	{ "footprint_bytes", GP_PARAM_INT, 1024, 1L << 40, NULL,
	  "1024 4096 16384 65536 131072 163840 196608 229376 262144 327680 393216 524288 1048576 "
	  "4194304 8388608 12582912 16777216 20971520 25165824 29360128 33554432 37748736 41943040 "
	  "46137344 50331648 58720256 67108864 83886080 100663296 134217728 268435456 536870912 "
	  "1073741824 2147483648 4294967296",
	  "bytes the chain is spread over" },
	{ "loads", GP_PARAM_INT, 1024, 100000000, NULL, "65536", "timed loads per launch (at least)" },
};

static const struct gp_param lat_mem_tlb_params[] = {
	{ "path", GP_PARAM_NAME, 0, 0, "default cg nc", "cg", "load path (cg: L2 hits, TLB misses stand out)" },
	{ "stride_bytes", GP_PARAM_INT, 4096, 1L << 34, NULL, "2097152", "page-sized stride: one slot per page" },
	{ "footprint_bytes", GP_PARAM_INT, 4096, 1L << 40, NULL,
	  "4194304 6291456 8388608 12582912 16777216 25165824 33554432 50331648 67108864 100663296 134217728 "
	  "201326592 268435456 402653184 536870912 805306368 1073741824 1610612736 2147483648 "
	  "3221225472 4294967296 6442450944 8589934592",
	  "bytes the chain is spread over" },
	{ "loads", GP_PARAM_INT, 1024, 100000000, NULL, "65536", "timed loads per launch (at least)" },
};

static int lat_chase_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t, int tlb)
{
	const char *pattern = tlb ? "random" : gp_point_str(pt, "pattern");
	const char *path = gp_point_str(pt, "path");
	const size_t stride = (size_t)gp_point_int(pt, "stride_bytes");
	const size_t footprint = (size_t)gp_point_int(pt, "footprint_bytes");
	const long loads = gp_point_int(pt, "loads");
	const int nrep = run->reps;
	struct chain c = { 0 };
	struct gp_stats sc, sclk, sov;
	struct gp_clock_sample cs;
	CUdeviceptr d_out = 0, d_cs = 0;
	CUfunction fn;
	double *cyc = NULL, *clk = NULL, *ov = NULL;
	char kname[48], status[256] = "ok", err[128];
	unsigned long long out[3], start;
	long long warm = 0, steps = 0;
	uint32_t cur = 0;
	int rc, cacheable = 0, closed = 0;
	void *args[] = { &start, &warm, &steps, &d_out, &d_cs };

	memset(&sc, 0, sizeof sc);
	sclk = sov = sc;
	cyc = calloc((size_t)nrep, sizeof *cyc);
	clk = calloc((size_t)nrep, sizeof *clk);
	ov = calloc((size_t)nrep, sizeof *ov);
	rc = GP_EFAIL;
	if (!cyc || !clk || !ov)
		goto done;
	snprintf(kname, sizeof kname, "lat_chase_%s", path);
	rc = chain_build(run, &c, footprint, stride, !strcmp(pattern, "random"), tlb, status, sizeof status);
	if (rc == GP_EVALID)
		goto row;
	if (rc || (rc = gp_kernel(run->dev, gp_image_probes_mem, kname, &fn)) ||
	    (rc = gp_alloc(&d_out, sizeof out)) || (rc = gp_alloc(&d_cs, sizeof cs)))
		goto done;
	/* A footprint whose lines could sit in L2 is warmed by one full trip; the rest misses anyway. */
	cacheable = chain_lines_bytes(&c) <= 2 * (size_t)run->dev->l2_bytes;
	closed = c.slots <= (size_t)loads;
	steps = closed ? (long long)((loads + c.slots - 1) / c.slots * c.slots) : loads;
	for (int r = -run->warmup; r < nrep; r++) {
		uint32_t expect;
		warm = (r == -run->warmup && cacheable) ? (long long)c.slots : 0;
		start = slot_addr(&c, cur);
		if ((rc = gp_launch(fn, 1, 1, 0, args, NULL)) || (rc = gp_download(out, d_out, sizeof out)) ||
		    (rc = gp_download(&cs, d_cs, sizeof cs)))
			goto done;
		/* Closed chains come back to where they started; open ones are walked on the host. */
		expect = closed && !warm ? cur : mem_chain_walk(c.next, cur, (uint64_t)(warm + steps));
		if (out[0] != slot_addr(&c, expect))
			mem_fail(status, sizeof status,
				 "chain ended at 0x%llx, expected slot %u at 0x%llx: loads skipped or reordered", out[0],
				 expect, (unsigned long long)slot_addr(&c, expect));
		cur = expect;
		if (r < 0)
			continue;
		cyc[r] = ((double)out[1] - (double)out[2]) / (double)steps;
		ov[r] = (double)out[2];
		clk[r] = mem_clock(run, &cs);
	}
	gp_stats(cyc, (size_t)nrep, &sc);
	gp_stats(clk, (size_t)nrep, &sclk);
	gp_stats(ov, (size_t)nrep, &sov);
	if (sclk.median <= 0)
		mem_fail(status, sizeof status, "clock sample too short to measure the SM clock");
	/* Floor: nothing returns a dependent load in fewer than a handful of cycles. */
	if (sc.median < 4)
		mem_fail(status, sizeof status, "%.2f cycles per dependent load is below any cache's latency: broken probe",
			 sc.median);
row:
	gp_row_begin(t);
	gp_row_str(t, "pattern", pattern);
	gp_row_str(t, "path", path);
	gp_row_int(t, "stride_bytes", (long long)stride);
	gp_row_int(t, "footprint_bytes", (long long)footprint);
	gp_row_int(t, "slot_spacing_bytes", (long long)c.spacing);
	gp_row_int(t, "slots", (long long)c.slots);
	gp_row_int(t, "lines_touched_bytes", (long long)chain_lines_bytes(&c));
	gp_row_int(t, "loads_per_launch", steps);
	gp_row_int(t, "warmed", cacheable);
	gp_row_str(t, "chain_check", closed ? "returned_to_start" : "host_walk");
	gp_row_num(t, "cycles_per_load", sc.median);
	gp_row_num(t, "cycles_per_load_min", sc.min);
	gp_row_num(t, "cycles_per_load_max", sc.max);
	gp_row_num(t, "spread", sc.spread);
	gp_row_num(t, "latency_ns", sclk.median > 0 ? sc.median / sclk.median * 1e3 : NAN);
	gp_row_num(t, "clock_MHz", sclk.median);
	gp_row_num(t, "timer_overhead_cycles", sov.median);
	gp_row_int(t, "reps", nrep);
	gp_row_str(t, "status", status);
	if (gp_row_end(t, err, sizeof err)) {
		gp_err("internal: lat_mem row: %s", err);
		rc = GP_EFAIL;
		goto done;
	}
	rc = gp_status_rc(status);
done:
	chain_free(&c);
	gp_free(d_out);
	gp_free(d_cs);
	free(cyc);
	free(clk);
	free(ov);
	return rc;
}

static int lat_mem_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	return lat_chase_measure(run, pt, t, 0);
}

static int lat_mem_tlb_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	return lat_chase_measure(run, pt, t, 1);
}

/* The curve of one pattern/path/stride (stride < 0: the first one the table has), sorted by
 * footprint, from rows with status ok. */
static size_t curve(const struct gp_table *t, const char *pattern, const char *path, double stride, double *fp,
		    double *lat, size_t max)
{
	size_t n = 0;
	double stride0 = stride;

	for (size_t r = 0; r < t->nrows && n < max; r++) {
		double f, l, s;
		if (strcmp(gp_table_get(t, r, "status"), "ok") || strcmp(gp_table_get(t, r, "path"), path) ||
		    (pattern && strcmp(gp_table_get(t, r, "pattern"), pattern)) ||
		    gp_table_get_double(t, r, "footprint_bytes", &f) ||
		    gp_table_get_double(t, r, "cycles_per_load", &l) ||
		    gp_table_get_double(t, r, "stride_bytes", &s))
			continue;
		if (stride0 < 0)
			stride0 = s;
		if (s != stride0)
			continue;
		size_t k = n++;
		while (k > 0 && fp[k - 1] > f) {
			fp[k] = fp[k - 1];
			lat[k] = lat[k - 1];
			k--;
		}
		fp[k] = f;
		lat[k] = l;
	}
	/* Repeated footprints: keep the first. */
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (!m || fp[i] > fp[m - 1]) {
			fp[m] = fp[i];
			lat[m++] = lat[i];
		}
	return m;
}

static double clock_of(const struct gp_table *t)
{
	double v, best = 0;

	for (size_t r = 0; r < t->nrows; r++)
		if (!gp_table_get_double(t, r, "clock_MHz", &v) && v > best)
			best = v;
	return best;
}

#define MAXPTS 4096

/* Label the levels of a curve: the first level is the nearest cache of the path; the level
 * holding the smallest footprint whose touched lines exceed 4x the L2 size (device attribute)
 * is DRAM; levels between are L2 (two of them: near and far partition); levels after DRAM
 * are DRAM plus TLB misses. */
static void lat_mem_derive(struct gp_profile *prof, const struct gp_table *t)
{
	static const char *const paths[] = { "default", "cg", "nc" };
	double *fp = malloc(MAXPTS * sizeof *fp), *lat = malloc(MAXPTS * sizeof *lat);
	const double l2 = prof->l2_bytes;

	if (!fp || !lat)
		goto done;
	for (size_t p = 0; p < GP_ARRAY_SIZE(paths); p++) {
		struct gp_cp_result cp;
		const size_t n = curve(t, "random", paths[p], -1, fp, lat, MAXPTS);
		char key[64], method[160];
		size_t hbm = (size_t)-1, first_l2;
		if (n < 3 || gp_changepoint(fp, lat, n, &cp) || !cp.nlevels)
			continue;
		for (size_t k = 0; k < cp.nlevels && hbm == (size_t)-1; k++)
			if (cp.level[k].footprint_last > 4 * l2)
				hbm = k;
		snprintf(method, sizeof method, "random chase, %s path, change-point levels over %zu footprints", paths[p], n);
		first_l2 = strcmp(paths[p], "cg") ? 1 : 0;
		if (first_l2 == 1) {
			snprintf(key, sizeof key, "l1_latency_cycles%s", strcmp(paths[p], "nc") ? "" : "_nc");
			gp_profile_add(prof, key, cp.level[0].latency, "cycles", method, "lat_mem");
			if (cp.nlevels > 1) {
				snprintf(key, sizeof key, "l1_capacity_bytes%s", strcmp(paths[p], "nc") ? "" : "_nc");
				gp_profile_add(prof, key, cp.level[0].capacity, "bytes", method, "lat_mem");
			}
		}
		if (hbm != (size_t)-1 && hbm > first_l2) {
			const size_t nl2 = hbm - first_l2;
			const char *sfx = !strcmp(paths[p], "default") ? "" : !strcmp(paths[p], "cg") ? "_cg" : "_nc";
			snprintf(key, sizeof key, "l2_latency_cycles%s", sfx);
			gp_profile_add(prof, key, cp.level[first_l2].latency, "cycles", method, "lat_mem");
			snprintf(key, sizeof key, "l2_capacity_bytes%s", sfx);
			gp_profile_add(prof, key, cp.level[hbm - 1].capacity, "bytes", method, "lat_mem");
			if (nl2 >= 2) {
				snprintf(key, sizeof key, "l2_near_latency_cycles%s", sfx);
				gp_profile_add(prof, key, cp.level[first_l2].latency, "cycles", method, "lat_mem");
				snprintf(key, sizeof key, "l2_near_capacity_bytes%s", sfx);
				gp_profile_add(prof, key, cp.level[first_l2].capacity, "bytes", method, "lat_mem");
				snprintf(key, sizeof key, "l2_far_latency_cycles%s", sfx);
				gp_profile_add(prof, key, cp.level[hbm - 1].latency, "cycles", method, "lat_mem");
			}
			snprintf(key, sizeof key, "hbm_latency_cycles%s", sfx);
			gp_profile_add(prof, key, cp.level[hbm].latency, "cycles", method, "lat_mem");
			if (clock_of(t) > 0) {
				snprintf(key, sizeof key, "hbm_latency_ns%s", sfx);
				gp_profile_add(prof, key, cp.level[hbm].latency / clock_of(t) * 1e3, "ns",
					       "hbm_latency_cycles / measured SM clock", "lat_mem");
			}
		}
	}
done:
	free(fp);
	free(lat);
}

/* The TLB curve: the first level is the TLB-hit latency of the path; each boundary a reach,
 * each step up a miss cost. */
static void lat_mem_tlb_derive(struct gp_profile *prof, const struct gp_table *t)
{
	static const char *const paths[] = { "cg", "default", "nc" };
	double *fp = malloc(MAXPTS * sizeof *fp), *lat = malloc(MAXPTS * sizeof *lat);

	if (!fp || !lat)
		goto done;
	for (size_t p = 0; p < GP_ARRAY_SIZE(paths); p++) {
		struct gp_cp_result cp;
		const size_t n = curve(t, NULL, paths[p], -1, fp, lat, MAXPTS);
		char key[64], method[160];
		if (n < 3 || gp_changepoint_step(fp, lat, n, GP_CP_TLB_STEP, &cp) || !cp.nlevels)
			continue;
		snprintf(method, sizeof method, "page-stride random chase, %s path, change-point levels", paths[p]);
		gp_profile_add(prof, "tlb_hit_latency_cycles", cp.level[0].latency, "cycles", method, "lat_mem_tlb");
		for (size_t k = 0; k + 1 < cp.nlevels && k < 3; k++) {
			snprintf(key, sizeof key, "tlb%zu_reach_bytes", k + 1);
			gp_profile_add(prof, key, cp.level[k].capacity, "bytes", method, "lat_mem_tlb");
			snprintf(key, sizeof key, "tlb%zu_miss_cycles", k + 1);
			gp_profile_add(prof, key, cp.level[k + 1].latency - cp.level[k].latency, "cycles", method,
				       "lat_mem_tlb");
		}
		break; /* one path is enough for the profile */
	}
done:
	free(fp);
	free(lat);
}

static void lat_mem_report(FILE *md, const struct gp_table *t, const struct gp_table *ref);
static void lat_mem_tlb_report(FILE *md, const struct gp_table *t, const struct gp_table *ref);

GP_EXP_IMPL(lat_mem, lat_mem_params, lat_mem_cols, lat_mem_measure);
GP_ANALYSIS(lat_mem, lat_mem_derive, lat_mem_report);

GP_EXP_IMPL(lat_mem_tlb, lat_mem_tlb_params, lat_mem_cols, lat_mem_tlb_measure);
GP_ANALYSIS(lat_mem_tlb, lat_mem_tlb_derive, lat_mem_tlb_report);

/* ------------------------------------------------------------------ E003 lat_mem_dist */

#define EACH_MAX 4096

static const struct gp_param lat_mem_dist_params[] = {
	{ "path", GP_PARAM_NAME, 0, 0, "default cg nc", "default", "load path" },
	{ "stride_bytes", GP_PARAM_INT, 8, 1L << 30, NULL, "128", "slot spacing" },
	{ "footprint_bytes", GP_PARAM_INT, 1024, 1L << 40, NULL, "16384 4194304 37748736 1073741824",
	  "bytes the random chain is spread over" },
	{ "records", GP_PARAM_INT, 64, EACH_MAX, NULL, "4096", "loads timed one by one per launch" },
};

static const char *const lat_mem_dist_cols[] = {
	"pattern", "path", "stride_bytes", "footprint_bytes", "slots", "lines_touched_bytes", "samples",
	"p05_cycles", "p50_cycles", "p95_cycles", "p99_cycles", "max_cycles", "mean_cycles",
	"timer_overhead_cycles", "clock_MHz", "status",
};

static int lat_mem_dist_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	const char *path = gp_point_str(pt, "path");
	const size_t stride = (size_t)gp_point_int(pt, "stride_bytes");
	const size_t footprint = (size_t)gp_point_int(pt, "footprint_bytes");
	int nrec = (int)gp_point_int(pt, "records");
	const int nrep = run->reps;
	struct chain c = { 0 };
	struct gp_clock_sample cs;
	CUdeviceptr d_out = 0, d_lat = 0, d_ov = 0, d_cs = 0;
	CUfunction fn;
	unsigned *lat = NULL, *ov = NULL;
	double *samp = NULL, *ovs = NULL, *clk = NULL, ovm = NAN, sum = 0;
	char kname[48], status[256] = "ok", err[128];
	unsigned long long out, start;
	long long warm = 0;
	size_t ns = 0;
	uint32_t cur = 0;
	struct gp_stats sclk;
	int rc, cacheable;
	void *args[] = { &start, &warm, &nrec, &d_out, &d_lat, &d_ov, &d_cs };

	memset(&sclk, 0, sizeof sclk);
	lat = malloc(EACH_MAX * sizeof *lat);
	ov = malloc(EACH_MAX * sizeof *ov);
	samp = malloc((size_t)nrep * EACH_MAX * sizeof *samp);
	ovs = malloc((size_t)nrep * EACH_MAX * sizeof *ovs);
	clk = calloc((size_t)nrep, sizeof *clk);
	rc = GP_EFAIL;
	if (!lat || !ov || !samp || !ovs || !clk)
		goto done;
	snprintf(kname, sizeof kname, "lat_each_%s", path);
	rc = chain_build(run, &c, footprint, stride, 1, 0, status, sizeof status);
	if (rc == GP_EVALID)
		goto row;
	if (rc || (rc = gp_kernel(run->dev, gp_image_probes_mem, kname, &fn)) ||
	    (rc = gp_alloc(&d_out, sizeof out)) || (rc = gp_alloc(&d_lat, EACH_MAX * sizeof *lat)) ||
	    (rc = gp_alloc(&d_ov, EACH_MAX * sizeof *ov)) || (rc = gp_alloc(&d_cs, sizeof cs)))
		goto done;
	cacheable = chain_lines_bytes(&c) <= 2 * (size_t)run->dev->l2_bytes;
	for (int r = -run->warmup; r < nrep; r++) {
		uint32_t expect;
		warm = (r == -run->warmup && cacheable) ? (long long)c.slots : 0;
		start = slot_addr(&c, cur);
		if ((rc = gp_launch(fn, 1, 1, 0, args, NULL)) || (rc = gp_download(&out, d_out, sizeof out)) ||
		    (rc = gp_download(lat, d_lat, (size_t)nrec * sizeof *lat)) ||
		    (rc = gp_download(ov, d_ov, (size_t)nrec * sizeof *ov)) || (rc = gp_download(&cs, d_cs, sizeof cs)))
			goto done;
		expect = mem_chain_walk(c.next, cur, (uint64_t)(warm + nrec));
		if (out != slot_addr(&c, expect))
			mem_fail(status, sizeof status, "chain ended at 0x%llx, expected slot %u: loads skipped", out, expect);
		cur = expect;
		if (r < 0)
			continue;
		for (int i = 0; i < nrec; i++) {
			samp[ns] = lat[i];
			ovs[ns++] = ov[i];
		}
		clk[r] = mem_clock(run, &cs);
	}
	ovm = mem_percentile(ovs, ns, 50);
	for (size_t i = 0; i < ns; i++) {
		samp[i] -= ovm;
		sum += samp[i];
	}
	gp_stats(clk, (size_t)nrep, &sclk);
	if (sclk.median <= 0)
		mem_fail(status, sizeof status, "clock sample too short to measure the SM clock");
	if (mem_percentile(samp, ns, 50) < 4)
		mem_fail(status, sizeof status, "median load latency below 4 cycles: broken probe");
row:
	gp_row_begin(t);
	gp_row_str(t, "pattern", "random");
	gp_row_str(t, "path", path);
	gp_row_int(t, "stride_bytes", (long long)stride);
	gp_row_int(t, "footprint_bytes", (long long)footprint);
	gp_row_int(t, "slots", (long long)c.slots);
	gp_row_int(t, "lines_touched_bytes", (long long)chain_lines_bytes(&c));
	gp_row_int(t, "samples", (long long)ns);
	gp_row_num(t, "p05_cycles", ns ? mem_percentile(samp, ns, 5) : NAN);
	gp_row_num(t, "p50_cycles", ns ? mem_percentile(samp, ns, 50) : NAN);
	gp_row_num(t, "p95_cycles", ns ? mem_percentile(samp, ns, 95) : NAN);
	gp_row_num(t, "p99_cycles", ns ? mem_percentile(samp, ns, 99) : NAN);
	gp_row_num(t, "max_cycles", ns ? mem_percentile(samp, ns, 100) : NAN);
	gp_row_num(t, "mean_cycles", ns ? sum / (double)ns : NAN);
	gp_row_num(t, "timer_overhead_cycles", ovm);
	gp_row_num(t, "clock_MHz", sclk.median);
	gp_row_str(t, "status", status);
	if (gp_row_end(t, err, sizeof err)) {
		gp_err("internal: lat_mem_dist row: %s", err);
		rc = GP_EFAIL;
		goto done;
	}
	rc = gp_status_rc(status);
done:
	chain_free(&c);
	gp_free(d_out);
	gp_free(d_lat);
	gp_free(d_ov);
	gp_free(d_cs);
	free(lat);
	free(ov);
	free(samp);
	free(ovs);
	free(clk);
	return rc;
}

static void lat_mem_dist_report(FILE *md, const struct gp_table *t, const struct gp_table *ref);

GP_EXP_IMPL(lat_mem_dist, lat_mem_dist_params, lat_mem_dist_cols, lat_mem_dist_measure);
GP_ANALYSIS(lat_mem_dist, NULL, lat_mem_dist_report);

/* ------------------------------------------------------------------ bandwidth helpers */

/* Sum of the per-thread sums, wrapping like the kernel's u32 adds. */
static int check_sum(CUdeviceptr d_out, size_t nthr, uint32_t expect, char *status, size_t len)
{
	uint32_t *h = malloc(nthr * sizeof *h), s = 0;
	int rc;

	if (!h)
		return GP_EFAIL;
	if (!(rc = gp_download(h, d_out, nthr * sizeof *h))) {
		for (size_t i = 0; i < nthr; i++)
			s += h[i];
		if (s != expect)
			mem_fail(status, len, "sum of loaded words 0x%08x, expected 0x%08x: loads dropped or wrong", s,
				 expect);
	}
	free(h);
	return rc;
}

/* Every byte 0x01: each 32-bit word reads 0x01010101. */
#define FILL_BYTE 0x01
#define FILL_WORD 0x01010101u

/* ------------------------------------------------------------------ E108 / E004 bw_global */

static const struct gp_param bw_global_params[] = {
	{ "width", GP_PARAM_INT, 32, 128, NULL, "32 64 128", "bits per load: 32, 64 or 128" },
	{ "path", GP_PARAM_NAME, 0, 0, "default nc cg cs", "default nc cg cs",
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

static int bw_global_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	const int width = (int)gp_point_int(pt, "width"), ilp = (int)gp_point_int(pt, "ilp");
	const char *path = gp_point_str(pt, "path");
	const int bps = (int)gp_point_int(pt, "blocks_per_sm"), threads = (int)gp_point_int(pt, "threads");
	const size_t bytes = (size_t)gp_point_int(pt, "bytes");
	int passes = (int)gp_point_int(pt, "passes");
	const struct gp_device *dev = run->dev;
	const unsigned blocks = (unsigned)(bps * dev->sms);
	const size_t nthr = (size_t)blocks * threads, eb = (size_t)width / 8;
	long long n = (long long)(bytes / eb);
	const size_t trips = (size_t)n / (nthr * ilp), elems = trips * nthr * ilp;
	const double read = (double)elems * eb * passes, peak = mem_hbm_peak_GBps(dev);
	const int nrep = run->reps;
	double *ms = calloc((size_t)nrep, sizeof *ms), clkv = 0, gbps = NAN;
	struct gp_stats sms;
	struct gp_clock_sample cs;
	CUdeviceptr d_buf = 0, d_out = 0, d_cs = 0;
	CUfunction fn;
	char kname[48], pattern[48], status[256] = "ok", err[128];
	int rc = GP_EFAIL, resident = 0;
	void *args[] = { &d_buf, &n, &passes, &d_out, &d_cs };

	memset(&sms, 0, sizeof sms);
	if (!ms)
		goto done;
	snprintf(pattern, sizeof pattern, "grid_stride_x%d", ilp);
	rc = 0;
	if ((width != 32 && width != 64 && width != 128) || (ilp != 1 && ilp != 2 && ilp != 4 && ilp != 8)) {
		mem_fail(status, sizeof status, "refused: width must be 32/64/128 and ilp 1/2/4/8");
		goto row;
	}
	if (!trips) {
		mem_fail(status, sizeof status, "refused: %zu bytes is less than one trip of the grid", bytes);
		goto row;
	}
	snprintf(kname, sizeof kname, "bwg_ld%d_%s_%d", width, path, ilp);
	if ((rc = mem_alloc(&d_buf, bytes, status, sizeof status)) || (rc = mem_alloc(&d_out, nthr * 4, status, sizeof status)))
		goto row;
	if ((rc = gp_kernel(run->dev, gp_image_probes_mem, kname, &fn)) || (rc = gp_alloc(&d_cs, sizeof cs)))
		goto done;
	GP_CU(cuMemsetD8(d_buf, FILL_BYTE, bytes));
	gp_cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(&resident, fn, threads, 0);
	if (resident < bps)
		mem_fail(status, sizeof status, "only %d blocks of %d threads fit per SM, asked for %d", resident,
			 threads, bps);
	for (int r = -run->warmup; r < nrep; r++) {
		float m;
		if ((rc = gp_launch(fn, blocks, (unsigned)threads, 0, args, &m)) || (rc = gp_download(&cs, d_cs, sizeof cs)))
			goto done;
		if (r >= 0)
			ms[r] = m;
		if (r == nrep - 1)
			clkv = mem_clock(run, &cs);
	}
	if ((rc = check_sum(d_out, nthr, (uint32_t)((uint64_t)elems * passes * (eb / 4) * FILL_WORD), status,
			    sizeof status)))
		goto done;
	gp_stats(ms, (size_t)nrep, &sms);
	gbps = read / (sms.median * 1e-3) / 1e9;
	if (bytes > 2 * (size_t)dev->l2_bytes && gbps > 1.02 * peak)
		mem_fail(status, sizeof status, "%.0f GB/s from a buffer over twice L2 beats the HBM rate %.0f GB/s: broken probe",
			 gbps, peak);
	if (clkv <= 0)
		mem_fail(status, sizeof status, "clock sample too short to measure the SM clock");
row:
	gp_row_begin(t);
	gp_row_int(t, "width_bits", width);
	gp_row_str(t, "path", path);
	gp_row_str(t, "pattern", pattern);
	gp_row_int(t, "blocks", blocks);
	gp_row_int(t, "threads_per_block", threads);
	gp_row_int(t, "warps_per_sm", (long long)bps * threads / 32);
	gp_row_int(t, "ilp", ilp);
	gp_row_int(t, "bytes_in_flight_per_sm", (long long)bps * threads * ilp * (long long)eb);
	gp_row_int(t, "footprint_bytes", (long long)bytes);
	gp_row_int(t, "stride_bytes", (long long)(nthr * eb));
	gp_row_num(t, "bytes_read", read);
	gp_row_num(t, "time_ms_min", sms.min);
	gp_row_num(t, "time_ms", sms.median);
	gp_row_num(t, "time_ms_max", sms.max);
	gp_row_num(t, "spread", sms.spread);
	gp_row_num(t, "bandwidth_GBps", gbps);
	gp_row_num(t, "hbm_peak_GBps", peak);
	gp_row_num(t, "pct_of_hbm_peak", 100.0 * gbps / peak);
	gp_row_num(t, "clock_MHz", clkv);
	gp_row_str(t, "status", status);
	if (gp_row_end(t, err, sizeof err)) {
		gp_err("internal: bw_global row: %s", err);
		rc = GP_EFAIL;
		goto done;
	}
	if (!rc)
		rc = gp_status_rc(status);
done:
	gp_free(d_buf);
	gp_free(d_out);
	gp_free(d_cs);
	free(ms);
	return rc;
error:
	rc = GP_ECUDA;
	goto done;
}

static void bw_global_derive(struct gp_profile *prof, const struct gp_table *t)
{
	double best = 0, v;
	const char *bp = NULL;

	for (size_t r = 0; r < t->nrows; r++)
		if (!strcmp(gp_table_get(t, r, "status"), "ok") && !gp_table_get_double(t, r, "bandwidth_GBps", &v) &&
		    v > best) {
			best = v;
			bp = gp_table_get(t, r, "path");
		}
	if (bp) {
		char m[160];
		snprintf(m, sizeof m, "best of the load width/path/occupancy sweep (%s path)", bp);
		gp_profile_add(prof, "global_load_bw_best_GBps", best, "GB/s", m, "bw_global");
	}
}

static void bw_global_report(FILE *md, const struct gp_table *t, const struct gp_table *ref);

GP_EXP_IMPL(bw_global, bw_global_params, bw_global_cols, bw_global_measure);
GP_ANALYSIS(bw_global, bw_global_derive, bw_global_report);

/* ------------------------------------------------------------------ E016 bw_coalesce, bw_padding */

#define COAL_BLOCKS_PER_SM 8
#define COAL_THREADS 256
#define COAL_ITERS 128

static const struct gp_param bw_coalesce_params[] = {
	{ "stride_words", GP_PARAM_INT, 1, 64, NULL, "1 2 3 4 8 16 32", "floats between neighbouring lanes" },
	{ "offset_words", GP_PARAM_INT, 0, 64, NULL, "0 1 4 8", "misalignment of the whole access in floats" },
};

static const char *const bw_coalesce_cols[] = {
	"pattern", "stride_words", "offset_words", "stride_bytes", "footprint_bytes", "bytes_useful",
	"time_ms_min", "time_ms", "time_ms_max", "spread", "bandwidth_GBps", "model_efficiency_pct",
	"sector_traffic_GBps", "hbm_peak_GBps", "clock_MHz", "status",
};

/* One timed kernel of the coalescing family: shared by both experiments. */
static int coal_run(struct gp_run *run, CUfunction fn, void **args, unsigned blocks, unsigned threads,
		    CUdeviceptr d_cs, CUdeviceptr d_out, size_t nthr, uint32_t expect, struct gp_stats *sms,
		    double *clkv, char *status, size_t len)
{
	double *ms = calloc((size_t)run->reps, sizeof *ms);
	struct gp_clock_sample cs;
	int rc = GP_EFAIL;

	if (!ms)
		return rc;
	for (int r = -run->warmup; r < run->reps; r++) {
		float m;
		if ((rc = gp_launch(fn, blocks, threads, 0, args, &m)) || (rc = gp_download(&cs, d_cs, sizeof cs)))
			goto done;
		if (r >= 0)
			ms[r] = m;
		if (r == run->reps - 1)
			*clkv = mem_clock(run, &cs);
	}
	if ((rc = check_sum(d_out, nthr, expect, status, len)))
		goto done;
	gp_stats(ms, (size_t)run->reps, sms);
	if (*clkv <= 0)
		mem_fail(status, len, "clock sample too short to measure the SM clock");
done:
	free(ms);
	return rc;
}

static int bw_coalesce_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	long long stride = gp_point_int(pt, "stride_words"), offset = gp_point_int(pt, "offset_words");
	int iters = COAL_ITERS;
	const struct gp_device *dev = run->dev;
	const unsigned blocks = (unsigned)(COAL_BLOCKS_PER_SM * dev->sms);
	const size_t nthr = (size_t)blocks * COAL_THREADS;
	const size_t words = ((size_t)iters * nthr - 1) * (size_t)stride + (size_t)offset + 1;
	const double useful = (double)iters * nthr * 4, peak = mem_hbm_peak_GBps(dev);
	const double eff = mem_model_stride(4, stride, offset);
	double gbps = NAN, clkv = 0;
	struct gp_stats sms;
	CUdeviceptr d_buf = 0, d_out = 0, d_cs = 0;
	CUfunction fn;
	char status[256] = "ok", err[128];
	int rc;
	void *args[] = { &d_buf, &stride, &offset, &iters, &d_out, &d_cs };

	memset(&sms, 0, sizeof sms);
	if ((rc = mem_alloc(&d_buf, words * 4, status, sizeof status)) ||
	    (rc = mem_alloc(&d_out, nthr * 4, status, sizeof status)))
		goto row;
	if ((rc = gp_kernel(run->dev, gp_image_probes_mem, "coal_stride", &fn)) || (rc = gp_alloc(&d_cs, sizeof(struct gp_clock_sample))))
		goto done;
	GP_CU(cuMemsetD8(d_buf, FILL_BYTE, words * 4));
	if ((rc = coal_run(run, fn, args, blocks, COAL_THREADS, d_cs, d_out, nthr,
			   (uint32_t)((uint64_t)iters * nthr * FILL_WORD), &sms, &clkv, status, sizeof status)))
		goto done;
	gbps = useful / (sms.median * 1e-3) / 1e9;
	/* Each float is read once per launch from a span over L2: at most the L2-resident share of
	 * the previous launch can come faster than HBM. */
	if (words * 4 > (size_t)dev->l2_bytes &&
	    gbps > 1.02 * peak * (double)(words * 4) / (double)(words * 4 - (size_t)dev->l2_bytes))
		mem_fail(status, sizeof status, "%.0f GB/s useful beats the HBM rate allowing for L2: broken probe", gbps);
row:
	gp_row_begin(t);
	gp_row_str(t, "pattern", "strided_warp");
	gp_row_int(t, "stride_words", stride);
	gp_row_int(t, "offset_words", offset);
	gp_row_int(t, "stride_bytes", stride * 4);
	gp_row_int(t, "footprint_bytes", (long long)(words * 4));
	gp_row_num(t, "bytes_useful", useful);
	gp_row_num(t, "time_ms_min", sms.min);
	gp_row_num(t, "time_ms", sms.median);
	gp_row_num(t, "time_ms_max", sms.max);
	gp_row_num(t, "spread", sms.spread);
	gp_row_num(t, "bandwidth_GBps", gbps);
	gp_row_num(t, "model_efficiency_pct", 100.0 * eff);
	gp_row_num(t, "sector_traffic_GBps", gbps / eff);
	gp_row_num(t, "hbm_peak_GBps", peak);
	gp_row_num(t, "clock_MHz", clkv);
	gp_row_str(t, "status", status);
	if (gp_row_end(t, err, sizeof err)) {
		gp_err("internal: bw_coalesce row: %s", err);
		rc = GP_EFAIL;
		goto done;
	}
	if (!rc)
		rc = gp_status_rc(status);
done:
	gp_free(d_buf);
	gp_free(d_out);
	gp_free(d_cs);
	return rc;
error:
	rc = GP_ECUDA;
	goto done;
}

static void bw_coalesce_report(FILE *md, const struct gp_table *t, const struct gp_table *ref);

GP_EXP_IMPL(bw_coalesce, bw_coalesce_params, bw_coalesce_cols, bw_coalesce_measure);
GP_ANALYSIS(bw_coalesce, NULL, bw_coalesce_report);

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

static int bw_padding_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	long long rows = gp_point_int(pt, "rows"), pad = gp_point_int(pt, "pad");
	long long lda = rows + pad;
	const char *path = gp_point_str(pt, "path");
	int cg = !strcmp(path, "cg");
	const size_t bytes = (size_t)gp_point_int(pt, "bytes");
	long long cols = (long long)(bytes / 4 / (size_t)lda);
	const struct gp_device *dev = run->dev;
	const unsigned blocks = (unsigned)(COAL_BLOCKS_PER_SM * dev->sms);
	const size_t nthr = (size_t)blocks * COAL_THREADS, total = (size_t)cols * (size_t)lda * 4;
	const double useful = (double)rows * (double)cols * 4, eff = mem_model_lda(4, lda, 8);
	double gbps = NAN, clkv = 0;
	struct gp_stats sms;
	CUdeviceptr d_buf = 0, d_out = 0, d_cs = 0;
	CUfunction fn;
	char status[256] = "ok", err[128];
	int rc = 0;
	void *args[] = { &d_buf, &rows, &cols, &lda, &cg, &d_out, &d_cs };

	memset(&sms, 0, sizeof sms);
	if (rows % 128 || cols < 1) {
		mem_fail(status, sizeof status, "refused: rows must be a multiple of 128 and the matrix hold a column");
		goto row;
	}
	if ((rc = mem_alloc(&d_buf, total, status, sizeof status)) || (rc = mem_alloc(&d_out, nthr * 4, status, sizeof status)))
		goto row;
	if ((rc = gp_kernel(run->dev, gp_image_probes_mem, "coal_lda", &fn)) || (rc = gp_alloc(&d_cs, sizeof(struct gp_clock_sample))))
		goto done;
	GP_CU(cuMemsetD8(d_buf, FILL_BYTE, total));
	if ((rc = coal_run(run, fn, args, blocks, COAL_THREADS, d_cs, d_out, nthr,
			   (uint32_t)((uint64_t)rows * (uint64_t)cols * FILL_WORD), &sms, &clkv, status, sizeof status)))
		goto done;
	gbps = useful / (sms.median * 1e-3) / 1e9;
	if (total > 2 * (size_t)dev->l2_bytes && gbps > 1.02 * mem_hbm_peak_GBps(dev))
		mem_fail(status, sizeof status, "%.0f GB/s beats the HBM rate: broken probe", gbps);
row:
	gp_row_begin(t);
	gp_row_str(t, "pattern", "column_walk");
	gp_row_int(t, "rows", rows);
	gp_row_int(t, "cols", cols);
	gp_row_int(t, "lda", lda);
	gp_row_int(t, "lda_mod_8", lda % 8);
	gp_row_int(t, "pad", pad);
	gp_row_str(t, "path", path);
	gp_row_int(t, "stride_bytes", lda * 4);
	gp_row_int(t, "footprint_bytes", (long long)total);
	gp_row_num(t, "bytes_useful", useful);
	gp_row_num(t, "time_ms_min", sms.min);
	gp_row_num(t, "time_ms", sms.median);
	gp_row_num(t, "time_ms_max", sms.max);
	gp_row_num(t, "spread", sms.spread);
	gp_row_num(t, "bandwidth_GBps", gbps);
	gp_row_num(t, "model_efficiency_pct", 100.0 * eff);
	gp_row_num(t, "model_sectors_per_request", 4.0 / eff);
	gp_row_num(t, "hbm_peak_GBps", mem_hbm_peak_GBps(dev));
	gp_row_num(t, "clock_MHz", clkv);
	gp_row_str(t, "status", status);
	if (gp_row_end(t, err, sizeof err)) {
		gp_err("internal: bw_padding row: %s", err);
		rc = GP_EFAIL;
		goto done;
	}
	if (!rc)
		rc = gp_status_rc(status);
done:
	gp_free(d_buf);
	gp_free(d_out);
	gp_free(d_cs);
	return rc;
error:
	rc = GP_ECUDA;
	goto done;
}

static void bw_padding_report(FILE *md, const struct gp_table *t, const struct gp_table *ref);

GP_EXP_IMPL(bw_padding, bw_padding_params, bw_padding_cols, bw_padding_measure);
GP_ANALYSIS(bw_padding, NULL, bw_padding_report);

/* ------------------------------------------------------------------ bw_hbm */

static const struct gp_param bw_hbm_params[] = {
	{ "op", GP_PARAM_NAME, 0, 0, "l2_read read write copy dtod", "l2_read read write copy dtod",
	  "l2_read (.cg, footprint under L2), read, write, copy kernels, cuMemcpyDtoD" },
	{ "bytes", GP_PARAM_INT, 1L << 20, 1L << 38, NULL, "4294967296", "buffer for read/write/copy/dtod" },
	{ "l2_footprint", GP_PARAM_INT, 1L << 16, 1L << 30, NULL, "8388608", "buffer for l2_read" },
};

static const char *const bw_hbm_cols[] = {
	"op", "level", "pattern", "footprint_bytes", "stride_bytes", "passes", "bytes_moved", "time_ms_min",
	"time_ms", "time_ms_max", "spread", "bandwidth_GBps", "ceiling_GBps", "pct_of_ceiling", "clock_MHz",
	"status",
};

#define HBM_THREADS 256
#define L2_READ_TOTAL (16ull << 30) /* bytes read per l2_read launch: a few ms */

/* Three 16-byte words (first, middle, last) must hold the pattern. */
static int check_words(CUdeviceptr d, size_t n16, uint32_t pattern, char *status, size_t len)
{
	const size_t at[] = { 0, n16 / 2, n16 - 1 };
	uint32_t w[4];
	int rc;

	for (size_t i = 0; i < GP_ARRAY_SIZE(at); i++) {
		if ((rc = gp_download(w, d + at[i] * 16, sizeof w)))
			return rc;
		for (int k = 0; k < 4; k++)
			if (w[k] != pattern) {
				mem_fail(status, len, "word %zu holds 0x%08x, expected 0x%08x: stores lost", at[i], w[k], pattern);
				return 0;
			}
	}
	return 0;
}

static int time_dtod(CUdeviceptr dst, CUdeviceptr src, size_t bytes, float *ms)
{
	CUevent e0 = NULL, e1 = NULL;
	int rc = GP_ECUDA;

	GP_CU(cuEventCreate(&e0, CU_EVENT_DEFAULT));
	GP_CU(cuEventCreate(&e1, CU_EVENT_DEFAULT));
	GP_CU(cuEventRecord(e0, NULL));
	GP_CU(cuMemcpyDtoD(dst, src, bytes));
	GP_CU(cuEventRecord(e1, NULL));
	GP_CU(cuEventSynchronize(e1));
	GP_CU(cuEventElapsedTime(ms, e0, e1));
	rc = 0;
error:
	if (e0)
		gp_cu.cuEventDestroy(e0);
	if (e1)
		gp_cu.cuEventDestroy(e1);
	return rc;
}

static int bw_hbm_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	const char *op = gp_point_str(pt, "op");
	const int l2op = !strcmp(op, "l2_read"), two = !strcmp(op, "copy") || !strcmp(op, "dtod");
	const struct gp_device *dev = run->dev;
	const size_t bytes = (size_t)(l2op ? gp_point_int(pt, "l2_footprint") : gp_point_int(pt, "bytes")) / 16 * 16;
	long long n16 = (long long)(bytes / 16);
	int passes = l2op ? (int)(L2_READ_TOTAL / bytes > 0 ? L2_READ_TOTAL / bytes : 1) : 1;
	int cg = l2op;
	unsigned pattern = 0x5a5a5a5au;
	const unsigned per_sm = (unsigned)(dev->max_threads_per_sm / HBM_THREADS);
	const unsigned blocks = (per_sm ? per_sm : 1) * (unsigned)dev->sms;
	const size_t nthr = (size_t)blocks * HBM_THREADS;
	const double moved = (double)bytes * passes * (two ? 2 : 1);
	double *ms = calloc((size_t)run->reps, sizeof *ms), gbps = NAN, ceiling, clkv = 0;
	struct gp_stats sms;
	struct gp_clock_sample cs;
	CUdeviceptr d_a = 0, d_b = 0, d_out = 0, d_cs = 0;
	CUfunction fn = NULL;
	char status[256] = "ok", err[128];
	int rc = GP_EFAIL;
	void *rargs[] = { &d_a, &n16, &passes, &cg, &d_out, &d_cs };
	void *wargs[] = { &d_b, &n16, &pattern, &d_cs };
	void *cargs[] = { &d_b, &d_a, &n16, &d_cs };

	memset(&sms, 0, sizeof sms);
	if (!ms)
		goto done;
	rc = 0;
	if ((rc = mem_alloc(&d_a, bytes, status, sizeof status)) ||
	    (two && (rc = mem_alloc(&d_b, bytes, status, sizeof status))) ||
	    (rc = mem_alloc(&d_out, nthr * 4, status, sizeof status)))
		goto row;
	if (!strcmp(op, "write"))
		d_b = d_a; /* written in place */
	if ((rc = gp_alloc(&d_cs, sizeof cs)))
		goto done;
	GP_CU(cuMemsetD8(d_a, FILL_BYTE, bytes));
	if (strcmp(op, "dtod") &&
	    (rc = gp_kernel(run->dev, gp_image_probes_mem,
			    !strcmp(op, "write") ? "hbm_write" : two ? "hbm_copy" : "hbm_read", &fn)))
		goto done;
	for (int r = -run->warmup; r < run->reps; r++) {
		float m = 0;
		if (!strcmp(op, "dtod"))
			rc = time_dtod(d_b, d_a, bytes, &m);
		else
			rc = gp_launch(fn, blocks, HBM_THREADS, 0,
				       !strcmp(op, "write") ? wargs : two ? cargs : rargs, &m);
		if (rc || (fn && (rc = gp_download(&cs, d_cs, sizeof cs))))
			goto done;
		if (r >= 0)
			ms[r] = m;
		if (r == run->reps - 1)
			clkv = mem_clock(run, fn ? &cs : NULL);
	}
	if (!strcmp(op, "read") || l2op)
		rc = check_sum(d_out, nthr, (uint32_t)((uint64_t)n16 * 4 * passes * FILL_WORD), status, sizeof status);
	else
		rc = check_words(d_b, (size_t)n16, !strcmp(op, "write") ? pattern : FILL_WORD, status, sizeof status);
	if (rc)
		goto done;
	gp_stats(ms, (size_t)run->reps, &sms);
	gbps = moved / (sms.median * 1e-3) / 1e9;
	if (clkv <= 0)
		mem_fail(status, sizeof status, "clock sample too short to measure the SM clock");
row:
	/* HBM: the datasheet rate. L2: what the SMs' L1s can take in, 128 B/clk/SM (loose). */
	ceiling = l2op ? 128.0 * dev->sms * (clkv > 0 ? clkv : dev->clock_khz / 1e3) * 1e6 / 1e9
		       : mem_hbm_peak_GBps(dev);
	if (!l2op && bytes <= 2 * (size_t)dev->l2_bytes)
		mem_fail(status, sizeof status, "refused as an HBM number: %zu bytes is not over twice the L2 size", bytes);
	if (l2op && bytes > (size_t)dev->l2_bytes / 2)
		mem_fail(status, sizeof status, "refused as an L2 number: %zu bytes is over half the L2 size", bytes);
	if (gbps > 1.02 * ceiling)
		mem_fail(status, sizeof status, "%.0f GB/s is above the %.0f GB/s ceiling: broken probe", gbps, ceiling);
	gp_row_begin(t);
	gp_row_str(t, "op", op);
	gp_row_str(t, "level", l2op ? "L2" : "HBM");
	gp_row_str(t, "pattern", !strcmp(op, "dtod") ? "cuMemcpyDtoD" : "grid_stride_16B_x4");
	gp_row_int(t, "footprint_bytes", (long long)bytes * (two ? 2 : 1));
	gp_row_int(t, "stride_bytes", (long long)nthr * 16);
	gp_row_int(t, "passes", passes);
	gp_row_num(t, "bytes_moved", moved);
	gp_row_num(t, "time_ms_min", sms.min);
	gp_row_num(t, "time_ms", sms.median);
	gp_row_num(t, "time_ms_max", sms.max);
	gp_row_num(t, "spread", sms.spread);
	gp_row_num(t, "bandwidth_GBps", gbps);
	gp_row_num(t, "ceiling_GBps", ceiling);
	gp_row_num(t, "pct_of_ceiling", 100.0 * gbps / ceiling);
	gp_row_num(t, "clock_MHz", clkv);
	gp_row_str(t, "status", status);
	if (gp_row_end(t, err, sizeof err)) {
		gp_err("internal: bw_hbm row: %s", err);
		rc = GP_EFAIL;
		goto done;
	}
	if (!rc)
		rc = gp_status_rc(status);
done:
	gp_free(d_a);
	if (d_b != d_a)
		gp_free(d_b);
	gp_free(d_out);
	gp_free(d_cs);
	free(ms);
	return rc;
error:
	rc = GP_ECUDA;
	goto done;
}

static double op_bw(const struct gp_table *t, const char *op)
{
	double v = NAN;

	for (size_t r = 0; r < t->nrows; r++)
		if (!strcmp(gp_table_get(t, r, "op"), op) && !strcmp(gp_table_get(t, r, "status"), "ok"))
			gp_table_get_double(t, r, "bandwidth_GBps", &v);
	return v;
}

static void bw_hbm_derive(struct gp_profile *prof, const struct gp_table *t)
{
	static const char *const ops[] = { "l2_read", "read", "write", "copy", "dtod" };
	static const char *const keys[] = { "l2_read_bw_GBps", "hbm_read_bw_GBps", "hbm_write_bw_GBps",
					    "hbm_copy_bw_GBps", "hbm_dtod_bw_GBps" };

	for (size_t i = 0; i < GP_ARRAY_SIZE(ops); i++) {
		const double v = op_bw(t, ops[i]);
		if (!isnan(v))
			gp_profile_add(prof, keys[i], v, "GB/s",
				       i == 0 ? "ld.global.cg.v4, footprint under L2, all SMs"
				       : i < 4 ? "16-byte vectors, grid-stride, footprint >> L2; copy counts read + write"
					       : "cuMemcpyDtoD, read + write bytes",
				       "bw_hbm");
	}
	if (!isnan(op_bw(t, "read")) && !isnan(op_bw(t, "dtod")))
		gp_profile_add(prof, "hbm_read_pct_of_dtod", 100.0 * op_bw(t, "read") / op_bw(t, "dtod"), "%",
			       "read kernel / cuMemcpyDtoD (read + write bytes), same run", "bw_hbm");
}

static void bw_hbm_report(FILE *md, const struct gp_table *t, const struct gp_table *ref);

GP_EXP_IMPL(bw_hbm, bw_hbm_params, bw_hbm_cols, bw_hbm_measure);
GP_ANALYSIS(bw_hbm, bw_hbm_derive, bw_hbm_report);

/* ------------------------------------------------------------------ report sections */

static void lat_levels_md(FILE *md, const struct gp_table *t, const char *pattern, const char *path, double stride,
			  const char *what, double min_step)
{
	double *fp = malloc(MAXPTS * sizeof *fp), *lat = malloc(MAXPTS * sizeof *lat);
	struct gp_cp_result cp;
	size_t n;

	if (!fp || !lat)
		goto done;
	n = curve(t, pattern, path, stride, fp, lat, MAXPTS);
	if (n < 3 || gp_changepoint_step(fp, lat, n, min_step, &cp))
		goto done;
	fprintf(md, "\n%s, `%s` path", what, path);
	if (stride > 0)
		fprintf(md, ", %.0f KiB stride", stride / 1024);
	fprintf(md, ": %zu levels over %zu footprints (noise %.3f in ln latency).\n\n"
		    "| level | latency (cycles) | footprints on the level | capacity (last on level) | next footprint |\n"
		    "|---|---|---|---|---|\n", cp.nlevels, n, cp.sigma);
	for (size_t k = 0; k < cp.nlevels; k++)
		fprintf(md, "| %zu | %.1f | %.0f KiB … %.0f KiB | %.0f KiB | %s%.0f KiB |\n", k + 1, cp.level[k].latency,
			cp.level[k].footprint_first / 1024, cp.level[k].footprint_last / 1024,
			cp.level[k].footprint_last / 1024, cp.level[k].footprint_next > 0 ? "" : "– ",
			cp.level[k].footprint_next / 1024);
done:
	free(fp);
	free(lat);
}

static void lat_mem_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const paths[] = { "default", "cg", "nc" };
	const char *v = gp_reference(ref, "lat_mem", "paper_latency", NULL, NULL);

	fprintf(md, "E003: single-thread pointer chase, cycles per dependent load against footprint; levels "
		    "and capacities found by change-point detection (harness/changepoint.c). Paper (seed 000, "
		    "GT200): %s cycles to DRAM.\n", v ? v : "–");
	for (size_t p = 0; p < GP_ARRAY_SIZE(paths); p++)
		lat_levels_md(md, t, "random", paths[p], -1, "Random chase", GP_CP_MIN_STEP);
	fputc('\n', md);
}

static void lat_mem_tlb_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const paths[] = { "cg", "default", "nc" };

	fprintf(md, "TLB: one slot per page-sized stride, random order; a step in latency past a footprint is "
		    "that TLB's reach, its height the miss cost.\n");
	/* One curve per path and stride: a sweep over several page sizes (2 MiB, 32 MiB) tells a TLB
	 * whose reach counts pages from one whose reach is a span of addresses. */
	for (size_t p = 0; p < GP_ARRAY_SIZE(paths); p++) {
		double strides[16];
		size_t ns = 0;
		for (size_t r = 0; r < t->nrows; r++) {
			double s;
			size_t k = 0;
			if (strcmp(gp_table_get(t, r, "status"), "ok") || strcmp(gp_table_get(t, r, "path"), paths[p]) ||
			    gp_table_get_double(t, r, "stride_bytes", &s))
				continue;
			while (k < ns && strides[k] != s)
				k++;
			if (k == ns && ns < GP_ARRAY_SIZE(strides))
				strides[ns++] = s;
		}
		for (size_t k = 0; k < ns; k++)
			lat_levels_md(md, t, NULL, paths[p], strides[k], "Page-stride chase", GP_CP_TLB_STEP);
	}
	fputc('\n', md);
}

static void lat_mem_dist_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	fprintf(md, "Per-access latency (each load timed alone, timer overhead subtracted).\n\n"
		    "| path | footprint | p05 | p50 | p95 | p99 | max | samples |\n|---|---|---|---|---|---|---|---|\n");
	for (size_t r = 0; r < t->nrows; r++)
		fprintf(md, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", gp_table_get(t, r, "path"),
			gp_table_get(t, r, "footprint_bytes"), gp_table_get(t, r, "p05_cycles"),
			gp_table_get(t, r, "p50_cycles"), gp_table_get(t, r, "p95_cycles"), gp_table_get(t, r, "p99_cycles"),
			gp_table_get(t, r, "max_cycles"), gp_table_get(t, r, "samples"));
	fputc('\n', md);
}

/* Seed 001 Observation 4 layout: width down, path across, seed pattern rows only. */
static void bw_global_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const paths[] = { "default", "nc", "cg", "cs" };
	static const int widths[] = { 32, 64, 128 };
	const char *ldg = gp_reference(ref, "bw_global", "paper_ldg128", NULL, NULL);
	const char *ld = gp_reference(ref, "bw_global", "paper_ld128", NULL, NULL);

	fprintf(md, "E108: GB/s, each thread ILP loads at a grid-sized stride (seed: 4), best occupancy measured. "
		    "Paper (K20m): LDG.128 %s GB/s, LD.128 %s GB/s.\n\n| width | default | nc | cg | cs |\n|---|---|---|---|---|\n",
		ldg ? ldg : "–", ld ? ld : "–");
	for (size_t w = 0; w < GP_ARRAY_SIZE(widths); w++) {
		fprintf(md, "| LDG.%d |", widths[w]);
		for (size_t p = 0; p < GP_ARRAY_SIZE(paths); p++) {
			double best = -1, v, wd;
			for (size_t r = 0; r < t->nrows; r++)
				if (!strcmp(gp_table_get(t, r, "path"), paths[p]) &&
				    !gp_table_get_double(t, r, "width_bits", &wd) && (int)wd == widths[w] &&
				    !gp_table_get_double(t, r, "bandwidth_GBps", &v) && v > best)
					best = v;
			if (best >= 0)
				fprintf(md, " %.0f |", best);
			else
				fprintf(md, " – |");
		}
		fputc('\n', md);
	}
	fputc('\n', md);
}

static void bw_coalesce_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	fprintf(md, "E016: strided and misaligned float loads; the 32-byte-sector model's efficiency next to "
		    "the measurement.\n\n| stride (floats) | offset (floats) | GB/s useful | model efficiency %% | "
		    "measured / stride-1 aligned %% |\n|---|---|---|---|---|\n");
	double base = NAN;
	for (size_t r = 0; r < t->nrows; r++) {
		double s, o;
		if (!gp_table_get_double(t, r, "stride_words", &s) && !gp_table_get_double(t, r, "offset_words", &o) &&
		    s == 1 && o == 0)
			gp_table_get_double(t, r, "bandwidth_GBps", &base);
	}
	for (size_t r = 0; r < t->nrows; r++) {
		double v = NAN;
		gp_table_get_double(t, r, "bandwidth_GBps", &v);
		fprintf(md, "| %s | %s | %s | %s | %.1f |\n", gp_table_get(t, r, "stride_words"),
			gp_table_get(t, r, "offset_words"), gp_table_get(t, r, "bandwidth_GBps"),
			gp_table_get(t, r, "model_efficiency_pct"), 100.0 * v / base);
	}
	fputc('\n', md);
}

static void bw_padding_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	double base = NAN;
	const char *p8 = gp_reference(ref, "bw_padding", "paper_unit8", NULL, NULL);
	const char *p4 = gp_reference(ref, "bw_padding", "paper_unit4", NULL, NULL);

	for (size_t r = 0; r < t->nrows; r++) {
		double m;
		if (!gp_table_get_double(t, r, "lda_mod_8", &m) && m == 0 && isnan(base))
			gp_table_get_double(t, r, "bandwidth_GBps", &base);
	}
	fprintf(md, "E016: GEMM-like column walk (a warp reads 32 consecutive floats of a column) against lda. "
		    "Paper model (CC 1.3 segments): padding unit 8 %s, unit 4 %s.\n\n"
		    "| lda | lda mod 8 | GB/s | measured / lda = 0 mod 8 %% | model sector efficiency %% |\n|---|---|---|---|---|\n",
		p8 ? p8 : "–", p4 ? p4 : "–");
	for (size_t r = 0; r < t->nrows; r++) {
		double v = NAN;
		gp_table_get_double(t, r, "bandwidth_GBps", &v);
		fprintf(md, "| %s | %s | %s | %.1f | %s |\n", gp_table_get(t, r, "lda"), gp_table_get(t, r, "lda_mod_8"),
			gp_table_get(t, r, "bandwidth_GBps"), 100.0 * v / base, gp_table_get(t, r, "model_efficiency_pct"));
	}
	fputc('\n', md);
}

static void bw_hbm_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	const double rd = op_bw(t, "read"), dd = op_bw(t, "dtod");

	fprintf(md, "Bandwidth ceilings (copy and cuMemcpyDtoD count read + write bytes).\n\n"
		    "| op | level | footprint | GB/s | ceiling GB/s | %% of ceiling | status |\n|---|---|---|---|---|---|---|\n");
	for (size_t r = 0; r < t->nrows; r++)
		fprintf(md, "| %s | %s | %s | %s | %s | %s | %s |\n", gp_table_get(t, r, "op"), gp_table_get(t, r, "level"),
			gp_table_get(t, r, "footprint_bytes"), gp_table_get(t, r, "bandwidth_GBps"),
			gp_table_get(t, r, "ceiling_GBps"), gp_table_get(t, r, "pct_of_ceiling"), gp_table_get(t, r, "status"));
	if (!isnan(rd) && !isnan(dd))
		fprintf(md, "\nHBM read = %.1f %% of the device-to-device copy rate measured in the same run "
			    "(goal: at least 90 %%).\n", 100.0 * rd / dd);
	fputc('\n', md);
}
