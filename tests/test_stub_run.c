/* test_stub_run.c — the run path end to end without a GPU: bin/gpuprobe as a child, loading the
 * stub driver (tests/stub, stub_test.h), which reports a fake GPU and runs no kernel.
 *
 * What is held: the stub suite (tests/stub/suite.csv) exits 5, because no probe's check passes
 * when no kernel ran, and nothing it writes can pass for a measurement (no `ok` row, no profile
 * key, meta.csv names the stub, REPORT.md says so first); a fault or a hang costs only its own
 * point and the run exits 7; the watchdog ends a point that outlasts --timeout, however it would
 * have ended; run directories are <out>/<gpu>/<stamp>, a new one even when the second's name is
 * taken, and earlier ones stay as they were; no GPU, or no GPU N, is exit 4 with one line and no
 * directory. Interruption is test_reliability's (its stub variant). Skipped, saying why, where
 * GP_STUB_DIR is unset (stub_test.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gp.h"
#include "cli_test.h"
#include "child_test.h"
#include "stub_test.h"
#include "table.h"

#define STUB_SUITE "tests/stub/suite.csv"

/* The binary run through the stub with the extra environment entries given (NULL-terminated). */
static struct result stub_run(const char *const *extra, const char *const *args)
{
	const char *env[8] = { stub_ld_path, "GNUPLOT=/bin/true" };
	size_t n = 2;

	for (; extra && extra[n - 2]; n++) {
		assert_true(n + 1 < GP_ARRAY_SIZE(env));
		env[n] = extra[n - 2];
	}
	env[n] = NULL;
	return run_opts(&(struct spawn){ env, -1, 0 }, args);
}

#define STUB_RUN(extra, ...) stub_run((extra), (const char *const[]){ __VA_ARGS__, NULL })

/* stdout is exactly one line, a run directory <root>/<stub slug>/<yyyymmdd-hhmmss>[-N]: it. */
static char *run_dir_of(const struct result *r, const char *root)
{
	char pattern[PATH_MAX + 96], *dir = gp_strdup(r->out);
	regex_t re;
	int ok;

	assert_non_null(dir);
	snprintf(pattern, sizeof pattern, "^%s/" STUB_SLUG "/[0-9]{8}-[0-9]{6}(-[0-9]+)?\n$", root);
	assert_int_equal(regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB), 0);
	ok = !regexec(&re, r->out, 0, NULL, 0);
	regfree(&re);
	if (!ok) {
		show(r);
		fail_msg("stdout is not one run directory under %s/%s", root, STUB_SLUG);
	}
	dir[strcspn(dir, "\n")] = '\0';
	return dir;
}

static struct gp_table *load(const char *dir, const char *name)
{
	char path[PATH_MAX], err[256];
	struct gp_table *t;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (!(t = gp_table_load(path, err, sizeof err)))
		fail_msg("%s: %s", path, err);
	return t;
}

/* The stub suite, with its report: exit 5, every experiment's CSV there and not one row ok. */
static void test_suite_through_stub(void **state)
{
	char root[PATH_MAX], path[PATH_MAX + 32], *dir, *md, *suite;
	struct gp_table *meta = NULL, *t;
	struct result r;
	size_t nexp = 0;

	NEED_STUB();
	snprintf(root, sizeof root, "%s/results", (char *)*state);
	r = STUB_RUN(NULL, "-q", "run", "--suite", STUB_SUITE, "--out", root, "--report");
	if (r.status != GP_EVALID) {
		show(&r);
		fail_msg("the stub suite exited %d, want %d (every check fails without kernels)", r.status, GP_EVALID);
	}
	dir = run_dir_of(&r, root);
	assert_string_equal(meta_value(&meta, dir, "status"), "invalid-results");
	assert_non_null(strstr(meta_value(&meta, dir, "stub_driver"), "no value is a measurement"));
	assert_non_null(strstr(meta_value(&meta, dir, "device_name"), "stub"));
	gp_table_free(meta);
	/* Every experiment the suite names left its table, and no row of it passed. */
	suite = slurp(STUB_SUITE);
	for (char *line = strtok(suite, "\n"), *prev = "experiment"; line; line = strtok(NULL, "\n")) {
		line[strcspn(line, ",")] = '\0';
		if (!strcmp(line, prev))
			continue; /* the header, or an experiment's rows after its first */
		prev = line;
		snprintf(path, sizeof path, "%s.csv", line);
		t = load(dir, path);
		assert_true(t->nrows > 0);
		for (size_t i = 0; i < t->nrows; i++)
			if (!strcmp(gp_table_get(t, i, "status"), "ok"))
				fail_msg("%s row %zu passed its check through the stub driver", path, i);
		gp_table_free(t);
		nexp++;
	}
	free(suite);
	assert_int_equal(nexp, 8);
	t = load(dir, "profile.csv");
	assert_int_equal(t->nrows, 0);
	gp_table_free(t);
	snprintf(path, sizeof path, "%s/REPORT.md", dir);
	md = slurp(path);
	assert_non_null(strstr(md, "> **Not a measurement.**"));
	assert_null(strstr(md, "Every number below was measured"));
	free(md);
	assert_no_tmp(root);
	free(dir);
	result_free(&r);
}

/* selftest_fault's trap, illegal address and hang: each its own row, every ok point after them
 * measured by a fresh process, exit 7, and the hang ended by the watchdog (--timeout 1). */
static void test_fault_isolation_through_stub(void **state)
{
	static const char *const want[][2] = {
		{ "ok", "ok" }, { "trap", "fault:" }, { "ok", "ok" }, { "oob", "fault:" },
		{ "ok", "ok" }, { "hang", "hang:" }, { "ok", "ok" },
	};
	char root[PATH_MAX], *dir;
	struct gp_table *meta = NULL, *t;
	struct result r;

	NEED_STUB();
	snprintf(root, sizeof root, "%s/results", (char *)*state);
	r = STUB_RUN(NULL, "-q", "run", "selftest_fault", "--reps", "1", "--timeout", "1", "--out", root);
	if (r.status != GP_ECUDA) {
		show(&r);
		fail_msg("exit %d, want %d", r.status, GP_ECUDA);
	}
	assert_true(r.seconds < 30); /* one watchdog second for the hang, not a stuck run */
	dir = run_dir_of(&r, root);
	assert_string_equal(meta_value(&meta, dir, "status"), "faults");
	t = load(dir, "selftest_fault.csv");
	assert_int_equal(t->nrows, GP_ARRAY_SIZE(want));
	for (size_t i = 0; i < t->nrows; i++) {
		const char *st = gp_table_get(t, i, "status");
		assert_string_equal(gp_table_get(t, i, "mode"), want[i][0]);
		if (strncmp(st, want[i][1], strlen(want[i][1])))
			fail_msg("row %zu (%s): status '%s', want '%s…'", i, want[i][0], st, want[i][1]);
	}
	gp_table_free(t);
	gp_table_free(meta);
	free(dir);
	result_free(&r);
}

/* The watchdog bounds a point, not a kernel: one that would return after 2.5 s is a hang under
 * --timeout 1 (exit 7), and the same kernel at 0.2 s is measured (the ok self-test: exit 0). */
static void test_watchdog_bounds_a_point(void **state)
{
	static const char *const slow[] = { "GPUPROBE_STUB_KERNEL_MS=2500", NULL };
	static const char *const fast[] = { "GPUPROBE_STUB_KERNEL_MS=200", NULL };
	char root[PATH_MAX], suite[PATH_MAX], *dir;
	struct gp_table *t;
	struct result r;

	NEED_STUB();
	snprintf(root, sizeof root, "%s/results", (char *)*state);
	snprintf(suite, sizeof suite, "%s/ok.csv", (char *)*state);
	write_file(suite, "experiment,parameter,values\nselftest_fault,mode,ok ok\n");
	r = STUB_RUN(slow, "-q", "run", "--suite", suite, "--reps", "1", "--warmup", "0", "--timeout", "1", "--out",
		     root);
	if (r.status != GP_ECUDA) {
		show(&r);
		fail_msg("2.5 s points under a 1 s watchdog: exit %d, want %d", r.status, GP_ECUDA);
	}
	assert_true(r.seconds < 2 * 2.5); /* each point ended by the watchdog, not by the kernel */
	dir = run_dir_of(&r, root);
	t = load(dir, "selftest_fault.csv");
	assert_int_equal(t->nrows, 2);
	for (size_t i = 0; i < t->nrows; i++)
		assert_int_equal(strncmp(gp_table_get(t, i, "status"), "hang:", 5), 0);
	gp_table_free(t);
	free(dir);
	result_free(&r);

	r = STUB_RUN(fast, "-q", "run", "--suite", suite, "--reps", "1", "--warmup", "0", "--timeout", "2", "--out",
		     root);
	if (r.status != 0) {
		show(&r);
		fail_msg("0.2 s points under a 2 s watchdog: exit %d, want 0", r.status);
	}
	dir = run_dir_of(&r, root);
	t = load(dir, "selftest_fault.csv");
	for (size_t i = 0; i < t->nrows; i++)
		assert_string_equal(gp_table_get(t, i, "status"), "ok");
	gp_table_free(t);
	free(dir);
	result_free(&r);
}

/* Every stamp from a second ago to a minute ahead is taken already: the run still gets a new
 * directory, <stamp>-2, in a results root it had to create, and the earlier ones are untouched. */
static void test_run_dir_naming(void **state)
{
	char root[PATH_MAX], gpu[PATH_MAX + 64], taken[PATH_MAX + 128], suite[PATH_MAX], *before, *dir;
	const time_t now = time(NULL);
	struct gp_table *meta = NULL;
	struct result r;

	NEED_STUB();
	snprintf(root, sizeof root, "%s/results/nested", (char *)*state);
	snprintf(gpu, sizeof gpu, "%s/results", (char *)*state);
	assert_int_equal(mkdir(gpu, 0700), 0);
	assert_int_equal(mkdir(root, 0700), 0);
	snprintf(gpu, sizeof gpu, "%s/%s", root, STUB_SLUG);
	assert_int_equal(mkdir(gpu, 0700), 0);
	for (time_t s = now - 1; s <= now + 60; s++) {
		struct tm tm;
		char stamp[32];
		gmtime_r(&s, &tm);
		strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
		snprintf(taken, sizeof taken, "%s/%s", gpu, stamp);
		assert_int_equal(mkdir(taken, 0700), 0);
		snprintf(taken, sizeof taken, "%s/%s/meta.csv", gpu, stamp);
		write_file(taken, "key,value\nstatus,complete\n");
	}
	before = snapshot(gpu);
	snprintf(suite, sizeof suite, "%s/ok.csv", (char *)*state);
	write_file(suite, "experiment,parameter,values\nselftest_fault,mode,ok\n");
	r = STUB_RUN(NULL, "-q", "run", "--suite", suite, "--reps", "1", "--out", root);
	if (r.status != 0) {
		show(&r);
		fail_msg("exit %d, want 0 (the ok self-test)", r.status);
	}
	dir = run_dir_of(&r, root);
	assert_int_equal(strcmp(dir + strlen(dir) - 2, "-2"), 0);
	assert_string_equal(meta_value(&meta, dir, "status"), "complete");
	gp_table_free(meta);
	/* The earlier directories: all there, none changed; the new one is the only addition. */
	snprintf(taken, sizeof taken, "rm -rf '%s'", dir);
	assert_int_equal(system(taken), 0);
	assert_unchanged(gpu, before, &r);
	free(before);
	free(dir);
	result_free(&r);
}

/* A driver with no GPU, and a GPU ordinal the driver lacks: exit 4, one line, no directory. */
static void test_no_gpu_through_stub(void **state)
{
	static const char *const none[] = { "GPUPROBE_STUB_GPUS=0", NULL };
	static const char *const two[] = { "GPUPROBE_STUB_GPUS=2", NULL };
	char root[PATH_MAX];
	struct result r;

	NEED_STUB();
	snprintf(root, sizeof root, "%s/results", (char *)*state);
	r = STUB_RUN(none, "-q", "run", "--suite", STUB_SUITE, "--out", root);
	one_line_error(&r, GP_ENOGPU, "no CUDA GPU found");
	result_free(&r);
	r = STUB_RUN(none, "info");
	one_line_error(&r, GP_ENOGPU, "no CUDA GPU found");
	result_free(&r);
	r = STUB_RUN(two, "-q", "run", "--suite", STUB_SUITE, "--device", "2", "--out", root);
	one_line_error(&r, GP_ENOGPU, "no GPU 2 (this machine has 2)");
	result_free(&r);
	assert_false(exists(root));
	r = STUB_RUN(two, "info", "--device", "1");
	if (r.status || !strstr(r.out, "stub_driver") || !strstr(r.out, "GPU-73747562-0000-0000-0000-000000000001")) {
		show(&r);
		fail_msg("info --device 1 of two stub GPUs: exit %d, want 0, its stub_driver line and its UUID",
			 r.status);
	}
	result_free(&r);
}

/* One experiment's table from a suite (its text) run through the stub with --reps 2 and the
 * given warm-up. */
static struct gp_table *stub_table(void **state, const char *suite_text, const char *warmup, const char *csv)
{
	char root[PATH_MAX], suite[PATH_MAX], *dir;
	struct gp_table *t;
	struct result r;

	snprintf(root, sizeof root, "%s/results", (char *)*state);
	snprintf(suite, sizeof suite, "%s/suite.csv", (char *)*state);
	write_file(suite, suite_text);
	r = STUB_RUN(NULL, "-q", "run", "--suite", suite, "--reps", "2", "--warmup", warmup, "--out", root);
	dir = run_dir_of(&r, root);
	t = load(dir, csv);
	free(dir);
	result_free(&r);
	return t;
}

/* A process parameter through the binary: each value's points measured (by a process of its own:
 * tests/test_isolate.c), its rows in order with the value in their column. */
static void test_process_parameter_rows(void **state)
{
	static const char *const want[] = { "1", "1", "3", "3" };
	struct gp_table *t;

	NEED_STUB();
	t = stub_table(state, "experiment,parameter,values\nselftest_fault,process,1 3\nselftest_fault,mode,ok ok\n", "0",
		       "selftest_fault.csv");
	assert_int_equal(t->nrows, GP_ARRAY_SIZE(want));
	for (size_t i = 0; i < t->nrows; i++) {
		assert_string_equal(gp_table_get(t, i, "process"), want[i]);
		assert_string_equal(gp_table_get(t, i, "status"), "ok");
	}
	gp_table_free(t);
}

/* A probe's own minimum of repetitions (bw_tma: HBM streams whose times can be bimodal) holds
 * over a smaller --reps, and the row says how many ran and why they stopped. */
static void test_probe_min_reps(void **state)
{
	struct gp_table *t;

	NEED_STUB();
	t = stub_table(state, "experiment,parameter,values\nbw_tma,copy,bulk\nbw_tma,box_bytes,16384\n"
			      "bw_tma,blocks_per_sm,1\n", "0", "bw_tma.csv");
	assert_int_equal(t->nrows, 1);
	assert_string_equal(gp_table_get(t, 0, "reps"), "20");
	assert_string_equal(gp_table_get(t, 0, "reps_stop"), "fixed count");
	gp_table_free(t);
}

/* A point whose rate a context's state decides spreads its repetitions over fresh contexts
 * (gp_meas_contexts: bw_hbm's l2_read over 16), and the row says so; the run's own context and
 * module cache are back for the next point (the HBM read after it, one context as before). The
 * stub runs no kernel, so both rows fail their checks (exit 5): only the repetitions are tested. */
static void test_point_over_contexts(void **state)
{
	struct gp_table *t;

	NEED_STUB();
	t = stub_table(state, "experiment,parameter,values\nbw_hbm,op,l2_read read\nbw_hbm,bytes,1073741824\n"
			      "bw_hbm,l2_footprint,65536\n", "1", "bw_hbm.csv");
	assert_int_equal(t->nrows, 2);
	assert_string_equal(gp_table_get(t, 0, "op"), "l2_read");
	assert_string_equal(gp_table_get(t, 0, "reps_stop"), "fixed count; over 16 contexts");
	assert_string_equal(gp_table_get(t, 1, "op"), "read");
	assert_string_equal(gp_table_get(t, 1, "reps_stop"), "fixed count");
	gp_table_free(t);
}

/* The stdout lines of a multi-GPU run: one run directory each, in order. */
static int out_lines(const struct result *r, char lines[][PATH_MAX], int max)
{
	int n = 0;

	for (const char *p = r->out; *p && n < max; n++) {
		const size_t len = strcspn(p, "\n");
		snprintf(lines[n], PATH_MAX, "%.*s", (int)len, p);
		p += len + (p[len] == '\n');
	}
	return n;
}

/* --device all on two stub GPUs: a run directory per GPU, each with the host's topology and
 * every ordered pair's rows (none ok: no kernel runs); on one, the p2p rows are n/a and it
 * exits 0; a bad list is a usage error before any run. */
static void test_device_all_through_stub(void **state)
{
	static const char *const one[] = { "GPUPROBE_STUB_GPUS=1", NULL };
	static const char *const two[] = { "GPUPROBE_STUB_GPUS=2", NULL };
	char root[PATH_MAX], dirs[4][PATH_MAX], ord[8];
	struct gp_table *meta = NULL, *t;
	struct result r;

	NEED_STUB();
	snprintf(root, sizeof root, "%s/results", (char *)*state);
	r = STUB_RUN(two, "-q", "run", "--suite", "tests/stub/p2p.csv", "--device", "all", "--out", root);
	if (r.status != GP_EVALID || out_lines(&r, dirs, 4) != 2) {
		show(&r);
		fail_msg("--device all on two stub GPUs: exit %d and %d directories, want %d and 2", r.status,
			 out_lines(&r, dirs, 4), GP_EVALID);
	}
	for (int k = 0; k < 2; k++) {
		snprintf(ord, sizeof ord, "%d", k);
		assert_string_equal(meta_value(&meta, dirs[k], "device_ordinal"), ord);
		assert_string_equal(meta_value(&meta, dirs[k], "topo_gpus"), "2");
		assert_string_equal(meta_value(&meta, dirs[k], "topo_gpu1_pci_bus_id"), "0000:1c:00.0");
		assert_non_null(strstr(meta_value(&meta, dirs[k], "topo_p2p_1_0"), "access yes"));
		gp_table_free(meta);
		meta = NULL;
		t = load(dirs[k], "bw_p2p.csv");
		assert_int_equal(t->nrows, 8); /* 4 modes x 2 ordered pairs */
		for (size_t i = 0; i < t->nrows; i++)
			assert_string_not_equal(gp_table_get(t, i, "status"), "ok");
		gp_table_free(t);
	}
	result_free(&r);
	r = STUB_RUN(one, "-q", "run", "--suite", "tests/stub/p2p.csv", "--device", "all", "--out", root);
	if (r.status != 0 || out_lines(&r, dirs, 4) != 1) {
		show(&r);
		fail_msg("--device all on one stub GPU: exit %d, want 0 and one directory", r.status);
	}
	t = load(dirs[0], "lat_p2p.csv");
	assert_int_equal(t->nrows, 1);
	assert_string_equal(gp_table_get(t, 0, "status"), "n/a: one GPU");
	gp_table_free(t);
	result_free(&r);
	r = STUB_RUN(two, "-q", "run", "--suite", "tests/stub/p2p.csv", "--device", "1,1", "--out", root);
	one_line_error(&r, GP_EUSAGE, "GPU 1 named twice");
	result_free(&r);
	r = STUB_RUN(two, "-q", "run", "--suite", "tests/stub/p2p.csv", "--device", "0,", "--out", root);
	one_line_error(&r, GP_EUSAGE, "--device: '0,' is not all");
	result_free(&r);
}

static int group_setup(void **state)
{
	return child_group_setup(state) || stub_init();
}

#define T(f) cmocka_unit_test_setup_teardown(f, tmp_setup, tmp_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_suite_through_stub),
		T(test_fault_isolation_through_stub),
		T(test_watchdog_bounds_a_point),
		T(test_process_parameter_rows),
		T(test_run_dir_naming),
		T(test_no_gpu_through_stub),
		T(test_probe_min_reps), T(test_point_over_contexts),
		T(test_device_all_through_stub),
	};

	return cmocka_run_group_tests_name("stub_run", tests, group_setup, NULL);
}
