/* experiment.c — what experiment.h declares beside the registry table: reading a sweep point's
 * parameters, the row status convention and the condition columns every experiment's table
 * ends with. Families and the harness call these while the registry (registry.c) points at every
 * family, so they live apart from both: in suite.c or registry.c, every family and the registry
 * imported each other in a circle. */
#include "gp.h"
#include "experiment.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long gp_point_int(const struct gp_point *pt, const char *name)
{
	for (size_t i = 0; i < pt->nparams; i++)
		if (!strcmp(pt->params[i].name, name))
			return pt->num[i];
	gp_err("internal: no parameter '%s'", name);
	abort();
}

const char *gp_point_str(const struct gp_point *pt, const char *name)
{
	for (size_t i = 0; i < pt->nparams; i++)
		if (!strcmp(pt->params[i].name, name))
			return pt->str[i];
	gp_err("internal: no parameter '%s'", name);
	abort();
}

int gp_point_given(const struct gp_point *pt, const char *name)
{
	for (size_t i = 0; i < pt->nparams; i++)
		if (!strcmp(pt->params[i].name, name))
			return (pt->given >> i) & 1;
	gp_err("internal: no parameter '%s'", name);
	abort();
}

void gp_point_format(const struct gp_point *pt, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < pt->nparams && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", i ? " " : "", pt->params[i].name,
					 pt->str[i]);
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
