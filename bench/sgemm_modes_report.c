/* sgemm_modes_report.c — what sgemm_modes makes of its table (no device code): the modes side by
 * side per size and distribution, what the data say about the BF16x9 emulation (did cuBLAS run
 * it, or pedantic FP32's computation, on this GPU), and the profile keys at the largest size.
 * Pitfall: a mode's ratio is against pedantic's row of the same size and distribution, both
 * medians of the same run; only ok rows count. */
#include "gp.h"
#include "analysis.h"

#include <math.h>
#include <string.h>

static const char *const dists[] = { "uniform", "wide" };

/* The ok row of (mode, m, dist), or -1. */
static long row_of(const struct gp_table *t, const char *mode, double m, const char *dist)
{
	for (size_t r = 0; r < t->nrows; r++) {
		const char *md = gp_table_get(t, r, "mode"), *ds = gp_table_get(t, r, "dist");
		if (gp_table_row_ok(t, r) && md && ds && !strcmp(md, mode) && !strcmp(ds, dist) &&
		    gp_table_num(t, r, "m") == m)
			return (long)r;
	}
	return -1;
}

static double num(const struct gp_table *t, long r, const char *col)
{
	return r >= 0 ? gp_table_num(t, (size_t)r, col) : NAN;
}

/* For an emulated mode: what its rows say, over every size and distribution it ran ok at. */
static void verdict(FILE *md, const struct gp_table *t, const char *mode)
{
	double eq_lo = INFINITY, eq_hi = -INFINITY, ra_lo = INFINITY, ra_hi = -INFINITY;
	const char *strategy = NULL;
	int n = 0;

	for (size_t r = 0; r < t->nrows; r++) {
		if (!gp_table_row_ok(t, r) || strcmp(gp_table_get(t, r, "mode"), mode))
			continue;
		eq_lo = fmin(eq_lo, gp_table_num(t, r, "equal_to_pedantic"));
		eq_hi = fmax(eq_hi, gp_table_num(t, r, "equal_to_pedantic"));
		ra_lo = fmin(ra_lo, gp_table_num(t, r, "ratio_to_pedantic"));
		ra_hi = fmax(ra_hi, gp_table_num(t, r, "ratio_to_pedantic"));
		strategy = gp_table_get(t, r, "emulation_strategy");
		n++;
	}
	if (!n)
		return;
	fprintf(md, "- `%s` (emulation strategy as the handle reports it: %s), %d points: ", mode, strategy, n);
	if (eq_lo >= 1.0)
		fprintf(md, "every sampled entry has pedantic FP32's bits at every point, at %.3g–%.3gx its speed: "
			    "cuBLAS ran the FP32 computation, not the BF16x9 emulation, on this GPU.\n",
			ra_lo, ra_hi);
	else
		fprintf(md, "%.1f–%.1f %% of the sampled entries have pedantic FP32's bits, at %.3g–%.3gx its speed: "
			    "a computation other than pedantic's ran.\n",
			100.0 * eq_lo, 100.0 * eq_hi, ra_lo, ra_hi);
}

static void modes_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	const char *modes[16];
	const size_t nm = gp_table_distinct(t, "mode", modes, GP_ARRAY_SIZE(modes));

	fprintf(md, "cuBLAS SGEMM (cublasGemmEx, FP32 in and out) in each FP32 mode at the ladder's square sizes. "
		    "TFLOP/s from the median time at the measured clock; x pedantic is pedantic's median time over the "
		    "mode's (same size, same inputs, same run). Error against FP64 dot products on 64 x 64 sampled "
		    "entries: per entry |c - r| / sum_l |a_il b_lj| (max and median), and the Frobenius measure the "
		    "ladder bounds (`fro_err` <= `err_bound` = 64 u sqrt(k) for pedantic); bits = the share of sampled "
		    "entries bit-identical to pedantic's result.\n\n");
	gp_md_header(md, "m", "inputs", "mode", "compute type", "TFLOP/s", "x pedantic", "ceiling TFLOP/s", "err max",
		     "err median", "Frobenius", "bits = pedantic");
	for (size_t r = 0; r < t->nrows; r++) {
		static const char *const cols[] = { "m", "dist", "mode", "compute_type", "tflops", "ratio_to_pedantic",
						    "ceiling_tflops", "err_max", "err_median", "fro_err", "equal_to_pedantic" };
		if (!gp_table_row_ok(t, r))
			continue;
		gp_md_cells(md, t, r, cols, GP_ARRAY_SIZE(cols));
		gp_md_end(md);
	}
	fprintf(md, "\nThe emulated modes, from the data:\n\n");
	for (size_t i = 0; i < nm; i++)
		if (strstr(modes[i], "bf16x9"))
			verdict(md, t, modes[i]);
	fputc('\n', md);
}

static void add(struct gp_profile *prof, const char *mode, const char *what, double v, const char *unit,
		const char *method)
{
	char key[64];

	snprintf(key, sizeof key, "cublas_%s_%s", mode, what);
	if (!isnan(v))
		gp_profile_add(prof, key, v, unit, method, "sgemm_modes");
}

/* At the largest size: each mode's rate and ratio on uniform inputs, its errors on both, and for
 * the others the share of pedantic's bits. */
static void modes_derive(struct gp_profile *prof, const struct gp_table *t)
{
	const double big = gp_table_max_ok(t, "m");
	const char *modes[16];
	const size_t nm = gp_table_distinct(t, "mode", modes, GP_ARRAY_SIZE(modes));
	char method[160], what[48];

	for (size_t i = 0; i < nm; i++) {
		const long u = row_of(t, modes[i], big, "uniform");
		double eq = INFINITY;
		snprintf(method, sizeof method, "cuBLAS %s, %.0f^3, uniform inputs, median time, same run",
			 u >= 0 ? gp_table_get(t, (size_t)u, "compute_type") : modes[i], big);
		add(prof, modes[i], "tflops", num(t, u, "tflops"), "TFLOP/s", method);
		if (strcmp(modes[i], "pedantic"))
			add(prof, modes[i], "ratio_to_pedantic", num(t, u, "ratio_to_pedantic"), "x", method);
		for (size_t d = 0; d < GP_ARRAY_SIZE(dists); d++) {
			const long r = row_of(t, modes[i], big, dists[d]);
			snprintf(method, sizeof method, "%.0f^3, %s inputs: |c - r| / sum |a b| on 4096 sampled entries, r FP64",
				 big, dists[d]);
			snprintf(what, sizeof what, "err_max_%s", dists[d]);
			add(prof, modes[i], what, num(t, r, "err_max"), "", method);
			snprintf(what, sizeof what, "err_median_%s", dists[d]);
			add(prof, modes[i], what, num(t, r, "err_median"), "", method);
			eq = fmin(eq, r >= 0 ? num(t, r, "equal_to_pedantic") : INFINITY);
		}
		snprintf(method, sizeof method, "%.0f^3, lower of the two input sets: sampled entries bit-identical to pedantic's",
			 big);
		if (strcmp(modes[i], "pedantic") && isfinite(eq))
			add(prof, modes[i], "equal_to_pedantic", eq, "fraction", method);
	}
}

GP_ANALYSIS(sgemm_modes, modes_derive, modes_report);
