/* link_host.c — the layering test (mk/layers.mk): linked with only the device-free objects (util,
 * table, suite, stats, profile, reference, md, the report, compare, the planner and models,
 * harness/sass, analysis and every family's *_report.o and *_model.o), each pulled in whole, so
 * the link fails if any of them reaches device.c, cu.c, measure.c or a kernel image. The registry
 * points at every measurement by design, so this file stands in for it with the .def lines of the
 * families that have a *_report.c and nothing behind them; with those it renders the committed
 * run's report, parses a suite and reads a cubin, as a machine without CUDA would. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gp.h"
#include "analysis.h"
#include "experiment.h"
#include "report.h"
#include "sass/cubin.h"
#include "suite.h"
#include "cli_test.h"

#define COMMITTED_RUN "results/h100-80gb-hbm3/20261124-100211"
#define SEED_CUBIN "fuzz/corpus/cubin/seed_sm90.cubin"

/* ---------------------------------------------------------------- the stand-in registry */

static const char *const no_columns[] = { "status" };
static const struct gp_exp_impl no_measurement = { .columns = no_columns, .ncolumns = 1 };

#define GP_EXPERIMENT(n, id_, paper_, summary_)                                                    \
	static const struct gp_experiment exp_##n = {                                              \
		.name = #n, .id = id_, .paper = paper_, .summary = summary_, .impl = &no_measurement };
#include "experiments.def"
#undef GP_EXPERIMENT

/* One entry more than the .def lines, so the array is never empty before any family has its
 * *_report.c; the NULL is not counted. */
const struct gp_experiment *const gp_experiments[] = {
#define GP_EXPERIMENT(n, id, paper, summary) &exp_##n,
#include "experiments.def"
#undef GP_EXPERIMENT
	NULL,
};

const size_t gp_nexperiments = GP_ARRAY_SIZE(gp_experiments) - 1;

const struct gp_experiment *gp_experiment_find(const char *name)
{
	for (size_t i = 0; i < gp_nexperiments; i++)
		if (!strcmp(gp_experiments[i]->name, name))
			return gp_experiments[i];
	return NULL;
}

/* ---------------------------------------------------------------- tests */

static void test_every_reported_experiment_has_its_analysis(void **state)
{
	(void)state;
	for (size_t i = 0; i < gp_nexperiments; i++)
		if (!gp_analysis_find(gp_experiments[i]->name))
			fail_msg("%s: no analysis in the device-free link", gp_experiments[i]->name);
}

static void copy_file(const char *from_dir, const char *to_dir, const char *name)
{
	char from[PATH_MAX], to[PATH_MAX];
	size_t len;
	char *text;

	snprintf(from, sizeof from, "%s/%s", from_dir, name);
	snprintf(to, sizeof to, "%s/%s", to_dir, name);
	text = gp_read_file(from, &len);
	if (!text)
		fail_msg("%s: %s (make test runs from the repository root)", from, strerror(errno));
	write_bytes(to, text, len);
	free(text);
}

/* The report of the reported experiments' rows of a committed run, with gnuplot replaced by
 * /bin/true (the charts are test_cli's): a section per experiment (one newer than the run says it did not run), the
 * models and the profile. */
static void test_report_renders(void **state)
{
	char path[PATH_MAX], head[160];
	char *md;

	copy_file(COMMITTED_RUN, *state, "meta.csv");
	copy_file(COMMITTED_RUN, *state, "profile.csv");
	for (size_t i = 0; i < gp_nexperiments; i++) {
		snprintf(path, sizeof path, "%s/%s.csv", COMMITTED_RUN, gp_experiments[i]->name);
		if (!access(path, R_OK)) /* an experiment newer than the run: "Not run in this run" */
			copy_file(COMMITTED_RUN, *state, strrchr(path, '/') + 1);
	}
	setenv("GNUPLOT", "/bin/true", 1); /* charts "succeed" without files */
	if (!getenv("GPUPROBE_HOME"))
		setenv("GPUPROBE_HOME", ".", 1);
	assert_int_equal(gp_cmd_report(*state, 0), 0);
	snprintf(path, sizeof path, "%s/REPORT.md", (char *)*state);
	md = slurp(path);
	for (size_t i = 0; i < gp_nexperiments; i++) {
		snprintf(head, sizeof head, "## %s — ", gp_experiments[i]->name);
		if (!strstr(md, head))
			fail_msg("REPORT.md has no section for %s", gp_experiments[i]->name);
	}
	assert_non_null(strstr(md, "## Tuning profile"));
	free(md);
}

static int parse_suite(const char *name, char *err, size_t errlen)
{
	char text[256];
	struct gp_table *t;
	struct gp_suite s = { 0 };
	int rc;

	snprintf(text, sizeof text, "experiment,parameter,values\n%s,,\n", name);
	t = gp_table_parse(text, strlen(text), err, errlen);
	assert_non_null(t);
	rc = gp_suite_parse(t, &s, err, errlen);
	gp_suite_free(&s);
	gp_table_free(t);
	return rc;
}

static void test_suite_parses(void **state)
{
	char err[256];

	(void)state;
	if (gp_nexperiments)
		assert_int_equal(parse_suite(gp_experiments[0]->name, err, sizeof err), 0);
	assert_int_not_equal(parse_suite("no_such_experiment", err, sizeof err), 0);
	assert_non_null(strstr(err, "no_such_experiment"));
}

static void test_cubin_reads(void **state)
{
	struct gp_cubin c;
	size_t len;
	char *data = gp_read_file(SEED_CUBIN, &len);

	(void)state;
	if (!data)
		fail_msg("%s: %s", SEED_CUBIN, strerror(errno));
	assert_int_equal(gp_cubin_open(&c, data, len), 0);
	assert_int_equal(c.sm, 90);
	gp_cubin_close(&c);
	free(data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_reported_experiment_has_its_analysis),
		cmocka_unit_test_setup_teardown(test_report_renders, tmp_setup, tmp_teardown),
		cmocka_unit_test(test_suite_parses),
		cmocka_unit_test(test_cubin_reads),
	};
	return cmocka_run_group_tests_name("link_host", tests, NULL, NULL);
}
