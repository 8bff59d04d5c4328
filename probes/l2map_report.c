/* l2map_report.c — lat_l2_map's profile keys and REPORT.md section from its (SM, line) cells (no
 * device code). Per SM the line latencies are split in two at their widest gap; the split stands
 * only with the evidence harness/changepoint.h asks of a cache level (both sides at least
 * GP_CP_MIN_POINTS lines, the gap at least GP_CP_MIN_NOISE times the within-side noise, the step
 * GP_CP_MIN_T standard errors and a ratio of GP_CP_MIN_STEP): a continuum of latencies has no
 * wide gap, however far apart its two halves' means. SMs whose near-line sets agree on at least
 * L2MAP_AGREE of the lines form a group; the groups are the L2 sides as the SMs see them. */
#include "gp.h"
#include "analysis.h"
#include "changepoint.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define L2MAP_AGREE 0.9   /* near-line sets agreeing on this fraction of lines: the same side */
#define L2MAP_GROUPS 64   /* groups kept (more means no structure worth a table) */
#define L2MAP_SMS 1024    /* SMs the analysis holds */

/* The cells of one configuration: nsm x nl cycles (NaN where a row is missing or not ok). */
struct l2m {
	size_t nsm, nl;
	double sm[L2MAP_SMS];
	double *v;
	double lines, stride, trials;
};

/* One SM's split of its line latencies. */
struct l2m_split {
	int ok;
	double near, far, frac, cut; /* medians of each side, near lines / lines, the threshold */
	double gap_noise, step_t;    /* the gap over the noise; the step over its standard error */
};

static int cmp_double(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The configuration with the most lines (the first such), its SMs ascending; 0 when none. */
static int l2m_load(const struct gp_table *t, struct l2m *m)
{
	long pick = -1;

	memset(m, 0, sizeof *m);
	for (size_t r = 0; r < t->nrows; r++)
		if (gp_table_row_ok(t, r) && !isnan(gp_table_num(t, r, "cycles")) &&
		    (pick < 0 || gp_table_num(t, r, "lines") > gp_table_num(t, (size_t)pick, "lines")))
			pick = (long)r;
	if (pick < 0)
		return 0;
	m->lines = gp_table_num(t, (size_t)pick, "lines");
	m->stride = gp_table_num(t, (size_t)pick, "stride_bytes");
	m->trials = gp_table_num(t, (size_t)pick, "trials");
	m->nl = (size_t)m->lines;
	for (size_t r = 0; r < t->nrows; r++) {
		const double s = gp_table_num(t, r, "sm");
		size_t k = 0;
		if (!gp_table_row_ok(t, r) || gp_table_num(t, r, "lines") != m->lines ||
		    gp_table_num(t, r, "stride_bytes") != m->stride || gp_table_num(t, r, "trials") != m->trials || isnan(s))
			continue;
		while (k < m->nsm && m->sm[k] != s)
			k++;
		if (k == m->nsm && m->nsm < L2MAP_SMS)
			m->sm[m->nsm++] = s;
	}
	qsort(m->sm, m->nsm, sizeof *m->sm, cmp_double);
	return m->nsm > 0 && m->nl > 0;
}

/* The cells into m->v (caller frees); 0 when out of memory. */
static int l2m_fill(const struct gp_table *t, struct l2m *m)
{
	if (!(m->v = malloc(m->nsm * m->nl * sizeof *m->v)))
		return 0;
	for (size_t k = 0; k < m->nsm * m->nl; k++)
		m->v[k] = NAN;
	for (size_t r = 0; r < t->nrows; r++) {
		const double s = gp_table_num(t, r, "sm"), l = gp_table_num(t, r, "line");
		const double *p;
		if (!gp_table_row_ok(t, r) || gp_table_num(t, r, "lines") != m->lines ||
		    gp_table_num(t, r, "stride_bytes") != m->stride || gp_table_num(t, r, "trials") != m->trials ||
		    !(l >= 0 && l < (double)m->nl) || !(p = bsearch(&s, m->sm, m->nsm, sizeof *m->sm, cmp_double)))
			continue;
		m->v[(size_t)(p - m->sm) * m->nl + (size_t)l] = gp_table_num(t, r, "cycles");
	}
	return 1;
}

static double median_of(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Mean and sum of squares about it of v[a..b). */
static void moments(const double *v, size_t a, size_t b, double *mean, double *ss)
{
	double s = 0, q = 0;

	for (size_t i = a; i < b; i++)
		s += v[i];
	*mean = s / (double)(b - a);
	for (size_t i = a; i < b; i++)
		q += (v[i] - *mean) * (v[i] - *mean);
	*ss = q;
}

/* Split sorted v[0..n) at its widest gap with both sides of at least kmin; the evidence of it. */
static void split_sorted(double *v, size_t n, struct l2m_split *sp)
{
	const size_t kmin = n / 20 > GP_CP_MIN_POINTS ? n / 20 : GP_CP_MIN_POINTS;
	size_t k = 0;
	double m1, m2, ss1, ss2, noise;

	memset(sp, 0, sizeof *sp);
	if (n < 2 * kmin)
		return;
	for (size_t j = kmin; j + kmin <= n; j++)
		if (!k || v[j] - v[j - 1] > v[k] - v[k - 1])
			k = j;
	moments(v, 0, k, &m1, &ss1);
	moments(v, k, n, &m2, &ss2);
	noise = fmax(sqrt((ss1 + ss2) / (double)(n - 2)), GP_CP_SIGMA_FLOOR * m1);
	sp->gap_noise = (v[k] - v[k - 1]) / noise;
	sp->step_t = (m2 - m1) / (noise * sqrt(1.0 / (double)k + 1.0 / (double)(n - k)));
	sp->cut = 0.5 * (v[k - 1] + v[k]);
	sp->frac = (double)k / (double)n;
	sp->near = median_of(v, k);
	sp->far = median_of(v + k, n - k);
	sp->ok = sp->gap_noise >= GP_CP_MIN_NOISE && sp->step_t >= GP_CP_MIN_T && m2 >= GP_CP_MIN_STEP * m1;
}

/* SM s's split (tmp: nl doubles). */
static void sm_split(const struct l2m *m, size_t s, double *tmp, struct l2m_split *sp)
{
	size_t n = 0;

	for (size_t i = 0; i < m->nl; i++)
		if (!isnan(m->v[s * m->nl + i]))
			tmp[n++] = m->v[s * m->nl + i];
	qsort(tmp, n, sizeof *tmp, cmp_double);
	split_sorted(tmp, n, sp);
}

/* The groups: SMs with a split whose near-line sets agree on L2MAP_AGREE of the lines with the
 * group's first SM. grp[s] = group or -1 (no split); returns the number of groups. */
static size_t l2m_group(const struct l2m *m, const struct l2m_split *sp, int *grp)
{
	size_t first[L2MAP_GROUPS], ng = 0;

	for (size_t s = 0; s < m->nsm; s++) {
		grp[s] = -1;
		if (!sp[s].ok)
			continue;
		for (size_t g = 0; g < ng && grp[s] < 0; g++) {
			size_t agree = 0, both = 0;
			for (size_t i = 0; i < m->nl; i++) {
				const double a = m->v[s * m->nl + i], b = m->v[first[g] * m->nl + i];
				if (isnan(a) || isnan(b))
					continue;
				both++;
				agree += (a < sp[s].cut) == (b < sp[first[g]].cut);
			}
			if (both && (double)agree >= L2MAP_AGREE * (double)both)
				grp[s] = (int)g;
		}
		if (grp[s] < 0 && ng < L2MAP_GROUPS) {
			first[ng] = s;
			grp[s] = (int)ng++;
		}
	}
	return ng;
}

/* Everything the profile and the report say: per-SM splits, groups, and the whole map's spread. */
struct l2m_sum {
	struct l2m m;
	struct l2m_split *sp;
	int *grp;
	size_t ng, nsplit, gsize[L2MAP_GROUPS];
	double med, p05, p95, sm_lo, sm_hi; /* all cells; per-SM medians' range */
};

static double pct_of(double *v, size_t n, double p)
{
	size_t k;

	if (!n)
		return NAN;
	qsort(v, n, sizeof *v, cmp_double);
	k = (size_t)ceil(p / 100.0 * (double)n);
	return v[k ? k - 1 : 0];
}

/* The whole-map numbers (cells and per-SM medians). */
static void l2m_spread(struct l2m_sum *u, double *all)
{
	const struct l2m *m = &u->m;
	size_t n = 0;

	u->sm_lo = INFINITY;
	u->sm_hi = -INFINITY;
	for (size_t s = 0; s < m->nsm; s++) {
		size_t k = 0;
		for (size_t i = 0; i < m->nl; i++)
			if (!isnan(m->v[s * m->nl + i]))
				all[n + k++] = m->v[s * m->nl + i];
		const double md = median_of(all + n, k);
		u->sm_lo = fmin(u->sm_lo, md);
		u->sm_hi = fmax(u->sm_hi, md);
		n += k;
	}
	u->p05 = pct_of(all, n, 5);
	u->p95 = pct_of(all, n, 95);
	u->med = median_of(all, n);
}

static void l2m_free(struct l2m_sum *u)
{
	free(u->m.v);
	free(u->sp);
	free(u->grp);
}

/* 0 when the table has no cells (or out of memory). */
static int l2m_analyse(const struct gp_table *t, struct l2m_sum *u)
{
	double *tmp;

	memset(u, 0, sizeof *u);
	if (!l2m_load(t, &u->m) || !l2m_fill(t, &u->m))
		return 0;
	u->sp = calloc(u->m.nsm, sizeof *u->sp);
	u->grp = calloc(u->m.nsm, sizeof *u->grp);
	tmp = malloc(u->m.nsm * u->m.nl * sizeof *tmp);
	if (!u->sp || !u->grp || !tmp) {
		free(tmp);
		l2m_free(u);
		return 0;
	}
	for (size_t s = 0; s < u->m.nsm; s++) {
		sm_split(&u->m, s, tmp, &u->sp[s]);
		u->nsplit += u->sp[s].ok;
	}
	u->ng = l2m_group(&u->m, u->sp, u->grp);
	for (size_t s = 0; s < u->m.nsm; s++)
		if (u->grp[s] >= 0)
			u->gsize[u->grp[s]]++;
	l2m_spread(u, tmp);
	free(tmp);
	return 1;
}

/* SM s is in selection g: group g (>= 0), any SM with a split (L2M_SPLIT), one without
 * (L2M_NOSPLIT), or one alone in its group (L2M_SINGLE). */
enum { L2M_SPLIT = -1, L2M_NOSPLIT = -2, L2M_SINGLE = -3 };

static int in_sel(const struct l2m_sum *u, size_t s, int g)
{
	if (g == L2M_NOSPLIT || !u->sp[s].ok)
		return g == L2M_NOSPLIT && !u->sp[s].ok;
	return g == L2M_SPLIT || (g == L2M_SINGLE ? u->grp[s] < 0 || u->gsize[u->grp[s]] < 2 : u->grp[s] == g);
}

/* Median over the SMs of selection g of one field of their splits. */
static double group_median(const struct l2m_sum *u, int g, size_t off, size_t *count)
{
	double v[L2MAP_SMS];
	size_t n = 0;

	for (size_t s = 0; s < u->m.nsm; s++)
		if (in_sel(u, s, g))
			v[n++] = *(const double *)((const char *)&u->sp[s] + off);
	if (count)
		*count = n;
	return median_of(v, n);
}

/* Groups of at least two SMs: what the profile counts as the L2 sides the SMs see. */
static size_t real_groups(const struct l2m_sum *u)
{
	size_t n = 0;

	for (size_t g = 0; g < u->ng; g++)
		n += u->gsize[g] >= 2;
	return n;
}

/* SMs in groups of at least two. */
static size_t group_count(const struct l2m_sum *u)
{
	size_t n = 0;

	for (size_t g = 0; g < u->ng; g++)
		n += u->gsize[g] >= 2 ? u->gsize[g] : 0;
	return n;
}

static void l2map_derive(struct gp_profile *prof, const struct gp_table *t)
{
	static const char src[] = "lat_l2_map";
	struct l2m_sum u;
	char method[160];
	size_t groups;

	if (!l2m_analyse(t, &u))
		return;
	snprintf(method, sizeof method, "ld.global.cg hit, %zu SMs x %zu lines, median over all", u.m.nsm, u.m.nl);
	gp_profile_add(prof, "l2map_latency_cycles", u.med, "cycles", method, src);
	gp_profile_add(prof, "l2map_latency_p05_cycles", u.p05, "cycles", "5th percentile over SMs x lines", src);
	gp_profile_add(prof, "l2map_latency_p95_cycles", u.p95, "cycles", "95th percentile over SMs x lines", src);
	gp_profile_add(prof, "l2map_sm_median_min_cycles", u.sm_lo, "cycles", "fastest SM's median over its lines", src);
	gp_profile_add(prof, "l2map_sm_median_max_cycles", u.sm_hi, "cycles", "slowest SM's median over its lines", src);
	snprintf(method, sizeof method,
		 "SM groups of agreeing near-line sets (>= %.0f %% of lines), per-SM split: gap >= %.0f noise, "
		 "step >= %.0f std. errors",
		 100 * L2MAP_AGREE, GP_CP_MIN_NOISE, GP_CP_MIN_T);
	if (!(groups = real_groups(&u))) {
		gp_profile_add_text(prof, "l2map_partitions_detected", "none detected", "groups", method, src);
		l2m_free(&u);
		return;
	}
	gp_profile_add(prof, "l2map_partitions_detected", (double)groups, "groups", method, src);
	snprintf(method, sizeof method, "median over the %zu SMs whose lines split near/far", u.nsplit);
	gp_profile_add(prof, "l2map_near_latency_cycles", group_median(&u, L2M_SPLIT, offsetof(struct l2m_split, near), NULL),
		       "cycles", method, src);
	gp_profile_add(prof, "l2map_far_latency_cycles", group_median(&u, L2M_SPLIT, offsetof(struct l2m_split, far), NULL),
		       "cycles", method, src);
	gp_profile_add(prof, "l2map_near_fraction", group_median(&u, L2M_SPLIT, offsetof(struct l2m_split, frac), NULL),
		       "ratio", method, src);
	l2m_free(&u);
}

/* "0-15, 32, 40-47": the SMs of selection g, cut at len. */
static void sm_ranges(const struct l2m_sum *u, int g, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (size_t s = 0; s < u->m.nsm && o + 24 < len; s++) {
		size_t e = s;
		if (!in_sel(u, s, g))
			continue;
		while (e + 1 < u->m.nsm && u->m.sm[e + 1] == u->m.sm[e] + 1 && in_sel(u, e + 1, g))
			e++;
		o += (size_t)snprintf(buf + o, len - o, "%s%.0f", o ? ", " : "", u->m.sm[s]);
		if (e > s)
			o += (size_t)snprintf(buf + o, len - o, "-%.0f", u->m.sm[e]);
		s = e;
	}
	if (o + 24 >= len)
		snprintf(buf + o, len - o, ", …");
}

static void group_row(FILE *md, const struct l2m_sum *u, int g, const char *label)
{
	char ids[200];
	size_t n;
	const double near = group_median(u, g, offsetof(struct l2m_split, near), &n);

	sm_ranges(u, g, ids, sizeof ids);
	gp_md_str(md, label);
	gp_md_num(md, (double)n);
	gp_md_str(md, ids);
	gp_md_num(md, 100 * group_median(u, g, offsetof(struct l2m_split, frac), NULL));
	gp_md_num(md, near);
	gp_md_num(md, group_median(u, g, offsetof(struct l2m_split, far), NULL));
	gp_md_num(md, group_median(u, g, offsetof(struct l2m_split, gap_noise), NULL));
	gp_md_num(md, group_median(u, g, offsetof(struct l2m_split, step_t), NULL));
	gp_md_end(md);
}

/* SMs without a split: their medians over all lines. */
static void nosplit_row(FILE *md, const struct l2m_sum *u)
{
	double v[L2MAP_SMS], *tmp = malloc(u->m.nl * sizeof *tmp);
	char ids[200];
	size_t n = 0;

	if (!tmp)
		return;
	for (size_t s = 0; s < u->m.nsm; s++) {
		size_t k = 0;
		if (u->sp[s].ok)
			continue;
		for (size_t i = 0; i < u->m.nl; i++)
			if (!isnan(u->m.v[s * u->m.nl + i]))
				tmp[k++] = u->m.v[s * u->m.nl + i];
		v[n++] = median_of(tmp, k);
	}
	free(tmp);
	if (!n)
		return;
	sm_ranges(u, L2M_NOSPLIT, ids, sizeof ids);
	gp_md_str(md, "no split");
	gp_md_num(md, (double)n);
	gp_md_str(md, ids);
	gp_md_str(md, NULL);
	gp_md_num(md, median_of(v, n));
	for (int k = 0; k < 3; k++)
		gp_md_str(md, NULL);
	gp_md_end(md);
}

static void l2map_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	struct l2m_sum u;
	char label[32];

	fprintf(md, "L2-hit latency (dependent ld.global.cg to a line the SM warmed) from every SM to each sample "
		    "line, all SMs at once; the heat map shows SM (x) against line (y). Per SM the lines split "
		    "near/far at their widest gap only with the evidence of a cache level (gap >= %.0f x noise, "
		    "step >= %.0f standard errors, ratio >= %.2f, >= %d lines a side); SMs whose near-line sets "
		    "agree on >= %.0f %% of the lines form a group. Published (H100 class): near %s, far %s cycles "
		    "(lat_mem sees the far level by footprint); L2 hit by SM on an L40: %s cycles.\n\n",
		GP_CP_MIN_NOISE, GP_CP_MIN_T, GP_CP_MIN_STEP, GP_CP_MIN_POINTS, 100 * L2MAP_AGREE,
		gp_ref_or_dash(ref, "lat_l2_map", "published_l2_near_cycles"),
		gp_ref_or_dash(ref, "lat_l2_map", "published_l2_far_cycles"),
		gp_ref_or_dash(ref, "lat_l2_map", "published_sm_spread_cycles"));
	if (!l2m_analyse(t, &u)) {
		fprintf(md, "No cell was measured.\n\n");
		return;
	}
	gp_md_header(md, "SMs", "lines", "stride (B)", "median", "p05", "p95", "SM medians: min", "max", "SMs split");
	gp_md_num(md, (double)u.m.nsm);
	gp_md_num(md, (double)u.m.nl);
	gp_md_num(md, u.m.stride);
	gp_md_num(md, u.med);
	gp_md_num(md, u.p05);
	gp_md_num(md, u.p95);
	gp_md_num(md, u.sm_lo);
	gp_md_num(md, u.sm_hi);
	gp_md_num(md, (double)u.nsplit);
	gp_md_end(md);
	fprintf(md, "\nSM groups: cycles are medians over the group's SMs (\"alone\": SMs with a split no other SM "
		    "shares; \"no split\": their median over all lines, under near); %s.\n\n",
		real_groups(&u) ? "the groups of two SMs or more are the sides the profile counts"
				: "no split stands out: none detected");
	gp_md_header(md, "group", "SMs", "SM ids", "near lines %", "near cycles", "far cycles", "gap / noise",
		     "step / std. error");
	for (size_t g = 0, k = 0; g < u.ng; g++)
		if (u.gsize[g] >= 2) {
			snprintf(label, sizeof label, "%zu", ++k);
			group_row(md, &u, (int)g, label);
		}
	if (u.nsplit > group_count(&u))
		group_row(md, &u, L2M_SINGLE, "alone");
	nosplit_row(md, &u);
	fputc('\n', md);
	l2m_free(&u);
}

GP_ANALYSIS(lat_l2_map, l2map_derive, l2map_report);
