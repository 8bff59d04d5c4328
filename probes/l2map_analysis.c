/* l2map_analysis.c — lat_l2_map's cells analysed (no device code; l2map_report.c publishes). The
 * cells' spread is split into what follows the line (its address), the SM and the pair; the pair
 * part (cell - line mean - SM mean + grand mean) is each SM's view of the L2. SMs whose pair parts
 * correlate (Pearson, >= L2MAP_CORR) form a group: one side of the L2 as the SMs see it (two sides
 * see the same lines near and far the other way round: their pair parts anti-correlate). Groups
 * start from greedy seeds, are refined against their centroids, and groups whose centroids
 * correlate are merged (a side with a finer structure inside). They count as sides only with
 * evidence: each at least two SMs and L2MAP_MIN_SHARE of them, together at least L2MAP_COVER of
 * the SMs, and the pair part at least GP_CP_MIN_NOISE times the cells' own repetition noise; else
 * "none detected". A group's near lines are those its SMs see faster than the average SM does.
 * Each SM's lines are also tested for a bimodal near/far split (widest gap, with the evidence
 * harness/changepoint.h asks of a cache level): the count says whether sides differ by a step or
 * by a continuum of distances. */
#include "gp.h"
#include "changepoint.h"
#include "l2map_analysis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* The cells into m->v (caller frees) and their repetition noise; 0 when out of memory. */
static int l2m_fill(const struct gp_table *t, struct l2m *m)
{
	double *rng = malloc(m->nsm * m->nl * sizeof *rng);
	size_t nr = 0;

	if (!rng || !(m->v = malloc(m->nsm * m->nl * sizeof *m->v))) {
		free(rng);
		return 0;
	}
	for (size_t k = 0; k < m->nsm * m->nl; k++)
		m->v[k] = NAN;
	for (size_t r = 0; r < t->nrows; r++) {
		const double s = gp_table_num(t, r, "sm"), l = gp_table_num(t, r, "line");
		const double w = gp_table_num(t, r, "cycles_max") - gp_table_num(t, r, "cycles_min");
		const double *p;
		if (!gp_table_row_ok(t, r) || gp_table_num(t, r, "lines") != m->lines ||
		    gp_table_num(t, r, "stride_bytes") != m->stride || gp_table_num(t, r, "trials") != m->trials ||
		    !(l >= 0 && l < (double)m->nl) || !(p = bsearch(&s, m->sm, m->nsm, sizeof *m->sm, cmp_double)))
			continue;
		m->v[(size_t)(p - m->sm) * m->nl + (size_t)l] = gp_table_num(t, r, "cycles");
		if (!isnan(w) && nr < m->nsm * m->nl)
			rng[nr++] = w;
	}
	qsort(rng, nr, sizeof *rng, cmp_double);
	m->noise = nr ? rng[nr / 2] / 2 : 0;
	free(rng);
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
	u->med = median_of(all, n); /* sorts all: the percentiles by nearest rank */
	u->p05 = n ? all[(size_t)ceil(0.05 * (double)n) - 1] : NAN;
	u->p95 = n ? all[(size_t)ceil(0.95 * (double)n) - 1] : NAN;
}

/* Cell = grand mean + line effect + SM effect + rest: the spread (standard deviation) of each
 * part. A line effect is latency that follows the address (the slice, for every SM), an SM effect
 * follows the SM (its place on the chip), the rest follows the pair (distance from this SM to
 * that slice) plus noise. Missing cells are left out of every sum. */
static void l2m_effects(struct l2m_sum *u, double *line_mean, double *sm_mean)
{
	const struct l2m *m = &u->m;
	double sum = 0, sl = 0, ss = 0, sr = 0;
	size_t n = 0, nr = 0;

	for (size_t i = 0; i < m->nl; i++)
		line_mean[i] = 0;
	for (size_t s = 0; s < m->nsm; s++) {
		size_t k = 0;
		sm_mean[s] = 0;
		for (size_t i = 0; i < m->nl; i++)
			if (!isnan(m->v[s * m->nl + i])) {
				sm_mean[s] += m->v[s * m->nl + i];
				k++;
			}
		sum += sm_mean[s];
		n += k;
		sm_mean[s] = k ? sm_mean[s] / (double)k : NAN;
	}
	for (size_t i = 0; i < m->nl; i++) {
		size_t k = 0;
		for (size_t s = 0; s < m->nsm; s++)
			if (!isnan(m->v[s * m->nl + i])) {
				line_mean[i] += m->v[s * m->nl + i];
				k++;
			}
		line_mean[i] = k ? line_mean[i] / (double)k : NAN;
	}
	sum /= (double)n;
	for (size_t i = 0; i < m->nl; i++)
		sl += isnan(line_mean[i]) ? 0 : (line_mean[i] - sum) * (line_mean[i] - sum);
	for (size_t s = 0; s < m->nsm; s++)
		ss += isnan(sm_mean[s]) ? 0 : (sm_mean[s] - sum) * (sm_mean[s] - sum);
	for (size_t s = 0; s < m->nsm; s++)
		for (size_t i = 0; i < m->nl; i++) {
			const double r = m->v[s * m->nl + i] - line_mean[i] - sm_mean[s] + sum;
			if (!isnan(r)) {
				sr += r * r;
				nr++;
			}
		}
	u->sd_line = sqrt(sl / (double)m->nl);
	u->sd_sm = sqrt(ss / (double)m->nsm);
	u->sd_rest = nr ? sqrt(sr / (double)nr) : NAN;
}

/* The pair parts: res = cell - line mean - SM mean + grand mean (NaN where the cell is). */
static void l2m_residuals(const struct l2m *m, const double *line_mean, const double *sm_mean, double *res)
{
	double grand = 0;
	size_t n = 0;

	for (size_t s = 0; s < m->nsm; s++)
		if (!isnan(sm_mean[s])) {
			grand += sm_mean[s];
			n++;
		}
	grand = n ? grand / (double)n : NAN;
	for (size_t s = 0; s < m->nsm; s++)
		for (size_t i = 0; i < m->nl; i++)
			res[s * m->nl + i] = m->v[s * m->nl + i] - line_mean[i] - sm_mean[s] + grand;
}

/* Pearson correlation of a and b over the entries both have; 0 with fewer than 3 or no spread. */
static double corr(const double *a, const double *b, size_t n)
{
	double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!isnan(a[i]) && !isnan(b[i])) {
			sa += a[i];
			sb += b[i];
			saa += a[i] * a[i];
			sbb += b[i] * b[i];
			sab += a[i] * b[i];
			k++;
		}
	if (k < 3)
		return 0;
	saa -= sa * sa / (double)k;
	sbb -= sb * sb / (double)k;
	sab -= sa * sb / (double)k;
	return saa > 0 && sbb > 0 ? sab / sqrt(saa * sbb) : 0;
}

/* Groups: each SM joins the first group whose first SM its pair part correlates with at least
 * L2MAP_CORR, else starts one. grp[s] is its group (-1: no slot left). */
static void l2m_group(struct l2m_sum *u, const double *res)
{
	const size_t nl = u->m.nl;
	size_t first[L2MAP_GROUPS];

	for (size_t s = 0; s < u->m.nsm; s++) {
		u->grp[s] = -1;
		for (size_t g = 0; g < u->ng && u->grp[s] < 0; g++) {
			const double c = corr(res + s * nl, res + first[g] * nl, nl);
			if (c >= L2MAP_CORR) {
				u->grp[s] = (int)g;
				u->side[s].corr = c;
			}
		}
		if (u->grp[s] < 0 && u->ng < L2MAP_GROUPS) {
			first[u->ng] = s;
			u->side[s].corr = 1;
			u->grp[s] = (int)u->ng++;
		}
		if (u->grp[s] >= 0)
			u->gsize[u->grp[s]]++;
	}
}

/* The groups' centroids (the summed pair parts of their SMs) into cen: ng x nl. */
static void l2m_centroids(const struct l2m_sum *u, const double *res, double *cen)
{
	const size_t nl = u->m.nl;

	for (size_t k = 0; k < u->ng * nl; k++)
		cen[k] = 0;
	for (size_t s = 0; s < u->m.nsm; s++)
		for (size_t i = 0; i < nl && u->grp[s] >= 0; i++)
			cen[(size_t)u->grp[s] * nl + i] += isnan(res[s * nl + i]) ? 0 : res[s * nl + i];
}

/* One pass of refinement: every SM to the group whose centroid it correlates with most, if at
 * least L2MAP_CORR (a centroid is steadier than the group's first SM, so stragglers a noisy first
 * SM left out join). cen: ng x nl scratch. */
static void l2m_regroup(struct l2m_sum *u, const double *res, double *cen)
{
	const size_t nl = u->m.nl;

	l2m_centroids(u, res, cen);
	memset(u->gsize, 0, sizeof u->gsize);
	for (size_t s = 0; s < u->m.nsm; s++) {
		double best = L2MAP_CORR;
		u->grp[s] = -1;
		for (size_t g = 0; g < u->ng; g++) {
			const double c = corr(res + s * nl, cen + g * nl, nl);
			if (c >= best) {
				best = c;
				u->grp[s] = (int)g;
			}
		}
		u->side[s].corr = u->grp[s] >= 0 ? best : NAN;
		if (u->grp[s] >= 0)
			u->gsize[u->grp[s]]++;
	}
}

/* Groups whose centroids correlate at least L2MAP_CORR see the L2 the same way (a side with a
 * finer structure inside, e.g. by distance): merged, the later into the earlier. */
static void l2m_merge(struct l2m_sum *u, const double *res, double *cen)
{
	const size_t nl = u->m.nl;

	l2m_centroids(u, res, cen);
	for (size_t a = 0; a < u->ng; a++)
		for (size_t b = a + 1; b < u->ng && u->gsize[a]; b++) {
			if (!u->gsize[b] || corr(cen + a * nl, cen + b * nl, nl) < L2MAP_CORR)
				continue;
			for (size_t s = 0; s < u->m.nsm; s++)
				u->grp[s] = u->grp[s] == (int)b ? (int)a : u->grp[s];
			for (size_t i = 0; i < nl; i++)
				cen[a * nl + i] += cen[b * nl + i];
			u->gsize[a] += u->gsize[b];
			u->gsize[b] = 0;
		}
}

/* Each SM's near and far means: a group's near lines are those whose pair part, summed over the
 * group's SMs, is negative (the group sees them faster than the average SM does); the sums stay
 * in u->gsum (ng x nl). 0 when out of memory. */
static int l2m_sides(struct l2m_sum *u, const double *res)
{
	const struct l2m *m = &u->m;
	double *gsum = u->gsum = calloc(u->ng * m->nl + 1, sizeof *u->gsum);

	if (!gsum)
		return 0;
	for (size_t s = 0; s < m->nsm; s++)
		for (size_t i = 0; i < m->nl && u->grp[s] >= 0; i++)
			gsum[(size_t)u->grp[s] * m->nl + i] += isnan(res[s * m->nl + i]) ? 0 : res[s * m->nl + i];
	for (size_t s = 0; s < m->nsm; s++) {
		double sn = 0, sf = 0;
		size_t nn = 0, nf = 0;
		for (size_t i = 0; i < m->nl && u->grp[s] >= 0; i++) {
			const double c = m->v[s * m->nl + i];
			if (isnan(c))
				continue;
			if (gsum[(size_t)u->grp[s] * m->nl + i] < 0) {
				sn += c;
				nn++;
			} else {
				sf += c;
				nf++;
			}
		}
		u->side[s].near = nn ? sn / (double)nn : NAN;
		u->side[s].far = nf ? sf / (double)nf : NAN;
		u->side[s].frac = nn + nf ? (double)nn / (double)(nn + nf) : NAN;
	}
	return 1;
}

/* The two-way split, the groups and their sides of the cells in u->m; res: nsm x nl and then
 * L2MAP_GROUPS x nl + nl + nsm doubles of scratch. 0 when out of memory. */
static int l2m_group_sides(struct l2m_sum *u, double *res)
{
	const size_t cells = u->m.nsm * u->m.nl;
	double *scratch = res + cells;

	l2m_effects(u, scratch, scratch + u->m.nl);
	l2m_residuals(&u->m, scratch, scratch + u->m.nl, res);
	l2m_group(u, res);
	for (int pass = 0; pass < 2; pass++)
		l2m_regroup(u, res, scratch);
	l2m_merge(u, res, scratch);
	l2m_regroup(u, res, scratch);
	return l2m_sides(u, res);
}

void l2m_free(struct l2m_sum *u)
{
	free(u->m.v);
	free(u->sp);
	free(u->side);
	free(u->grp);
	free(u->gsum);
	u->m.v = NULL;
	u->sp = NULL;
	u->side = NULL;
	u->grp = NULL;
	u->gsum = NULL;
}

/* The scratch l2m_group_sides needs beyond the cells' own copy. */
static size_t scratch_len(const struct l2m *m)
{
	return m->nsm * m->nl + L2MAP_GROUPS * m->nl + m->nl + m->nsm;
}

/* 0 when the table has no cells (or out of memory). */
int l2m_analyse(const struct gp_table *t, struct l2m_sum *u)
{
	size_t cells;
	double *tmp;
	int ok;

	memset(u, 0, sizeof *u);
	if (!l2m_load(t, &u->m) || !l2m_fill(t, &u->m))
		return 0;
	cells = u->m.nsm * u->m.nl;
	u->sp = calloc(u->m.nsm, sizeof *u->sp);
	u->side = calloc(u->m.nsm, sizeof *u->side);
	u->grp = calloc(u->m.nsm, sizeof *u->grp);
	tmp = malloc((cells + scratch_len(&u->m)) * sizeof *tmp);
	if (!u->sp || !u->side || !u->grp || !tmp) {
		free(tmp);
		l2m_free(u);
		return 0;
	}
	for (size_t s = 0; s < u->m.nsm; s++) {
		sm_split(&u->m, s, tmp, &u->sp[s]);
		u->nsplit += u->sp[s].ok;
	}
	ok = l2m_group_sides(u, tmp + cells);
	l2m_spread(u, tmp);
	free(tmp);
	if (!ok)
		l2m_free(u);
	return ok;
}

/* Cells the caller measured (u->m filled, u->m.v malloc'ed and owned by u from here): the groups
 * and their sides only; the noise floor takes the cells' mean for their median. 0 when out of
 * memory (u freed). */
int l2m_classify(struct l2m_sum *u)
{
	const size_t cells = u->m.nsm * u->m.nl;
	double *tmp = malloc(scratch_len(&u->m) * sizeof *tmp), sum = 0;
	size_t n = 0;
	int ok;

	u->side = calloc(u->m.nsm, sizeof *u->side);
	u->grp = calloc(u->m.nsm, sizeof *u->grp);
	if (!tmp || !u->side || !u->grp) {
		free(tmp);
		l2m_free(u);
		return 0;
	}
	for (size_t k = 0; k < cells; k++)
		if (!isnan(u->m.v[k])) {
			sum += u->m.v[k];
			n++;
		}
	u->med = n ? sum / (double)n : NAN;
	ok = l2m_group_sides(u, tmp);
	free(tmp);
	if (!ok)
		l2m_free(u);
	return ok;
}

/* Whether group g sees line i as near (its SMs' summed pair part there is negative). */
int l2m_near(const struct l2m_sum *u, size_t g, size_t i)
{
	return u->gsum[g * u->m.nl + i] < 0;
}

int l2m_in_sel(const struct l2m_sum *u, size_t s, int g)
{
	const int grouped = u->grp[s] >= 0 && l2m_side_sized(u, (size_t)u->grp[s]);

	return g == L2M_GROUPED ? grouped : g == L2M_REST ? !grouped : u->grp[s] == g;
}

/* Median over the SMs of selection g of one field of their sides. */
double l2m_side_median(const struct l2m_sum *u, int g, size_t off, size_t *count)
{
	double v[L2MAP_SMS];
	size_t n = 0;

	for (size_t s = 0; s < u->m.nsm; s++)
		if (l2m_in_sel(u, s, g))
			v[n++] = *(const double *)((const char *)&u->side[s] + off);
	if (count)
		*count = n;
	return median_of(v, n);
}

/* The pair part stands above the cells' noise (with a floor at the timer's repeatability). */
static int pair_above_noise(const struct l2m_sum *u)
{
	return u->sd_rest >= GP_CP_MIN_NOISE * fmax(u->m.noise, GP_CP_SIGMA_FLOOR * u->med);
}

/* A group large enough to be a side: two SMs and L2MAP_MIN_SHARE of them at least. */
int l2m_side_sized(const struct l2m_sum *u, size_t g)
{
	return u->gsize[g] >= 2 && (double)u->gsize[g] >= L2MAP_MIN_SHARE * (double)u->m.nsm;
}

/* The groups that count as L2 sides: side-sized, together at least L2MAP_COVER of the SMs, with a
 * pair part above the noise; 0 otherwise. */
size_t l2m_real_groups(const struct l2m_sum *u)
{
	size_t n = 0, sms = 0;

	for (size_t g = 0; g < u->ng; g++)
		if (l2m_side_sized(u, g)) {
			n++;
			sms += u->gsize[g];
		}
	return (double)sms >= L2MAP_COVER * (double)u->m.nsm && pair_above_noise(u) ? n : 0;
}
