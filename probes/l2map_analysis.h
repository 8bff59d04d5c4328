/* l2map_analysis.h — lat_l2_map's analysis of its (SM, line) cells for its derive/report
 * (l2map_report.c), and the same grouping of the cells bw_l2_side measures itself (l2map_side.c)
 * to pick each SM's near and far lines; no device code. The method is in l2map_analysis.c. */
#ifndef GP_L2MAP_ANALYSIS_H
#define GP_L2MAP_ANALYSIS_H

#include <stddef.h>

#include "table.h"

#define L2MAP_CORR 0.5    /* pair parts correlating this much: the same side (5+ sd of chance at 128 lines) */
#define L2MAP_GROUPS 64   /* groups kept (more means no structure worth a table) */
#define L2MAP_SMS 1024    /* SMs the analysis holds */
#define L2MAP_COVER 0.5   /* groups count as L2 sides only when they hold this share of the SMs */
#define L2MAP_MIN_SHARE 0.05 /* and each this share at least (a pair of odd SMs is no side) */

/* The cells of one configuration: nsm x nl cycles (NaN where a row is missing or not ok). */
struct l2m {
	size_t nsm, nl;
	double sm[L2MAP_SMS];
	double *v;
	double lines, stride, trials;
	double noise; /* the cells' repetition noise: median (max - min) / 2 over the cells, 0 if unknown */
};

/* One SM's split of its line latencies. */
struct l2m_split {
	int ok;
	double near, far, frac, cut; /* medians of each side, near lines / lines, the threshold */
	double gap_noise, step_t;    /* the gap over the noise; the step over its standard error */
};

/* One SM's view: its mean over its group's near and far lines, the near share, its correlation
 * with its group's centroid. */
struct l2m_side {
	double near, far, frac, corr;
};

/* Everything the profile and the report say: per-SM splits and sides, groups, the map's spread. */
struct l2m_sum {
	struct l2m m;
	struct l2m_split *sp;
	struct l2m_side *side;
	int *grp;
	double *gsum; /* ng x nl: each group's pair parts summed over its SMs, per line (< 0: near) */
	size_t ng, nsplit, gsize[L2MAP_GROUPS];
	double med, p05, p95, sm_lo, sm_hi; /* all cells; per-SM medians' range */
	double sd_line, sd_sm, sd_rest;     /* two-way decomposition: line means, SM means, the pair */
};

/* The table's cells analysed into u (l2m_free after); 0 when it has none (or out of memory). */
int l2m_analyse(const struct gp_table *t, struct l2m_sum *u);
void l2m_free(struct l2m_sum *u);
/* Cells measured elsewhere: u zeroed, then u->m filled (nsm, nl, sm ascending, noise, v malloc'ed:
 * nsm x nl, NaN where missing; u owns it from here). Groups and sides only (no splits, no
 * percentiles; the noise floor takes the cells' mean). 0 when out of memory (u freed). */
int l2m_classify(struct l2m_sum *u);
/* Whether group g sees line i as near (after l2m_analyse or l2m_classify). */
int l2m_near(const struct l2m_sum *u, size_t g, size_t i);

/* Selections of SMs: a group g (>= 0), every SM of a side-sized group, every other SM. */
enum { L2M_GROUPED = -1, L2M_REST = -2 };
int l2m_in_sel(const struct l2m_sum *u, size_t s, int g);
/* A group large enough to be a side: two SMs and L2MAP_MIN_SHARE of them at least. */
int l2m_side_sized(const struct l2m_sum *u, size_t g);
/* Median over the SMs of selection g of one field (offsetof(struct l2m_side, …)); *count SMs. */
double l2m_side_median(const struct l2m_sum *u, int g, size_t off, size_t *count);
/* The groups that count as L2 sides (0: none detected). */
size_t l2m_real_groups(const struct l2m_sum *u);

#endif
