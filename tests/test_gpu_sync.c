/* test_gpu_sync.c — GPU tests of the atomics and warp-synchronous families (skipped, and counted
 * as skipped, where there is no GPU or no cuobjdump).
 *
 * Each experiment runs a short sweep through the harness: every row ok (or n/a where the GPU or
 * the operation cannot form the point), results under their ceilings, and relations that could
 * fail: a global atomic (at L2) slower than a shared one, every thread of the grid on one address
 * slower than one thread per address, a 1024-thread barrier dearer than a one-warp one. The SASS
 * test reads `cuobjdump -sass` of the embedded fatbins: every kernel holds at least as many of
 * its list entry's opcode as its loop unrolls. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gp.h"
#include "atomic.h"
#include "atomic_shape.h"
#include "experiment.h"
#include "warp.h"
#include "warp_shape.h"

#include "gpu_test.h"
#include "sass_listing.h"

static int is_ok_or_na(const struct gp_table *t, size_t r)
{
	const char *s = gp_table_get(t, r, "status");

	return s && (!strcmp(s, "ok") || gp_status_na(s));
}

/* `col` of the first row whose cells match (c3 may be NULL: two columns), which must be ok. */
static double row_value(const struct gp_table *t, const char *col, const char *c1, const char *v1, const char *c2,
			const char *v2, const char *c3, const char *v3)
{
	const long r = gp_table_find(t, 0, c1, v1, c2, v2, c3, v3, NULL);

	assert_true(r >= 0);
	assert_string_equal(gp_table_get(t, (size_t)r, "status"), "ok");
	return cell(t, (size_t)r, col);
}

static void test_lat_atomic(void **state)
{
	static const char *const set[] = { "iters", "4" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("lat_atomic", set, 2);
	assert_int_equal(t->nrows, 2 * gp_natomics);
	for (size_t r = 0; r < t->nrows; r++) {
		print_message("%-9s %-6s %7.1f cycles\n", gp_table_get(t, r, "op"), gp_table_get(t, r, "space"),
			      cell(t, r, "cycles_per_op"));
		assert_string_equal(gp_table_get(t, r, "status"), "ok");
		assert_true(cell(t, r, "cycles_per_op") >= 1 && cell(t, r, "cycles_per_op") < 5000);
	}
	/* A global atomic goes to L2 and back; a shared one stays in the SM. */
	assert_true(row_value(t, "cycles_per_op", "op", "add_u32", "space", "global", NULL, NULL) >
		    row_value(t, "cycles_per_op", "op", "add_u32", "space", "shared", NULL, NULL));
	gp_table_free(t);
}

static void test_tput_atomic(void **state)
{
	static const char *const set[] = { "op", "add_u32 cas_b32 exch_b32", "k", "1 32 0", "blocks_per_sm", "4",
					   "iters", "32" };
	static const char *const set_atom[] = { "op", "add_u32", "ret", "atom", "k", "1 0", "blocks_per_sm", "4",
						"iters", "32" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("tput_atomic", set, 8);
	for (size_t r = 0; r < t->nrows; r++) {
		assert_true(is_ok_or_na(t, r));
		if (gp_status_na(gp_table_get(t, r, "status")))
			continue;
		print_message("%-9s %-6s %-4s k=%-3s %8.3f ops/clk/SM\n", gp_table_get(t, r, "op"), gp_table_get(t, r, "space"),
			      gp_table_get(t, r, "ret"), gp_table_get(t, r, "k"), cell(t, r, "ops_per_clk_per_sm"));
		assert_true(cell(t, r, "ops_per_clk_per_sm") > 0);
		/* the best repetition's rate: at least the median's, and under the ceiling */
		assert_true(cell(t, r, "best_ops_per_clk_per_sm") >= cell(t, r, "ops_per_clk_per_sm"));
		assert_true(cell(t, r, "best_ops_per_clk_per_sm") <= 1.02 * cell(t, r, "ceiling_ops_per_clk_per_sm"));
		/* the global addresses (packed: at most a few MiB) take every placement in turn */
		assert_int_equal((int)cell(t, r, "placements"),
				 strcmp(gp_table_get(t, r, "space"), "global") ? 1 : ATOM_PLACEMENTS);
	}
	gp_table_free(t);
	/* Every thread on one address is slower than one thread per address, in both spaces. */
	t = measure("tput_atomic", set_atom, 10);
	for (int s = 0; s < 2; s++) {
		const char *sp = s ? "shared" : "global";
		const double one = row_value(t, "ops_per_clk_per_sm",
					     "op", "add_u32", "space", sp, "k", "1");
		const double all = row_value(t, "ops_per_clk_per_sm",
					     "op", "add_u32", "space", sp, "k", "0");
		print_message("add_u32 %s: k=1 %.3f, every thread on one address %.3f ops/clk/SM\n", sp, one, all);
		assert_true(all < one);
	}
	gp_table_free(t);
}

static void test_lat_warp(void **state)
{
	static const char *const set[] = { "iters", "8" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("lat_warp", set, 2);
	assert_int_equal(t->nrows, gp_nwarp_ops);
	for (size_t r = 0; r < t->nrows; r++) {
		const struct gp_warp_op *d = gp_warp_find(gp_table_get(t, r, "op"));
		assert_non_null(d);
		if (dev.cc_major * 10 + dev.cc_minor < d->cc) {
			assert_true(gp_status_na(gp_table_get(t, r, "status")));
			continue;
		}
		print_message("%-11s %6.2f cycles\n", d->name, cell(t, r, "cycles_per_step"));
		assert_string_equal(gp_table_get(t, r, "status"), "ok");
		assert_true(cell(t, r, "cycles_per_step") >= 1 && cell(t, r, "cycles_per_step") < 200);
	}
	gp_table_free(t);
}

static void test_tput_warp(void **state)
{
	static const char *const set[] = { "iters", "16" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("tput_warp", set, 2);
	for (size_t r = 0; r < t->nrows; r++) {
		assert_true(is_ok_or_na(t, r));
		if (gp_status_na(gp_table_get(t, r, "status")))
			continue;
		print_message("%-11s %7.2f ops/clk/SM\n", gp_table_get(t, r, "op"), cell(t, r, "ops_per_clk_per_sm"));
		assert_true(cell(t, r, "ops_per_clk_per_sm") > 0 && cell(t, r, "ops_per_clk_per_sm") <= 1.02 * 128);
	}
	gp_table_free(t);
}

static void test_lat_barrier(void **state)
{
	static const char *const set[] = { "threads", "32 1024", "iters", "16" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("lat_barrier", set, 4);
	assert_int_equal(t->nrows, 4);
	for (size_t r = 0; r < t->nrows; r++) {
		assert_true(is_ok_or_na(t, r));
		if (!gp_status_na(gp_table_get(t, r, "status")))
			print_message("%-8s %5s threads %7.1f cycles\n", gp_table_get(t, r, "kind"), gp_table_get(t, r, "threads"),
				      cell(t, r, "cycles_per_barrier"));
	}
	/* 32 warps at one barrier cost more than one warp at it. */
	assert_true(row_value(t, "cycles_per_barrier", "kind", "bar_sync", "threads", "1024", NULL, NULL) >
		    row_value(t, "cycles_per_barrier", "kind", "bar_sync", "threads", "32", NULL, NULL));
	gp_table_free(t);
}

/* ---------------------------------------------------------------- SASS */

/* A global red is RED up to sm_89 and REDG on sm_90: either spelling counts. */
static void expect_red(const char *sm, const char *kernel, const char *op, size_t min)
{
	char path[512], g[32];
	struct sass_kernel k;
	size_t n;

	fatbin_path(path, sizeof path, "atomic");
	assert_int_equal(sass_read(path, sm, kernel, &k), 0);
	snprintf(g, sizeof g, "%sG", op);
	n = count_op(&k, op, NULL) + count_op(&k, g, NULL);
	print_message("%-24s %s/%s: %zu (want >= %zu)\n", kernel, op, g, n, min);
	kernel_free(&k);
	if (n < min)
		fail_msg("%s: %zu %s, the probe claims at least %zu", kernel, n, op, min);
}

/* No warp aggregation: ptxas turns an add on an address it can prove warp-uniform into VOTE,
 * SHFL.UP and one atomic per warp, which is not the instruction the probe times. */
static void expect_no_aggregation(const char *sm, const char *kernel)
{
	char path[512];
	struct sass_kernel k;

	fatbin_path(path, sizeof path, "atomic");
	assert_int_equal(sass_read(path, sm, kernel, &k), 0);
	if (count_op(&k, "SHFL.UP", NULL) || count_op(&k, "VOTE.ANY", NULL))
		fail_msg("%s: %zu SHFL.UP, %zu VOTE.ANY: ptxas aggregated the warp's atomics", kernel,
			 count_op(&k, "SHFL.UP", NULL), count_op(&k, "VOTE.ANY", NULL));
	kernel_free(&k);
}

static void expect_atomics(const char *sm)
{
	char k[96];

	for (size_t i = 0; i < gp_natomics; i++) {
		const struct gp_atomic *a = &gp_atomics[i];
		snprintf(k, sizeof k, "lat_%s_global", a->name);
		expect_no_aggregation(sm, k);
		snprintf(k, sizeof k, "lat_%s_shared", a->name);
		expect_no_aggregation(sm, k);
		snprintf(k, sizeof k, "lat_%s_global", a->name);
		expect("atomic", sm, k, a->sass_global, NULL, ATOM_LAT_UNROLL);
		snprintf(k, sizeof k, "lat_%s_shared", a->name);
		expect("atomic", sm, k, a->sass_shared, NULL, ATOM_LAT_UNROLL);
		snprintf(k, sizeof k, "tput_%s_global_atom", a->name);
		expect("atomic", sm, k, a->sass_global, NULL, ATOM_TPUT_UNROLL);
		snprintf(k, sizeof k, "tput_%s_shared_atom", a->name);
		expect("atomic", sm, k, a->sass_shared, NULL, ATOM_TPUT_UNROLL);
		if (!a->has_red)
			continue;
		snprintf(k, sizeof k, "tput_%s_global_red", a->name);
		expect_red(sm, k, a->sass_red, ATOM_TPUT_UNROLL);
		snprintf(k, sizeof k, "tput_%s_shared_red", a->name);
		expect("atomic", sm, k, a->sass_shared, NULL, ATOM_TPUT_UNROLL);
	}
}

static void test_sass_counts(void **state)
{
	const int cc = dev.cc_major * 10 + dev.cc_minor;
	char sm[16], k[96];

	NEED_GPU();
	NEED_CUOBJDUMP();
	snprintf(sm, sizeof sm, "sm_%d%d", dev.cc_major, dev.cc_minor);
	expect_atomics(sm);
	for (size_t i = 0; i < gp_nwarp_ops; i++) {
		const struct gp_warp_op *d = &gp_warp_ops[i];
		if (!*d->sass || cc < d->cc)
			continue;
		snprintf(k, sizeof k, "lat_warp_%s", d->name);
		expect("warp", sm, k, d->sass, NULL, WARP_LAT_UNROLL);
		snprintf(k, sizeof k, "tput_warp_%s", d->name);
		expect("warp", sm, k, d->sass, NULL, WARP_TPUT_STEPS * WARP_TPUT_ILP);
	}
	expect("warp", sm, "lat_bar_sync", "BAR", NULL, BAR_UNROLL);
	if (cc >= 90)
		expect("warp", sm, "lat_mbarrier", "SYNCS", NULL, 2 * BAR_UNROLL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lat_atomic), cmocka_unit_test(test_tput_atomic), cmocka_unit_test(test_lat_warp),
		cmocka_unit_test(test_tput_warp),  cmocka_unit_test(test_lat_barrier), cmocka_unit_test(test_sass_counts),
	};

	return cmocka_run_group_tests_name("gpu_sync", tests, gpu_setup, gpu_teardown);
}
