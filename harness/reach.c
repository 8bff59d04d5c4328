/* reach.c — the TLB model fit of reach.h: hit + miss * max(0, 1 - R / F), least squares. */
#include "reach.h"
#include "changepoint.h"
#include "stats.h"

#include <math.h>
#include <string.h>

#define REACH_TRIALS 512 /* trial reaches, log-spaced */

/* hit and miss for one R: y = hit + miss * u, u = max(0, 1 - R / F). The residual sum of squares,
 * or INFINITY where every u is 0 (no point past R). det: n * sum(u^2) - sum(u)^2. */
static double fit_at(const double *fp, const double *lat, size_t n, double R, double *hit, double *miss, double *det)
{
	double su = 0, suu = 0, sy = 0, suy = 0, rss = 0;

	for (size_t i = 0; i < n; i++) {
		const double u = fp[i] > R ? 1.0 - R / fp[i] : 0.0;
		su += u;
		suu += u * u;
		sy += lat[i];
		suy += u * lat[i];
	}
	*det = (double)n * suu - su * su;
	if (!(*det > 0))
		return INFINITY;
	*miss = ((double)n * suy - su * sy) / *det;
	*hit = (sy - *miss * su) / (double)n;
	for (size_t i = 0; i < n; i++) {
		const double u = fp[i] > R ? 1.0 - R / fp[i] : 0.0, e = lat[i] - *hit - *miss * u;
		rss += e * e;
	}
	return rss;
}

int gp_reach_fit(const double *footprint, const double *latency, size_t n, struct gp_reach *r)
{
	double best = INFINITY, lo, hi, det = 0, below_max = -INFINITY, far_min = INFINITY;

	memset(r, 0, sizeof *r);
	if (!footprint || !latency || n < 2 * GP_REACH_MIN_POINTS)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!(latency[i] > 0) || !(footprint[i] > 0) || (i && !(footprint[i] > footprint[i - 1])))
			return -1;
	/* R with GP_REACH_MIN_POINTS points at or below it and as many at GP_REACH_FAR x R or beyond. */
	lo = footprint[GP_REACH_MIN_POINTS - 1];
	hi = footprint[n - GP_REACH_MIN_POINTS] / GP_REACH_FAR;
	if (!(hi >= lo))
		return -1;
	for (int k = 0; k < REACH_TRIALS; k++) {
		const double R = lo * pow(hi / lo, (double)k / (REACH_TRIALS - 1));
		double h = 0, m = 0, d = 0;
		const double rss = fit_at(footprint, latency, n, R, &h, &m, &d);
		if (rss < best) {
			best = rss;
			r->reach = R, r->hit = h, r->miss = m, det = d;
		}
	}
	if (!isfinite(best))
		return -1;
	r->noise = fmax(sqrt(best / (double)(n - 3)), GP_CP_SIGMA_FLOOR * r->hit);
	r->miss_t = r->miss / (r->noise * sqrt((double)n / det));
	r->miss_noise = r->miss / r->noise;
	for (size_t i = 0; i < n; i++) {
		if (footprint[i] <= r->reach) {
			r->below++;
			below_max = fmax(below_max, latency[i]);
		} else if (footprint[i] >= GP_REACH_FAR * r->reach) {
			r->far++;
			far_min = fmin(far_min, latency[i]);
		}
	}
	r->separated = below_max < far_min;
	{
		struct gp_stats st;
		if (gp_stats(latency, n, &st))
			return -1;
		r->median = st.median;
	}
	r->supported = r->miss_t >= GP_CP_MIN_T && r->miss_noise >= GP_CP_MIN_NOISE && r->separated &&
		       r->below >= GP_REACH_MIN_POINTS && r->far >= GP_REACH_MIN_POINTS;
	return 0;
}
