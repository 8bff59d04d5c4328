/* test_results.c — the committed runs under results/ read as data, without a GPU or gnuplot.
 *
 * A run is a directory results/<gpu>/<stamp>/ with a meta.csv. In each of its tables that has a
 * status and a clock_MHz column, every row whose status is ok must carry the clock its kernel
 * measured: a number above zero. A rate is held against the peak at that clock, so an ok row
 * with clock_MHz 0 is a number nothing checked (issue 21: the tput_occupancy rows of four early
 * H100 runs, retired for it). The checker is shown a planted run first, so it cannot pass by
 * reading nothing. Runs from the repository root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gp.h"
#include "table.h"
#include "cli_test.h"

struct tally {
	int runs;
	size_t ok_rows; /* ok rows of tables with a clock_MHz column */
	int bad;        /* ok rows without a clock above zero, each printed */
};

static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static int ends_with(const char *s, const char *suffix)
{
	const size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static void check_table(const char *path, struct tally *t)
{
	char err[512];
	struct gp_table *tab = gp_table_load(path, err, sizeof err);

	if (!tab)
		fail_msg("a committed table does not read: %s", err);
	if (gp_table_col(tab, "clock_MHz") >= 0 && gp_table_col(tab, "status") >= 0)
		for (size_t r = 0; r < tab->nrows; r++) {
			if (!gp_table_row_ok(tab, r))
				continue;
			t->ok_rows++;
			if (!(gp_table_num(tab, r, "clock_MHz") > 0)) {
				print_error("%s: line %zu: status ok with clock_MHz '%s'\n", path, gp_table_line(tab, r),
					    gp_table_get(tab, r, "clock_MHz"));
				t->bad++;
			}
		}
	gp_table_free(tab);
}

/* Every CSV of the run directory dir (meta.csv holds no rows of measurements). */
static void check_run(const char *dir, struct tally *t)
{
	char path[PATH_MAX];
	struct dirent **ents;
	const int n = scandir(dir, &ents, NULL, alphasort);

	assert_true(n >= 0);
	t->runs++;
	for (int i = 0; i < n; i++) {
		const char *d = ents[i]->d_name;
		if (ends_with(d, ".csv") && strcmp(d, "meta.csv")) {
			snprintf(path, sizeof path, "%s/%s", dir, d);
			check_table(path, t);
		}
		free(ents[i]);
	}
	free(ents);
}

/* root/<gpu>/<run>/meta.csv: each such run checked; other files and folders (solver output,
 * sanitizer logs, fleet tables) are not runs. */
static struct tally check_root(const char *root)
{
	struct tally t = { 0 };
	char gpu[PATH_MAX], run[PATH_MAX], meta[PATH_MAX + 16];
	struct dirent **gpus, **runs;
	int ng = scandir(root, &gpus, NULL, alphasort);

	if (ng < 0)
		fail_msg("%s not readable (make test runs from the repository root)", root);
	for (int g = 0; g < ng; g++) {
		int nr;
		snprintf(gpu, sizeof gpu, "%s/%s", root, gpus[g]->d_name);
		if (gpus[g]->d_name[0] != '.' && is_dir(gpu) && (nr = scandir(gpu, &runs, NULL, alphasort)) >= 0) {
			for (int r = 0; r < nr; r++) {
				snprintf(run, sizeof run, "%s/%s", gpu, runs[r]->d_name);
				snprintf(meta, sizeof meta, "%s/meta.csv", run);
				if (runs[r]->d_name[0] != '.' && is_dir(run) && !access(meta, R_OK))
					check_run(run, &t);
				free(runs[r]);
			}
			free(runs);
		}
		free(gpus[g]);
	}
	free(gpus);
	return t;
}

/* A planted results tree: one run whose tables hold an ok row with clock 0, one with an empty
 * clock, a faulted row with clock 0 (allowed: it says why it has no number), a table without a
 * clock column; beside it a folder with CSVs but no meta.csv, which is no run. */
static void test_checker_finds_a_planted_row(void **state)
{
	const char *dir = *state;
	char path[PATH_MAX + 64];
	struct tally t;

	snprintf(path, sizeof path, "%s/gpu", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/gpu/20250101-000000", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/gpu/20250101-000000/meta.csv", dir);
	write_file(path, "key,value\nsm_count,132\n");
	snprintf(path, sizeof path, "%s/gpu/20250101-000000/tput_occupancy.csv", dir);
	write_file(path, "warps,ops,clock_MHz,status\n1,7.9,1979.5,ok\n2,15.9,0,ok\n3,,0,fault: x\n4,31.8,,ok\n");
	snprintf(path, sizeof path, "%s/gpu/20250101-000000/profile.csv", dir);
	write_file(path, "key,value,unit,method,source\nffma_latency,4.03,cycles,x,lat_ffma\n");
	snprintf(path, sizeof path, "%s/gpu/solver", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/gpu/solver/map.csv", dir);
	write_file(path, "field,clock_MHz,status\nx,0,ok\n");
	t = check_root(dir);
	assert_int_equal(t.runs, 1);
	assert_int_equal(t.ok_rows, 3);
	assert_int_equal(t.bad, 2);
}

static void test_committed_runs_have_their_clock(void **state)
{
	const struct tally t = check_root("results");

	(void)state;
	print_message("%d committed runs, %zu ok rows with a clock column\n", t.runs, t.ok_rows);
	assert_true(t.runs >= 10);
	assert_true(t.ok_rows >= 10000);
	if (t.bad)
		fail_msg("%d ok rows without a measured clock (listed above)", t.bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_checker_finds_a_planted_row, tmp_setup, tmp_teardown),
		cmocka_unit_test(test_committed_runs_have_their_clock),
	};

	return cmocka_run_group_tests_name("results", tests, NULL, NULL);
}
