/* test_gpu_sgemm.c — the GEMM ladder on a GPU: every variant correct against cuBLAS.
 *
 * Runs the sgemm and dgemm experiments through their probes (gp_measure) on a size every variant
 * accepts (768 x 768 x 256: a multiple of all tiles) and on sizes that are not tile multiples,
 * where the variants that claim any size must be correct and the others must decline ("n/a")
 * rather than run. The experiment itself poisons the output with NaN before the timed launches,
 * fills padding and allocation slack with NaN, and holds ||C - C_cuBLAS||_F / ||C_cuBLAS||_F to
 * 64 u sqrt(k) (bench/sgemm_model.c says why); every ok row has its SM clock (the clock kernel
 * after the launches), its batch and the problem's cuBLAS rate (cuBLAS's own row: ratio 1).
 * sgemm_modes: cuBLAS's FP32 modes against FP64 dot products and against pedantic FP32.
 * Where there is no GPU or no cuBLAS each test says so and skips. */
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
#include "sgemm.h"
#include "suite.h"

#define GPU_TEST_REPS 2
#include "gpu_test.h"

/* Every row ok (or n/a exactly for the variants that need tile multiples, when allowed). */
static void check_rows(const struct gp_table *t, int allow_na)
{
	for (size_t r = 0; r < t->nrows; r++) {
		const char *k = gp_table_get(t, r, "kernel"), *st = gp_table_get(t, r, "status");
		const struct sg_variant *v = sg_variant_find(k);
		double e = NAN, b = NAN;
		assert_non_null(v);
		if (gp_status_na(st)) {
			if (!allow_na || v->any)
				fail_msg("%s declined a size it must handle: %s", k, st);
			continue;
		}
		if (strcmp(st, "ok"))
			fail_msg("%s %s x %s x %s: %s", k, gp_table_get(t, r, "m"), gp_table_get(t, r, "n"),
				 gp_table_get(t, r, "k"), st);
		assert_int_equal(gp_table_get_double(t, r, "rel_err", &e), 0);
		assert_int_equal(gp_table_get_double(t, r, "err_bound", &b), 0);
		assert_true(e <= b);
		assert_true(cell(t, r, "clock_MHz") > 0 && cell(t, r, "launches_per_rep") >= 1);
		assert_true(cell(t, r, "cublas_gflops") > 0 && cell(t, r, "gflops") > 0);
		if (v->kind == SG_K_CUBLAS)
			assert_true(cell(t, r, "ratio_to_cublas") == 1);
		assert_true(gp_table_get_double(t, r, "regs_per_thread", &b) == 0 && (v->kind == SG_K_CUBLAS || b > 0));
	}
}

static long float_variants(void)
{
	long n = 0;

	for (size_t i = 0; i < sg_nvariants; i++)
		n += sg_variants[i].elem == 4;
	return n;
}

static void test_sgemm_all_variants_tile_multiple(void **state)
{
	static const char *const set[] = { "m", "768", "n", "768", "k", "256" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("sgemm", set, 6);
	assert_int_equal(t->nrows, float_variants());
	check_rows(t, 0);
	gp_table_free(t);
}

/* The 3xTF32 kernels at a deep k, where TF32 alone would be far off: every row ok means the
 * error against exact dot products stayed within SG_ACCURACY_FACTOR of cuBLAS FP32's. */
static void test_sgemm_tc_deep_k(void **state)
{
	static const char *const set[] = { "m", "256", "n", "256", "k", "8192", "kernel",
					   "sgemm_41_tc3xtf32 sgemm_42_tc3xtf32_4stage sgemm_43_tc3xtf32_128x256 "
					   "sgemm_44_tc3xtf32_bk16 cublas" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("sgemm", set, 8);
	assert_int_equal(t->nrows, 5);
	check_rows(t, 0);
	for (size_t r = 0; r < t->nrows; r++) {
		double e = NAN, ref = NAN;
		assert_int_equal(gp_table_get_double(t, r, "fp64_err", &e), 0);
		assert_int_equal(gp_table_get_double(t, r, "ref_err", &ref), 0);
		assert_true(e > 0 && e <= SG_ACCURACY_FACTOR * ref);
	}
	gp_table_free(t);
}

static void test_sgemm_any_size(void **state)
{
	static const char *const set[] = { "m", "1 65 333", "n", "97", "k", "1 45" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("sgemm", set, 6);
	check_rows(t, 1);
	gp_table_free(t);
}

static void test_sgemm_padded_lda(void **state)
{
	static const char *const set[] = { "m", "260", "unit", "1 8 32",
					   "kernel", "sgemm_10_method5_v1 sgemm_11_method5_v2 sgemm_12_method5_v3 "
						     "sgemm_13_method6 sgemm_14_method7 sgemm_15_method8 sgemm_16_k3 cublas" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("sgemm_lda", set, 6);
	check_rows(t, 0);
	gp_table_free(t);
}

static void test_sgemm_occupancy_reserve(void **state)
{
	static const char *const set[] = { "m", "512", "threads", "256 512", "kernel", "sgemm_04_volkov" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("sgemm_occupancy", set, 6);
	check_rows(t, 0);
	for (size_t r = 0; r < t->nrows; r++) {
		double target = NAN, got = NAN;
		gp_table_get_double(t, r, "target_threads_per_sm", &target);
		gp_table_get_double(t, r, "active_threads_per_sm", &got);
		assert_true(got <= target);
	}
	gp_table_free(t);
}

static void test_dgemm_all_variants(void **state)
{
	static const char *const set[] = { "n", "256 129" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("dgemm", set, 2);
	check_rows(t, 1);
	gp_table_free(t);
}

/* The row of (mode, dist) in an sgemm_modes table, or fail. */
static size_t mode_row(const struct gp_table *t, const char *mode, const char *dist)
{
	for (size_t r = 0; r < t->nrows; r++)
		if (!strcmp(gp_table_get(t, r, "mode"), mode) && !strcmp(gp_table_get(t, r, "dist"), dist))
			return r;
	fail_msg("no sgemm_modes row for %s / %s", mode, dist);
	return 0;
}

/* cuBLAS in every FP32 mode on both input sets. Every row ok (held to its mode's ceiling, finite);
 * pedantic and the modes that promise FP32 accuracy (default, BF16x9) within the ladder's bound
 * against FP64 dot products; pedantic's timed result bit-identical to its reference run; FAST_TF32
 * (10-bit mantissas) at least 8x pedantic's median error and faster than it. */
static void test_sgemm_modes(void **state)
{
	static const char *const set[] = { "m", "2048" };
	static const char *const dists[] = { "uniform", "wide" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("sgemm_modes", set, 2);
	assert_int_equal(t->nrows, 2 * GP_BLAS_NMODES);
	for (size_t r = 0; r < t->nrows; r++) {
		const char *st = gp_table_get(t, r, "status"), *md = gp_table_get(t, r, "mode");
		if (strcmp(st, "ok"))
			fail_msg("%s %s: %s", md, gp_table_get(t, r, "dist"), st);
		assert_true(cell(t, r, "tflops") > 0 && cell(t, r, "tflops") <= 1.01 * cell(t, r, "ceiling_tflops"));
		assert_true(cell(t, r, "clock_MHz") > 0 && cell(t, r, "samples") == 4096);
		if (strcmp(md, "tf32"))
			assert_true(cell(t, r, "fro_err") <= cell(t, r, "err_bound"));
	}
	for (size_t d = 0; d < GP_ARRAY_SIZE(dists); d++) {
		const size_t p = mode_row(t, "pedantic", dists[d]), tf = mode_row(t, "tf32", dists[d]);
		print_message("%s: pedantic %.1f TFLOP/s, median error %.3g; tf32 %.1f TFLOP/s (x%.2f), %.3g\n", dists[d],
			      cell(t, p, "tflops"), cell(t, p, "err_median"), cell(t, tf, "tflops"),
			      cell(t, tf, "ratio_to_pedantic"), cell(t, tf, "err_median"));
		assert_true(cell(t, p, "equal_to_pedantic") == 1 && cell(t, p, "ratio_to_pedantic") == 1);
		assert_true(cell(t, tf, "err_median") > 8 * cell(t, p, "err_median"));
		assert_true(cell(t, tf, "ratio_to_pedantic") > 1);
	}
	gp_table_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sgemm_modes),
		cmocka_unit_test(test_sgemm_all_variants_tile_multiple),
		cmocka_unit_test(test_sgemm_tc_deep_k),
		cmocka_unit_test(test_sgemm_any_size),
		cmocka_unit_test(test_sgemm_padded_lda),
		cmocka_unit_test(test_sgemm_occupancy_reserve),
		cmocka_unit_test(test_dgemm_all_variants),
	};

	return cmocka_run_group_tests_name("gpu_sgemm", tests, gpu_blas_setup, gpu_blas_teardown);
}
