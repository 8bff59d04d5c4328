/* tsm2_report.c — what tsm2r, tsm2l and tsm2_search make of their tables (no device code): the
 * profile keys of tsm2r and the REPORT.md sections, with seed 004's numbers (and issue 7's goal)
 * from configs/reference.csv beside ours. Speedups and bandwidths are summarised over the ok rows
 * of the paper's range (n <= 16 for TSM2R): a kernel's rows at several t3 or ksplit all count,
 * so the averages are over configurations, not over the best one per point. */
#include "gp.h"
#include "analysis.h"

#include <math.h>
#include <string.h>

static const char *const precs[] = { "single", "double" };

/* The row's cell in col is v (a table without the column has no such row). */
static int is(const struct gp_table *t, size_t r, const char *col, const char *v)
{
	const char *c = gp_table_get(t, r, col);

	return c && !strcmp(c, v);
}

/* Average, min and max of a column over the ok rows of a kernel and precision with n <= nmax. */
static double summary(const struct gp_table *t, const char *kernel, const char *prec, double nmax, const char *col,
		      double *lo, double *hi)
{
	double s = 0;
	int c = 0;

	*lo = INFINITY, *hi = -INFINITY;
	for (size_t r = 0; r < t->nrows; r++) {
		const double v = gp_table_num(t, r, col);
		if (!gp_table_row_ok(t, r) || !is(t, r, "kernel", kernel) || !is(t, r, "precision", prec) ||
		    gp_table_num(t, r, "n") > nmax || isnan(v))
			continue;
		s += v, c++;
		*lo = fmin(*lo, v), *hi = fmax(*hi, v);
	}
	return c ? s / c : NAN;
}

struct paper_row {
	const char *label, *key;
};

/* The paper's (and the goal's) figures for an experiment: value, GPU and source per key. */
static void paper_table(FILE *md, const struct gp_table *ref, const char *exp, const struct paper_row *rows, size_t n)
{
	gp_md_header(md, "seed 004 / goal", "value", "GPU", "source");
	for (size_t i = 0; i < n; i++) {
		const char *gpu = NULL, *src = NULL, *v = gp_reference(ref, exp, rows[i].key, &gpu, &src);
		gp_md_str(md, rows[i].label);
		gp_md_str(md, v);
		gp_md_str(md, gpu);
		gp_md_str(md, src);
		gp_md_end(md);
	}
	fputc('\n', md);
}

/* Speedup over cuBLAS and % of the HBM read rate per kernel and precision: average [min, max]. */
static void ladder_table(FILE *md, const struct gp_table *t, const char *const *kernels, size_t nk, double nmax)
{
	const char *mode = t->nrows ? gp_table_get(t, 0, "math_mode") : NULL;
	char lo_s[32], hi_s[32], range[80];

	fprintf(md, "Speedup over cuBLAS (%s, same run) and achieved bandwidth as %% of the streaming HBM read rate "
		    "measured in the same run (n <= %.0f).\n\n", mode ? mode : "–", nmax);
	gp_md_header(md, "kernel", "precision", "speedup avg", "speedup range", "% of HBM read avg", "max");
	for (size_t i = 0; i < nk; i++)
		for (size_t p = 0; p < GP_ARRAY_SIZE(precs); p++) {
			double lo, hi, blo, bhi;
			const double a = summary(t, kernels[i], precs[p], nmax, "speedup_vs_cublas", &lo, &hi);
			const double ba = summary(t, kernels[i], precs[p], nmax, "pct_of_hbm_read", &blo, &bhi);
			if (isnan(a))
				continue;
			snprintf(range, sizeof range, "%s – %s", gp_md_fmt(lo_s, sizeof lo_s, lo),
				 gp_md_fmt(hi_s, sizeof hi_s, hi));
			gp_md_str(md, kernels[i]);
			gp_md_str(md, precs[p]);
			gp_md_num(md, a);
			gp_md_str(md, range);
			gp_md_num(md, ba);
			gp_md_num(md, bhi);
			gp_md_end(md);
		}
	fputc('\n', md);
}

/* A ladder experiment's section: its kernels, the n it summarises and the paper's figures. */
struct ladder {
	const char *exp;
	const char *const *kernels;
	size_t nk;
	double nmax;
	const struct paper_row *paper;
	size_t npaper;
};

static const char *const tsm2r_kernels[] = { "v0", "v1", "v2", "v3", "v4", "v5", "v6" };
static const struct paper_row tsm2r_paper[] = {
	{ "V1 over V0", "k40c_v1_over_v0" },
	{ "V2 over V1", "k40c_v2_gain" },
	{ "V3 over V2", "k40c_v3_gain" },
	{ "V3 single: max speedup over cuBLAS", "v100_single_max_speedup" },
	{ "V3 single: average speedup over cuBLAS", "v100_single_avg_speedup" },
	{ "V3 double: max speedup over cuBLAS", "v100_double_max_speedup" },
	{ "V3 double: average speedup over cuBLAS", "v100_double_avg_speedup" },
	{ "goal: average speedup over cuBLAS", "goal_speedup_avg" },
	{ "goal: % of the HBM read rate at the largest sizes", "goal_pct_hbm_read" },
};
static const struct ladder tsm2r_ladder = { "tsm2r", tsm2r_kernels, GP_ARRAY_SIZE(tsm2r_kernels), 16,
					    tsm2r_paper, GP_ARRAY_SIZE(tsm2r_paper) };

static const char *const tsm2l_kernels[] = { "v3", "l1", "l2" };
static const struct paper_row tsm2l_paper[] = {
	{ "single, k = n = 8, 16: speedup over cuBLAS", "v100_single_speedup_range" },
	{ "single: average speedup", "v100_single_avg_speedup" },
	{ "double, k = n = 8, 16: speedup over cuBLAS", "v100_double_speedup_range" },
	{ "double: average speedup", "v100_double_avg_speedup" },
	{ "bandwidth: most of the peak", "v100_max_bw_util" },
	{ "bandwidth: average of the peak", "v100_avg_bw_util" },
};
static const struct ladder tsm2l_ladder = { "tsm2l", tsm2l_kernels, GP_ARRAY_SIZE(tsm2l_kernels), 1024,
					    tsm2l_paper, GP_ARRAY_SIZE(tsm2l_paper) };

static void ladder_report(FILE *md, const struct gp_table *t, const struct gp_table *ref, const struct ladder *l)
{
	ladder_table(md, t, l->kernels, l->nk, l->nmax);
	paper_table(md, ref, l->exp, l->paper, l->npaper);
}

/* ---------------------------------------------------------------- per point */

/* A TSM2R point (precision, m, n <= 16): each kernel's best % of the HBM read rate over its rows
 * there (several t3 or ksplit count as one kernel), cuBLAS's, and the best TSM2R kernel's. */
struct point {
	int prec;
	double m, n, hbm;
	double pct[GP_ARRAY_SIZE(tsm2r_kernels)], blas;
	size_t best; /* index into tsm2r_kernels */
};

#define MAX_POINTS 256

static size_t kernel_index(const char *k)
{
	for (size_t i = 0; k && i < GP_ARRAY_SIZE(tsm2r_kernels); i++)
		if (!strcmp(k, tsm2r_kernels[i]))
			return i;
	return GP_ARRAY_SIZE(tsm2r_kernels);
}

static struct point *point_of(struct point *pts, size_t *n, int prec, double m, double nn)
{
	for (size_t i = 0; i < *n; i++)
		if (pts[i].prec == prec && pts[i].m == m && pts[i].n == nn)
			return &pts[i];
	if (*n == MAX_POINTS)
		return NULL;
	pts[*n] = (struct point){ .prec = prec, .m = m, .n = nn, .hbm = NAN, .blas = NAN };
	for (size_t k = 0; k < GP_ARRAY_SIZE(tsm2r_kernels); k++)
		pts[*n].pct[k] = NAN;
	return &pts[(*n)++];
}

/* The points of the table's ok rows with n <= 16, in the order they first appear, each with its best
 * TSM2R kernel (pct NaN where none ran ok). */
static size_t points(const struct gp_table *t, struct point *pts)
{
	size_t n = 0;

	for (size_t r = 0; r < t->nrows; r++) {
		const double v = gp_table_num(t, r, "pct_of_hbm_read");
		const int prec = is(t, r, "precision", "double");
		const size_t k = kernel_index(gp_table_get(t, r, "kernel"));
		struct point *p;
		if (!gp_table_row_ok(t, r) || gp_table_num(t, r, "n") > 16 || isnan(v) ||
		    !(p = point_of(pts, &n, prec, gp_table_num(t, r, "m"), gp_table_num(t, r, "n"))))
			continue;
		p->hbm = gp_table_num(t, r, "hbm_read_GBps");
		if (is(t, r, "kernel", "cublas"))
			p->blas = v;
		else if (k < GP_ARRAY_SIZE(tsm2r_kernels) && !(p->pct[k] >= v))
			p->pct[k] = v;
	}
	for (size_t i = 0; i < n; i++) {
		pts[i].best = GP_ARRAY_SIZE(tsm2r_kernels);
		for (size_t k = 0; k < GP_ARRAY_SIZE(tsm2r_kernels); k++)
			if (pts[i].pct[k] > 0 && (pts[i].best == GP_ARRAY_SIZE(tsm2r_kernels) || pts[i].pct[k] > pts[i].pct[pts[i].best]))
				pts[i].best = k;
	}
	return n;
}

static double best_pct(const struct point *p)
{
	return p->best < GP_ARRAY_SIZE(tsm2r_kernels) ? p->pct[p->best] : NAN;
}

/* Every point's % of the HBM read rate: V3, V4, V5, V6, cuBLAS and the best TSM2R kernel. */
static void point_table(FILE *md, const struct gp_table *t)
{
	struct point pts[MAX_POINTS];
	const size_t n = points(t, pts);

	if (!n)
		return;
	fprintf(md, "Per point (n <= 16): achieved bandwidth (compulsory bytes / median time) as %% of the streaming "
		    "HBM read rate measured in the same process (`hbm_read_GBps`); a kernel's best row where it ran "
		    "at several t3 or ksplit. The goal is every point of the best kernel at >= 90 %%.\n\n");
	gp_md_header(md, "precision", "n", "m", "read GB/s", "v3 %", "v4 %", "v5 %", "v6 %", "cuBLAS %", "best", "best %");
	for (size_t i = 0; i < n; i++) {
		const struct point *p = &pts[i];
		gp_md_str(md, precs[p->prec]);
		gp_md_num(md, p->n);
		gp_md_num(md, p->m);
		gp_md_num(md, p->hbm);
		for (size_t k = 3; k < GP_ARRAY_SIZE(tsm2r_kernels); k++)
			gp_md_num(md, p->pct[k]);
		gp_md_num(md, p->blas);
		gp_md_str(md, p->best < GP_ARRAY_SIZE(tsm2r_kernels) ? tsm2r_kernels[p->best] : NULL);
		gp_md_num(md, best_pct(p));
		gp_md_end(md);
	}
	fputc('\n', md);
}

/* Profile: each point's best TSM2R kernel as % of the HBM read rate, and per precision the lowest
 * and the average over the points. */
static void point_derive(struct gp_profile *prof, const struct gp_table *t)
{
	struct point pts[MAX_POINTS];
	const size_t n = points(t, pts);
	char key[64], method[160];

	for (int prec = 0; prec < 2; prec++) {
		double lo = INFINITY, sum = 0;
		int c = 0;
		for (size_t i = 0; i < n; i++) {
			const struct point *p = &pts[i];
			const double v = best_pct(p);
			if (p->prec != prec || isnan(v))
				continue;
			snprintf(key, sizeof key, "tsm2r_%s_n%.0f_m%.0f_pct_hbm_read", precs[prec], p->n, p->m);
			snprintf(method, sizeof method, "best TSM2R kernel there (%s), of the streaming read rate %.0f GB/s, same run",
				 tsm2r_kernels[p->best], p->hbm);
			gp_profile_add(prof, key, v, "%", method, "tsm2r");
			lo = fmin(lo, v), sum += v, c++;
		}
		if (!c)
			continue;
		snprintf(key, sizeof key, "tsm2r_%s_min_pct_hbm_read", precs[prec]);
		gp_profile_add(prof, key, lo, "%", "n <= 16: the lowest point of the best TSM2R kernel per point", "tsm2r");
		snprintf(key, sizeof key, "tsm2r_%s_avg_pct_hbm_read", precs[prec]);
		gp_profile_add(prof, key, sum / c, "%", "n <= 16: average over the points of the best TSM2R kernel per point",
			       "tsm2r");
	}
}

static void tsm2r_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	ladder_report(md, t, ref, &tsm2r_ladder);
	point_table(md, t);
}

static void tsm2l_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	ladder_report(md, t, ref, &tsm2l_ladder);
}

/* The model's choice and the brute-force best per (precision, m, n), in the order of the run. */
static void search_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const cols[] = { "precision", "m", "n", "choice", "t1", "t2", "t3", "time_ms",
					    "pct_of_hbm_read", "model_time_ms", "t2_threshold" };
	static const struct paper_row paper[] = {
		{ "brute-force t3, single (t1 128, t2 n)", "v100_single_t3" },
		{ "brute-force t3, double (t1 128, t2 n)", "v100_double_t3" },
	};

	fprintf(md, "Model (Algorithm 5 over the compiled V3 grid, t1 = 128, fed by this run's clock, streaming read "
		    "rate and chase latency) against the brute-force best over (t1, t2, t3).\n\n");
	gp_md_header(md, "precision", "m", "n", "choice", "t1", "t2", "t3", "time ms", "% of HBM read", "model time ms",
		     "t2_threshold");
	for (size_t r = 0; r < t->nrows; r++) {
		const char *c = gp_table_get(t, r, "choice");
		if (!gp_table_row_ok(t, r) || !c || !strcmp(c, "grid"))
			continue;
		gp_md_cells(md, t, r, cols, GP_ARRAY_SIZE(cols));
		gp_md_end(md);
	}
	fputc('\n', md);
	paper_table(md, ref, "tsm2_search", paper, GP_ARRAY_SIZE(paper));
}

/* The speedup a kernel at exactly the measured HBM read rate would have over cuBLAS on the same
 * points (n <= 16): the bandwidth ceiling of any TSM2R, the compulsory bytes cannot move faster. */
static double speedup_ceiling(const struct gp_table *t, const char *prec)
{
	double sum = 0;
	int n = 0;

	for (size_t r = 0; r < t->nrows; r++) {
		const double c = gp_table_num(t, r, "cublas_pct_of_hbm_read");
		if (!gp_table_row_ok(t, r) || !is(t, r, "kernel", "cublas") || !is(t, r, "precision", prec) ||
		    gp_table_num(t, r, "n") > 16 || !(c > 0))
			continue;
		sum += 100.0 / c, n++;
	}
	return n ? sum / n : NAN;
}

/* Profile (n <= 16, the paper's range): V3's to V6's average speedup over cuBLAS and best
 * fraction of the HBM read rate per precision, and the bandwidth ceiling on the speedup. */
static void tsm2r_derive(struct gp_profile *prof, const struct gp_table *t)
{
	static const char *const kernels[] = { "v3", "v4", "v5", "v6" };
	char key[64], method[160];
	double a, lo, hi;

	for (size_t p = 0; p < GP_ARRAY_SIZE(precs); p++) {
		const char *vs = strcmp(precs[p], "double") ? "vs cuBLAS SGEMM pedantic" : "vs cuBLAS DGEMM";
		for (size_t k = 0; k < GP_ARRAY_SIZE(kernels); k++) {
			snprintf(key, sizeof key, "tsm2r_%s_%s_speedup_avg", kernels[k], precs[p]);
			snprintf(method, sizeof method, "n <= 16, %s, same run", vs);
			if (!isnan(a = summary(t, kernels[k], precs[p], 16, "speedup_vs_cublas", &lo, &hi)))
				gp_profile_add(prof, key, a, "x", method, "tsm2r");
			snprintf(key, sizeof key, "tsm2r_%s_%s_max_pct_hbm_read", kernels[k], precs[p]);
			if (!isnan(summary(t, kernels[k], precs[p], 16, "pct_of_hbm_read", &lo, &hi)))
				gp_profile_add(prof, key, hi, "%", "n <= 16, of the streaming read rate, same run", "tsm2r");
		}
		snprintf(key, sizeof key, "tsm2r_%s_speedup_ceiling_avg", precs[p]);
		if (!isnan(a = speedup_ceiling(t, precs[p])))
			gp_profile_add(prof, key, a, "x", "n <= 16: cuBLAS time / compulsory bytes at the measured HBM read rate",
				       "tsm2r");
	}
	point_derive(prof, t);
}

GP_ANALYSIS_BY_NAME(tsm2r);
GP_ANALYSIS(tsm2l, NULL, tsm2l_report);
GP_ANALYSIS(tsm2_search, NULL, search_report);
