/* suite.h — suites: which experiments run and with which parameter values.
 *
 * A suite is a CSV with exactly the columns experiment,parameter,values. Each row sets one
 * parameter's value list for one experiment; a row with an empty parameter just selects the
 * experiment with its defaults. A value list is space-separated tokens; an integer token may be
 * a range lo:hi:step. The sweep is the cartesian product of the lists. */
#ifndef GP_SUITE_H
#define GP_SUITE_H

#include "experiment.h"

#define GP_MAX_VALUES 4096
#define GP_MAX_POINTS 100000

struct gp_suite_item {
	const struct gp_experiment *exp;
	char *values[GP_MAX_PARAMS]; /* owned; NULL = the parameter's defaults */
};

struct gp_suite {
	struct gp_suite_item *items;
	size_t n;
};

int gp_suite_parse(const struct gp_table *t, struct gp_suite *s, char *err, size_t errlen);
int gp_suite_load(const char *path, struct gp_suite *s, char *err, size_t errlen);
/* Append an experiment with its defaults (no-op if already present). */
int gp_suite_add(struct gp_suite *s, const struct gp_experiment *e);
void gp_suite_free(struct gp_suite *s);

struct gp_values {
	char **str;
	long *num;
	size_t n;
};

/* Expand and validate one parameter's value list. */
int gp_param_values(const struct gp_param *p, const char *list, struct gp_values *out, char *err,
		    size_t errlen);
void gp_values_free(struct gp_values *v);

struct gp_sweep {
	const struct gp_experiment *exp;
	struct gp_values vals[GP_MAX_PARAMS];
	size_t npoints;
	unsigned given; /* bit i: parameter i's values came from the suite */
};

int gp_sweep_init(struct gp_sweep *sw, const struct gp_suite_item *it, char *err, size_t errlen);
/* Point i of the sweep (the first parameter varies slowest). */
void gp_sweep_point(const struct gp_sweep *sw, size_t i, struct gp_point *pt);
/* The end of point `first`'s process: the first point after it whose GP_PARAM_PROCESS value
 * differs (a fresh process measures it), or npoints. */
size_t gp_sweep_process_end(const struct gp_sweep *sw, size_t first);
void gp_sweep_free(struct gp_sweep *sw);

#endif
