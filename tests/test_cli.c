/* test_cli.c — the gpuprobe command line as a user meets it, run as a child process.
 *
 * The binary is $GPUPROBE, else bin/gpuprobe (make test runs from the repository root). What is
 * held: the exit status says which class of failure happened (gp.h), a failure prints exactly
 * one "gpuprobe: ..." line on stderr, a bad suite is refused (exit 3) before a GPU is looked
 * for, and nothing a failed run does touches earlier results (the report command is
 * test_cli_report.c's). The no-GPU exit (4) is only asserted where libcuda.so.1 cannot be
 * loaded; the GPU paths are tested by test_gpu. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gp.h"
#include "cli_test.h"
#include "run_dir_test.h"
#include "version.h"
#include "experiment.h"

#define RUN(dir, ...) run_env((dir), NULL, (const char *const[]){ __VA_ARGS__, NULL })

/* ---------------------------------------------------------------- helpers */


static int no_gpu;
static char no_gpu_why[256];





static int group_setup(void **state)
{
	void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);

	if (h) {
		dlclose(h);
		snprintf(no_gpu_why, sizeof no_gpu_why,
			 "libcuda.so.1 loads here, so a GPU may be present (the GPU paths are test_gpu's)");
	} else {
		no_gpu = 1;
	}
	if (access(binary(), X_OK)) {
		fprintf(stderr, "test_cli: %s is not an executable (set GPUPROBE or run from the "
				"repository root after make)\n", binary());
		return -1;
	}
	return 0;
}










/* ---------------------------------------------------------------- version, help, list */

static void test_version(void **state)
{
	static const char *const flags[] = { "--version", "-V" };
	const char *want = "gpuprobe " GP_VERSION " (git ";

	for (size_t i = 0; i < GP_ARRAY_SIZE(flags); i++) {
		struct result r = RUN(*state, flags[i]);
		if (r.status || strncmp(r.out, want, strlen(want)) || !strstr(r.out, ")\n") || *r.err) {
			show(&r);
			fail_msg("%s: expected exit 0 and '%s...)' on stdout only", flags[i], want);
		}
		result_free(&r);
	}
}

static void test_help(void **state)
{
	static const char *const flags[] = { "--help", "-h" };
	static const char *const words[] = { "usage: gpuprobe", "list", "info", "run", "report",
					     "--suite", "--filter", "--out", "--reps" };

	for (size_t i = 0; i < GP_ARRAY_SIZE(flags); i++) {
		struct result r = RUN(*state, flags[i]);
		if (r.status || *r.err)
			show(&r);
		assert_int_equal(r.status, 0);
		assert_string_equal(r.err, "");
		for (size_t w = 0; w < GP_ARRAY_SIZE(words); w++)
			if (!strstr(r.out, words[w]))
				fail_msg("%s does not mention %s", flags[i], words[w]);
		result_free(&r);
	}
}

static void test_list(void **state)
{
	struct result r = RUN(*state, "list");
	int fresh = 0;

	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	for (size_t i = 0; i < gp_nexperiments; i++) {
		const struct gp_experiment *e = gp_experiments[i];
		char line[128];
		snprintf(line, sizeof line, "\n%s ", e->name);
		if (!strstr(r.out, line))
			fail_msg("list does not show '%s' at the start of a line", e->name);
		if (!strstr(r.out, e->id))
			fail_msg("list does not show the id %s of %s", e->id, e->name);
		for (size_t k = 0; k < e->impl->nparams; k++)
			if (!strstr(r.out, e->impl->params[k].name))
				fail_msg("list does not show %s.%s", e->name, e->impl->params[k].name);
		/* an experiment measured in a fresh process says so on the line after its own */
		const char *at = strstr(r.out, line), *next = at ? strchr(at + 1, '\n') : NULL;
		static const char fresh_line[] = "\n    (measured in a process of its own";
		if (next && e->impl->fresh_process != !strncmp(next, fresh_line, strlen(fresh_line)))
			fail_msg("list %s %s's fresh process", e->impl->fresh_process ? "does not show" : "shows", e->name);
		fresh += e->impl->fresh_process;
	}
	assert_true(fresh >= 1); /* lat_mem_tlb, bw_l2_side */
	result_free(&r);
	r = RUN(*state, "list", "extra");
	one_line_error(&r, GP_EUSAGE, NULL);
	result_free(&r);
}

/* ---------------------------------------------------------------- usage errors: exit 2 */

static void test_unknown_command(void **state)
{
	struct result r = RUN(*state, "frobnicate");

	one_line_error(&r, GP_EUSAGE, "'frobnicate'");
	result_free(&r);
	r = run_env(*state, NULL, (const char *const[]){ NULL });
	one_line_error(&r, GP_EUSAGE, "command");
	result_free(&r);
}

static void test_unknown_experiment(void **state)
{
	struct result r = RUN(*state, "run", "lat_nope");

	one_line_error(&r, GP_EUSAGE, "'lat_nope'");
	result_free(&r);
	r = RUN(*state, "run", "--suite", "configs/quick.csv", "lat_ffma", "lat_nope");
	one_line_error(&r, GP_EUSAGE, "'lat_nope'");
	result_free(&r);
}

static void test_bad_numbers(void **state)
{
	static const char *const bad[][2] = {
		{ "--reps", "x" }, { "--reps", "0" }, { "--reps", "1001" }, { "--reps", "5x" },
		{ "--reps", "" }, { "--warmup", "-1" }, { "--device", "gpu0" },
		{ "--reps", "99999999999999999999" }, { "--timeout", "0" }, { "--reps-max", "0" },
		{ "--reps-max", "10001" }, { "--target-rsd", "x" }, { "--target-rsd", "0" }, { "--target-rsd", "51" },
		{ "--max-point-s", "0" },
	};

	for (size_t i = 0; i < GP_ARRAY_SIZE(bad); i++) {
		struct result r = RUN(*state, "run", bad[i][0], bad[i][1], "lat_ffma");
		one_line_error(&r, GP_EUSAGE, bad[i][0]);
		result_free(&r);
	}
}

static void test_bad_filter(void **state)
{
	struct result r = RUN(*state, "run", "--filter", "(");

	one_line_error(&r, GP_EUSAGE, "--filter");
	result_free(&r);
	/* a filter that selects nothing is a usage error too, not an empty run */
	r = RUN(*state, "run", "--suite", "configs/quick.csv", "--filter", "^zzz$");
	one_line_error(&r, GP_EUSAGE, NULL);
	result_free(&r);
}

/* One command's help: `CMD --help` and `help CMD` print its part of the usage and exit 0; an
 * unknown one is a usage error. Every command of the usage is in README's command list. */
static void test_command_help(void **state)
{
	static const char *const cmds[] = { "list", "info", "run", "report", "fleet", "compare", "plan", "tune" };
	struct result r = RUN(*state, "run", "--help");
	char *readme = slurp("README.md"), want[64];

	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "--reps-max"));
	assert_null(strstr(r.out, "compare RUN_A"));
	result_free(&r);
	r = RUN(*state, "help", "compare");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "compare RUN_A RUN_B"));
	result_free(&r);
	r = RUN(*state, "help", "nope");
	one_line_error(&r, GP_EUSAGE, "nope");
	result_free(&r);
	assert_non_null(readme);
	for (size_t i = 0; i < GP_ARRAY_SIZE(cmds); i++) {
		r = RUN(*state, "help", cmds[i]);
		assert_int_equal(r.status, 0);
		result_free(&r);
		snprintf(want, sizeof want, "gpuprobe %s", cmds[i]);
		if (!strstr(readme, want))
			fail_msg("README.md's command list lacks `%s`", want);
	}
	free(readme);
}

/* Adaptive repetitions that cannot work: fewer than the fixed count, or a time budget per point
 * the watchdog would cut. */
static void test_bad_adaptive_reps(void **state)
{
	struct result r = RUN(*state, "run", "--reps", "5", "--reps-max", "3", "lat_ffma");

	one_line_error(&r, GP_EUSAGE, "--reps-max");
	result_free(&r);
	r = RUN(*state, "run", "--reps-max", "50", "--max-point-s", "60", "--timeout", "30", "lat_ffma");
	one_line_error(&r, GP_EUSAGE, "--max-point-s");
	result_free(&r);
}

/* getopt's own complaint must not add a second line to ours. */
static void test_unknown_option(void **state)
{
	static const char *const cmds[][2] = {
		{ "run", "--bogus" }, { "info", "--bogus" }, { "report", "--bogus" }, { "run", "--reps" },
		{ "fleet", "--bogus" }, { "run", "--reps-max" },
	};

	for (size_t i = 0; i < GP_ARRAY_SIZE(cmds); i++) {
		struct result r = RUN(*state, cmds[i][0], cmds[i][1]);
		one_line_error(&r, GP_EUSAGE, NULL);
		result_free(&r);
	}
}

/* ---------------------------------------------------------------- bad suites: exit 3, no GPU needed */

static void bad_suite(const char *dir, const char *text, const char *want1, const char *want2)
{
	char suite[PATH_MAX], out[PATH_MAX];
	struct result r;

	snprintf(suite, sizeof suite, "%s/suite.csv", dir);
	snprintf(out, sizeof out, "%s/results", dir);
	if (text)
		write_file(suite, text);
	r = RUN(dir, "run", "--suite", suite, "--out", out);
	one_line_error(&r, GP_ECONFIG, want1);
	if (want2 && !strstr(r.err, want2)) {
		show(&r);
		fail_msg("message does not name '%s'", want2);
	}
	/* refused before anything was created */
	assert_false(exists(out));
	result_free(&r);
	unlink(suite);
}

static void test_suite_ragged(void **state)
{
	bad_suite(*state, "experiment,parameter,values\nlat_ffma,iters,4\nlat_ffma,threads\n", "line 3",
		  "suite.csv");
}

static void test_suite_unknown_experiment(void **state)
{
	bad_suite(*state, "experiment,parameter,values\nlat_nope,,\n", "'lat_nope'", "line 2");
}

static void test_suite_out_of_range(void **state)
{
	bad_suite(*state, "experiment,parameter,values\nlat_ffma,threads,32 5000\n", "5000", "threads");
}

static void test_suite_empty_file(void **state)
{
	bad_suite(*state, "", "empty", "suite.csv");
}

static void test_suite_missing_file(void **state)
{
	bad_suite(*state, NULL, "suite.csv", NULL);
}

static void test_suite_too_many_points(void **state)
{
	bad_suite(*state,
		  "experiment,parameter,values\nlat_ffma,threads,1:1024:1\nlat_ffma,iters,1:1000:1\n",
		  "more than 100000", "lat_ffma");
}

/* ---------------------------------------------------------------- earlier results untouched */

static void test_earlier_results_untouched(void **state)
{
	char root[PATH_MAX], run[PATH_MAX + 64], suite[PATH_MAX], *before, *after;
	struct result r;

	snprintf(root, sizeof root, "%s/results", (char *)*state);
	snprintf(run, sizeof run, "%s/h100-80gb-hbm3", root);
	assert_int_equal(mkdir(root, 0700), 0);
	assert_int_equal(mkdir(run, 0700), 0);
	strcat(run, "/20250101-000000");
	assert_int_equal(mkdir(run, 0700), 0);
	make_run_dir(run, 2, NULL);
	snprintf(suite, sizeof suite, "%s/REPORT.md", run);
	write_file(suite, "# an earlier report\n");
	snprintf(suite, sizeof suite, "%s/bad.csv", (char *)*state);
	write_file(suite, "experiment,parameter,values\nlat_ffma,iters\n");
	before = snapshot(root);

	r = RUN(*state, "run", "--suite", suite, "--out", root);
	one_line_error(&r, GP_ECONFIG, NULL);
	result_free(&r);
	r = RUN(*state, "run", "--reps", "0", "--out", root);
	one_line_error(&r, GP_EUSAGE, NULL);
	result_free(&r);
	if (no_gpu) {
		r = RUN(*state, "run", "--suite", "configs/quick.csv", "--out", root);
		one_line_error(&r, GP_ENOGPU, NULL);
		result_free(&r);
		r = RUN(*state, "run", "--out", root, "lat_ffma");
		one_line_error(&r, GP_ENOGPU, NULL);
		result_free(&r);
	} else {
		print_message("not running 'run' without a GPU: %s\n", no_gpu_why);
	}
	after = snapshot(root);
	assert_string_equal(after, before);
	free(before);
	free(after);
}

/* ---------------------------------------------------------------- no GPU: exit 4 */

static void test_no_gpu(void **state)
{
	char out[PATH_MAX];
	struct result r;

	if (!no_gpu) {
		print_message("skipped: %s\n", no_gpu_why);
		skip();
	}
	snprintf(out, sizeof out, "%s/results", (char *)*state);
	r = RUN(*state, "run", "--suite", "configs/quick.csv", "--out", out);
	one_line_error(&r, GP_ENOGPU, NULL);
	assert_false(exists(out));
	result_free(&r);
	r = RUN(*state, "info");
	one_line_error(&r, GP_ENOGPU, NULL);
	result_free(&r);
	r = RUN(*state, "info", "--device", "3");
	one_line_error(&r, GP_ENOGPU, NULL);
	result_free(&r);
}

#define T(f) cmocka_unit_test_setup_teardown(f, tmp_setup, tmp_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_version),
		T(test_help),
		T(test_list),
		T(test_unknown_command),
		T(test_unknown_experiment),
		T(test_bad_numbers),
		T(test_bad_adaptive_reps),
		T(test_command_help),
		T(test_bad_filter),
		T(test_unknown_option),
		T(test_suite_ragged),
		T(test_suite_unknown_experiment),
		T(test_suite_out_of_range),
		T(test_suite_empty_file),
		T(test_suite_missing_file),
		T(test_suite_too_many_points),
		T(test_earlier_results_untouched),
		T(test_no_gpu),
	};

	return cmocka_run_group_tests_name("cli", tests, group_setup, NULL);
}
