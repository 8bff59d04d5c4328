/* mma_report.c — what lat_mma and tput_mma make of their tables (no device code): per form of
 * probes/mma.list its latency and its best rate over the warps sweep as profile keys, and the
 * REPORT.md tables in list order, with Luo et al.'s H800 numbers (configs/reference.csv, absent by
 * design where the paper has none) and the datasheet peak beside ours. */
#include "gp.h"
#include "analysis.h"
#include "mma.h"
#include "mma_shape.h"

#include <math.h>
#include <string.h>

/* The ok row of `variant` with the smallest (sign -1) or largest (+1) value of col; -1 if none. */
static long mma_best(const struct gp_table *t, const char *variant, const char *col, int sign)
{
	long best = -1;

	for (long r = 0; (r = gp_table_find(t, (size_t)r, "variant", variant, NULL)) >= 0; r++) {
		const double v = gp_table_num(t, (size_t)r, col);
		if (gp_table_row_ok(t, (size_t)r) && !isnan(v) &&
		    (best < 0 || sign * v > sign * gp_table_num(t, (size_t)best, col)))
			best = r;
	}
	return best;
}

/* mma_<variant>_<suffix> from row r's column col. */
static void mma_key(struct gp_profile *prof, const struct gp_table *t, long r, const char *col, const char *suffix,
		    const char *unit, const char *method, const char *exp)
{
	const double v = gp_table_num(t, (size_t)r, col);
	char key[96];

	if (isnan(v))
		return;
	snprintf(key, sizeof key, "mma_%s_%s", gp_table_get(t, (size_t)r, "variant"), suffix);
	gp_profile_add(prof, key, v, unit, method, exp);
}

/* A paper reference of a form: <exp>/<variant>_<what>, absent by design for most. */
static const char *mma_ref(const struct gp_table *ref, const char *exp, const char *variant, const char *what)
{
	char key[96];

	snprintf(key, sizeof key, "%s_%s", variant, what);
	return gp_reference_opt(ref, exp, key);
}

/* One report row: the variant, row r's cells of cols (none when r < 0), the published values
 * (NULL: none), the status of row `st`. */
struct mma_cells {
	const char *const *cols;
	size_t ncols;
	const char *refs[2];
	size_t nrefs;
};

static void mma_row(FILE *md, const struct gp_table *t, const char *variant, long r, const struct mma_cells *c,
		    size_t st)
{
	gp_md_str(md, variant);
	for (size_t i = 0; i < c->ncols; i++)
		gp_md_cell(md, r >= 0 ? gp_table_get(t, (size_t)r, c->cols[i]) : NULL);
	for (size_t i = 0; i < c->nrefs; i++)
		gp_md_cell(md, c->refs[i]);
	gp_md_str(md, gp_table_get(t, st, "status"));
	gp_md_end(md);
}

/* ---------------------------------------------------------------- H001 lat_mma */

static void lat_mma_derive(struct gp_profile *prof, const struct gp_table *t)
{
	for (size_t i = 0; i < gp_nmmas; i++) {
		const long r = mma_best(t, gp_mmas[i].name, "cycles_per_mma", -1);
		if (r >= 0)
			mma_key(prof, t, r, "cycles_per_mma", "latency_cycles", "cycles",
				"dependent accumulator chain, 1 warp, clock64", "lat_mma");
	}
}

static void lat_mma_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const cols[] = { "sass", "flops_per_mma", "cycles_per_mma", "latency_ns", "flops_per_clk_one_warp" };

	fprintf(md, "Dependent mma.sync chain D = A*B + D of one warp (%d mma per loop trip, clock64, timer overhead "
		    "subtracted; every D element checked against the host's exact sum). Luo et al.: their GPU's "
		    "number (configs/reference.csv) where the paper has one.\n\n",
		MMA_TRIP_STEPS);
	gp_md_header(md, "variant", "SASS", "FLOP/mma", "latency (cycles)", "ns", "FLOP/clk, one warp",
		     "Luo et al. (cycles)", "status");
	for (size_t r = 0; r < t->nrows; r++) {
		const char *v = gp_table_get(t, r, "variant");
		const struct mma_cells c = { cols, GP_ARRAY_SIZE(cols), { mma_ref(ref, "lat_mma", v, "luo_latency") }, 1 };

		mma_row(md, t, v, (long)r, &c, r);
	}
	fputc('\n', md);
}

/* ---------------------------------------------------------------- H002 tput_mma */

static void tput_mma_derive(struct gp_profile *prof, const struct gp_table *t)
{
	static const char method[] = "4 chains/warp, best of the warps sweep, all SMs, grid cycle window";

	for (size_t i = 0; i < gp_nmmas; i++) {
		const long r = mma_best(t, gp_mmas[i].name, "flops_per_clk_per_sm", 1);
		if (r < 0)
			continue;
		mma_key(prof, t, r, "flops_per_clk_per_sm", "flops_per_clk_per_sm", "FLOP/clk/SM", method, "tput_mma");
		mma_key(prof, t, r, "tflops", "tflops", "TFLOP/s", method, "tput_mma");
		mma_key(prof, t, r, "pct_of_peak", "pct_of_peak", "%", method, "tput_mma");
	}
}

/* The datasheet peak of the form's type and density (tput_mma/<type>_<dense|sparse>_datasheet_tflops). */
static const char *mma_datasheet(const struct gp_table *ref, const struct gp_mma *d)
{
	char key[64];

	snprintf(key, sizeof key, "%s_%s_datasheet_tflops", gp_mma_rate_type(d), d->sparse ? "sparse" : "dense");
	return gp_reference_opt(ref, "tput_mma", key);
}

/* One row per form, its best point of the warps sweep (or its first row's status). */
static void tput_mma_row(FILE *md, const struct gp_table *t, const struct gp_table *ref, const struct gp_mma *d)
{
	static const char *const cols[] = { "sass", "warps_per_sm", "flops_per_clk_per_sm", "tflops",
					    "peak_flops_per_clk_per_sm", "pct_of_peak" };
	const long best = mma_best(t, d->name, "flops_per_clk_per_sm", 1), first = gp_table_find(t, 0, "variant", d->name, NULL);
	const struct mma_cells c = { cols, GP_ARRAY_SIZE(cols),
				     { mma_datasheet(ref, d), mma_ref(ref, "tput_mma", d->name, "luo_tflops") }, 2 };

	if (first >= 0)
		mma_row(md, t, d->name, best, &c, (size_t)(best >= 0 ? best : first));
}

static void tput_mma_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	fprintf(md, "mma.sync throughput over every SM, %d independent accumulators per warp, the best point of "
		    "the warps-per-SM sweep per form: FLOP (2 M N K per mma, K the logical K for the sparse forms, "
		    "as NVIDIA counts them) over the grid's own cycle window, TFLOP/s at the measured clock, and "
		    "the share of the type's tensor peak per clock (sparse: twice the dense one). Datasheet: the "
		    "vendor's TFLOP/s at boost clock (its card, not this one); Luo et al.: their GPU's number.\n\n",
		MMA_CHAINS);
	gp_md_header(md, "variant", "SASS", "warps/SM", "FLOP/clk/SM", "TFLOP/s", "peak FLOP/clk/SM", "% of peak",
		     "datasheet TFLOP/s", "Luo et al. TFLOP/s", "status");
	for (size_t i = 0; i < gp_nmmas; i++)
		tput_mma_row(md, t, ref, &gp_mmas[i]);
	fputc('\n', md);
}

GP_ANALYSIS_BY_NAME(lat_mma);
GP_ANALYSIS_BY_NAME(tput_mma);
