/* test_gpu_sgemm_tmaffma.c — the FFMA GEMMs fed by TMA (sgemm_49, sgemm_50, bench/
 * sgemm_tmaffma_90a.cu) on a GPU (skipped, and counted as skipped, without a GPU, cuBLAS or, for
 * the SASS, cuobjdump).
 *
 * Through the sgemm experiment, beside cuBLAS: one tile and sizes that are not tile multiples
 * (m, k multiples of 4 only: a tensor map's strides are 16-byte multiples; n anything), where the
 * TMA fills the edges with zeros and the epilogue must store exactly the m x n inside, and a deep
 * k that is not a multiple of the 32-k stage. Every row is ok (within the error bound the ladder
 * enforces) and spills nothing; elsewhere than compute capability 9.0 the rows are n/a.
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
#include "suite.h"

#define GPU_TEST_REPS 2
#include "gpu_test.h"
#include "sass_listing.h"

#define KERNELS "sgemm_49_tmaffma_256x128 sgemm_50_tmaffma_128x128"
static const char *const kernels[] = { "sgemm_49_tmaffma_256x128", "sgemm_50_tmaffma_128x128" };
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

/* Deep k, not a stage multiple: the ring wraps many times and the last stage is partly zeros. */
static void test_deep_k(void **state)
{
	static const char *const set[] = { "m", "256", "n", "256", "k", "8100", "kernel", KERNELS " cublas" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("sgemm", set, GP_ARRAY_SIZE(set));
	check(t, NK + 1);
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
	if (!have_cuobjdump()) {
		print_message("skipped: cuobjdump not on PATH (it ships with the CUDA toolkit on the GPU machine)\n");
		skip();
	}
	for (size_t i = 0; i < GP_ARRAY_SIZE(kernels); i++)
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
