/* test_gpu_sgemm_tmaffma.c — the FFMA GEMMs fed by TMA (sgemm_49 to 54, bench/
 * sgemm_tmaffma_90a.cu, and 55, 54's cubin patched by the SASS layer) on a GPU (skipped, and counted as skipped, without a GPU, cuBLAS or, for
 * the SASS, cuobjdump).
 *
 * Through the sgemm experiment, beside cuBLAS: one tile and sizes that are not tile multiples
 * (m, k multiples of 4 only: a tensor map's strides are 16-byte multiples; n anything), where the
 * TMA fills the edges with zeros and the epilogue must store exactly the m x n inside: every row
 * ok (within the error bound the ladder enforces), no spills; and a deep k that is not a multiple
 * of the 32-k stage, as accurate as the ladder's FFMA kernel that sums k in the same order; the
 * patched kernel's error there exactly its base's (the patch renames registers, not arithmetic).
 * Elsewhere than compute capability 9.0 the rows are n/a.
 * The SASS is what the kernel is for: the copies are TMA (UTMALDG), and the only block barrier,
 * global load and shared store are outside the k loop: one BAR.SYNC (after the mbarriers' init),
 * no LDG and no STS anywhere, and at least 90 % of the instructions between the loop's first and
 * last FFMA are FFMAs. */
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
#include "sgemm_patch.h"
#include "suite.h"

#define GPU_TEST_REPS 2
#include "gpu_test.h"
#include "sass_listing.h"

#define KERNELS                                                                                     \
	"sgemm_49_tmaffma_256x128 sgemm_50_tmaffma_128x128 sgemm_51_tmaffma_128x256 "               \
	"sgemm_52_tmaffma_128x128_8x16 sgemm_53_tmaffma_128x128_split4 sgemm_54_tmaffma_snake "          \
	"sgemm_55_tmaffma_patched"
static const char *const kernels[] = { "sgemm_49_tmaffma_256x128", "sgemm_50_tmaffma_128x128", "sgemm_51_tmaffma_128x256",
				       "sgemm_52_tmaffma_128x128_8x16", "sgemm_53_tmaffma_128x128_split4",
				       "sgemm_54_tmaffma_snake", "sgemm_55_tmaffma_patched" };
#define NK GP_ARRAY_SIZE(kernels)

static int is_hopper(void)
{
	return dev.cc_major == 9 && dev.cc_minor == 0;
}

/* Every row ok (the kernels' n/a off cc 9.0), within the bound, no spills. */
static void check(const struct gp_table *t, size_t want_rows)
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
		assert_true(cell(t, r, "local_bytes") == 0);
	}
	assert_true(!is_hopper() || mine == want_rows / (NK + 1) * NK);
}

/* One tile of each, and edges: m = 300 (the last tile of rows 44 or 172 deep), n = 97 (one partial
 * tile of columns), k = 100 (4 stages, the last 4 deep). */
static void test_small_and_edges(void **state)
{
	static const char *const set[] = { "m", "128 300", "n", "256 97", "k", "32 100", "kernel", KERNELS " cublas" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("sgemm", set, GP_ARRAY_SIZE(set));
	check(t, 8 * (NK + 1));
	gp_table_free(t);
}

/* Deep k, not a stage multiple (8104 = 253 stages and 8): the ring wraps many times and the last
 * stage is partly zeros. At 256 x 256 x 8104 cuBLAS sums k in parts (its error 2.4e-7 at k 8100 on
 * an H100, against 1.9e-6 for a k summed in order): every FFMA kernel that sums k in one chain is
 * then "less accurate than FP32" by the ladder's rule, so ours is held against sgemm_29, the
 * ladder's register-staged FFMA kernel, which sums in the same order: the same error or less, and
 * a row whose only fault is that rule, as 29's. */
static void test_deep_k(void **state)
{
	static const char *const set[] = { "m", "256", "n", "256", "k", "8104", "kernel",
					   KERNELS " sgemm_29_warptile cublas" };
	struct gp_table *t;
	double ref = NAN, base = NAN, patched = NAN;

	NEED_GPU();
	t = measure_rows("sgemm", set, GP_ARRAY_SIZE(set), 0);
	assert_int_equal(t->nrows, NK + 2);
	for (size_t r = 0; r < t->nrows; r++)
		if (!strcmp(gp_table_get(t, r, "kernel"), "sgemm_29_warptile")) {
			const char *st = gp_table_get(t, r, "status");
			assert_true(!strcmp(st, "ok") || strstr(st, "less accurate than FP32"));
			ref = cell(t, r, "fp64_err");
		}
	assert_true(ref > 0);
	for (size_t r = 0; r < t->nrows; r++) {
		const char *k = gp_table_get(t, r, "kernel"), *st = gp_table_get(t, r, "status");
		if (!strcmp(k, "cublas"))
			assert_string_equal(st, "ok");
		if (!sg_variant_find(k) || sg_variant_find(k)->kind != SG_K_TMA)
			continue;
		if (!is_hopper()) {
			assert_true(gp_status_na(st));
			continue;
		}
		print_message("%s k 8104: error %.3g against exact dot products, sgemm_29's %.3g, cuBLAS's %.3g\n", k,
			      cell(t, r, "fp64_err"), ref, cell(t, r, "ref_err"));
		if (strcmp(st, "ok") && !strstr(st, "less accurate than FP32"))
			fail_msg("%s: %s", k, st);
		assert_true(cell(t, r, "local_bytes") == 0);
		if (!(cell(t, r, "fp64_err") <= 1.01 * ref))
			fail_msg("%s: error %.3g, more than sgemm_29's %.3g", k, cell(t, r, "fp64_err"), ref);
		if (!strcmp(k, "sgemm_54_tmaffma_snake"))
			base = cell(t, r, "fp64_err");
		if (!strcmp(k, "sgemm_55_tmaffma_patched"))
			patched = cell(t, r, "fp64_err");
	}
	if (is_hopper())
		assert_true(base == patched);
	gp_table_free(t);
}

static void sass_of(const char *kernel)
{
	char path[512];
	struct sass_kernel k;
	size_t first = SIZE_MAX, last = 0, ffma = 0;

	expect("bench/sgemm_tmaffma_90a", "sm_90a", kernel, "UTMALDG", NULL, 2);
	fatbin_path(path, sizeof path, "bench/sgemm_tmaffma_90a");
	assert_int_equal(sass_read(path, "sm_90a", kernel, &k), 0);
	for (size_t i = 0; i < k.n; i++)
		if (!strncmp(k.ops[i], "FFMA", 4)) {
			first = first == SIZE_MAX ? i : first;
			last = i;
			ffma++;
		}
	print_message("%s: %zu FFMA, %zu of the %zu instructions from the first to the last; BAR %zu, LDG %zu, STS %zu, STL %zu\n",
		      kernel, ffma, ffma, last - first + 1, count_op(&k, "BAR", NULL), count_op(&k, "LDG", NULL),
		      count_op(&k, "STS", NULL), count_op(&k, "STL", NULL));
	assert_true(ffma >= 256 && ffma * 10 >= 9 * (last - first + 1));
	assert_int_equal(count_op(&k, "BAR", NULL), 1);
	assert_int_equal(count_op(&k, "LDG", NULL), 0);
	assert_int_equal(count_op(&k, "STS", NULL), 0);
	assert_int_equal(count_op(&k, "STL", NULL), 0);
	kernel_free(&k);
}

static void test_sass(void **state)
{
	NEED_GPU();
	NEED_CUOBJDUMP();
	for (size_t i = 0; i < GP_ARRAY_SIZE(kernels); i++)
		if (!sg_patch_base(sg_variant_find(kernels[i]))) /* a patched kernel is no fatbin's */
			sass_of(kernels[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_and_edges),
		cmocka_unit_test(test_deep_k),
		cmocka_unit_test(test_sass),
	};

	return cmocka_run_group_tests_name("gpu_sgemm_tmaffma", tests, gpu_blas_setup, gpu_blas_teardown);
}
