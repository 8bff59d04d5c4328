/* registry.c — the const experiment table, generated from every .def file in probes/ and bench/
 * (the Makefile concatenates them into build/gen/experiments.def, so each family owns its file). */
#include "gp.h"
#include "experiment.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GP_EXPERIMENT(n, id, paper, summary) extern const struct gp_exp_impl n##_impl;
#include "experiments.def"
#undef GP_EXPERIMENT

#define GP_EXPERIMENT(n, id_, paper_, summary_)                                                    \
	static const struct gp_experiment exp_##n = {                                              \
		.name = #n, .id = id_, .paper = paper_, .summary = summary_, .impl = &n##_impl };
#include "experiments.def"
#undef GP_EXPERIMENT

const struct gp_experiment *const gp_experiments[] = {
#define GP_EXPERIMENT(n, id, paper, summary) &exp_##n,
#include "experiments.def"
#undef GP_EXPERIMENT
};

const size_t gp_nexperiments = GP_ARRAY_SIZE(gp_experiments);

const struct gp_experiment *gp_experiment_find(const char *name)
{
	for (size_t i = 0; i < gp_nexperiments; i++)
		if (!strcmp(gp_experiments[i]->name, name))
			return gp_experiments[i];
	return NULL;
}

int gp_status_na(const char *status)
{
	return !strncmp(status, "n/a", 3);
}

#define EXPECTED_FAULT "expected-fault: "

int gp_status_expected_fault(const char *status)
{
	return !strncmp(status, EXPECTED_FAULT, strlen(EXPECTED_FAULT));
}

int gp_status_rc(const char *status)
{
	return !strcmp(status, "ok") || gp_status_na(status) || gp_status_expected_fault(status) ? 0 : GP_EVALID;
}

void gp_status_fault(char *buf, size_t len, const char *why, const char *what)
{
	if (why)
		snprintf(buf, len, EXPECTED_FAULT "%s: %s", why, what);
	else
		snprintf(buf, len, "fault: %s", what);
}

const char *const gp_condition_columns[] = { "nvml_sm_MHz", "power_W", "temp_C", "throttle", "conditions",
						     "reps_stop" };
const size_t gp_ncondition_columns = GP_ARRAY_SIZE(gp_condition_columns);

struct gp_table *gp_exp_table(const struct gp_exp_impl *im)
{
	const char **cols = malloc((im->ncolumns + gp_ncondition_columns) * sizeof *cols);
	struct gp_table *t;

	if (!cols)
		return NULL;
	for (size_t i = 0; i < im->ncolumns; i++)
		cols[i] = im->columns[i];
	for (size_t i = 0; i < gp_ncondition_columns; i++)
		cols[im->ncolumns + i] = gp_condition_columns[i];
	t = gp_table_new(cols, im->ncolumns + gp_ncondition_columns);
	free(cols);
	return t;
}
