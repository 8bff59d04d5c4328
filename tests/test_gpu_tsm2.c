/* test_gpu_tsm2.c — TSM2X on a GPU: every kernel correct against cuBLAS, through the harness:
 * tsm2r (V0-V4, float and double, several (t1, t2, t3)) and tsm2l (V3, Opt1, Opt2 over tcf) on
 * small sizes and sizes that are not tile multiples (m, k, n odd, k < t1, n < t2), C poisoned,
 * NaN slack after every matrix, relative error <= 64 u sqrt(k); V4 over ksplit (automatic, 1 =
 * V3's bits, 3, more than the tiles); V5 the same, with V3's bits at one slice, its SASS (LDS.128
 * for B, LDGSTS for A) and its t3 choice. Skips without GPU/cuBLAS (cuobjdump). */
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
#include "tsm2_model.h"
#include "suite.h"

#include "gpu_test.h"
#include "sass_listing.h"

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
					   "kernel", "v0 v1 v2 v3 v4 cublas", "t1", "128", "t2", "0", "t3", "4 16" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("tsm2r", set, GP_ARRAY_SIZE(set));
	check_rows(t);
	for (size_t r = 0; r < t->nrows; r++) /* the baseline's row is its own baseline */
		if (!strcmp(gp_table_get(t, r, "kernel"), "cublas"))
			assert_string_equal(gp_table_get(t, r, "cublas_time_ms"), gp_table_get(t, r, "time_ms"));
	gp_table_free(t);
}

static void test_tsm2r_odd_sizes(void **state)
{
	static const char *const set[] = { "precision", "single double", "m", "333 1001", "kdiv", "1 7", "n", "1 3 5 17",
					   "kernel", "v1 v2 v3 v4", "t1", "64 256", "t2", "0", "t3", "4" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("tsm2r", set, GP_ARRAY_SIZE(set));
	check_rows(t);
	gp_table_free(t);
}

static void test_tsm2r_grid(void **state)
{
	static const char *const set[] = { "precision", "single double", "m", "777", "kdiv", "1", "n", "40",
					   "kernel", "v3 v4", "t1", "128", "t2", "2 8 32", "t3", "4 8 32" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("tsm2r", set, GP_ARRAY_SIZE(set));
	for (size_t r = 0; r < t->nrows; r++) { /* uncompiled (t2, t3) pairs decline, the rest are right */
		const char *st = gp_table_get(t, r, "status");
		if (strcmp(st, "ok") && strncmp(st, "n/a: t2", 7))
			fail_msg("%s t2 %s t3 %s: %s", gp_table_get(t, r, "kernel"), gp_table_get(t, r, "t2"),
				 gp_table_get(t, r, "t3"), st);
	}
	gp_table_free(t);
}

static double col(const struct gp_table *t, size_t r, const char *c)
{
	double v = NAN;
	assert_int_equal(gp_table_get_double(t, r, c, &v), 0);
	return v;
}

/* V4 with the slice count chosen: every row right, and the count follows the rule: the row blocks
 * x slices make at least TSM2_KSPLIT_WAVES waves of what the GPU keeps resident, unless there is
 * one slice per B tile. m = 512 is 4 row blocks of 128, so the rule splits k here. */
static void test_tsm2r_v4_auto(void **state)
{
	static const char *const set[] = { "precision", "single double", "m", "512 1001 4096", "kdiv", "1 7",
					   "n", "1 5 16", "kernel", "v4", "t1", "64 128", "t2", "0", "t3", "4 16" };
	struct gp_table *t;
	int split = 0;

	NEED_GPU();
	t = measure("tsm2r", set, GP_ARRAY_SIZE(set));
	check_rows(t);
	for (size_t r = 0; r < t->nrows; r++) {
		const double ks = col(t, r, "ksplit"), tiles = ceil(col(t, r, "k") / col(t, r, "t1"));
		const double resident = TSM2_KSPLIT_WAVES * dev.sms * col(t, r, "active_threads_per_sm");
		assert_true(ks >= 1 && ks <= tiles);
		if (ks < tiles)
			assert_true(col(t, r, "blocks") * col(t, r, "threads_per_block") >= resident);
		if (ks > 1)
			assert_true(col(t, r, "blocks") / ks * (ks - 1) * col(t, r, "threads_per_block") < resident);
		split += ks > 1;
	}
	assert_true(split > 0);
	gp_table_free(t);
}

/* The row of `kernel` at row r's point (precision, m, k, n, t1, t2, t3). */
static size_t same_point(const struct gp_table *t, size_t r, const char *kernel)
{
	/* Not t3: V3's order of the sums is k ascending whatever its t3, and V6 in double has t3 2,
	 * which V3 is not compiled for. */
	static const char *const keys[] = { "precision", "m", "k", "n", "t1", "t2" };
	for (size_t q = 0; q < t->nrows; q++) {
		size_t i = 0;
		if (strcmp(gp_table_get(t, q, "kernel"), kernel))
			continue;
		while (i < GP_ARRAY_SIZE(keys) && !strcmp(gp_table_get(t, q, keys[i]), gp_table_get(t, r, keys[i])))
			i++;
		if (i == GP_ARRAY_SIZE(keys))
			return q;
	}
	fail_msg("no %s row for row %zu", kernel, r);
	return 0;
}

/* ksplit 1 must give V3's bits (same sums in the same order, added to a zeroed C): the same
 * relative error against cuBLAS; 3 slices and 3 asked of a k with fewer tiles (clamped) are right. */
static void test_tsm2r_v4_ksplit(void **state)
{
	static const char *const base[] = { "precision", "single double", "m", "333 1001", "kdiv", "1 7", "n", "3 17",
					    "kernel", "v3 v4", "t1", "64 128", "t2", "0", "t3", "4" };
	const char *set[GP_ARRAY_SIZE(base) + 2];
	struct gp_table *t;
	int clamped = 0;

	NEED_GPU();
	memcpy(set, base, sizeof base);
	set[GP_ARRAY_SIZE(base)] = "ksplit";
	for (int pass = 0; pass < 2; pass++) {
		set[GP_ARRAY_SIZE(base) + 1] = pass ? "3" : "1";
		t = measure("tsm2r", set, GP_ARRAY_SIZE(set));
		check_rows(t);
		for (size_t r = 0; r < t->nrows; r++) {
			const double tiles = ceil(col(t, r, "k") / col(t, r, "t1"));
			size_t v3;
			if (strcmp(gp_table_get(t, r, "kernel"), "v4")) {
				assert_true(col(t, r, "ksplit") == 1);
				continue;
			}
			assert_true(col(t, r, "ksplit") == (pass ? fmin(3, tiles) : 1));
			clamped += pass && tiles < 3;
			if (pass)
				continue;
			v3 = same_point(t, r, "v3");
			if (col(t, r, "rel_err") != col(t, v3, "rel_err"))
				fail_msg("v4 ksplit 1 differs from v3 (%s m %s k %s n %s t1 %s): %g vs %g",
					 gp_table_get(t, r, "precision"), gp_table_get(t, r, "m"),
					 gp_table_get(t, r, "k"), gp_table_get(t, r, "n"), gp_table_get(t, r, "t1"),
					 col(t, r, "rel_err"), col(t, v3, "rel_err"));
		}
		gp_table_free(t);
	}
	assert_true(clamped > 0); /* k = 47 with t1 = 64 or 128, k = 143 with t1 = 128 */
}

/* V5 sums what V4 sums in V3's order: at one slice its error against cuBLAS is V3's to the bit; at
 * the automatic count and at 3 slices it is right on sizes that are not tile multiples (n picks
 * t2 = 2, 16 and a ragged last panel). */
static void v5_like(const char *kernels, const char *ns, const char *precisions, const char *t3)
{
	static const char *const splits[] = { "1", "0", "3" };
	const char *set[] = { "precision", precisions, "m", "333 1001", "kdiv", "1 7", "n", ns, "kernel", kernels,
			      "t1", "64 128", "t2", "0", "t3", t3, "ksplit", NULL };
	struct gp_table *t;

	for (size_t pass = 0; pass < GP_ARRAY_SIZE(splits); pass++) {
		set[GP_ARRAY_SIZE(set) - 1] = splits[pass];
		t = measure("tsm2r", set, GP_ARRAY_SIZE(set));
		check_rows(t);
		for (size_t r = 0; r < t->nrows && pass == 0; r++) {
			size_t v3;
			if (!strcmp(gp_table_get(t, r, "kernel"), "v3"))
				continue;
			v3 = same_point(t, r, "v3");
			if (col(t, r, "rel_err") != col(t, v3, "rel_err"))
				fail_msg("%s ksplit 1 differs from v3 (%s m %s k %s n %s t1 %s): %g vs %g",
					 gp_table_get(t, r, "kernel"), gp_table_get(t, r, "precision"), gp_table_get(t, r, "m"),
					 gp_table_get(t, r, "k"), gp_table_get(t, r, "n"), gp_table_get(t, r, "t1"),
					 col(t, r, "rel_err"), col(t, v3, "rel_err"));
		}
		gp_table_free(t);
	}
}

/* t3 = 0: V3 and V4 take 16, V5 one of the t3 compiled for its t2, and run right. */
static void test_tsm2r_t3_auto(void **state)
{
	static const char *const set[] = { "precision", "single double", "m", "4096", "n", "8 16", "kernel", "v3 v4 v5",
					   "t3", "0" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("tsm2r", set, GP_ARRAY_SIZE(set));
	check_rows(t);
	assert_int_equal(t->nrows, 2 * 2 * 3);
	for (size_t r = 0; r < t->nrows; r++) {
		enum tsm2_kind kind;
		const int elem = strcmp(gp_table_get(t, r, "precision"), "double") ? 4 : 8;
		assert_int_equal(tsm2_kind_parse(gp_table_get(t, r, "kernel"), &kind), 0);
		if (kind == TSM2_V5)
			assert_true(tsm2_instance(kind, elem, (int)col(t, r, "t2"), (int)col(t, r, "t3")) >= 0);
		else
			assert_true(col(t, r, "t3") == 16);
	}
	gp_table_free(t);
}

static void test_tsm2r_v5(void **state)
{
	NEED_GPU();
	v5_like("v3 v5", "3 16 17", "single double", "8");
}

/* V6 likewise: m = 333 and 1001 leave a last thread with rows past m (its plain loads and scalar
 * atomics), m = 1001 a C whose columns are not 16-byte aligned (no vector reduction); in double
 * (two rows a thread, t3 2, against V3 at t3 16) every partial C goes out as scalar atomics. */
static void test_tsm2r_v6(void **state)
{
	NEED_GPU();
	v5_like("v3 v6", "3 16 17", "single", "4");
	v5_like("v3 v6", "3 16", "double", "0"); /* t3 automatic: V3 16, V6 2 */
}

/* What V5 exists for, in the SASS: B comes from shared memory only as LDS.128, each serving 4
 * (float) or 2 (double) k steps of TSM2_V5_ROWS rows, where V4 takes about one LDS per FMA; A
 * arrives by LDGSTS (cp.async) and each scalar read of it from the ring serves t2 FMAs. ptxas pads
 * with never-executed `@!PT LDS RZ, [RZ]`, which are no reads. */
static void test_tsm2_v5_sass(void **state)
{
	static const struct {
		const char *family, *kernel, *fma;
		size_t per_lds, t2;
	} k[] = {
		{ "bench/tsm2_v5f", "tsm2_v5_f_t2_16_t3_16", "FFMA", 4, 16 },
		{ "bench/tsm2_v5f", "tsm2_v5_f_t2_4_t3_8", "FFMA", 4, 4 },
		{ "bench/tsm2_v5d", "tsm2_v5_d_t2_16_t3_8", "DFMA", 2, 16 },
		{ "bench/tsm2_v5d", "tsm2_v5_d_t2_8_t3_8", "DFMA", 2, 8 },
	};
	char path[512];

	NEED_GPU();
	NEED_CUOBJDUMP();
	for (size_t i = 0; i < GP_ARRAY_SIZE(k); i++) {
		struct sass_kernel s;
		size_t lds, lds128, lda, fma, ldgsts;
		fatbin_path(path, sizeof path, k[i].family);
		if (sass_read(path, "sm_90", k[i].kernel, &s))
			fail_msg("no sm_90 SASS for %s in %s", k[i].kernel, path);
		lds = count_op(&s, "LDS", NULL) - count_op(&s, "LDS", "RZ, [RZ]"), lds128 = count_op(&s, "LDS.128", NULL);
		lda = lds - lds128, fma = count_op(&s, k[i].fma, NULL), ldgsts = count_op(&s, "LDGSTS", NULL);
		print_message("%-24s %s %zu, LDS %zu (LDS.128 %zu), LDGSTS %zu\n", k[i].kernel, k[i].fma, fma, lds, lds128,
			      ldgsts);
		assert_true(fma > 0 && ldgsts > 0 && lds128 * k[i].per_lds * TSM2_V5_ROWS >= fma && lda * k[i].t2 <= fma);
		kernel_free(&s);
	}
}

static void test_tsm2l(void **state)
{
	static const char *const set[] = { "precision", "single double", "m", "10000 12345", "k", "2 3 8 16",
					   "kernel", "v3 l1 l2 cublas", "tcf", "1 3 8", "t1", "128", "t3", "0" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("tsm2l", set, GP_ARRAY_SIZE(set));
	check_rows(t);
	/* v3 and cublas once per (precision, m, k), l1 and l2 per tcf */
	assert_int_equal(t->nrows, 2 * 2 * 4 * (1 + 3 + 3 + 1));
	gp_table_free(t);
}

static void test_tsm2_search(void **state)
{
	static const char *const set[] = { "precision", "double", "m", "2048", "n", "4" };
	struct gp_table *t;
	int model = 0, brute = 0;

	NEED_GPU();
	t = measure("tsm2_search", set, GP_ARRAY_SIZE(set));
	/* The brute-force sweep leaves out what the device cannot launch (t1 = 512 with a kernel of
	 * 166 registers on the H100): no n/a rows; everything that ran is right, and the model's and
	 * the brute-force choices ran. */
	for (size_t r = 0; r < t->nrows; r++) {
		const char *c = gp_table_get(t, r, "choice"), *st = gp_table_get(t, r, "status");
		double e = NAN, b = NAN;
		model += !strcmp(c, "model");
		brute += !strcmp(c, "brute");
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
		cmocka_unit_test(test_tsm2_v5_sass), cmocka_unit_test(test_tsm2r_v5), cmocka_unit_test(test_tsm2r_v6),
		cmocka_unit_test(test_tsm2r_t3_auto),
		cmocka_unit_test(test_tsm2r_small), cmocka_unit_test(test_tsm2r_odd_sizes),
		cmocka_unit_test(test_tsm2r_grid), cmocka_unit_test(test_tsm2r_v4_auto),
		cmocka_unit_test(test_tsm2r_v4_ksplit), cmocka_unit_test(test_tsm2l), cmocka_unit_test(test_tsm2_search),
	};
	return cmocka_run_group_tests(tests, gpu_blas_setup, gpu_blas_teardown);
}
