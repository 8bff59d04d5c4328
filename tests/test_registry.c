/* test_registry.c — the experiment registry (probes/probes.def and the impls next to kernels).
 *
 * The registry is data that the CLI, suites, result files and the report all trust without
 * checking again: names are file and CSV names, ids tie back to the inventory, every impl must
 * be callable, its columns must make a valid CSV header with a status column, its defaults
 * must be a valid sweep, and every experiment needs the gnuplot script the report renders. A
 * new experiment that breaks any of these fails here, not on the GPU machine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <glob.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gp.h"
#include "analysis.h"
#include "experiment.h"
#include "measure.h"
#include "suite.h"

static int matches(const char *pattern, const char *s)
{
	regex_t re;
	int ok;

	assert_int_equal(regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB), 0);
	ok = regexec(&re, s, 0, NULL, 0) == 0;
	regfree(&re);
	return ok;
}

#define EACH_EXPERIMENT(e)                                                                         \
	for (size_t i_ = 0; i_ < gp_nexperiments; i_++)                                            \
		for (const struct gp_experiment *e = gp_experiments[i_]; e; e = NULL)

static void test_not_empty(void **state)
{
	assert_true(gp_nexperiments > 0);
	for (size_t i = 0; i < gp_nexperiments; i++)
		assert_non_null(gp_experiments[i]);
}

static void test_names_unique_and_well_formed(void **state)
{
	EACH_EXPERIMENT(e) {
		assert_non_null(e->name);
		if (!matches("^[a-z][a-z0-9_]*$", e->name))
			fail_msg("experiment name '%s' is not ^[a-z][a-z0-9_]*$", e->name);
		for (size_t j = 0; j < i_; j++)
			if (!strcmp(gp_experiments[j]->name, e->name))
				fail_msg("experiment '%s' registered twice", e->name);
	}
}

static void test_ids_paper_summary(void **state)
{
	EACH_EXPERIMENT(e) {
		assert_non_null(e->id);
		/* E: a paper experiment (seed inventory id); T: one of the harness's own self-tests;
		 * H: a Hopper-era experiment (issues 18, 19). */
		if (!matches("^[ETH][0-9]{3}$", e->id))
			fail_msg("%s: id '%s' is not ^[ETH][0-9]{3}$", e->name, e->id);
		if (!e->paper || !*e->paper)
			fail_msg("%s: empty paper reference", e->name);
		if (!e->summary || !*e->summary)
			fail_msg("%s: empty summary", e->name);
	}
}

static void test_impl_and_columns(void **state)
{
	EACH_EXPERIMENT(e) {
		const struct gp_exp_impl *im = e->impl;
		int status = 0;

		if (!im || !im->probe == !im->measure)
			fail_msg("%s: needs exactly one of a probe and a measure function", e->name);
		/* No embedded image is right for a probe whose kernels are its points' own modules
		 * (gp_meas_kernel_image: the SASS probes' patched cubins). */
		if (im->probe && !im->probe->setup)
			fail_msg("%s: a probe without setup", e->name);
		if (!gp_analysis_find(e->name))
			fail_msg("%s: no analysis (GP_ANALYSIS in its *_report.c)", e->name);
		if (im->ncolumns == 0 || !im->columns)
			fail_msg("%s: no output columns", e->name);
		for (size_t c = 0; c < im->ncolumns; c++) {
			const char *col = im->columns[c];
			if (!col || !*col)
				fail_msg("%s: column %zu has no name", e->name, c);
			/* a column name must be usable bare in a CSV header and in gnuplot */
			if (strpbrk(col, ",\"\r\n"))
				fail_msg("%s: column '%s' needs quoting", e->name, col);
			for (size_t k = 0; k < c; k++)
				if (!strcmp(im->columns[k], col))
					fail_msg("%s: column '%s' twice", e->name, col);
			status |= !strcmp(col, "status");
		}
		if (!status)
			fail_msg("%s: no 'status' column", e->name);
	}
}

static void test_params(void **state)
{
	EACH_EXPERIMENT(e) {
		const struct gp_exp_impl *im = e->impl;

		if (im->nparams > GP_MAX_PARAMS)
			fail_msg("%s: %zu parameters, at most %d", e->name, im->nparams, GP_MAX_PARAMS);
		if (im->nparams && !im->params)
			fail_msg("%s: nparams without params", e->name);
		for (size_t k = 0; k < im->nparams; k++) {
			const struct gp_param *p = &im->params[k];
			struct gp_values v;
			char err[256] = "";

			if (!p->name || !matches("^[a-z][a-z0-9_]*$", p->name))
				fail_msg("%s: parameter %zu has a bad name", e->name, k);
			for (size_t j = 0; j < k; j++)
				if (!strcmp(im->params[j].name, p->name))
					fail_msg("%s: parameter '%s' twice", e->name, p->name);
			if (p->kind != GP_PARAM_NAME && p->min > p->max)
				fail_msg("%s.%s: min %ld > max %ld", e->name, p->name, p->min, p->max);
			if (p->kind == GP_PARAM_NAME && (!p->choices || !*p->choices))
				fail_msg("%s.%s: a NAME parameter with no choices", e->name, p->name);
			if (p->kind != GP_PARAM_INT && p->kind != GP_PARAM_NAME && p->kind != GP_PARAM_PROCESS)
				fail_msg("%s.%s: unknown kind %d", e->name, p->name, (int)p->kind);
			if (p->kind == GP_PARAM_PROCESS && k != 0) /* the sweep's outermost loop: a process a value */
				fail_msg("%s.%s: a process parameter that is not the first", e->name, p->name);
			if (!p->defaults)
				fail_msg("%s.%s: no defaults", e->name, p->name);
			if (gp_param_values(p, p->defaults, &v, err, sizeof err))
				fail_msg("%s.%s: defaults '%s': %s", e->name, p->name, p->defaults, err);
			assert_true(v.n > 0);
			gp_values_free(&v);
		}
	}
}

/* The registry defaults alone make a sweep `run NAME` can execute. */
static void test_default_sweeps(void **state)
{
	EACH_EXPERIMENT(e) {
		struct gp_suite_item it = { .exp = e };
		struct gp_sweep sw;
		char err[256] = "";

		if (gp_sweep_init(&sw, &it, err, sizeof err))
			fail_msg("%s: default sweep: %s", e->name, err);
		assert_true(sw.npoints > 0);
		gp_sweep_free(&sw);
	}
}

static void test_find(void **state)
{
	EACH_EXPERIMENT(e) {
		assert_ptr_equal(gp_experiment_find(e->name), e);
	}
	assert_null(gp_experiment_find("lat_nope"));
	assert_null(gp_experiment_find(""));
	assert_null(gp_experiment_find("LAT_FFMA"));
	assert_null(gp_experiment_find("lat_ffm"));
	assert_null(gp_experiment_find("lat_ffma "));
}

/* The row status convention every probe returns through: n/a points do not fail a run, anything
 * other than ok or n/a does. */
static void test_status_convention(void **state)
{
	assert_int_equal(gp_status_rc("ok"), 0);
	assert_int_equal(gp_status_rc("n/a: needs m % 128, n % 256, k % 16 == 0"), 0);
	assert_int_equal(gp_status_rc("clock sample too short to measure the SM clock"), GP_EVALID);
	assert_int_equal(gp_status_rc("fault: CUDA_ERROR_ILLEGAL_ADDRESS"), GP_EVALID);
	assert_int_equal(gp_status_rc("okay"), GP_EVALID);
	assert_int_equal(gp_status_rc(""), GP_EVALID);
	assert_true(gp_status_na("n/a: no free register"));
	assert_false(gp_status_na("ok"));
	assert_false(gp_status_na("refused: n/a later"));
}

/* A fault the experiment declared (gp_probe.expect_fault) is a result and does not fail the run;
 * any other fault does, and so does a status that merely mentions an expected fault. */
static void test_status_expected_fault(void **state)
{
	char s[128];

	gp_status_fault(s, sizeof s, "wait bit cleared", "CUDA_ERROR_ILLEGAL_ADDRESS");
	assert_string_equal(s, "expected-fault: wait bit cleared: CUDA_ERROR_ILLEGAL_ADDRESS");
	assert_true(gp_status_expected_fault(s));
	assert_int_equal(gp_status_rc(s), 0);
	assert_false(gp_status_na(s));
	gp_status_fault(s, sizeof s, NULL, "CUDA_ERROR_ILLEGAL_ADDRESS");
	assert_string_equal(s, "fault: CUDA_ERROR_ILLEGAL_ADDRESS");
	assert_false(gp_status_expected_fault(s));
	assert_int_equal(gp_status_rc(s), GP_EVALID);
	assert_int_equal(gp_status_rc("fault: expected-fault: no"), GP_EVALID);
	assert_int_equal(gp_status_rc("expected-fault"), GP_EVALID);
}

static void test_configs_name_existing_experiments(void **state)
{
	glob_t g;
	size_t checked = 0;

	if (glob("configs/*.csv", 0, NULL, &g))
		fail_msg("no configs/*.csv here (make test runs from the repository root)");
	assert_true(g.gl_pathc >= 3);
	for (size_t f = 0; f < g.gl_pathc; f++) {
		char err[256] = "";
		struct gp_table *t = gp_table_load(g.gl_pathv[f], err, sizeof err);

		if (!t)
			fail_msg("%s: %s", g.gl_pathv[f], err);
		if (gp_table_col(t, "experiment") < 0) {
			gp_table_free(t);
			continue;
		}
		for (size_t r = 0; r < t->nrows; r++) {
			const char *name = gp_table_get(t, r, "experiment");
			if (!gp_experiment_find(name))
				fail_msg("%s line %zu: no experiment '%s' in the registry", g.gl_pathv[f], r + 2,
					 name);
			checked++;
		}
		gp_table_free(t);
	}
	globfree(&g);
	assert_true(checked > 0);
}

static void test_every_experiment_has_a_plot(void **state)
{
	size_t missing = 0;

	EACH_EXPERIMENT(e) {
		char path[256];
		struct stat st;

		if (e->id[0] == 'T')
			continue; /* self-tests have no chart */
		snprintf(path, sizeof path, "plots/%s.gp", e->name);
		if (stat(path, &st) || !S_ISREG(st.st_mode) || st.st_size == 0) {
			print_error("%s: no gnuplot script %s\n", e->name, path);
			missing++;
		}
	}
	assert_int_equal(missing, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_not_empty),
		cmocka_unit_test(test_names_unique_and_well_formed),
		cmocka_unit_test(test_ids_paper_summary),
		cmocka_unit_test(test_impl_and_columns),
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_default_sweeps),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_status_convention),
		cmocka_unit_test(test_status_expected_fault),
		cmocka_unit_test(test_configs_name_existing_experiments),
		cmocka_unit_test(test_every_experiment_has_a_plot),
	};

	return cmocka_run_group_tests_name("registry", tests, NULL, NULL);
}
