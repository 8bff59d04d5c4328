/* experiment.h — what an experiment declares and what the harness hands it.
 *
 * An experiment is data plus a small kernel: its row in probes/probes.def (name, paper id,
 * figure/table, summary) and a struct gp_exp_impl next to its kernel with its parameters, its
 * output columns and a function that measures one sweep point into rows of a table. The harness
 * owns the sweep, repetitions, statistics helpers, CSV, progress and result files. */
#ifndef GP_EXPERIMENT_H
#define GP_EXPERIMENT_H

#include <stddef.h>
#include <stdio.h>

#include "device.h"
#include "table.h"

#define GP_MAX_PARAMS 9

enum gp_param_kind { GP_PARAM_INT, GP_PARAM_NAME };

struct gp_param {
	const char *name;
	enum gp_param_kind kind;
	long min, max;        /* GP_PARAM_INT: inclusive range */
	const char *choices;  /* GP_PARAM_NAME: allowed names, space-separated */
	const char *defaults; /* value list used when a suite names none */
	const char *help;
};

/* One sweep point: a value for every parameter, in declaration order. */
struct gp_point {
	const struct gp_param *params;
	size_t nparams;
	const char *str[GP_MAX_PARAMS];
	long num[GP_MAX_PARAMS];
};

long gp_point_int(const struct gp_point *pt, const char *name);
const char *gp_point_str(const struct gp_point *pt, const char *name);
/* "threads=64 op=ffma" for progress lines. */
void gp_point_format(const struct gp_point *pt, char *buf, size_t len);

/* A key figure for profile.csv. */
struct gp_profile_entry {
	char key[64], value[64], unit[32], method[160], source[64];
};

struct gp_run;

struct gp_exp_impl {
	const struct gp_param *params;
	size_t nparams;
	const char *const *columns;
	size_t ncolumns;
	/* Measure one point and append its row(s) to out. Return 0, GP_EVALID when a result failed
	 * its check or ceiling (the row is still written, with status saying why), or another
	 * gp_exit code when nothing could be measured. */
	int (*measure)(struct gp_run *run, const struct gp_point *pt, struct gp_table *out);
	/* After all points: derive profile entries from the finished table (may be NULL). */
	void (*derive)(struct gp_run *run, const struct gp_table *t);
	/* REPORT.md section in the paper's layout, with the paper's and published numbers from
	 * configs/reference.csv (rows of this experiment) beside ours (may be NULL). */
	void (*report)(FILE *md, const struct gp_table *t, const struct gp_table *ref);
};

/* Rows of the reference table for one experiment and key, or NULL: its "value" cell. */
const char *gp_reference(const struct gp_table *ref, const char *experiment, const char *key,
			 const char **gpu, const char **source);

/* The descriptor that an experiment's .def line names (name##_impl); derive and report may be NULL. */
#define GP_EXP_IMPL(name, params_, columns_, measure_, derive_, report_)                            \
	const struct gp_exp_impl name##_impl = {                                                   \
		.params = params_,                                                                 \
		.nparams = GP_ARRAY_SIZE(params_),                                                 \
		.columns = columns_,                                                               \
		.ncolumns = GP_ARRAY_SIZE(columns_),                                               \
		.measure = measure_,                                                               \
		.derive = derive_,                                                                 \
		.report = report_,                                                                 \
	}

struct gp_experiment {
	const char *name;    /* lat_ffma */
	const char *id;      /* E002 */
	const char *paper;   /* seed 000 Table 3 */
	const char *summary; /* one line */
	const struct gp_exp_impl *impl;
};

/* The registry (probes/probes.def, bench/bench.def). */
extern const struct gp_experiment *const gp_experiments[];
extern const size_t gp_nexperiments;
const struct gp_experiment *gp_experiment_find(const char *name);

/* A row's status is "ok", "n/a: why" (a point the sweep asks for but the probe cannot form: no
 * numbers, not a failure) or why its numbers must not be used. gp_status_na says whether it is
 * n/a; gp_status_rc is measure()'s return for a row with it: 0 for ok and n/a, else GP_EVALID. */
int gp_status_na(const char *status);
int gp_status_rc(const char *status);

/* Run-wide state handed to measure(): device, repetitions, module cache, profile. */
struct gp_run {
	struct gp_device *dev;
	int reps, warmup;
	struct gp_profile_entry *profile;
	size_t nprofile, profile_cap;
};

int gp_profile_add(struct gp_run *run, const char *key, double value, const char *unit,
		   const char *method, const char *source);

#endif
