/* test_compare.c — `gpuprobe compare` on two synthetic runs and on two committed H200 default
 * runs: rows are matched by parameter columns, numeric columns compared as B / A, a difference
 * flagged only beyond the larger measured spread, and bad run directories refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "gp.h"
#include "table.h"

static const char *bin(void)
{
	return getenv("GPUPROBE") ? getenv("GPUPROBE") : "bin/gpuprobe";
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A run directory: meta.csv and lat_ffma.csv with these columns (NULL: the usual ones) and rows. */
static void make_run_cols(const char *dir, const char *clock, const char *cols, const char *lat_rows)
{
	char meta[256], lat[1024];

	assert_int_equal(mkdir(dir, 0777), 0);
	snprintf(meta, sizeof meta, "key,value\ndevice_name,Test GPU\nsm_clock_measured_MHz,%s\n", clock);
	write_file(dir, "meta.csv", meta);
	snprintf(lat, sizeof lat, "%s\n%s", cols ? cols : "threads,cycles_per_ffma_min,spread,status,nvml_sm_MHz,reps",
		 lat_rows);
	write_file(dir, "lat_ffma.csv", lat);
}

static void make_run(const char *dir, const char *clock, const char *lat_rows)
{
	make_run_cols(dir, clock, NULL, lat_rows);
}

/* Run compare, parse its stdout as a table; *st gets the exit status. */
static struct gp_table *compare(const char *a, const char *b, int *st)
{
	char cmd[1024], err[256];
	static char out[65536];
	size_t n;
	FILE *p;

	snprintf(cmd, sizeof cmd, "%s -q compare %s %s 2>/dev/null", bin(), a, b);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, sizeof out - 1, p);
	out[n] = '\0';
	*st = pclose(p);
	return n ? gp_table_parse(out, n, err, sizeof err) : NULL;
}

static const char *find(const struct gp_table *t, const char *key, const char *col, const char *what)
{
	for (size_t r = 0; r < t->nrows; r++)
		if (!strcmp(gp_table_get(t, r, "key"), key) && !strcmp(gp_table_get(t, r, "column"), col))
			return gp_table_get(t, r, what);
	return NULL;
}

/* A fresh directory with the paths of two runs in it, a and b (not made yet). */
struct two_runs {
	char root[32], a[64], b[64];
};

static void two_runs_new(struct two_runs *w)
{
	snprintf(w->root, sizeof w->root, "/tmp/gpuprobe-cmp-XXXXXX");
	assert_non_null(mkdtemp(w->root));
	snprintf(w->a, sizeof w->a, "%s/a", w->root);
	snprintf(w->b, sizeof w->b, "%s/b", w->root);
}

static void two_runs_free(struct two_runs *w, struct gp_table *t)
{
	char cmd[64];

	gp_table_free(t);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", w->root);
	assert_int_equal(system(cmd), 0);
}

static void test_compare_ratios_and_spread(void **state)
{
	struct two_runs w;
	struct gp_table *t;
	int st;

	two_runs_new(&w);
	/* threads=1: 4 -> 4.02 within a 1 % spread; threads=32: 4 -> 5, beyond it; threads=64 only in A. */
	make_run(w.a, "1980", "1,4,0.01,ok,1980,5\n32,4,0.01,ok,1980,5\n64,8,0.01,ok,1980,5\n128,4,0,ok,1980,5\n");
	make_run(w.b, "1755", "32,5,0.001,ok,1755,9\n1,4.02,0.002,ok,1755,9\n128,4.04,0,ok,1755,9\n");
	t = compare(w.a, w.b, &st);
	assert_non_null(t);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_string_equal(find(t, "threads=1 #0", "cycles_per_ffma_min", "ratio_b_over_a"), "1.005");
	assert_string_equal(find(t, "threads=1 #0", "cycles_per_ffma_min", "beyond_spread"), "no");
	assert_string_equal(find(t, "threads=32 #0", "cycles_per_ffma_min", "ratio_b_over_a"), "1.25");
	assert_string_equal(find(t, "threads=32 #0", "cycles_per_ffma_min", "beyond_spread"), "yes");
	assert_null(find(t, "threads=64 #0", "cycles_per_ffma_min", "ratio_b_over_a"));
	/* threads=128: 1 % beyond a zero spread, but within the 2 % floor */
	assert_string_equal(find(t, "threads=128 #0", "cycles_per_ffma_min", "beyond_spread"), "no");
	/* the conditions a point ran under and its repetition count are not measured values */
	assert_null(find(t, "threads=1 #0", "nvml_sm_MHz", "ratio_b_over_a"));
	assert_null(find(t, "threads=1 #0", "reps", "ratio_b_over_a"));
	assert_null(find(t, "threads=1 #0", "spread", "ratio_b_over_a"));
	/* the clock the runs measured is compared too */
	assert_string_equal(find(t, "", "sm_clock_measured_MHz", "b"), "1755");
	two_runs_free(&w, t);
}

/* Rows with equal parameters (several rows of one point, an SM x line map) pair in their order:
 * the k-th of A with the k-th of B (every one was "#0" for a while, so all paired with the first). */
static void test_compare_repeated_keys(void **state)
{
	struct two_runs w;
	struct gp_table *t;
	int st;

	two_runs_new(&w);
	make_run(w.a, "1980", "1,4,0.01,ok,1980,5\n1,8,0.01,ok,1980,5\n1,16,0.01,ok,1980,5\n");
	make_run(w.b, "1980", "1,4,0.01,ok,1980,5\n1,8,0.01,ok,1980,5\n1,16,0.01,ok,1980,5\n");
	t = compare(w.a, w.b, &st);
	assert_non_null(t);
	assert_string_equal(find(t, "threads=1 #0", "cycles_per_ffma_min", "b"), "4");
	assert_string_equal(find(t, "threads=1 #1", "cycles_per_ffma_min", "b"), "8");
	assert_string_equal(find(t, "threads=1 #2", "cycles_per_ffma_min", "b"), "16");
	assert_string_equal(find(t, "threads=1 #2", "cycles_per_ffma_min", "beyond_spread"), "no");
	two_runs_free(&w, t);
}

/* A parameter column one run has and the other has not (added to the experiment since the older
 * run, which ran it at its default) does not stop the pairing: rows pair on the parameters both
 * tables have. */
static void test_compare_new_parameter(void **state)
{
	struct two_runs w;
	struct gp_table *t;
	int st;

	two_runs_new(&w);
	make_run(w.a, "1980", "1,4,0.01,ok,1980,5\n32,4,0.01,ok,1980,5\n");
	make_run_cols(w.b, "1980", "threads,iters,cycles_per_ffma_min,spread,status,nvml_sm_MHz,reps",
		      "32,4096,4.4,0.01,ok,1980,5\n1,4096,4,0.01,ok,1980,5\n");
	t = compare(w.a, w.b, &st);
	assert_non_null(t);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_string_equal(find(t, "threads=32 #0", "cycles_per_ffma_min", "b"), "4.4");
	assert_string_equal(find(t, "threads=1 #0", "cycles_per_ffma_min", "ratio_b_over_a"), "1");
	assert_null(find(t, "threads=32 #0", "iters", "b")); /* a parameter, never a measured value */
	two_runs_free(&w, t);
}

/* Two committed default-suite runs (two H200 machines, two sessions, commits c608cbd and
 * f5fb92d: the later one has the Hopper-era experiments): every experiment of both is matched, a
 * stable number (FFMA latency, FFMA rate) stays within its spread, and what only one run has
 * (the Hopper-era experiments' tables) is left out. */
static void test_compare_committed_runs(void **state)
{
	static const char *const a = "results/h200/20261124-063552", *const b = "results/h200/20261124-140704";
	static const char *const only_b[] = { "tput_wgmma", "lat_l2_map", "bw_tma", "lat_atomic" };
	char out[] = "/tmp/gpuprobe-cmp-XXXXXX", cmd[1024], err[256], path[256];
	struct gp_table *t;
	double ratio = NAN;
	size_t only_b_rows = 0, ffma_rows = 0;
	int fd, st;

	if (access(a, R_OK) || access(b, R_OK))
		fail_msg("committed runs %s, %s not readable (make test runs from the repository root)", a, b);
	for (size_t i = 0; i < GP_ARRAY_SIZE(only_b); i++) {
		snprintf(path, sizeof path, "%s/%s.csv", a, only_b[i]);
		assert_true(access(path, F_OK) != 0);
		snprintf(path, sizeof path, "%s/%s.csv", b, only_b[i]);
		assert_int_equal(access(path, R_OK), 0);
	}
	fd = mkstemp(out);
	assert_true(fd >= 0);
	close(fd);
	snprintf(cmd, sizeof cmd, "%s -q compare %s %s > %s 2>/dev/null", bin(), a, b, out);
	st = system(cmd);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	t = gp_table_load(out, err, sizeof err);
	unlink(out);
	if (!t)
		fail_msg("compare output is not a table: %s", err);
	assert_true(t->nrows > 5000);
	assert_string_equal(find(t, "", "device_name", "b"), "NVIDIA H200");
	for (size_t r = 0; r < t->nrows; r++) {
		const char *e = gp_table_get(t, r, "experiment"), *k = gp_table_get(t, r, "key"),
			   *c = gp_table_get(t, r, "column");
		for (size_t i = 0; i < GP_ARRAY_SIZE(only_b); i++)
			only_b_rows += !strcmp(e, only_b[i]);
		if (!strcmp(e, "lat_ffma") && !strcmp(k, "operand=reg threads=1 #0") &&
		    !strcmp(c, "cycles_per_ffma_min")) {
			assert_int_equal(gp_table_get_double(t, r, "ratio_b_over_a", &ratio), 0);
			assert_true(fabs(ratio - 1) < 0.01);
			ffma_rows++;
		}
		if (!strcmp(e, "tput_fp32") && !strcmp(k, "op=ffma #0") && !strcmp(c, "ops_per_clk_per_sm")) {
			assert_int_equal(gp_table_get_double(t, r, "ratio_b_over_a", &ratio), 0);
			assert_true(fabs(ratio - 1) < 0.01);
			assert_string_equal(gp_table_get(t, r, "beyond_spread"), "no");
			ffma_rows++;
		}
	}
	assert_int_equal(ffma_rows, 2);
	assert_int_equal(only_b_rows, 0); /* only in B: not compared */
	gp_table_free(t);
}

static void test_compare_refuses_non_runs(void **state)
{
	struct two_runs w;
	struct gp_table *t;
	int st;

	two_runs_new(&w);
	make_run(w.a, "1980", "1,4,0.01,ok\n");
	t = compare(w.a, w.root, &st); /* root has no meta.csv */
	assert_null(t);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == GP_EUSAGE);
	write_file(w.a, "lat_ffma.csv", "threads,spread\n1,2,3\n"); /* ragged */
	t = compare(w.a, w.a, &st);
	assert_null(t);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == GP_ECONFIG);
	two_runs_free(&w, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare_ratios_and_spread),
		cmocka_unit_test(test_compare_repeated_keys),
		cmocka_unit_test(test_compare_new_parameter),
		cmocka_unit_test(test_compare_refuses_non_runs),
		cmocka_unit_test(test_compare_committed_runs),
	};

	return cmocka_run_group_tests_name("compare", tests, NULL, NULL);
}
