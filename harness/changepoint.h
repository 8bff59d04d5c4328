/* changepoint.h — plateaus and boundaries in a latency-versus-footprint curve.
 *
 * The curve (footprints ascending) is cut into segments by optimal partitioning: minimise the
 * within-segment squared error of log(latency) plus a penalty per segment (BIC-like: 3 sigma^2
 * ln n, sigma the noise estimated robustly from the curve itself), solved exactly by dynamic
 * programming. A segment of at least three points whose slope against log(footprint) is not
 * significant (|t| < 3 against the pooled residual) is a level (a plateau: one cache level);
 * other segments are transitions. Boundary k lies between level k and level k+1: the capacity
 * is the largest footprint still on level k. No latency or footprint threshold is used. */
#ifndef GP_CHANGEPOINT_H
#define GP_CHANGEPOINT_H

#include <stddef.h>

#define GP_CP_MAX_LEVELS 16

struct gp_cp_level {
	size_t first, last;     /* indices into the curve */
	double latency;         /* median latency on the plateau */
	double footprint_first; /* smallest and largest footprint on the plateau */
	double footprint_last;
	double footprint_next;  /* first footprint after the plateau (0 for the last level) */
	double capacity;        /* where the curve crosses the geometric mean of this level and the
				 * next (log-log interpolation); 0 for the last level */
	size_t npoints;         /* points on the plateau */
	double step_noise;      /* the step to the next level, |ln(next / this)|, in units of the
				 * noise (the larger of sigma and sigma_fit); 0 for the last level */
	double step_t;          /* the same step over its standard error, noise x sqrt(1/n1 + 1/n2):
				 * how surely the two plateaus differ; 0 for the last level */
	int separated;          /* every point of the next plateau lies beyond every point of this
				 * one (above it for a step up): a level change, not a wavering curve
				 * whose averages differ; 0 for the last level */
};

struct gp_cp_result {
	size_t nsegments;  /* all segments, levels and transitions */
	size_t nlevels;
	struct gp_cp_level level[GP_CP_MAX_LEVELS];
	double sigma;      /* noise of log(latency) the penalty used */
	double sigma_fit;  /* pooled residual of the per-segment line fits (the slope test) */
};

/* Neighbouring plateaus closer than this ratio are merged into one level: cache levels differ by
 * far more; a TLB miss on top of an L2 hit only by a few percent (GP_CP_TLB_STEP). */
#define GP_CP_MIN_STEP 1.10
#define GP_CP_TLB_STEP 1.02

/* Relative noise floor: below this the timer's repeatability, not the curve, sets the noise. */
#define GP_CP_SIGMA_FLOOR 0.005

/* Evidence a boundary needs to be published: both plateaus of at least GP_CP_MIN_POINTS points,
 * a step of at least GP_CP_MIN_T standard errors and at least GP_CP_MIN_NOISE times the
 * point-to-point noise, and the two plateaus separated (no point of one inside the other's
 * range: a curve that wavers by a few cycles from footprint to footprint has averages that
 * differ by many standard errors without any level changing). A weaker one is reported as
 * "none detected". */
#define GP_CP_MIN_POINTS 3
#define GP_CP_MIN_T 6.0
#define GP_CP_MIN_NOISE 2.0
/* Boundary k (between level k and k + 1) meets the evidence rule. */
int gp_cp_supported(const struct gp_cp_result *r, size_t k);

/* gp_changepoint_step, then levels whose boundary lacks the evidence merged, weakest first, until
 * every boundary left is supported: what a profile may publish. */
int gp_changepoint_supported(const double *footprint, const double *latency, size_t n, double min_step,
			     struct gp_cp_result *r);

/* footprint[] strictly ascending, latency[] > 0, n >= 1 (at most 4096 points).
 * 0 on success, -1 on bad input or out of memory. */
int gp_changepoint(const double *footprint, const double *latency, size_t n, struct gp_cp_result *r);
/* The same with the merge ratio given (>= 1; 1 merges nothing). */
int gp_changepoint_step(const double *footprint, const double *latency, size_t n, double min_step,
			struct gp_cp_result *r);

#endif
