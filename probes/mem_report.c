/* mem_report.c — profile keys and REPORT.md sections of lat_mem, lat_mem_tlb, lat_mem_dist,
 * bw_global, bw_coalesce, bw_padding and bw_hbm from their tables (no device code), with the
 * papers' numbers from configs/reference.csv. Cache and TLB levels come from change-point
 * detection over latency against footprint; mem_levels() is the one place a curve becomes levels
 * for the profile and the report alike, where a test of each step against the noise (issue 21)
 * belongs. */
#include "gp.h"
#include "analysis.h"
#include "changepoint.h"
#include "reach.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAXPTS 4096

/* The cell equals v (a missing column or cell never does). */
static int is(const struct gp_table *t, size_t r, const char *col, const char *v)
{
	const char *c = gp_table_get(t, r, col);

	return c && !strcmp(c, v);
}

/* ------------------------------------------------------------------ latency levels */

/* The curve of one pattern/path/stride (pattern NULL: any; stride < 0: the first one the table
 * has) from rows with status ok, footprints ascending; a repeated footprint keeps its first. */
static size_t curve(const struct gp_table *t, const char *pattern, const char *path, double stride, double *fp,
		    double *lat, size_t max)
{
	size_t n = 0, m = 0;

	for (size_t r = 0; r < t->nrows && n < max; r++) {
		const double f = gp_table_num(t, r, "footprint_bytes"), l = gp_table_num(t, r, "cycles_per_load");
		const double s = gp_table_num(t, r, "stride_bytes");
		size_t k;
		if (!gp_table_row_ok(t, r) || !is(t, r, "path", path) || (pattern && !is(t, r, "pattern", pattern)) ||
		    isnan(f) || isnan(l) || isnan(s))
			continue;
		if (stride < 0)
			stride = s;
		if (s != stride)
			continue;
		for (k = n++; k > 0 && fp[k - 1] > f; k--) {
			fp[k] = fp[k - 1];
			lat[k] = lat[k - 1];
		}
		fp[k] = f;
		lat[k] = l;
	}
	for (size_t i = 0; i < n; i++)
		if (!m || fp[i] > fp[m - 1]) {
			fp[m] = fp[i];
			lat[m++] = lat[i];
		}
	return m;
}

/* The levels of that curve, neighbours closer than min_step merged; returns the curve's points,
 * 0 where there are too few (under 3) or the detection failed. */
static size_t mem_levels(const struct gp_table *t, const char *pattern, const char *path, double stride,
			 double min_step, struct gp_cp_result *cp)
{
	double *fp = malloc(MAXPTS * sizeof *fp), *lat = malloc(MAXPTS * sizeof *lat);
	size_t n = fp && lat ? curve(t, pattern, path, stride, fp, lat, MAXPTS) : 0;

	if (n < 3 || gp_changepoint_supported(fp, lat, n, min_step, cp))
		n = 0;
	free(fp);
	free(lat);
	return n;
}

static void add_key(struct gp_profile *prof, const char *key, const char *sfx, double v, const char *unit,
		    const char *method)
{
	char k[64];

	snprintf(k, sizeof k, "%s%s", key, sfx);
	gp_profile_add(prof, k, v, unit, method, "lat_mem");
}

/* The L2 levels (first_l2 up to the HBM level) and the HBM level of one path. */
static void l2_hbm_keys(struct gp_profile *prof, const struct gp_cp_result *cp, size_t first_l2, size_t hbm,
			const char *sfx, const char *method, double mhz)
{
	add_key(prof, "l2_latency_cycles", sfx, cp->level[first_l2].latency, "cycles", method);
	add_key(prof, "l2_capacity_bytes", sfx, cp->level[hbm - 1].capacity, "bytes", method);
	if (hbm - first_l2 >= 2) {
		add_key(prof, "l2_near_latency_cycles", sfx, cp->level[first_l2].latency, "cycles", method);
		add_key(prof, "l2_near_capacity_bytes", sfx, cp->level[first_l2].capacity, "bytes", method);
		add_key(prof, "l2_far_latency_cycles", sfx, cp->level[hbm - 1].latency, "cycles", method);
	}
	add_key(prof, "hbm_latency_cycles", sfx, cp->level[hbm].latency, "cycles", method);
	if (mhz > 0) {
		char k[64];
		snprintf(k, sizeof k, "hbm_latency_ns%s", sfx);
		gp_profile_add(prof, k, cp->level[hbm].latency / mhz * 1e3, "ns",
			       "hbm_latency_cycles / the experiment's median SM clock", "lat_mem");
	}
}

/* Label the levels of a random chase: the first is the path's nearest cache (L1; the cg path has
 * none); the level holding the smallest footprint whose touched lines exceed 4x the L2 size (the
 * run's device) is HBM; the levels between are L2 (two of them: the near and far partition). */
static void lat_mem_derive(struct gp_profile *prof, const struct gp_table *t)
{
	static const struct {
		const char *path, *l1_sfx, *sfx; /* l1_sfx NULL: no L1 level on this path */
	} paths[] = { { "default", "", "" }, { "cg", NULL, "_cg" }, { "nc", "_nc", "_nc" } };

	for (size_t p = 0; p < GP_ARRAY_SIZE(paths); p++) {
		struct gp_cp_result cp;
		const size_t n = mem_levels(t, "random", paths[p].path, -1, GP_CP_MIN_STEP, &cp);
		const size_t first_l2 = paths[p].l1_sfx ? 1 : 0;
		size_t hbm = 0;
		char method[160];
		if (!n || cp.nlevels < 2) /* one plateau: no level stands apart, nothing to name */
			continue;
		while (hbm < cp.nlevels && !(cp.level[hbm].footprint_last > 4 * prof->l2_bytes))
			hbm++;
		snprintf(method, sizeof method, "random chase, %s path, change-point levels over %zu footprints",
			 paths[p].path, n);
		if (paths[p].l1_sfx) {
			add_key(prof, "l1_latency_cycles", paths[p].l1_sfx, cp.level[0].latency, "cycles", method);
			if (cp.nlevels > 1)
				add_key(prof, "l1_capacity_bytes", paths[p].l1_sfx, cp.level[0].capacity, "bytes",
					method);
		}
		if (hbm < cp.nlevels && hbm > first_l2)
			l2_hbm_keys(prof, &cp, first_l2, hbm, paths[p].sfx, method, gp_table_clock_median(t));
	}
}

/* The TLB curve of one path and stride: the fit of reach.h. 0, or -1 (too few points). */
static int tlb_reach(const struct gp_table *t, const char *path, double stride, struct gp_reach *r, size_t *n)
{
	double *fp = malloc(MAXPTS * sizeof *fp), *lat = malloc(MAXPTS * sizeof *lat);
	int rc = -1;

	*n = fp && lat ? curve(t, NULL, path, stride, fp, lat, MAXPTS) : 0;
	if (*n && !gp_reach_fit(fp, lat, *n, r))
		rc = 0;
	free(fp);
	free(lat);
	return rc;
}

/* The TLB keys from the first path with a curve (cg, the L2's own latency, first): the hit
 * latency, the reach and a miss's cost, or "none detected" and the curve's median. */
static void lat_mem_tlb_derive(struct gp_profile *prof, const struct gp_table *t)
{
	static const char *const paths[] = { "cg", "default", "nc" };

	for (size_t p = 0; p < GP_ARRAY_SIZE(paths); p++) {
		struct gp_reach r;
		size_t n;
		char method[240];
		if (tlb_reach(t, paths[p], -1, &r, &n))
			continue;
		snprintf(method, sizeof method,
			 "page-stride random chase, %s path, %zu footprints: fit of hit + miss x max(0, 1 - reach / "
			 "footprint) (miss >= %.0f standard errors and %.0f x the noise, %d points at or below the "
			 "reach and at %.0f x it, apart)",
			 paths[p], n, GP_CP_MIN_T, GP_CP_MIN_NOISE, GP_REACH_MIN_POINTS, GP_REACH_FAR);
		gp_profile_add(prof, "tlb_hit_latency_cycles", r.supported ? r.hit : r.median, "cycles", method, "lat_mem_tlb");
		if (!r.supported) {
			gp_profile_add_text(prof, "tlb1_reach_bytes", "none detected", "bytes", method, "lat_mem_tlb");
			return;
		}
		gp_profile_add(prof, "tlb1_reach_bytes", r.reach, "bytes", method, "lat_mem_tlb");
		gp_profile_add(prof, "tlb1_miss_cycles", r.miss, "cycles", method, "lat_mem_tlb");
		gp_profile_add(prof, "tlb1_step_t", r.miss_t, "standard errors",
			       "the miss cost over its standard error (evidence)", "lat_mem_tlb");
		return;
	}
}

static const char *kib(char *buf, size_t len, double bytes)
{
	snprintf(buf, len, "%.0f KiB", bytes / 1024);
	return buf;
}

/* One curve's levels: latency, the footprints on the level, its capacity, the next footprint. */
static void levels_md(FILE *md, const struct gp_table *t, const char *pattern, const char *path, double stride,
		      const char *what, double min_step)
{
	struct gp_cp_result cp;
	const size_t n = mem_levels(t, pattern, path, stride, min_step, &cp);
	char a[48], b[48], span[112];

	if (!n)
		return;
	fprintf(md, "\n%s, `%s` path", what, path);
	if (stride > 0)
		fprintf(md, ", %.0f KiB stride", stride / 1024);
	fprintf(md, ": %zu level%s over %zu footprints (noise %.3f in ln latency; a boundary is kept when its "
		    "step is at least %.0f standard errors and %.0f times the noise, with %d points on each side "
		    "and the plateaus apart)%s.\n\n",
		cp.nlevels, cp.nlevels == 1 ? "" : "s", n, fmax(cp.sigma, cp.sigma_fit), GP_CP_MIN_T, GP_CP_MIN_NOISE,
		GP_CP_MIN_POINTS, cp.nlevels == 1 ? ": no step detected" : "");
	gp_md_header(md, "level", "latency (cycles)", "footprints on the level", "capacity (last on level)",
		     "next footprint", "points", "step to next / noise", "step / std. error");
	for (size_t k = 0; k < cp.nlevels; k++) {
		const struct gp_cp_level *l = &cp.level[k];
		snprintf(span, sizeof span, "%s … %s", kib(a, sizeof a, l->footprint_first),
			 kib(b, sizeof b, l->footprint_last));
		gp_md_num(md, (double)(k + 1));
		gp_md_num(md, l->latency);
		gp_md_str(md, span);
		gp_md_str(md, kib(a, sizeof a, l->footprint_last));
		gp_md_str(md, l->footprint_next > 0 ? kib(b, sizeof b, l->footprint_next) : NULL);
		gp_md_num(md, (double)l->npoints);
		gp_md_num(md, k + 1 < cp.nlevels ? l->step_noise : NAN);
		gp_md_num(md, k + 1 < cp.nlevels ? l->step_t : NAN);
		gp_md_end(md);
	}
}

/* The load paths side by side: each path's levels' latencies, nearest first (the cg path has no
 * L1 level, so its first is L2; nc's first is the read-only/L1 array). */
static void paths_md(FILE *md, const char *const *paths, const struct gp_cp_result *cp, const int *have, size_t np)
{
	fprintf(md, "\nLoad paths side by side (random chase; cycles of each level, nearest first):\n\n");
	gp_md_header(md, "path", "levels", "level 1", "level 2", "level 3", "level 4", "level 5");
	for (size_t p = 0; p < np; p++) {
		if (!have[p])
			continue;
		gp_md_str(md, paths[p]);
		gp_md_num(md, (double)cp[p].nlevels);
		for (size_t k = 0; k < 5; k++)
			gp_md_num(md, k < cp[p].nlevels ? cp[p].level[k].latency : NAN);
		gp_md_end(md);
	}
}

static void lat_mem_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const paths[] = { "default", "cg", "nc" };
	struct gp_cp_result cp[GP_ARRAY_SIZE(paths)];
	int have[GP_ARRAY_SIZE(paths)], found = 0;

	fprintf(md, "E003: single-thread pointer chase, cycles per dependent load against footprint; levels "
		    "and capacities found by change-point detection (harness/changepoint.c). Paper (seed 000, "
		    "GT200): %s cycles to DRAM.\n", gp_ref_or_dash(ref, "lat_mem", "paper_latency"));
	for (size_t p = 0; p < GP_ARRAY_SIZE(paths); p++) {
		levels_md(md, t, "random", paths[p], -1, "Random chase", GP_CP_MIN_STEP);
		have[p] = mem_levels(t, "random", paths[p], -1, GP_CP_MIN_STEP, &cp[p]) > 0;
		found += have[p];
	}
	if (found > 1)
		paths_md(md, paths, cp, have, GP_ARRAY_SIZE(paths));
	fputc('\n', md);
}

/* One curve per path and stride: a sweep over several page sizes (2 MiB, 32 MiB) tells a TLB
 * whose reach counts pages from one whose reach is a span of addresses. */
static void lat_mem_tlb_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const paths[] = { "cg", "default", "nc" };
	int header = 0;

	fprintf(md, "TLB: one page-sized stride a slot, pages in random order. A TLB that holds the pages of "
		    "R bytes hits on R / F of the loads over a footprint F > R, so the latency is hit + miss x "
		    "max(0, 1 - R / F): flat up to the reach, then a ramp toward hit + miss. The fit (harness/reach.c) "
		    "publishes a reach when the miss cost is at least %.0f standard errors and %.0f times the "
		    "residual noise, with %d points at or below R and %d at %.0f R or beyond, every one of the "
		    "first below every one of the second.\n\n",
		GP_CP_MIN_T, GP_CP_MIN_NOISE, GP_REACH_MIN_POINTS, GP_REACH_MIN_POINTS, GP_REACH_FAR);
	for (size_t p = 0; p < GP_ARRAY_SIZE(paths); p++) {
		double strides[16];
		size_t ns = 0;
		for (size_t r = 0; r < t->nrows; r++) {
			const double s = gp_table_num(t, r, "stride_bytes");
			size_t k = 0;
			if (!gp_table_row_ok(t, r) || !is(t, r, "path", paths[p]) || isnan(s))
				continue;
			while (k < ns && strides[k] != s)
				k++;
			if (k == ns && ns < GP_ARRAY_SIZE(strides))
				strides[ns++] = s;
		}
		for (size_t k = 0; k < ns; k++) {
			struct gp_reach r;
			size_t n;
			char a[48];
			if (tlb_reach(t, paths[p], strides[k], &r, &n))
				continue;
			if (!header++)
				gp_md_header(md, "path", "stride", "footprints", "reach", "hit (cycles)", "miss (cycles)",
					     "miss / std. error", "miss / noise", "noise (cycles)", "points <= R",
					     "points >= 4 R", "apart", "detected");
			gp_md_str(md, paths[p]);
			gp_md_str(md, kib(a, sizeof a, strides[k]));
			gp_md_num(md, (double)n);
			snprintf(a, sizeof a, "%.0f MiB", r.reach / 1048576.0);
			gp_md_str(md, a);
			gp_md_num(md, r.supported ? r.hit : r.median);
			gp_md_num(md, r.miss);
			gp_md_num(md, r.miss_t);
			gp_md_num(md, r.miss_noise);
			gp_md_num(md, r.noise);
			gp_md_num(md, (double)r.below);
			gp_md_num(md, (double)r.far);
			gp_md_str(md, r.separated ? "yes" : "no");
			gp_md_str(md, r.supported ? "yes" : "none detected");
			gp_md_end(md);
		}
	}
	fputc('\n', md);
}

static void lat_mem_dist_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const cols[] = { "path", "footprint_bytes", "p05_cycles", "p50_cycles", "p95_cycles",
					    "p99_cycles", "max_cycles", "samples" };

	fprintf(md, "Per-access latency (each load timed alone, timer overhead subtracted).\n\n");
	gp_md_header(md, "path", "footprint", "p05", "p50", "p95", "p99", "max", "samples");
	gp_md_rows(md, t, cols, GP_ARRAY_SIZE(cols));
	fputc('\n', md);
}

/* ------------------------------------------------------------------ bandwidth */

static void bw_global_derive(struct gp_profile *prof, const struct gp_table *t)
{
	double best = 0;
	const char *bp = NULL;
	char m[160];

	for (size_t r = 0; r < t->nrows; r++)
		if (gp_table_row_ok(t, r) && gp_table_num(t, r, "bandwidth_GBps") > best) {
			best = gp_table_num(t, r, "bandwidth_GBps");
			bp = gp_table_get(t, r, "path");
		}
	if (!bp)
		return;
	snprintf(m, sizeof m, "best of the load width/path/occupancy sweep (%s path)", bp);
	gp_profile_add(prof, "global_load_bw_best_GBps", best, "GB/s", m, "bw_global");
}

/* The best GB/s of any row of one width and path (NaN: none). */
static double best_bw(const struct gp_table *t, int width, const char *path)
{
	double best = NAN;

	for (size_t r = 0; r < t->nrows; r++) {
		const double v = gp_table_num(t, r, "bandwidth_GBps");
		if (is(t, r, "path", path) && gp_table_num(t, r, "width_bits") == width && !isnan(v) &&
		    (isnan(best) || v > best))
			best = v;
	}
	return best;
}

/* Seed 001 Observation 4 layout: width down, path across. */
static void bw_global_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const paths[] = { "default", "nc", "cg", "cs" };
	static const int widths[] = { 32, 64, 128 };
	char label[16];

	fprintf(md, "E108: GB/s, each thread ILP loads at a grid-sized stride (seed: 4), best occupancy measured. "
		    "Paper (K20m): LDG.128 %s GB/s, LD.128 %s GB/s.\n\n",
		gp_ref_or_dash(ref, "bw_global", "paper_ldg128"), gp_ref_or_dash(ref, "bw_global", "paper_ld128"));
	gp_md_header(md, "width", "default", "nc", "cg", "cs");
	for (size_t w = 0; w < GP_ARRAY_SIZE(widths); w++) {
		snprintf(label, sizeof label, "LDG.%d", widths[w]);
		gp_md_str(md, label);
		for (size_t p = 0; p < GP_ARRAY_SIZE(paths); p++)
			gp_md_num(md, best_bw(t, widths[w], paths[p]));
		gp_md_end(md);
	}
	fputc('\n', md);
}

/* The GB/s the ratios are taken against: of the last row with col = value (and col2 = value2),
 * or with `first`, of the first such row that has one. NaN if none. */
static double base_bw(const struct gp_table *t, const char *col, double value, const char *col2, double value2,
		      int first)
{
	double v = NAN;

	for (size_t r = 0; r < t->nrows; r++)
		if (gp_table_num(t, r, col) == value && (!col2 || gp_table_num(t, r, col2) == value2) &&
		    (!first || isnan(v)))
			v = gp_table_num(t, r, "bandwidth_GBps");
	return v;
}

static void bw_coalesce_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	const double base = base_bw(t, "stride_words", 1, "offset_words", 0, 0);

	fprintf(md, "E016: strided and misaligned float loads; the 32-byte-sector model's efficiency next to the "
		    "measurement.\n\n");
	gp_md_header(md, "stride (floats)", "offset (floats)", "GB/s useful", "model efficiency %",
		     "measured / stride-1 aligned %");
	for (size_t r = 0; r < t->nrows; r++) {
		gp_md_cell(md, gp_table_get(t, r, "stride_words"));
		gp_md_cell(md, gp_table_get(t, r, "offset_words"));
		gp_md_cell(md, gp_table_get(t, r, "bandwidth_GBps"));
		gp_md_cell(md, gp_table_get(t, r, "model_efficiency_pct"));
		gp_md_num(md, 100.0 * gp_table_num(t, r, "bandwidth_GBps") / base);
		gp_md_end(md);
	}
	fputc('\n', md);
}

static void bw_padding_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	const double base = base_bw(t, "lda_mod_8", 0, NULL, 0, 1);

	fprintf(md, "E016: GEMM-like column walk (a warp reads 32 consecutive floats of a column) against lda. "
		    "Paper model (CC 1.3 segments): padding unit 8 %s, unit 4 %s.\n\n",
		gp_ref_or_dash(ref, "bw_padding", "paper_unit8"), gp_ref_or_dash(ref, "bw_padding", "paper_unit4"));
	gp_md_header(md, "lda", "lda mod 8", "GB/s", "measured / lda = 0 mod 8 %", "model sector efficiency %");
	for (size_t r = 0; r < t->nrows; r++) {
		gp_md_cell(md, gp_table_get(t, r, "lda"));
		gp_md_cell(md, gp_table_get(t, r, "lda_mod_8"));
		gp_md_cell(md, gp_table_get(t, r, "bandwidth_GBps"));
		gp_md_num(md, 100.0 * gp_table_num(t, r, "bandwidth_GBps") / base);
		gp_md_cell(md, gp_table_get(t, r, "model_efficiency_pct"));
		gp_md_end(md);
	}
	fputc('\n', md);
}

/* The last ok row of an op (-1: none). */
static long op_row(const struct gp_table *t, const char *op)
{
	long row = -1;

	for (size_t r = 0; r < t->nrows; r++)
		if (is(t, r, "op", op) && gp_table_row_ok(t, r))
			row = (long)r;
	return row;
}

/* The GB/s of an op's row (NaN: none): at its median time, or at its best (minimum) time. */
static double op_bw(const struct gp_table *t, const char *op)
{
	const long r = op_row(t, op);

	return r < 0 ? NAN : gp_table_num(t, (size_t)r, "bandwidth_GBps");
}

static double op_best_bw(const struct gp_table *t, const char *op)
{
	const long r = op_row(t, op);

	return r < 0 ? NAN : gp_table_num(t, (size_t)r, "bytes_moved") / gp_table_num(t, (size_t)r, "time_ms_min") / 1e6;
}

static double op_spread(const struct gp_table *t, const char *op)
{
	const long r = op_row(t, op);

	return r < 0 ? NAN : gp_table_num(t, (size_t)r, "spread");
}

/* Read against cuMemcpyDtoD, like with like: each at its best repetition (the DtoD times are
 * bimodal on some GPUs, so a median against a median compares two different statistics). The
 * ratio is NaN without both rows; *noisy says a spread above GP_NOISY_SPREAD on either side. */
static double read_of_dtod(const struct gp_table *t, int *noisy)
{
	*noisy = op_spread(t, "read") > GP_NOISY_SPREAD || op_spread(t, "dtod") > GP_NOISY_SPREAD;
	return 100.0 * op_best_bw(t, "read") / op_best_bw(t, "dtod");
}

static void bw_hbm_derive(struct gp_profile *prof, const struct gp_table *t)
{
#define HBM_KERNELS "16-byte vectors, grid-stride, footprint >> L2; copy counts read + write"
	static const struct {
		const char *op, *key, *method;
	} ops[] = {
		{ "l2_read", "l2_read_bw_GBps", "ld.global.cg.v4, footprint under L2, all SMs" },
		{ "read", "hbm_read_bw_GBps", HBM_KERNELS },
		{ "write", "hbm_write_bw_GBps", HBM_KERNELS },
		{ "copy", "hbm_copy_bw_GBps", HBM_KERNELS },
		{ "dtod", "hbm_dtod_bw_GBps", "cuMemcpyDtoD, read + write bytes" },
	};
#undef HBM_KERNELS
	char method[256];
	int noisy;
	const double ratio = read_of_dtod(t, &noisy);

	for (size_t i = 0; i < GP_ARRAY_SIZE(ops); i++) {
		const double s = op_spread(t, ops[i].op);
		if (isnan(op_bw(t, ops[i].op)))
			continue;
		snprintf(method, sizeof method, "%s; median%s", ops[i].method,
			 s > GP_NOISY_SPREAD ? " of a noisy or bimodal spread (see bw_hbm.csv time_ms_min)" : "");
		gp_profile_add(prof, ops[i].key, op_bw(t, ops[i].op), "GB/s", method, "bw_hbm");
	}
	if (!isnan(ratio))
		gp_profile_add(prof, "hbm_read_pct_of_dtod", ratio, "%",
			       noisy ? "read kernel / cuMemcpyDtoD, each at its best repetition, same run; flagged: "
				       "a spread above 5 % on one side"
				     : "read kernel / cuMemcpyDtoD, each at its best repetition, same run",
			       "bw_hbm");
}

static void bw_hbm_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const cols[] = { "op", "level", "footprint_bytes", "bandwidth_GBps", "ceiling_GBps",
					    "pct_of_ceiling", "spread", "status" };
	int noisy;
	const double ratio = read_of_dtod(t, &noisy);

	fprintf(md, "Bandwidth ceilings (copy and cuMemcpyDtoD count read + write bytes; GB/s at the median "
		    "time; spread = (max - min) / median over the repetitions).\n\n");
	gp_md_header(md, "op", "level", "footprint", "GB/s", "ceiling GB/s", "% of ceiling", "spread", "status");
	gp_md_rows(md, t, cols, GP_ARRAY_SIZE(cols));
	for (size_t i = 0, n = 0; i < t->nrows; i++)
		if (gp_table_num(t, i, "spread") > GP_NOISY_SPREAD)
			fprintf(md, "%s- **%s: spread %.1f %%**: bimodal or noisy; at its best repetition %.0f GB/s.\n",
				n++ ? "" : "\n", gp_table_get(t, i, "op"), 100 * gp_table_num(t, i, "spread"),
				gp_table_num(t, i, "bytes_moved") / gp_table_num(t, i, "time_ms_min") / 1e6);
	if (!isnan(ratio))
		fprintf(md, "\nHBM read = %.1f %% of the device-to-device copy rate, each at its best repetition in the "
			    "same run (goal: at least 90 %%)%s.\n",
			ratio, noisy ? "; **flagged**: a spread above 5 % on one side" : "");
	fputc('\n', md);
}

GP_ANALYSIS_BY_NAME(lat_mem);
GP_ANALYSIS_BY_NAME(lat_mem_tlb);
GP_ANALYSIS(lat_mem_dist, NULL, lat_mem_dist_report);
GP_ANALYSIS_BY_NAME(bw_global);
GP_ANALYSIS(bw_coalesce, NULL, bw_coalesce_report);
GP_ANALYSIS(bw_padding, NULL, bw_padding_report);
GP_ANALYSIS_BY_NAME(bw_hbm);
