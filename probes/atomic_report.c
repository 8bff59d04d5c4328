/* atomic_report.c — what lat_atomic and tput_atomic make of their tables (no device code): the
 * latency of every operation in both spaces, throughput against contention as a pivot (one row
 * per operation, space, form and layout; one column per k), RED against ATOM, and the profile
 * keys a kernel tuner needs. Published figures come from configs/reference.csv where a study has
 * one for the operation (keys global_<op>, shared_<op>: absent by design elsewhere). */
#include "gp.h"
#include "analysis.h"
#include "experiment.h"

#include <math.h>
#include <string.h>

/* A published value with its GPU and source, or NULLs. */
static const char *published(const struct gp_table *ref, const char *exp, const char *key, const char **gpu,
			     const char **src)
{
	const long r = ref ? gp_table_find(ref, 0, "experiment", exp, "key", key, NULL) : -1;

	*gpu = r >= 0 ? gp_table_get(ref, (size_t)r, "gpu") : NULL;
	*src = r >= 0 ? gp_table_get(ref, (size_t)r, "source") : NULL;
	return r >= 0 ? gp_reference_opt(ref, exp, key) : NULL;
}

/* The first row of (op, space), or -1. */
static long lat_row(const struct gp_table *t, const char *op, const char *space)
{
	return gp_table_find(t, 0, "op", op, "space", space, NULL);
}

/* One row per operation: its latency in both spaces, ours beside the published one. */
static void lat_atomic_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const spaces[] = { "global", "shared" };

	fprintf(md, "One thread's dependent chain of atomics on one slot (each result is the next operand, so no "
		    "two overlap): cycles per operation from clock64, the timer's cost subtracted. Global atomics "
		    "execute at L2; shared ones in the SM. Every chain's last value and the slot's are checked "
		    "against the host's replay.\n\n");
	gp_md_header(md, "op", "space", "SASS", "cycles/op", "ns/op", "clock MHz", "published cycles", "published on",
		     "source", "status");
	for (size_t r = 0; r < t->nrows; r++) {
		const char *op = gp_table_get(t, r, "op");
		if (gp_table_find(t, 0, "op", op, NULL) != (long)r)
			continue;
		for (size_t s = 0; s < GP_ARRAY_SIZE(spaces); s++) {
			const long row = lat_row(t, op, spaces[s]);
			const char *gpu, *src, *pub;
			char key[64];
			if (row < 0)
				continue;
			snprintf(key, sizeof key, "%s_%s", spaces[s], op);
			pub = published(ref, "lat_atomic", key, &gpu, &src);
			gp_md_str(md, op);
			gp_md_str(md, spaces[s]);
			gp_md_cell(md, gp_table_get(t, (size_t)row, "sass"));
			gp_md_cell(md, gp_table_get(t, (size_t)row, "cycles_per_op"));
			gp_md_cell(md, gp_table_get(t, (size_t)row, "latency_ns"));
			gp_md_cell(md, gp_table_get(t, (size_t)row, "clock_MHz"));
			gp_md_str(md, pub);
			gp_md_str(md, gpu);
			gp_md_str(md, src);
			gp_md_cell(md, gp_table_get(t, (size_t)row, "status"));
			gp_md_end(md);
		}
	}
	fputc('\n', md);
}

static void lat_atomic_derive(struct gp_profile *prof, const struct gp_table *t)
{
	gp_profile_rows(prof, t, "cycles_per_op", "atomic_%s_%s_latency_cycles", "space", "op", "cycles",
			"one thread's dependent atomic chain, clock64", "lat_atomic");
}

GP_ANALYSIS_BY_NAME(lat_atomic);

/* ---------------------------------------------------------------- tput_atomic */

static int same(const struct gp_table *t, size_t a, size_t b, const char *col)
{
	const char *x = gp_table_get(t, a, col), *y = gp_table_get(t, b, col);

	return x && y ? !strcmp(x, y) : x == y;
}

/* A series: one operation, space, form and layout on one grid, across k. */
static int same_series(const struct gp_table *t, size_t a, size_t b)
{
	return same(t, a, b, "op") && same(t, a, b, "space") && same(t, a, b, "ret") && same(t, a, b, "layout") &&
	       same(t, a, b, "warps_per_sm") && same(t, a, b, "threads_per_block");
}

/* The row of row r's series at k, or -1. */
static long series_at(const struct gp_table *t, size_t r, const char *k)
{
	for (size_t x = 0; x < t->nrows; x++)
		if (same_series(t, x, r) && !strcmp(gp_table_get(t, x, "k"), k))
			return (long)x;
	return -1;
}

static double warps_per_sm(const struct gp_table *t, size_t r)
{
	return gp_table_num(t, r, "warps_per_sm");
}

/* The series of row r has a point the probe could form (a series of n/a rows is left out: a
 * shared address has no lines, CAS and EXCH no red form). */
static int series_formed(const struct gp_table *t, size_t r)
{
	for (size_t x = r; x < t->nrows; x++)
		if (same_series(t, x, r) && !gp_status_na(gp_table_get(t, x, "status")))
			return 1;
	return 0;
}

/* A cell of an ok row; "n/a" or "failed" for the others. */
static const char *status_cell(const struct gp_table *t, size_t r, const char *col)
{
	if (gp_table_row_ok(t, r))
		return gp_table_get(t, r, col);
	return gp_status_na(gp_table_get(t, r, "status")) ? "n/a" : "failed";
}

/* The rate the profile quotes: the median over the repetitions, which cycle through the global
 * slots' placements (atomic_shape.h); runs from before the placements quote their best
 * repetition's, and runs from before that column their median. */
static const char *headline_col(const struct gp_table *t)
{
	if (gp_table_col(t, "placements") < 0 && gp_table_col(t, "best_ops_per_clk_per_sm") >= 0)
		return "best_ops_per_clk_per_sm";
	return "ops_per_clk_per_sm";
}

/* ops/clk/SM of every series (op, space, form, layout) at every k; k = 0 is every thread of the
 * grid (global) or of the block (shared) on one address. */
static void tput_pivot(FILE *md, const struct gp_table *t)
{
	const char *ks[12], *head[16];
	char labels[12][24];
	const size_t nk = gp_table_distinct(t, "k", ks, GP_ARRAY_SIZE(ks));

	head[0] = "op", head[1] = "space", head[2] = "form", head[3] = "layout", head[4] = "warps/SM";
	for (size_t i = 0; i < nk; i++) {
		snprintf(labels[i], sizeof labels[i], "k = %s", strcmp(ks[i], "0") ? ks[i] : "all");
		head[5 + i] = labels[i];
	}
	gp_md_head(md, head, 5 + nk);
	for (size_t r = 0; r < t->nrows; r++) {
		size_t first = 0;
		while (first < r && !same_series(t, first, r))
			first++;
		if (first < r || !series_formed(t, r))
			continue;
		gp_md_cell(md, gp_table_get(t, r, "op"));
		gp_md_cell(md, gp_table_get(t, r, "space"));
		gp_md_cell(md, gp_table_get(t, r, "ret"));
		gp_md_cell(md, gp_table_get(t, r, "layout"));
		gp_md_num(md, warps_per_sm(t, r));
		for (size_t i = 0; i < nk; i++) {
			const long x = series_at(t, r, ks[i]);
			gp_md_cell(md, x < 0 ? NULL : status_cell(t, (size_t)x, headline_col(t)));
		}
		gp_md_end(md);
	}
	fputc('\n', md);
}

/* `col` of (op, space, form, layout, k) on the ok row of the most warps per SM; NaN without one. */
static double rate(const struct gp_table *t, const char *op, const char *space, const char *ret, const char *layout,
		   const char *k, const char *col)
{
	double best = -1, v = NAN;

	for (size_t r = 0; r < t->nrows; r++) {
		if (!gp_table_row_ok(t, r) || strcmp(gp_table_get(t, r, "op"), op) || strcmp(gp_table_get(t, r, "space"), space) ||
		    strcmp(gp_table_get(t, r, "ret"), ret) || strcmp(gp_table_get(t, r, "layout"), layout) ||
		    strcmp(gp_table_get(t, r, "k"), k) || !(warps_per_sm(t, r) > best))
			continue;
		best = warps_per_sm(t, r);
		v = gp_table_num(t, r, col);
	}
	return v;
}

/* RED against ATOM with one thread per address, for every series that has both. */
static void tput_red_vs_atom(FILE *md, const struct gp_table *t)
{
	int any = 0;

	for (size_t r = 0; r < t->nrows; r++) {
		long x = -1;
		double atom, red;
		if (!gp_table_row_ok(t, r) || strcmp(gp_table_get(t, r, "ret"), "atom") || strcmp(gp_table_get(t, r, "k"), "1"))
			continue;
		for (size_t y = 0; y < t->nrows && x < 0; y++)
			if (gp_table_row_ok(t, y) && !strcmp(gp_table_get(t, y, "ret"), "red") && same(t, y, r, "op") &&
			    same(t, y, r, "space") && same(t, y, r, "layout") && same(t, y, r, "k") &&
			    same(t, y, r, "warps_per_sm") && same(t, y, r, "threads_per_block"))
				x = (long)y;
		if (x < 0)
			continue;
		atom = gp_table_num(t, r, headline_col(t));
		red = gp_table_num(t, (size_t)x, headline_col(t));
		if (!any++)
			gp_md_header(md, "op", "space", "layout", "warps/SM", "ATOM ops/clk/SM (k = 1)", "RED ops/clk/SM (k = 1)",
				     "RED / ATOM");
		gp_md_cell(md, gp_table_get(t, r, "op"));
		gp_md_cell(md, gp_table_get(t, r, "space"));
		gp_md_cell(md, gp_table_get(t, r, "layout"));
		gp_md_num(md, warps_per_sm(t, r));
		gp_md_num(md, atom);
		gp_md_num(md, red);
		gp_md_num(md, red / atom);
		gp_md_end(md);
	}
	if (any)
		fputc('\n', md);
}

static void tput_atomic_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	const long r = gp_table_find(t, 0, "status", "ok", NULL);
	const char *ceiling = r >= 0 ? gp_table_get(t, (size_t)r, "ceiling_ops_per_clk_per_sm") : NULL;

	fprintf(md, "Atomic operations per clock per SM (thread-operations; the whole grid's count over the event "
		    "time%s and the measured clock) with k threads on each address: k = 1 is no contention, k = 32 a "
		    "warp's lanes on one address, k = all the whole grid (global) or block (shared). `atom` uses "
		    "every result, `red` returns none. Every address's last value and each group's results are "
		    "checked. Ceiling: %s ops/clk/SM (an SM's load/store lanes).\n\n",
		    headline_col(t)[0] == 'b' ? " of the best of >= 20 repetitions (the row's spread says how far the "
						 "others fell)"
		    : gp_table_col(t, "placements") >= 0
			    ? ", the median over the repetitions, which take the global addresses' copies in turn: the "
			      "`placements` column says how many (each on pages of its own, so "
			      "on other L2 slices), time_ms_min and time_ms_max the fastest and slowest"
			    : "",
		    ceiling ? ceiling : "–");
	tput_pivot(md, t);
	tput_red_vs_atom(md, t);
}

static void tput_atomic_derive(struct gp_profile *prof, const struct gp_table *t)
{
	static const char *const spaces[] = { "global", "shared" };
	const char *col = headline_col(t);
	const int best = col[0] == 'b', placed = gp_table_col(t, "placements") >= 0;
	double v;

	for (size_t r = 0; r < t->nrows; r++) {
		const char *op = gp_table_get(t, r, "op");
		char key[64];
		if (gp_table_find(t, 0, "op", op, NULL) != (long)r)
			continue;
		for (size_t s = 0; s < GP_ARRAY_SIZE(spaces); s++) {
			char method[160], how[64] = "";
			const double np = rate(t, op, spaces[s], "atom", "packed", "1", "placements");
			if (isnan(v = rate(t, op, spaces[s], "atom", "packed", "1", col)))
				continue;
			snprintf(key, sizeof key, "atomic_%s_%s_ops_per_clk", spaces[s], op);
			if (best)
				snprintf(how, sizeof how, ": the best of >= 20 repetitions");
			else if (placed && np > 1)
				snprintf(how, sizeof how, ": the median over %.0f placements of the addresses", np);
			snprintf(method, sizeof method, "one thread per address, packed, whole grid, events%s%s", how,
				 rate(t, op, spaces[s], "atom", "packed", "1", "spread") <= GP_NOISY_SPREAD ? ""
				 : placed && np > 1 ? "; flagged: the placements differ (tput_atomic.csv spread)"
						    : "; flagged: a noisy spread (tput_atomic.csv spread)");
			gp_profile_add(prof, key, v, "ops/clk/SM", method, "tput_atomic");
		}
	}
	if (!isnan(v = rate(t, "add_u32", "global", "atom", "packed", "0", "ops_per_clk")))
		gp_profile_add(prof, "atomic_same_address_ops_per_clk", v, "ops/clk (GPU)",
			       "every thread of the grid on one global address, atomicAdd u32", "tput_atomic");
	if (!isnan(v = rate(t, "add_u32", "shared", "atom", "packed", "0", "ops_per_clk_per_sm")))
		gp_profile_add(prof, "atomic_shared_same_address_ops_per_clk", v, "ops/clk/SM",
			       "every thread of each block on one shared address, atomicAdd u32", "tput_atomic");
	v = rate(t, "add_u32", "global", "red", "packed", "1", col) / rate(t, "add_u32", "global", "atom", "packed", "1", col);
	if (!isnan(v))
		gp_profile_add(prof, "red_vs_atom_ratio", v, "ratio",
			       best     ? "global add u32, one thread per address: RED rate over ATOM rate, best repetition of each"
			       : placed ? "global add u32, one thread per address: RED rate over ATOM rate, each the median over the same placements"
					: "global add u32, one thread per address: RED rate over ATOM rate",
			       "tput_atomic");
}

GP_ANALYSIS_BY_NAME(tput_atomic);
