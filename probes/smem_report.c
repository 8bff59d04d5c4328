/* smem_report.c — profile keys and REPORT.md sections of lat_smem, lat_const, bw_smem and
 * bank_smem from their tables (no device code), with seed 001's LDS.64 figure from
 * configs/reference.csv. The constant cache's levels (L1, L1.5, and what lies beyond) come from
 * change-point detection over its chase with the evidence rule of harness/changepoint.h; a
 * capacity without a supported boundary is "none detected" (one constant bank, 64 KB, bounds the
 * chase: an L1.5 at least that large shows no boundary). */
#include "gp.h"
#include "analysis.h"
#include "changepoint.h"

#include <math.h>
#include <string.h>

#define ONCHIP_MAXPTS 1024 /* footprints of one chase curve the analysis reads (a 64 B sweep of 64 KB) */

/* The cell equals v (a missing column or cell never does). */
static int is(const struct gp_table *t, size_t r, const char *col, const char *v)
{
	const char *c = gp_table_get(t, r, col);

	return c && !strcmp(c, v);
}

/* ------------------------------------------------------------------ lat_smem, lat_const */

/* The curve of ok rows whose footprint grows, in table order; its length. */
static size_t onchip_curve(const struct gp_table *t, double *fp, double *lat, size_t max)
{
	size_t n = 0;

	for (size_t r = 0; r < t->nrows && n < max; r++) {
		const double f = gp_table_num(t, r, "footprint_bytes"), v = gp_table_num(t, r, "cycles_per_load");
		if (gp_table_row_ok(t, r) && !isnan(f) && !isnan(v) && (!n || f > fp[n - 1])) {
			fp[n] = f;
			lat[n++] = v;
		}
	}
	return n;
}

/* A capacity the curve shows no boundary for: "none detected", the largest footprint its bound. */
static void no_boundary(struct gp_profile *prof, const char *key, double largest, const char *method)
{
	char k[64];

	gp_profile_add_text(prof, key, "none detected", "bytes", method, "lat_const");
	snprintf(k, sizeof k, "%.*s_min_bytes", (int)(strlen(key) - strlen("_bytes")), key);
	gp_profile_add(prof, k, largest, "bytes", "no boundary up to the largest footprint measured", "lat_const");
}

/* The constant cache's levels: level 1 the constant L1, level 2 the L1.5 (its latency is the L1's
 * miss), level 3 what serves the L1.5's misses. The const_cache_l<k>_* keys number the levels as
 * found; the l15 keys name the second level; a capacity without a supported boundary is "none
 * detected", with the largest footprint measured as its lower bound. */
static void const_levels(struct gp_profile *prof, const double *fp, const double *lat, size_t n)
{
	static const char src[] = "lat_const";
	char method[160], key[64];
	struct gp_cp_result cp;

	if (n < 3 || gp_changepoint_supported(fp, lat, n, GP_CP_MIN_STEP, &cp) || !cp.nlevels)
		return;
	snprintf(method, sizeof method, "constant chase, change-point levels over %zu footprints (t >= %.0f, "
		 "step >= %.0f noise, separated)", n, GP_CP_MIN_T, GP_CP_MIN_NOISE);
	for (size_t k = 0; k + 1 < cp.nlevels && k < 2; k++) {
		snprintf(key, sizeof key, "const_cache_l%zu_capacity_bytes", k + 1);
		gp_profile_add(prof, key, cp.level[k].footprint_last, "bytes", method, src);
		snprintf(key, sizeof key, "const_cache_l%zu_miss_latency_cycles", k + 1);
		gp_profile_add(prof, key, cp.level[k + 1].latency, "cycles", method, src);
	}
	if (cp.nlevels == 1) {
		no_boundary(prof, "const_cache_l1_capacity_bytes", fp[n - 1], method);
		return;
	}
	gp_profile_add(prof, "const_cache_l15_latency_cycles", cp.level[1].latency, "cycles", method, src);
	if (cp.nlevels > 2)
		gp_profile_add(prof, "const_cache_l15_capacity_bytes", cp.level[1].footprint_last, "bytes", method, src);
	else
		no_boundary(prof, "const_cache_l15_capacity_bytes", fp[n - 1], method);
}

/* The smallest footprint's latency (every chase fits the nearest level); for the constant chase
 * also the levels of its curve. */
static void onchip_derive(struct gp_profile *prof, const struct gp_table *t, const char *exp, const char *key)
{
	double fp[ONCHIP_MAXPTS], lat[ONCHIP_MAXPTS];
	const size_t n = onchip_curve(t, fp, lat, ONCHIP_MAXPTS);
	double best_fp = INFINITY, best = NAN;

	for (size_t r = 0; r < t->nrows; r++) {
		const double f = gp_table_num(t, r, "footprint_bytes"), v = gp_table_num(t, r, "cycles_per_load");
		if (gp_table_row_ok(t, r) && !isnan(f) && !isnan(v) && f < best_fp) {
			best_fp = f;
			best = v;
		}
	}
	if (isnan(best))
		return;
	gp_profile_add(prof, key, best, "cycles", "single-thread dependent chase, smallest footprint", exp);
	if (!strcmp(exp, "lat_const"))
		const_levels(prof, fp, lat, n);
}

static void lat_smem_derive(struct gp_profile *prof, const struct gp_table *t)
{
	onchip_derive(prof, t, "lat_smem", "lds_latency_cycles");
}

static void lat_const_derive(struct gp_profile *prof, const struct gp_table *t)
{
	onchip_derive(prof, t, "lat_const", "const_latency_cycles");
}

static void onchip_report(FILE *md, const struct gp_table *t, const char *what)
{
	static const char *const cols[] = { "footprint_bytes", "stride_bytes", "cycles_per_load", "latency_ns" };

	fprintf(md, "%s: single-thread dependent chase.\n\n", what);
	gp_md_header(md, "footprint", "stride", "cycles per load", "ns");
	gp_md_rows(md, t, cols, GP_ARRAY_SIZE(cols));
	fputc('\n', md);
}

static void lat_smem_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	onchip_report(md, t, "Shared memory (ld.shared)");
}

/* The constant chase's levels with the evidence of each boundary (harness/changepoint.h). */
static void const_levels_md(FILE *md, const struct gp_table *t)
{
	static const char *const names[] = { "constant L1", "constant L1.5", "beyond the L1.5" };
	double fp[ONCHIP_MAXPTS], lat[ONCHIP_MAXPTS];
	const size_t n = onchip_curve(t, fp, lat, ONCHIP_MAXPTS);
	struct gp_cp_result cp;

	if (n < 3 || gp_changepoint_supported(fp, lat, n, GP_CP_MIN_STEP, &cp)) {
		fprintf(md, "Levels: too few footprints to tell (%zu).\n\n", n);
		return;
	}
	fprintf(md, "Levels over %zu footprints (a boundary is kept when its step is at least %.0f standard errors "
		    "and %.0f times the noise, with %d points a side and the plateaus apart); the last level's "
		    "capacity is beyond the largest footprint: none detected up to %.0f bytes.\n\n",
		n, GP_CP_MIN_T, GP_CP_MIN_NOISE, GP_CP_MIN_POINTS, fp[n - 1]);
	gp_md_header(md, "level", "cycles", "first footprint", "last footprint (capacity)", "points",
		     "step to next / noise", "step / std. error");
	for (size_t k = 0; k < cp.nlevels; k++) {
		const struct gp_cp_level *l = &cp.level[k];
		gp_md_str(md, k < GP_ARRAY_SIZE(names) ? names[k] : "further");
		gp_md_num(md, l->latency);
		gp_md_num(md, l->footprint_first);
		if (k + 1 < cp.nlevels)
			gp_md_num(md, l->footprint_last);
		else
			gp_md_str(md, "none detected");
		gp_md_num(md, (double)l->npoints);
		gp_md_num(md, k + 1 < cp.nlevels ? l->step_noise : NAN);
		gp_md_num(md, k + 1 < cp.nlevels ? l->step_t : NAN);
		gp_md_end(md);
	}
	fputc('\n', md);
}

static void lat_const_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	onchip_report(md, t, "Constant cache (ld.const, register address)");
	const_levels_md(md, t);
	fprintf(md, "One constant bank holds at most %s bytes, which bounds the chase; published: constant L1.5 "
		    "%s.\n\n",
		gp_ref_or_dash(ref, "lat_const", "const_bank_bytes"), gp_ref_or_dash(ref, "lat_const", "published_l15_capacity"));
}

/* ------------------------------------------------------------------ bw_smem, bank_smem */

static void bw_smem_derive(struct gp_profile *prof, const struct gp_table *t)
{
	for (int w = 32; w <= 128; w *= 2) {
		double best = -1;
		char key[64];
		for (size_t r = 0; r < t->nrows; r++) {
			const double v = gp_table_num(t, r, "bytes_per_clk_per_sm");
			if (gp_table_row_ok(t, r) && is(t, r, "op", "lds") && is(t, r, "pattern", "conflict_free") &&
			    gp_table_num(t, r, "width_bits") == w && v > best)
				best = v;
		}
		if (best < 0)
			continue;
		snprintf(key, sizeof key, "lds%d_bytes_per_clk_per_sm", w);
		gp_profile_add(prof, key, best, "B/clk/SM", "conflict-free LDS, 1 block/SM, largest volume", "bw_smem");
	}
}

/* B/clk/SM of the row with the most iterations of one op, pattern and width (NULL: none). */
static const char *largest_volume(const struct gp_table *t, const char *op, const char *pattern, int width)
{
	double best_it = -1;
	const char *v = NULL;

	for (size_t r = 0; r < t->nrows; r++) {
		const double it = gp_table_num(t, r, "iters");
		if (is(t, r, "op", op) && is(t, r, "pattern", pattern) && gp_table_num(t, r, "width_bits") == width &&
		    it > best_it) {
			best_it = it;
			v = gp_table_get(t, r, "bytes_per_clk_per_sm");
		}
	}
	return v;
}

/* Seed 001 Figure 4 as a table: B/clk/SM at the largest volume, per width and pattern. */
static void bw_smem_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const ops[] = { "lds", "sts" };
	static const char *const pats[] = { "conflict_free", "broadcast" };

	fprintf(md, "E107: shared-memory bytes per clock per SM at the largest data volume (ceiling 128 B/clk "
		    "conflict-free). Paper (K20m): LDS.64 best at %s %% of peak.\n\n",
		gp_ref_or_dash(ref, "bw_smem", "paper_lds64_pct"));
	gp_md_header(md, "op", "pattern", "32-bit", "64-bit", "128-bit");
	for (size_t o = 0; o < GP_ARRAY_SIZE(ops); o++)
		for (size_t p = 0; p < GP_ARRAY_SIZE(pats); p++) {
			gp_md_str(md, ops[o]);
			gp_md_str(md, pats[p]);
			for (int w = 32; w <= 128; w *= 2)
				gp_md_cell(md, largest_volume(t, ops[o], pats[p], w));
			gp_md_end(md);
		}
	fputc('\n', md);
}

/* At the most warps the sweep ran (where a conflict's cost is fully exposed: one warp also pays
 * the load's latency), one row per stride and a column per width and padding: the measured
 * degree (cycles over the stride-1 cycles) beside the model's; cycles are in the CSV. */
static void bank_smem_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const head[] = { "stride", "32-bit", "32-bit padded", "64-bit", "64-bit padded", "128-bit",
					    "128-bit padded" };
	double warps = -1, strides[64];
	size_t ns = 0;

	for (size_t r = 0; r < t->nrows; r++) {
		const double st = gp_table_num(t, r, "stride");
		size_t i;
		if (!gp_table_row_ok(t, r))
			continue;
		warps = fmax(warps, gp_table_num(t, r, "warps"));
		for (i = 0; i < ns && strides[i] != st; i++)
			;
		if (i == ns && ns < GP_ARRAY_SIZE(strides))
			strides[ns++] = st;
	}
	fprintf(md, "Bank conflicts at %g warps per block: conflict degree measured (cycles per warp access over "
		    "the stride-1 cycles) and, in brackets, the model's (wavefronts over conflict-free wavefronts), "
		    "per stride in elements.\n\n", warps);
	gp_md_head(md, head, GP_ARRAY_SIZE(head));
	for (size_t i = 0; i < ns; i++) {
		gp_md_num(md, strides[i]);
		for (int c = 0; c < 6; c++) {
			char w[16], pad[4], cellv[64], m1[32], m2[32];
			long r;
			snprintf(w, sizeof w, "%d", 32 << (c / 2));
			snprintf(pad, sizeof pad, "%d", c % 2);
			snprintf(cellv, sizeof cellv, "%g", strides[i]);
			r = gp_table_find(t, 0, "width_bits", w, "pad", pad, "stride", cellv, NULL);
			for (; r >= 0 && gp_table_num(t, (size_t)r, "warps") != warps;
			     r = gp_table_find(t, (size_t)r + 1, "width_bits", w, "pad", pad, "stride", cellv, NULL))
				;
			if (r < 0 || !gp_table_row_ok(t, (size_t)r)) {
				gp_md_str(md, NULL);
				continue;
			}
			gp_md_fmt(m1, sizeof m1, gp_table_num(t, (size_t)r, "conflict_degree_measured"));
			gp_md_fmt(m2, sizeof m2, gp_table_num(t, (size_t)r, "conflict_degree_model"));
			snprintf(cellv, sizeof cellv, "%s (%s)", m1, m2);
			gp_md_str(md, cellv);
		}
		gp_md_end(md);
	}
	fputc('\n', md);
}

GP_ANALYSIS_BY_NAME(lat_smem);
GP_ANALYSIS_BY_NAME(lat_const);
GP_ANALYSIS_BY_NAME(bw_smem);
GP_ANALYSIS(bank_smem, NULL, bank_smem_report);
