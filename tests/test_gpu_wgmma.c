/* test_gpu_wgmma.c — Hopper wgmma on a GPU (skipped, and counted as skipped, without a GPU or
 * cuobjdump): lat_wgmma and tput_wgmma over small sweeps through the harness. On compute
 * capability 9.0 every row is ok (its accumulators equal count x K), latencies are plausible,
 * rates stay under the dense (sparse: 2x) tensor ceiling, N = 256 issues more FLOP per clock
 * than N = 8, every type's sparse rate stays under twice its dense peak, and the SASS of every
 * kernel of probes/wgmma.list holds the HGMMA/QGMMA/IGMMA its loop unrolls (carrying the .SP
 * modifier exactly in the sparse kernels), with one WARPGROUP.DEPBAR (wait_group) per loop trip of the throughput kernels rather
 * than one per instruction: a serialized pipeline would show as more. Elsewhere every row is
 * n/a. */
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
#include "experiment.h"
#include "suite.h"
#include "wgmma_shape.h"

#include "gpu_test.h"
#include "sass_listing.h"

static int is_hopper(void)
{
	return dev.cc_major == 9 && dev.cc_minor == 0;
}

/* Every row ok on cc 9.0, n/a elsewhere; 1 when the rows are measurements. */
static int rows_ok(const struct gp_table *t)
{
	for (size_t r = 0; r < t->nrows; r++) {
		const char *st = gp_table_get(t, r, "status");
		if (!is_hopper()) {
			assert_true(gp_status_na(st));
			continue;
		}
		if (strcmp(st, "ok"))
			fail_msg("%s n%s %s sparse %s: %s", gp_table_get(t, r, "type"), gp_table_get(t, r, "n"),
				 gp_table_get(t, r, "a_src"), gp_table_get(t, r, "sparse"), st);
	}
	return is_hopper();
}

static void test_lat_wgmma(void **state)
{
	static const char *const dense[] = { "type", "f16 bf16 tf32 e4m3 e5m2 s8", "n", "8 128", "a_src", "ss rs",
					     "sparse", "0", "iters", "64" };
	static const char *const sparse[] = { "type", "f16 bf16 tf32 e4m3 e5m2 s8", "n", "64", "a_src", "ss rs",
					      "sparse", "1", "iters", "64" };
	static const char *const fp8_long[] = { "type", "e4m3", "n", "64", "a_src", "ss", "sparse", "0", "iters", "1000" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("lat_wgmma", dense, GP_ARRAY_SIZE(dense));
	assert_int_equal(t->nrows, 24);
	if (rows_ok(t))
		for (size_t r = 0; r < t->nrows; r++) {
			print_message("%-5s n%-3s %s %7.1f cycles\n", gp_table_get(t, r, "type"), gp_table_get(t, r, "n"),
				      gp_table_get(t, r, "a_src"), cell(t, r, "cycles"));
			/* An instruction of up to 2 x 64 x 128 x 32 FLOP: more than a few cycles, far
			 * under ten thousand. */
			assert_true(cell(t, r, "cycles") >= 4 && cell(t, r, "cycles") < 10000);
		}
	gp_table_free(t);
	t = measure("lat_wgmma", sparse, GP_ARRAY_SIZE(sparse));
	assert_int_equal(t->nrows, 12);
	if (rows_ok(t))
		for (size_t r = 0; r < t->nrows; r++) {
			print_message("%-5s n64  %s sparse %7.1f cycles\n", gp_table_get(t, r, "type"),
				      gp_table_get(t, r, "a_src"), cell(t, r, "cycles"));
			assert_true(cell(t, r, "cycles") >= 4 && cell(t, r, "cycles") < 10000);
		}
	gp_table_free(t);
	/* 2000 x 32 passes FP8's exact range: the accumulator restarts each trip, and is checked. */
	t = measure("lat_wgmma", fp8_long, GP_ARRAY_SIZE(fp8_long));
	assert_int_equal(t->nrows, 1);
	if (rows_ok(t))
		assert_true(cell(t, 0, "acc_reset") == 1);
	gp_table_free(t);
}

/* `col` of (type, n) in a table of SS rows of one form; NaN where absent. */
static double col_of(const struct gp_table *t, const char *type, const char *n, const char *col)
{
	const long r = gp_table_find(t, 0, "type", type, "n", n, NULL);

	return r < 0 ? NAN : cell(t, (size_t)r, col);
}

static double rate_of(const struct gp_table *t, const char *type, const char *n)
{
	return col_of(t, type, n, "flop_per_clk_per_sm");
}

/* Every type's sparse rate at N = 256 under its sparse ceiling, which is twice the dense row's
 * (`dense`: the same types at N = 256, dense) at the clock each row measured. */
static void tput_sparse(const struct gp_table *dense)
{
	static const char *const set[] = { "type", "f16 bf16 tf32 e4m3 e5m2 s8", "n", "256", "a_src", "ss",
					   "sparse", "1", "warpgroups", "2", "kernel_us", "300" };
	struct gp_table *t = measure("tput_wgmma", set, GP_ARRAY_SIZE(set));

	assert_int_equal(t->nrows, 6);
	if (rows_ok(t))
		for (size_t r = 0; r < t->nrows; r++) {
			const char *type = gp_table_get(t, r, "type");
			const double v = cell(t, r, "flop_per_clk_per_sm"), peak = cell(t, r, "peak_flop_per_clk_per_sm");
			print_message("%-5s n256 sparse %8.1f FLOP/clk/SM (%.1f %% of the sparse peak) at %.0f MHz\n",
				      type, v, cell(t, r, "pct_of_dense"), cell(t, r, "clock_MHz"));
			assert_true(peak > 0 && peak == 2 * col_of(dense, type, "256", "peak_flop_per_clk_per_sm"));
			assert_true(v > 0 && v <= 1.02 * peak);
			assert_true(cell(t, r, "loop_flop_per_clk_per_sm") <= 1.02 * peak);
		}
	gp_table_free(t);
}

static void test_tput_wgmma(void **state)
{
	static const char *const set[] = { "type", "f16 bf16 tf32 e4m3 e5m2 s8", "n", "8 256", "a_src", "ss",
					   "sparse", "0", "warpgroups", "2", "kernel_us", "300" };
	static const char *const more[] = { "type", "f16", "n", "128", "a_src", "rs", "sparse", "0 1", "warpgroups", "1 3",
					    "blocks_per_sm", "1", "kernel_us", "300" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("tput_wgmma", set, GP_ARRAY_SIZE(set));
	assert_int_equal(t->nrows, 12);
	if (rows_ok(t))
		for (size_t r = 0; r < t->nrows; r++) {
			const double v = cell(t, r, "flop_per_clk_per_sm"), peak = cell(t, r, "peak_flop_per_clk_per_sm");
			print_message("%-5s n%-3s %8.1f FLOP/clk/SM (%.1f %% of dense) at %.0f MHz\n",
				      gp_table_get(t, r, "type"), gp_table_get(t, r, "n"), v, cell(t, r, "pct_of_dense"),
				      cell(t, r, "clock_MHz"));
			assert_true(v > 0 && v <= 1.02 * peak);
			if (!strcmp(gp_table_get(t, r, "n"), "256"))
				assert_true(v > rate_of(t, gp_table_get(t, r, "type"), "8"));
		}
	tput_sparse(t);
	gp_table_free(t);
	t = measure("tput_wgmma", more, GP_ARRAY_SIZE(more));
	assert_int_equal(t->nrows, 4);
	rows_ok(t);
	gp_table_free(t);
}

/* ---------------------------------------------------------------- SASS */

#define WG_TYPE_SASS(T, K, ONE, INT, EXACT, RATE, SASS) { #T, SASS },
static const struct {
	const char *type, *sass;
} sass_of[] = { WGMMA_TYPES(WG_TYPE_SASS) };
#undef WG_TYPE_SASS

static const char *type_sass(const char *type)
{
	for (size_t i = 0; i < GP_ARRAY_SIZE(sass_of); i++)
		if (!strcmp(sass_of[i].type, type))
			return sass_of[i].sass;
	fail_msg("type %s not in WGMMA_TYPES", type);
	return NULL;
}

/* Instructions of opcode `op` with the sparse modifier (.SP anywhere among the modifiers). */
static size_t count_sparse(const struct sass_kernel *k, const char *op)
{
	size_t n = 0;

	for (size_t i = 0; i < k->n; i++) {
		const char *o = k->ops[i], *sp = strstr(o, ".SP");
		n += !strncmp(o, op, strlen(op)) && o[strlen(op)] == '.' && sp && (sp[3] == '.' || sp[3] == 0);
	}
	return n;
}

/* The kernel holds `want` of its opcode and at most one wait_group barrier (WARPGROUP.DEPBAR)
 * per `per_wait` of them, plus the wait after the loop: ptxas may unroll the loop, but a
 * serialized pipeline waits after every instruction. */
static void expect_kernel(const char *kernel, const char *op, size_t want, size_t per_wait, int sparse)
{
	char path[512];
	struct sass_kernel k;
	size_t n, d;

	expect("wgmma_90a", "sm_90a", kernel, op, NULL, want);
	fatbin_path(path, sizeof path, "wgmma_90a");
	assert_int_equal(sass_read(path, "sm_90a", kernel, &k), 0);
	n = count_op(&k, op, NULL);
	d = count_op(&k, "WARPGROUP.DEPBAR", NULL);
	if (count_sparse(&k, op) != (sparse ? n : 0))
		fail_msg("%s: %zu of %zu %s carry the sparse modifier .SP, want %s", kernel, count_sparse(&k, op), n, op,
			 sparse ? "all" : "none");
	if (d > n / per_wait + 1)
		fail_msg("%s: %zu WARPGROUP.DEPBAR for %zu %s: ptxas serialized the wgmma pipeline", kernel, d, n, op);
	kernel_free(&k);
}

static void test_sass(void **state)
{
	NEED_GPU();
	NEED_CUOBJDUMP();
#define WGMMA(T, N, S, SP)                                                                         \
	expect_kernel("wgmma_lat_" #T "_n" #N "_" #S SP_SUFFIX_##SP, type_sass(#T), WGMMA_LAT_UNROLL, 1, SP); \
	expect_kernel("wgmma_tput_" #T "_n" #N "_" #S SP_SUFFIX_##SP, type_sass(#T), WGMMA_TPUT_BATCH,        \
		      WGMMA_TPUT_BATCH, SP);
#define SP_SUFFIX_0 ""
#define SP_SUFFIX_1 "_sp"
#include "wgmma.list"
#undef WGMMA
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lat_wgmma),
		cmocka_unit_test(test_tput_wgmma),
		cmocka_unit_test(test_sass),
	};

	return cmocka_run_group_tests_name("gpu_wgmma", tests, gpu_setup, gpu_teardown);
}
