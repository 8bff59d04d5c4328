/* test_compare.c — `gpuprobe compare` on two synthetic runs: rows are matched by parameter
 * columns, numeric columns compared as B / A, a difference flagged only beyond the larger
 * measured spread, and bad run directories refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

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

static void make_run(const char *dir, const char *clock, const char *lat_rows)
{
	char meta[256], lat[1024];

	assert_int_equal(mkdir(dir, 0777), 0);
	snprintf(meta, sizeof meta, "key,value\ndevice_name,Test GPU\nsm_clock_measured_MHz,%s\n", clock);
	write_file(dir, "meta.csv", meta);
	snprintf(lat, sizeof lat, "threads,cycles_per_ffma_min,spread,status\n%s", lat_rows);
	write_file(dir, "lat_ffma.csv", lat);
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

static void test_compare_ratios_and_spread(void **state)
{
	char root[] = "/tmp/gpuprobe-cmp-XXXXXX", a[256], b[256], cmd[300];
	struct gp_table *t;
	int st;

	assert_non_null(mkdtemp(root));
	snprintf(a, sizeof a, "%s/a", root);
	snprintf(b, sizeof b, "%s/b", root);
	/* threads=1: 4 -> 4.02 within a 1 % spread; threads=32: 4 -> 5, beyond it; threads=64 only in A. */
	make_run(a, "1980", "1,4,0.01,ok\n32,4,0.01,ok\n64,8,0.01,ok\n");
	make_run(b, "1755", "32,5,0.001,ok\n1,4.02,0.002,ok\n");
	t = compare(a, b, &st);
	assert_non_null(t);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_string_equal(find(t, "threads=1 #0", "cycles_per_ffma_min", "ratio_b_over_a"), "1.005");
	assert_string_equal(find(t, "threads=1 #0", "cycles_per_ffma_min", "beyond_spread"), "no");
	assert_string_equal(find(t, "threads=32 #0", "cycles_per_ffma_min", "ratio_b_over_a"), "1.25");
	assert_string_equal(find(t, "threads=32 #0", "cycles_per_ffma_min", "beyond_spread"), "yes");
	assert_null(find(t, "threads=64 #0", "cycles_per_ffma_min", "ratio_b_over_a"));
	/* the clock the runs measured is compared too */
	assert_string_equal(find(t, "", "sm_clock_measured_MHz", "b"), "1755");
	gp_table_free(t);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

static void test_compare_refuses_non_runs(void **state)
{
	char root[] = "/tmp/gpuprobe-cmp-XXXXXX", a[256], cmd[300];
	struct gp_table *t;
	int st;

	assert_non_null(mkdtemp(root));
	snprintf(a, sizeof a, "%s/a", root);
	make_run(a, "1980", "1,4,0.01,ok\n");
	t = compare(a, root, &st); /* root has no meta.csv */
	assert_null(t);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == GP_EUSAGE);
	write_file(a, "lat_ffma.csv", "threads,spread\n1,2,3\n"); /* ragged */
	t = compare(a, a, &st);
	assert_null(t);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == GP_ECONFIG);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare_ratios_and_spread),
		cmocka_unit_test(test_compare_refuses_non_runs),
	};

	return cmocka_run_group_tests_name("compare", tests, NULL, NULL);
}
