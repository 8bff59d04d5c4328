/* smem_report.c — profile keys and REPORT.md sections of lat_smem, lat_const, bw_smem and
 * bank_smem from their tables (no device code), with seed 001's LDS.64 figure from
 * configs/reference.csv. The constant cache's levels come from change-point detection over its
 * chase; like the global-memory levels they will want a test of each step against the curve's
 * noise (issue 21), in onchip_derive. */
#include "gp.h"
#include "analysis.h"
#include "changepoint.h"

#include <math.h>
#include <string.h>

/* The cell equals v (a missing column or cell never does). */
static int is(const struct gp_table *t, size_t r, const char *col, const char *v)
{
	const char *c = gp_table_get(t, r, col);

	return c && !strcmp(c, v);
}

/* ------------------------------------------------------------------ lat_smem, lat_const */

/* The smallest footprint's latency (every chase fits the nearest level); for the constant chase
 * also the levels of its curve (ok rows whose footprint grows, in table order). */
static void onchip_derive(struct gp_profile *prof, const struct gp_table *t, const char *exp, const char *key)
{
	double fp[64], lat[64], best_fp = INFINITY, best = NAN;
	size_t n = 0;
	struct gp_cp_result cp;

	for (size_t r = 0; r < t->nrows; r++) {
		const double f = gp_table_num(t, r, "footprint_bytes"), v = gp_table_num(t, r, "cycles_per_load");
		if (!gp_table_row_ok(t, r) || isnan(f) || isnan(v))
			continue;
		if (f < best_fp) {
			best_fp = f;
			best = v;
		}
		if (n < 64 && (!n || f > fp[n - 1])) {
			fp[n] = f;
			lat[n++] = v;
		}
	}
	if (isnan(best))
		return;
	gp_profile_add(prof, key, best, "cycles", "single-thread dependent chase, smallest footprint", exp);
	if (strcmp(exp, "lat_const") || n < 3 || gp_changepoint_supported(fp, lat, n, GP_CP_MIN_STEP, &cp))
		return;
	for (size_t k = 0; k + 1 < cp.nlevels && k < 2; k++) {
		static const char method[] = "constant chase, change-point levels";
		char kk[64];
		snprintf(kk, sizeof kk, "const_cache_l%zu_capacity_bytes", k + 1);
		gp_profile_add(prof, kk, cp.level[k].footprint_last, "bytes", method, exp);
		snprintf(kk, sizeof kk, "const_cache_l%zu_miss_latency_cycles", k + 1);
		gp_profile_add(prof, kk, cp.level[k + 1].latency, "cycles", method, exp);
	}
}

static void lat_smem_derive(struct gp_profile *prof, const struct gp_table *t)
{
	onchip_derive(prof, t, "lat_smem", "lds_latency_cycles");
}

static void lat_const_derive(struct gp_profile *prof, const struct gp_table *t)
{
	onchip_derive(prof, t, "lat_const", "const_latency_cycles");
}

/* Rows as they are: a column per listed CSV column. */
static void rows_md(FILE *md, const struct gp_table *t, const char *const *cols, size_t ncols)
{
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < ncols; c++)
			gp_md_cell(md, gp_table_get(t, r, cols[c]));
		gp_md_end(md);
	}
}

static void onchip_report(FILE *md, const struct gp_table *t, const char *what)
{
	static const char *const cols[] = { "footprint_bytes", "stride_bytes", "cycles_per_load", "latency_ns" };

	fprintf(md, "%s: single-thread dependent chase.\n\n", what);
	gp_md_header(md, "footprint", "stride", "cycles per load", "ns");
	rows_md(md, t, cols, GP_ARRAY_SIZE(cols));
	fputc('\n', md);
}

static void lat_smem_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	onchip_report(md, t, "Shared memory (ld.shared)");
}

static void lat_const_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	onchip_report(md, t, "Constant cache (ld.const, register address)");
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
 * the load's latency); the other warp counts are in the CSV. */
static void bank_smem_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const cols[] = { "width_bits", "pad", "stride", "pattern", "cycles_per_access",
					    "conflict_degree_measured", "conflict_degree_model" };
	double warps = -1;

	for (size_t r = 0; r < t->nrows; r++)
		if (gp_table_row_ok(t, r))
			warps = fmax(warps, gp_table_num(t, r, "warps"));
	fprintf(md, "Bank conflicts: cycles per warp access against stride (elements) with %g warps per block, "
		    "measured degree = cycles / stride-1 cycles, model = wavefronts / conflict-free wavefronts.\n\n",
		warps);
	gp_md_header(md, "width", "pad", "stride", "pattern", "cycles/access", "degree measured", "degree model");
	for (size_t r = 0; r < t->nrows; r++) {
		if (gp_table_num(t, r, "warps") != warps)
			continue;
		for (size_t c = 0; c < GP_ARRAY_SIZE(cols); c++)
			gp_md_cell(md, gp_table_get(t, r, cols[c]));
		gp_md_end(md);
	}
	fputc('\n', md);
}

GP_ANALYSIS(lat_smem, lat_smem_derive, lat_smem_report);
GP_ANALYSIS(lat_const, lat_const_derive, lat_const_report);
GP_ANALYSIS(bw_smem, bw_smem_derive, bw_smem_report);
GP_ANALYSIS(bank_smem, NULL, bank_smem_report);
