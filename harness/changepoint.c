/* changepoint.c — optimal partitioning of a latency-versus-footprint curve into plateaus.
 *
 * y = ln(latency) so that noise is relative and a level twice as slow is as visible at 30 as at
 * 600 cycles. Cost of a segment = sum of squared deviations from its mean; the exact optimum of
 * sum(cost) + beta * segments is found in O(n^2) with prefix sums. sigma comes from the median
 * absolute first difference (robust to the few jumps), floored at GP_CP_SIGMA_FLOOR. A ramp is
 * cut into pieces too, which is why each piece must then pass a flatness test to count as a
 * level: the pitfall of pure segmentation is reporting a staircase where the curve slopes. */
#include "changepoint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CP_MAX_N 4096
/* Student-t style cut for "the slope is real": three standard errors. */
#define CP_SLOPE_T 3.0

static int cmp_double(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Squared error of y[i..j] around its mean, from prefix sums s1 (sum) and s2 (sum of squares). */
static double seg_cost(const double *s1, const double *s2, size_t i, size_t j)
{
	const double n = (double)(j - i + 1), a = s1[j + 1] - s1[i], b = s2[j + 1] - s2[i];
	const double c = b - a * a / n;

	return c > 0 ? c : 0;
}

/* Least-squares line of y against x over [i, j]: slope, its residual sum of squares, Sxx. */
static void line_fit(const double *x, const double *y, size_t i, size_t j, double *slope, double *rss,
		     double *sxx)
{
	double mx = 0, my = 0, sxy = 0, r = 0;
	const double n = (double)(j - i + 1);

	*sxx = 0;
	for (size_t k = i; k <= j; k++) {
		mx += x[k];
		my += y[k];
	}
	mx /= n;
	my /= n;
	for (size_t k = i; k <= j; k++) {
		*sxx += (x[k] - mx) * (x[k] - mx);
		sxy += (x[k] - mx) * (y[k] - my);
	}
	*slope = *sxx > 0 ? sxy / *sxx : 0;
	for (size_t k = i; k <= j; k++) {
		const double e = y[k] - my - *slope * (x[k] - mx);
		r += e * e;
	}
	*rss = r;
}

/* A sloped segment can still hold a plateau whose neighbours lean into the steps around it (a
 * level a few footprints wide, as the far L2 partition between the near level and HBM, whose
 * first and last points sit partly on the steps): the longest run of at least three points inside
 * [*i, *j] that is flat (slope not significant) and stands apart from both its neighbours (each
 * step at least GP_CP_MIN_NOISE x the fit noise and twice the run's own spread, so that a ramp's
 * even increments never qualify) replaces [*i, *j]. 0 if there is none. */
static int flat_run(const double *x, const double *y, size_t n, double sigma_fit, size_t *i, size_t *j)
{
	size_t bi = 0, bj = 0, blen = 0;

	for (size_t a = *i; a + 2 <= *j; a++)
		for (size_t b = a + 2; b <= *j; b++) {
			double slope, rss, sxx, lo = y[a], hi = y[a], mid, need;
			if (b - a + 1 <= blen || a == 0 || b + 1 >= n)
				continue;
			line_fit(x, y, a, b, &slope, &rss, &sxx);
			if (sxx > 0 && fabs(slope) * sqrt(sxx) / sigma_fit > CP_SLOPE_T)
				continue;
			for (size_t q = a; q <= b; q++) {
				lo = y[q] < lo ? y[q] : lo;
				hi = y[q] > hi ? y[q] : hi;
			}
			mid = 0.5 * (lo + hi);
			need = fmax(GP_CP_MIN_NOISE * sigma_fit, 2.0 * (hi - lo));
			if (fabs(y[a - 1] - mid) < need || fabs(y[b + 1] - mid) < need)
				continue;
			bi = a, bj = b, blen = b - a + 1;
		}
	if (!blen)
		return 0;
	*i = bi, *j = bj;
	return 1;
}

/* Levels k and k + 1 become one: its latency the median over both (and the transition points
 * between them), its footprint span the union. tmp holds n values. */
static void merge_levels(const double *footprint, const double *latency, size_t n, struct gp_cp_result *r,
			 size_t k, double *tmp)
{
	struct gp_cp_level *a = &r->level[k], *b = &r->level[k + 1];
	size_t m = 0;

	for (size_t q = a->first; q <= b->last; q++)
		tmp[m++] = latency[q];
	a->last = b->last;
	a->latency = median(tmp, m);
	a->footprint_last = footprint[a->last];
	a->footprint_next = a->last + 1 < n ? footprint[a->last + 1] : 0;
	memmove(b, b + 1, (r->nlevels - k - 2) * sizeof *b);
	r->nlevels--;
}

/* Two neighbouring plateaus less than GP_CP_MIN_STEP apart are one level that drifts (a few
 * cycles of TLB or bank effects inside one cache), not two caches: the split is real in the
 * statistics but not in the hardware. The ratio is scale-free; no latency or size is assumed. */
static void merge_close_levels(const double *footprint, const double *latency, size_t n, double min_step,
			       struct gp_cp_result *r, double *tmp)
{
	for (size_t k = 0; k + 1 < r->nlevels;) {
		const struct gp_cp_level *a = &r->level[k], *b = &r->level[k + 1];
		const double hi = fmax(a->latency, b->latency), lo = fmin(a->latency, b->latency);

		if (hi / lo >= min_step)
			k++;
		else
			merge_levels(footprint, latency, n, r, k, tmp);
	}
}

/* Capacity of level k: the footprint where the curve, interpolated linearly in log-log between
 * measured points, first climbs past the geometric mean of level k's and level k+1's latency,
 * i.e. where more accesses miss than hit. A gentle ramp inside a level (which ends the flat
 * plateau early) does not shrink the capacity. */
static double crossing(const double *footprint, const double *latency, const struct gp_cp_result *r, size_t k)
{
	const double mid = sqrt(r->level[k].latency * r->level[k + 1].latency);

	for (size_t q = r->level[k].first; q + 1 <= r->level[k + 1].first; q++) {
		if (latency[q + 1] < mid)
			continue;
		if (latency[q] >= mid)
			return footprint[q];
		const double t = (log(mid) - log(latency[q])) / (log(latency[q + 1]) - log(latency[q]));
		return exp(log(footprint[q]) + t * (log(footprint[q + 1]) - log(footprint[q])));
	}
	return r->level[k].footprint_last;
}

/* Capacities and the evidence of every boundary. */
static void evidence(const double *footprint, const double *latency, struct gp_cp_result *r)
{
	const double noise = r->sigma > r->sigma_fit ? r->sigma : r->sigma_fit;

	for (size_t k = 0; k < r->nlevels; k++) {
		struct gp_cp_level *lv = &r->level[k];
		lv->capacity = k + 1 < r->nlevels ? crossing(footprint, latency, r, k) : 0;
		lv->npoints = lv->last - lv->first + 1;
		lv->step_noise = lv->step_t = 0;
		lv->separated = 0;
		if (k + 1 < r->nlevels) {
			const struct gp_cp_level *nx = &r->level[k + 1];
			const size_t n2 = nx->last - nx->first + 1;
			double lo = INFINITY, hi = -INFINITY, nlo = INFINITY, nhi = -INFINITY;
			lv->step_noise = fabs(log(nx->latency / lv->latency)) / noise;
			lv->step_t = lv->step_noise / sqrt(1.0 / (double)lv->npoints + 1.0 / (double)n2);
			for (size_t q = lv->first; q <= lv->last; q++)
				lo = fmin(lo, latency[q]), hi = fmax(hi, latency[q]);
			for (size_t q = nx->first; q <= nx->last; q++)
				nlo = fmin(nlo, latency[q]), nhi = fmax(nhi, latency[q]);
			lv->separated = nx->latency > lv->latency ? nlo > hi : nhi < lo;
		}
	}
}

int gp_changepoint_supported(const double *footprint, const double *latency, size_t n, double min_step,
			     struct gp_cp_result *r)
{
	double *tmp;

	if (gp_changepoint_step(footprint, latency, n, min_step, r))
		return -1;
	if (!(tmp = malloc(n * sizeof *tmp)))
		return -1;
	for (;;) {
		size_t weak = r->nlevels;
		for (size_t k = 0; k + 1 < r->nlevels; k++)
			if (!gp_cp_supported(r, k) && (weak == r->nlevels || r->level[k].step_t < r->level[weak].step_t))
				weak = k;
		if (weak == r->nlevels)
			break;
		/* One level across the unsupported boundary (and the transition points in it). */
		merge_levels(footprint, latency, n, r, weak, tmp);
		evidence(footprint, latency, r);
	}
	free(tmp);
	return 0;
}

int gp_cp_supported(const struct gp_cp_result *r, size_t k)
{
	return k + 1 < r->nlevels && r->level[k].step_t >= GP_CP_MIN_T && r->level[k].step_noise >= GP_CP_MIN_NOISE &&
	       r->level[k].separated && r->level[k].npoints >= GP_CP_MIN_POINTS &&
	       r->level[k + 1].npoints >= GP_CP_MIN_POINTS;
}

int gp_changepoint(const double *footprint, const double *latency, size_t n, struct gp_cp_result *r)
{
	return gp_changepoint_step(footprint, latency, n, GP_CP_MIN_STEP, r);
}

int gp_changepoint_step(const double *footprint, const double *latency, size_t n, double min_step,
			struct gp_cp_result *r)
{
	double *y = NULL, *x = NULL, *s1 = NULL, *s2 = NULL, *best = NULL, *tmp = NULL;
	size_t *cut = NULL, *starts = NULL, nseg = 0;
	double beta, rss_sum = 0, dof = 0;
	int rc = -1;

	memset(r, 0, sizeof *r);
	if (!footprint || !latency || n == 0 || n > CP_MAX_N)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!(latency[i] > 0) || !(footprint[i] > 0) || (i && !(footprint[i] > footprint[i - 1])))
			return -1;
	y = malloc(n * sizeof *y);
	x = malloc(n * sizeof *x);
	s1 = malloc((n + 1) * sizeof *s1);
	s2 = malloc((n + 1) * sizeof *s2);
	best = malloc((n + 1) * sizeof *best);
	tmp = malloc(n * sizeof *tmp);
	cut = malloc((n + 1) * sizeof *cut);
	starts = malloc((n + 1) * sizeof *starts);
	if (!y || !x || !s1 || !s2 || !best || !tmp || !cut || !starts)
		goto done;
	s1[0] = s2[0] = 0;
	for (size_t i = 0; i < n; i++) {
		y[i] = log(latency[i]);
		x[i] = log2(footprint[i]);
		s1[i + 1] = s1[i] + y[i];
		s2[i + 1] = s2[i] + y[i] * y[i];
	}

	/* Noise: differences of neighbours are noise except at the few jumps; the median ignores
	 * those. sqrt(2): a difference carries the noise of two points. */
	r->sigma = GP_CP_SIGMA_FLOOR;
	if (n > 2) {
		for (size_t i = 0; i + 1 < n; i++)
			tmp[i] = fabs(y[i + 1] - y[i]);
		const double s = 1.4826 * median(tmp, n - 1) / sqrt(2.0);
		r->sigma = s > r->sigma ? s : r->sigma;
	}
	beta = 3.0 * r->sigma * r->sigma * log((double)(n > 2 ? n : 2));

	/* best[j]: optimal cost of y[0..j-1]; cut[j]: where its last segment starts. */
	best[0] = -beta;
	for (size_t j = 1; j <= n; j++) {
		best[j] = INFINITY;
		for (size_t i = 0; i < j; i++) {
			const double c = best[i] + beta + seg_cost(s1, s2, i, j - 1);
			if (c < best[j]) {
				best[j] = c;
				cut[j] = i;
			}
		}
	}
	for (size_t j = n; j > 0; j = cut[j])
		starts[nseg++] = cut[j];
	r->nsegments = nseg;

	/* Pooled residual of line fits over segments with spare degrees of freedom. */
	for (size_t k = nseg; k-- > 0;) {
		const size_t i = starts[k], j = k ? starts[k - 1] - 1 : n - 1;
		double slope, rss, sxx;
		if (j - i + 1 < 3)
			continue;
		line_fit(x, y, i, j, &slope, &rss, &sxx);
		rss_sum += rss;
		dof += (double)(j - i + 1) - 2;
	}
	r->sigma_fit = dof > 0 ? sqrt(rss_sum / dof) : 0;
	if (r->sigma_fit < GP_CP_SIGMA_FLOOR)
		r->sigma_fit = GP_CP_SIGMA_FLOOR;

	/* Levels: flat segments of three points or more, in footprint order. */
	for (size_t k = nseg; k-- > 0 && r->nlevels < GP_CP_MAX_LEVELS;) {
		size_t i = starts[k], j = k ? starts[k - 1] - 1 : n - 1;
		struct gp_cp_level *lv;
		double slope, rss, sxx;
		size_t m = 0;
		if (j - i + 1 < 3)
			continue;
		line_fit(x, y, i, j, &slope, &rss, &sxx);
		if (sxx > 0 && fabs(slope) * sqrt(sxx) / r->sigma_fit > CP_SLOPE_T &&
		    !flat_run(x, y, n, r->sigma_fit, &i, &j))
			continue;
		lv = &r->level[r->nlevels++];
		lv->first = i;
		lv->last = j;
		for (size_t q = i; q <= j; q++)
			tmp[m++] = latency[q];
		lv->latency = median(tmp, m);
		lv->footprint_first = footprint[i];
		lv->footprint_last = footprint[j];
		lv->footprint_next = j + 1 < n ? footprint[j + 1] : 0;
	}
	merge_close_levels(footprint, latency, n, min_step, r, tmp);
	evidence(footprint, latency, r);
	rc = 0;
done:
	free(y);
	free(x);
	free(s1);
	free(s2);
	free(best);
	free(tmp);
	free(cut);
	free(starts);
	return rc;
}
