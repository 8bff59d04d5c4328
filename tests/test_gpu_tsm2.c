/* test_gpu_tsm2.c — TSM2X on a GPU: every kernel correct against cuBLAS.
 *
 * Runs tsm2r (V0-V3, float and double, several (t1, t2, t3)) and tsm2l (V3, Opt1, Opt2 over tcf)
 * through their measure() on small sizes and on sizes that are not tile multiples (m, k, n odd,
 * k < t1, n < t2). The experiment poisons C with NaN before the checked run, puts NaN slack after
 * every matrix and holds the relative Frobenius error to 64 u sqrt(k). Skips without GPU/cuBLAS. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gp.h"
#include "blas.h"
#include "experiment.h"
#include "tsm2.h"
#include "suite.h"

#include "gpu_test.h"

static int group_setup(void **state)
{
	gpu_setup(state);
	if (have_gpu && gp_blas_load(no_gpu_why, sizeof no_gpu_why)) {
		gp_device_close(&dev);
		have_gpu = 0;
	}
	return 0;
}

static int group_teardown(void **state)
{
	if (have_gpu)
		gp_blas_unload();
	return gpu_teardown(state);
}

/* Every row ok (n/a only where allowed: an instance too big for the device). */
static void check_rows(const struct gp_table *t)
{
	for (size_t r = 0; r < t->nrows; r++) {
		const char *k = gp_table_get(t, r, "kernel"), *st = gp_table_get(t, r, "status");
		double e = NAN, b = NAN;
		if (strcmp(st, "ok"))
			fail_msg("%s %s t1 %s t2 %s t3 %s tcf %s m %s k %s n %s: %s", k, gp_table_get(t, r, "precision"),
				 gp_table_get(t, r, "t1"), gp_table_get(t, r, "t2"), gp_table_get(t, r, "t3"),
				 gp_table_get(t, r, "tcf"), gp_table_get(t, r, "m"), gp_table_get(t, r, "k"),
				 gp_table_get(t, r, "n"), st);
		assert_int_equal(gp_table_get_double(t, r, "rel_err", &e), 0);
		assert_int_equal(gp_table_get_double(t, r, "err_bound", &b), 0);
		assert_true(e <= b);
	}
}

static void test_tsm2r_small(void **state)
{
	static const char *const set[] = { "precision", "single double", "m", "512", "kdiv", "1", "n", "2 4 16",
					   "kernel", "v0 v1 v2 v3 cublas", "t1", "128", "t2", "0", "t3", "4 16" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("tsm2r", set, GP_ARRAY_SIZE(set));
	check_rows(t);
	gp_table_free(t);
}

static void test_tsm2r_odd_sizes(void **state)
{
	static const char *const set[] = { "precision", "single double", "m", "333 1001", "kdiv", "1 7", "n", "1 3 5 17",
					   "kernel", "v1 v2 v3", "t1", "64 256", "t2", "0", "t3", "4" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("tsm2r", set, GP_ARRAY_SIZE(set));
	check_rows(t);
	gp_table_free(t);
}

static void test_tsm2r_grid(void **state)
{
	static const char *const set[] = { "precision", "single double", "m", "777", "kdiv", "1", "n", "40",
					   "kernel", "v3", "t1", "128", "t2", "2 8 32", "t3", "4 8 32" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("tsm2r", set, GP_ARRAY_SIZE(set));
	for (size_t r = 0; r < t->nrows; r++) { /* uncompiled (t2, t3) pairs decline, the rest are right */
		const char *st = gp_table_get(t, r, "status");
		if (strcmp(st, "ok") && strncmp(st, "n/a: t2", 7))
			fail_msg("v3 t2 %s t3 %s: %s", gp_table_get(t, r, "t2"), gp_table_get(t, r, "t3"), st);
	}
	gp_table_free(t);
}

static void test_tsm2l(void **state)
{
	static const char *const set[] = { "precision", "single double", "m", "10000 12345", "k", "2 3 8 16",
					   "kernel", "v3 l1 l2 cublas", "tcf", "1 3 8", "t1", "128", "t3", "0" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("tsm2l", set, GP_ARRAY_SIZE(set));
	check_rows(t);
	gp_table_free(t);
}

static void test_tsm2_search(void **state)
{
	static const char *const set[] = { "precision", "double", "m", "2048", "n", "4" };
	struct gp_table *t;
	int model = 0, brute = 0;

	NEED_GPU();
	t = measure("tsm2_search", set, GP_ARRAY_SIZE(set));
	/* The brute-force sweep may meet configurations the device cannot launch (t1 = 512 with a
	 * kernel of 166 registers on the H100): those say n/a; everything that ran is right, and the
	 * model's and the brute-force choices ran. */
	for (size_t r = 0; r < t->nrows; r++) {
		const char *c = gp_table_get(t, r, "choice"), *st = gp_table_get(t, r, "status");
		const int pick = !strcmp(c, "model") || !strcmp(c, "brute");
		double e = NAN, b = NAN;
		model += !strcmp(c, "model");
		brute += !strcmp(c, "brute");
		if (!pick && !strncmp(st, "n/a: ", 5) && strstr(st, "threads per block"))
			continue;
		if (strcmp(st, "ok"))
			fail_msg("%s t1 %s t2 %s t3 %s: %s", c, gp_table_get(t, r, "t1"), gp_table_get(t, r, "t2"),
				 gp_table_get(t, r, "t3"), st);
		assert_int_equal(gp_table_get_double(t, r, "rel_err", &e), 0);
		assert_int_equal(gp_table_get_double(t, r, "err_bound", &b), 0);
		assert_true(e <= b);
	}
	assert_int_equal(model, 1);
	assert_int_equal(brute, 1);
	gp_table_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tsm2r_small), cmocka_unit_test(test_tsm2r_odd_sizes),
		cmocka_unit_test(test_tsm2r_grid), cmocka_unit_test(test_tsm2l), cmocka_unit_test(test_tsm2_search),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
