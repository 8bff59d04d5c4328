/* test_stub_needs.c — the capability guards on the run path, at each of the twelve architectures
 * nvcc 13 lists, without a GPU: bin/gpuprobe through the stub driver (stub_test.h) reporting
 * that compute capability (GPUPROBE_STUB_SM), over tests/stub/needs.csv (one small point of
 * every experiment with a GP_NEEDS line, lat_ffma, which needs nothing, and lat_mma's FP8 and f64
 * m16n8k16 forms, whose needs are per point: probes/mma.h).
 *
 * What is held at every sm: the run ends as a stub run does (exit 5: no check passes without
 * kernels), never with a fault; an experiment whose need the sm does not meet has only rows
 * "n/a: needs sm_XX (...); this GPU is sm_YY", exactly the guard's status, with its parameters;
 * one whose need is met has no such row. An mma row's status is its form's verdict at the sm
 * (needs sm_XX, or emulated there), and a native form's row is no n/a at all: it was run. Skipped,
 * saying why, where GP_STUB_DIR is unset. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gp.h"
#include "cli_test.h"
#include "child_test.h"
#include "experiment.h"
#include "mma.h"
#include "needs.h"
#include "stub_test.h"
#include "table.h"

#define NEEDS_SUITE "tests/stub/needs.csv"

static const int twelve[] = { 75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121 };

/* The one run directory under root (each sm's run has a root of its own). */
static void run_dir(const char *root, char *dir, size_t len)
{
	char cmd[PATH_MAX + 64];
	FILE *p;
	char *out;

	snprintf(cmd, sizeof cmd, "ls -d '%s'/*/2*", root);
	p = popen(cmd, "r");
	assert_non_null(p);
	out = fgets(dir, (int)len, p);
	pclose(p);
	assert_non_null(out);
	dir[strcspn(dir, "\n")] = '\0';
}

/* 1 with the status in why where row i cannot run at sm: the registry's need, or for an mma row
 * its form's verdict. *per_point: the row's need is its form's (a met one means it ran). */
static int row_unmet(const char *exp, const struct gp_table *t, size_t i, int sm, char *why, size_t len,
		     int *per_point)
{
	const struct gp_mma *d;
	char r[256];

	*per_point = !strcmp(exp, "lat_mma") || !strcmp(exp, "tput_mma");
	if (!*per_point)
		return gp_need_unmet(exp, sm, why, len);
	d = gp_mma_find(gp_table_get(t, i, "variant"));
	assert_non_null(d);
	if (!gp_mma_cannot(d, sm / 10, sm % 10, r, sizeof r))
		return 0;
	snprintf(why, len, "n/a: %s", r);
	return 1;
}

static void check_experiment(const char *dir, const char *exp, int sm, size_t *na)
{
	char path[PATH_MAX], err[256], why[256];
	const struct gp_experiment *e = gp_experiment_find(exp);
	struct gp_table *t;

	assert_non_null(e);
	snprintf(path, sizeof path, "%s/%s.csv", dir, exp);
	if (!(t = gp_table_load(path, err, sizeof err)))
		fail_msg("sm_%d: %s", sm, err);
	assert_true(t->nrows > 0);
	for (size_t i = 0; i < t->nrows; i++) {
		const char *st = gp_table_get(t, i, "status");
		int per_point;
		const int unmet = row_unmet(exp, t, i, sm, why, sizeof why, &per_point);
		if (unmet && strcmp(st, why))
			fail_msg("sm_%d %s row %zu: status '%s', want '%s'", sm, exp, i, st, why);
		if (!unmet && (per_point ? gp_status_na(st) : !strncmp(st, "n/a: needs sm_", strlen("n/a: needs sm_"))))
			fail_msg("sm_%d %s row %zu: '%s', but the need is met", sm, exp, i, st);
		*na += (size_t)unmet;
		/* The n/a row still names its point. */
		for (size_t k = 0; unmet && k < e->impl->nparams; k++)
			if (gp_table_col(t, e->impl->params[k].name) >= 0 && !*gp_table_get(t, i, e->impl->params[k].name))
				fail_msg("sm_%d %s row %zu: no %s", sm, exp, i, e->impl->params[k].name);
	}
	gp_table_free(t);
}

static void test_guards_at_every_sm(void **state)
{
	char *suite = slurp(NEEDS_SUITE);
	size_t total_na = 0;

	NEED_STUB();
	for (size_t s = 0; s < GP_ARRAY_SIZE(twelve); s++) {
		char root[PATH_MAX], dir[PATH_MAX], smenv[32];
		const char *env[] = { stub_ld_path, "GNUPLOT=/bin/true", smenv, NULL };
		struct result r;
		char *copy = gp_strdup(suite), *prev = "experiment";

		snprintf(smenv, sizeof smenv, "GPUPROBE_STUB_SM=%d", twelve[s]);
		snprintf(root, sizeof root, "%s/sm%d", (char *)*state, twelve[s]);
		r = run_opts(&(struct spawn){ env, -1, 0 },
			     (const char *const[]){ "-q", "run", "--suite", NEEDS_SUITE, "--out", root, NULL });
		if (r.status != GP_EVALID) {
			show(&r);
			fail_msg("sm_%d: the needs suite exited %d, want %d (a stub run, no fault)", twelve[s], r.status,
				 GP_EVALID);
		}
		result_free(&r);
		run_dir(root, dir, sizeof dir);
		assert_non_null(copy);
		for (char *line = strtok(copy, "\n"); line; line = strtok(NULL, "\n")) {
			line[strcspn(line, ",")] = '\0';
			if (!strcmp(line, prev))
				continue;
			prev = line;
			check_experiment(dir, line, twelve[s], &total_na);
		}
		free(copy);
	}
	free(suite);
	/* One point each: 6 sms x 5 (clusters, TMA) + 11 x 3 (sm_90a) + 3 x 5 (no verified SASS map);
	 * lat_mma: e4m3 m16n8k32 on 5 sms below sm_89 and emulated on 4 (sm_90 to sm_110), f64
	 * m16n8k16 on the 6 below sm_90. */
	assert_int_equal(total_na, 6 * 5 + 11 * 3 + 3 * 5 + 5 + 4 + 6);
}

static int group_setup(void **state)
{
	return child_group_setup(state) || stub_init();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_guards_at_every_sm, tmp_setup, tmp_teardown),
	};

	return cmocka_run_group_tests_name("stub_needs", tests, group_setup, NULL);
}
