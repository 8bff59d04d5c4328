/* test_gpu_sgemm_wgmma.c — the wgmma + TMA GEMM (sgemm_45, bench/sgemm_wgmma_90a.cu) on a GPU
 * (skipped, and counted as skipped, without a GPU, cuBLAS or, for the SASS, cuobjdump).
 *
 * Through the sgemm experiment, beside cuBLAS: a tile multiple and sizes that are not (m, k
 * multiples of 4 only: a tensor map's strides are 16-byte multiples; n anything), where the TMA
 * fills the edges with zeros and the epilogue must store exactly the m x n inside. Every row is
 * ok (within 64 u sqrt(k) of cuBLAS, within SG_ACCURACY_FACTOR of cuBLAS's error against exact
 * dot products) and spills nothing, also at a deep k (4096, and 8100: not a tile multiple); at
 * 4096^3, a size the default suite times, the error against exact dot products is no larger than
 * cuBLAS FP32's own (the FP32 promotion of the tensor core's partial sums is what keeps it there;
 * at 256 x 256 x 8100 cuBLAS's is 4x smaller than at 8192^3 and ours is not). Elsewhere than
 * compute capability 9.0 the kernel's rows are n/a.
 * The SASS: the k loop's wgmma are HGMMA on TF32, the copies TMA (UTMALDG), the registers
 * rebalanced (USETMAXREG), and at most one wait (WARPGROUP.DEPBAR) per 4 HGMMA: ptxas serializing
 * the pipeline (its info C7514, which a build without -v does not print) puts one after each. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp.h"
#include "blas.h"
#include "experiment.h"
#include "sgemm.h"
#include "suite.h"

#define GPU_TEST_REPS 2
#include "gpu_test.h"
#include "sass_listing.h"

#define KERNELS "sgemm_45_wgmma3xtf32_128x256"
static const char *const kernels[] = { "sgemm_45_wgmma3xtf32_128x256" };
#define NK GP_ARRAY_SIZE(kernels)

static int is_hopper(void)
{
	return dev.cc_major == 9 && dev.cc_minor == 0;
}

/* Every row of the kernels ok (n/a off cc 9.0), cuBLAS's ok; the kernels' error against exact dot
 * products at most `factor` x cuBLAS's on the same entries. */
static void check(const struct gp_table *t, size_t want_rows, double factor)
{
	size_t mine = 0;

	assert_int_equal(t->nrows, want_rows);
	for (size_t r = 0; r < t->nrows; r++) {
		const char *k = gp_table_get(t, r, "kernel"), *st = gp_table_get(t, r, "status");
		const int ours = sg_variant_find(k) && sg_variant_find(k)->kind == SG_K_TMA;
		if (ours && !is_hopper()) {
			assert_true(gp_status_na(st));
			continue;
		}
		if (strcmp(st, "ok"))
			fail_msg("%s %s x %s x %s: %s", k, gp_table_get(t, r, "m"), gp_table_get(t, r, "n"),
				 gp_table_get(t, r, "k"), st);
		if (!ours)
			continue;
		mine++;
		assert_true(cell(t, r, "rel_err") <= cell(t, r, "err_bound"));
		assert_true(cell(t, r, "local_bytes") == 0 && cell(t, r, "threads_per_block") == 384);
		print_message("%s %sx%sx%s: error vs exact %.3g, cuBLAS's %.3g (%.2fx)\n", k, gp_table_get(t, r, "m"),
			      gp_table_get(t, r, "n"), gp_table_get(t, r, "k"), cell(t, r, "fp64_err"), cell(t, r, "ref_err"),
			      cell(t, r, "fp64_err") / cell(t, r, "ref_err"));
		if (!(cell(t, r, "fp64_err") > 0 && cell(t, r, "fp64_err") <= factor * cell(t, r, "ref_err")))
			fail_msg("%s k = %s: error %.3g against exact dot products, more than %g x cuBLAS's %.3g", k,
				 gp_table_get(t, r, "k"), cell(t, r, "fp64_err"), factor, cell(t, r, "ref_err"));
	}
	assert_true(!is_hopper() || mine == want_rows / (NK + 1) * NK);
}

/* One tile, and edges: m = 300 (3 tiles of rows, the last 44 deep), n = 97 (one partial tile of
 * columns), k = 100 (4 k tiles, the last 4 deep). */
static void test_small_and_edges(void **state)
{
	static const char *const set[] = { "m", "128 300", "n", "256 97", "k", "32 100", "kernel", KERNELS " cublas" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("sgemm", set, GP_ARRAY_SIZE(set));
	check(t, 8 * (NK + 1), SG_ACCURACY_FACTOR);
	gp_table_free(t);
}

/* Deep k, where accumulating in the tensor core alone drifted to 30x cuBLAS's error. */
static void test_deep_k(void **state)
{
	static const char *const set[] = { "m", "256", "n", "256", "k", "4096 8100", "kernel", KERNELS " cublas" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("sgemm", set, GP_ARRAY_SIZE(set));
	check(t, 2 * (NK + 1), SG_ACCURACY_FACTOR);
	gp_table_free(t);
}

/* A size the default suite times: no less accurate than cuBLAS FP32 there. */
static void test_timed_size(void **state)
{
	static const char *const set[] = { "m", "4096", "kernel", KERNELS " cublas" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("sgemm", set, GP_ARRAY_SIZE(set));
	check(t, NK + 1, 1.0);
	gp_table_free(t);
}

static void sass_of(const char *kernel)
{
	char path[512];
	struct sass_kernel k;
	size_t hgmma, tf32, waits;

	expect("bench/sgemm_wgmma_90a", "sm_90a", kernel, "HGMMA", NULL, 24);
	expect("bench/sgemm_wgmma_90a", "sm_90a", kernel, "UTMALDG", NULL, 2);
	expect("bench/sgemm_wgmma_90a", "sm_90a", kernel, "USETMAXREG", NULL, 2);
	fatbin_path(path, sizeof path, "bench/sgemm_wgmma_90a");
	assert_int_equal(sass_read(path, "sm_90a", kernel, &k), 0);
	hgmma = count_op(&k, "HGMMA", NULL);
	tf32 = count_op(&k, "HGMMA", "TF32");
	waits = count_op(&k, "WARPGROUP.DEPBAR", NULL);
	print_message("%s: %zu HGMMA (%zu on TF32), %zu WARPGROUP.DEPBAR, %zu STL\n", kernel, hgmma, tf32, waits,
		      count_op(&k, "STL", NULL));
	assert_int_equal(tf32, hgmma);
	assert_int_equal(count_op(&k, "STL", NULL), 0);
	if (waits > hgmma / 4)
		fail_msg("%s: %zu WARPGROUP.DEPBAR for %zu HGMMA: ptxas serialized the wgmma pipeline", kernel, waits, hgmma);
	kernel_free(&k);
}

static void test_sass(void **state)
{
	NEED_GPU();
	NEED_CUOBJDUMP();
	for (size_t i = 0; i < GP_ARRAY_SIZE(kernels); i++)
		sass_of(kernels[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_and_edges),
		cmocka_unit_test(test_deep_k),
		cmocka_unit_test(test_timed_size),
		cmocka_unit_test(test_sass),
	};

	return cmocka_run_group_tests_name("gpu_sgemm_wgmma", tests, gpu_blas_setup, gpu_blas_teardown);
}
