/* experiment.h — what an experiment declares and what the harness hands it.
 *
 * An experiment is data plus a small kernel: its line in its family's .def file (name, paper id,
 * figure/table, summary), a struct gp_exp_impl next to its kernel with its parameters, its output
 * columns and its probe (measure.h: the harness measures), and a struct gp_analysis in its
 * family's *_report.c with the profile keys it derives and its REPORT.md section (analysis.h:
 * tables only, no device code). No device types here: the registry, suites, IO and the report
 * link without the device layer. */
#ifndef GP_EXPERIMENT_H
#define GP_EXPERIMENT_H

#include <stddef.h>
#include <stdio.h>

#include "table.h"

#define GP_MAX_PARAMS 9
#define GP_MAX_PROCESSES 16 /* a GP_PARAM_PROCESS parameter's largest value */

/* GP_PARAM_PROCESS: an integer that names a measuring process: the points of each of its values
 * are measured in a process of their own, a fresh one for every value but the first (the run's
 * child), for the state a process holds (where the driver put its memory) that no number of
 * contexts inside one process averages out. It must be the experiment's first parameter (the
 * sweep's outermost loop: one process per value, not per point); its rows carry the value. */
enum gp_param_kind { GP_PARAM_INT, GP_PARAM_NAME, GP_PARAM_PROCESS };

struct gp_param {
	const char *name;
	enum gp_param_kind kind;
	long min, max;        /* GP_PARAM_INT, GP_PARAM_PROCESS: inclusive range */
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
	unsigned given; /* bit i: parameter i's values came from the suite, not its defaults */
};

long gp_point_int(const struct gp_point *pt, const char *name);
const char *gp_point_str(const struct gp_point *pt, const char *name);
/* 1 if the suite (or command line) gave this parameter's values, 0 if they are its defaults. */
int gp_point_given(const struct gp_point *pt, const char *name);
/* "threads=64 op=ffma" for progress lines. */
void gp_point_format(const struct gp_point *pt, char *buf, size_t len);

struct gp_run;

struct gp_probe;

struct gp_exp_impl {
	const struct gp_param *params;
	size_t nparams;
	const char *const *columns;
	size_t ncolumns;
	/* How one point is measured: a probe the harness runs (measure.h), or, for the few
	 * experiments that only compose other measurements, a function that appends the row(s).
	 * Either returns 0, GP_EVALID when a result failed its check or ceiling (the row is still
	 * written, with status saying why), or another gp_exit code when nothing could be measured. */
	const struct gp_probe *probe;
	int (*measure)(struct gp_run *run, const struct gp_point *pt, struct gp_table *out);
	/* Non-zero: measured by a measuring process that has measured nothing before it (isolate.h),
	 * for an experiment whose result moves with what the process allocated earlier (where the
	 * driver places its memory). About 0.4 s a run for the fresh context. */
	int fresh_process;
};

/* The descriptor that an experiment's .def line names (name##_impl): its parameters and
 * columns, and either the probe or the measure function. */
#define GP_EXP_DESC_(name, params_, columns_, ...)                                                 \
	const struct gp_exp_impl name##_impl = {                                                   \
		.params = params_,                                                                 \
		.nparams = GP_ARRAY_SIZE(params_),                                                 \
		.columns = columns_,                                                               \
		.ncolumns = GP_ARRAY_SIZE(columns_),                                               \
		__VA_ARGS__                                                                        \
	}
#define GP_EXP_PROBE(name, params_, columns_, probe_) GP_EXP_DESC_(name, params_, columns_, .probe = probe_)
/* The same, measured in a process that has measured nothing before it (fresh_process). */
#define GP_EXP_PROBE_FRESH(name, params_, columns_, probe_)                                        \
	GP_EXP_DESC_(name, params_, columns_, .probe = probe_, .fresh_process = 1)
/* The common case: a clock64 probe whose name_setup/_sample/_finish, name_params and name_cols
 * follow the experiment's name, with its primary column and per-point context type. */
#define GP_EXP_SYNC(name, image_, primary_, ctx_type)                                              \
	static const struct gp_probe name##_probe = {                                              \
		.runner = GP_RUN_SYNC, .image = image_, .setup = name##_setup,                     \
		.sample = name##_sample, .finish = name##_finish, .primary = primary_,             \
		.ctx_size = sizeof(ctx_type),                                                      \
	};                                                                                         \
	GP_EXP_PROBE(name, name##_params, name##_cols, &name##_probe)
#define GP_EXP_IMPL(name, params_, columns_, measure_) GP_EXP_DESC_(name, params_, columns_, .measure = measure_)

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
 * numbers, not a failure), "expected-fault: why: error" (a point whose kernel the experiment
 * makes fault on purpose, and it did: the fault is the result) or why its numbers must not be
 * used. gp_status_na says whether it is n/a; gp_status_rc is measure()'s return for a row with
 * it: 0 for ok, n/a and expected-fault, else GP_EVALID. */
int gp_status_na(const char *status);
int gp_status_rc(const char *status);
/* The status of a point that ended in a fault (`what` happened): "expected-fault: <why>: <what>"
 * when the experiment expects it (why, from gp_probe.expect_fault), else "fault: <what>". */
void gp_status_fault(char *buf, size_t len, const char *why, const char *what);
int gp_status_expected_fault(const char *status);

/* Run-wide state handed to the measurement: device, repetitions. */
struct gp_device;
struct gp_run {
	struct gp_device *dev;
	int reps, warmup;
	/* Repetitions that stop on noise: with reps_max > reps, a point goes on after `reps` while
	 * its primary metric's relative standard deviation is above target_rsd, up to reps_max
	 * repetitions or max_point_s seconds; the row's reps_stop says which ended it. */
	int reps_max;
	double target_rsd, max_point_s;
};

/* Columns the harness adds after every experiment's own: the conditions each point ran under
 * (NVML right after its repetitions: SM clock, board power, temperature, the clock-limiting
 * reasons seen, and "conditions": steady, or why the point's clock is not to be taken as steady). */
extern const char *const gp_condition_columns[];
extern const size_t gp_ncondition_columns;
/* A table for one experiment's rows: its own columns, then the condition columns. */
struct gp_table *gp_exp_table(const struct gp_exp_impl *im);

/* Measure one point (measure.c): the probe through the harness, or the experiment's measure(). */
int gp_measure(struct gp_run *run, const struct gp_exp_impl *im, const struct gp_point *pt,
	       struct gp_table *t);

#endif
