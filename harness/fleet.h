/* fleet.h — many runs key by key, outlier GPUs by a robust rule (fleet.c). */
#ifndef GP_FLEET_H
#define GP_FLEET_H

#include <stddef.h>

#define GP_FLEET_MAX_RUNS 256
#define GP_FLEET_MADS 3.5   /* robust standard deviations from the median */
#define GP_FLEET_FLOOR 0.03 /* and at least this far, relative, to count */
#define GP_REPEAT_LAT_PCT 1.0 /* one GPU's runs: a latency key's range over them at most this (%) */
#define GP_REPEAT_BW_PCT 3.0  /* and a bandwidth key's */
#define GP_FLEET_DEPTH 6    /* levels below a results root searched for run directories */

struct gp_stats;
/* x[0..n-1]'s statistics (gp_stats: median, min, max, spread) and median absolute deviation; -1
 * for n == 0, a NaN or no memory. */
int gp_fleet_stats(const double *x, size_t n, struct gp_stats *s, double *mad);
/* x is an outlier of a fleet of n with this median and MAD (n >= 3, both rules). */
int gp_fleet_outlier(double x, double median, double mad, size_t n);
/* `gpuprobe fleet [--md FILE] RUN|ROOT...`: tidy CSV on stdout, outliers, incomplete runs and the
 * stub driver's runs on stderr. An argument without meta.csv is a root: its run directories. */
int gp_cmd_fleet(int nargs, char **args, const char *md_path);

#endif
