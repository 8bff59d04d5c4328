/* stats.h — summary statistics over repetitions. The median is the headline number; min and max
 * bound it, and spread = (max - min) / median says how far to trust a difference between runs. */
#ifndef GP_STATS_H
#define GP_STATS_H

#include <stddef.h>

struct gp_stats {
	size_t n;
	double min, median, max, mean, stddev, spread;
};

/* Summarise n values (n >= 1; the input is not modified). Returns -1 for n == 0 or a NaN. */
int gp_stats(const double *x, size_t n, struct gp_stats *s);

#endif
