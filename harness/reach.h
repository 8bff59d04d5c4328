/* reach.h — a TLB's reach and miss cost from a random page-stride chase's latency curve.
 *
 * A chase that visits the pages of a footprint F in random order, on a TLB that holds the pages
 * of R bytes, hits on R / F of its loads once F > R (any replacement policy, under uniform
 * random references), so the mean latency is
 *
 *     latency(F) = hit + miss * max(0, 1 - R / F)
 *
 * a flat level up to R and a ramp that only approaches hit + miss far beyond it: a step
 * detector cuts that ramp wherever the noise falls, and its upper "plateau" is never flat. The
 * fit: for every trial R (log-spaced between the smallest and the largest footprint) hit and miss
 * are a linear least-squares fit; the R with the smallest residual wins. */
#ifndef GP_REACH_H
#define GP_REACH_H

#include <stddef.h>

/* The points a reach needs on each side: at or below R (all hits), and at 4 R or beyond (three
 * quarters of the loads miss). */
#define GP_REACH_MIN_POINTS 3
#define GP_REACH_FAR 4.0

struct gp_reach {
	double median;    /* the curve's median latency (what a curve without a reach is) */
	double hit;       /* cycles of a load whose page the TLB holds (the level up to R) */
	double miss;      /* cycles a miss adds to a load */
	double reach;     /* bytes of pages the TLB holds (R) */
	double noise;     /* the fit's residual standard deviation (cycles; floored at
			   * GP_CP_SIGMA_FLOOR of hit, as the change-point levels are) */
	double miss_t;    /* miss over its standard error */
	double miss_noise; /* miss over the noise */
	size_t below;     /* points at or below R */
	size_t far;       /* points at GP_REACH_FAR x R or beyond */
	int separated;    /* every point at or below R lies below every point at GP_REACH_FAR x R */
	int supported;    /* miss_t >= GP_CP_MIN_T, miss_noise >= GP_CP_MIN_NOISE, separated, and
			   * GP_REACH_MIN_POINTS on each side: else the curve shows no reach */
};

/* footprint ascending, latency > 0, n points. 0, or -1 (bad input, or fewer points than a fit
 * needs: then r says nothing). */
int gp_reach_fit(const double *footprint, const double *latency, size_t n, struct gp_reach *r);

#endif
