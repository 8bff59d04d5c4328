/* test_gpu_cluster.c — GPU tests of the thread-block cluster probes (lat_dsm, lat_cluster_barrier,
 * bw_dsm). Where there is no GPU each test says why and is reported skipped, never passed; below
 * compute capability 9.0 every row must be n/a.
 *
 * Chases come back to their start (the probe fails the row otherwise) and another SM's shared
 * memory is slower than the block's own; a cluster of 16 may not fit (n/a). A cluster barrier
 * with release/acquire costs more than the block's bar.sync. Bandwidth stays under 128 B/clk into
 * and out of every SM, every checksum holds, and 32 warps move more than one. The SASS holds the
 * instructions each kernel claims to time: LD (what ld.shared::cluster and the generic chase
 * compile to), ST, LDS, UCGABAR_ARV / UCGABAR_WAIT, BAR. */
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

#include "gpu_test.h"
#include "sass_listing.h"

/* Below cc 9.0: every row n/a. Returns 1 when that was the case. */
static int all_na_below_90(const struct gp_table *t)
{
	if (dev.cc_major >= 9)
		return 0;
	for (size_t r = 0; r < t->nrows; r++)
		assert_true(gp_status_na(gp_table_get(t, r, "status")));
	return 1;
}

static double row_of(const struct gp_table *t, const char *col, const char *v, int cluster, const char *want)
{
	for (size_t r = 0; r < t->nrows; r++)
		if (!strcmp(gp_table_get(t, r, col), v) && cell(t, r, "cluster") == cluster)
			return cell(t, r, want);
	fail_msg("no row %s=%s cluster=%d", col, v, cluster);
	return NAN;
}

/* Rows: cluster 2 then 16, each local, local_cluster, remote. */
static void test_lat_dsm(void **state)
{
	static const char *const set[] = { "cluster", "2 16", "loads", "4096" };
	struct gp_table *t;
	double local, own, remote;

	NEED_GPU();
	t = measure("lat_dsm", set, 4);
	assert_int_equal(t->nrows, 6);
	if (!all_na_below_90(t)) {
		for (size_t r = 0; r < t->nrows; r++) {
			const char *st = gp_table_get(t, r, "status");
			if (cell(t, r, "cluster") == 16 && gp_status_na(st))
				continue; /* a cluster of 16 may not fit this GPU */
			assert_string_equal(st, "ok");
			assert_true(cell(t, r, "cycles_per_load") > 2 && cell(t, r, "cycles_per_load") < 5000);
		}
		local = row_of(t, "what", "local", 2, "cycles_per_load");
		own = row_of(t, "what", "local_cluster", 2, "cycles_per_load");
		remote = row_of(t, "what", "remote", 2, "cycles_per_load");
		print_message("cluster 2: local %.1f, own cluster window %.1f, remote %.1f cycles\n", local, own, remote);
		assert_true(remote > 1.5 * own);
		assert_true(remote > 1.5 * local);
	}
	gp_table_free(t);
}

static void test_cluster_barrier(void **state)
{
	static const char *const set[] = { "cluster", "2", "iters", "64" };
	struct gp_table *t;
	double sync, cta;

	NEED_GPU();
	t = measure("lat_cluster_barrier", set, 4);
	assert_int_equal(t->nrows, 3);
	if (!all_na_below_90(t)) {
		for (size_t r = 0; r < t->nrows; r++)
			assert_string_equal(gp_table_get(t, r, "status"), "ok");
		sync = row_of(t, "kind", "sync", 2, "cycles_per_barrier");
		cta = row_of(t, "kind", "cta", 2, "cycles_per_barrier");
		print_message("cluster barrier %.1f, bar.sync %.1f cycles\n", sync, cta);
		assert_true(sync > cta);
	}
	gp_table_free(t);
}

/* Rows: op ld then st, each pattern local, pair, all_to_one. */
static void test_bw_dsm(void **state)
{
	static const char *const set[] = { "op", "ld st", "pattern", "local pair all_to_one", "cluster", "2", "iters", "64" };
	static const char *const warps[] = { "pattern", "pair", "cluster", "2", "threads", "32 1024", "iters", "64" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("bw_dsm", set, 8);
	assert_int_equal(t->nrows, 6);
	if (!all_na_below_90(t))
		for (size_t r = 0; r < t->nrows; r++) {
			assert_string_equal(gp_table_get(t, r, "status"), "ok");
			assert_true(cell(t, r, "bytes_per_clk_per_sm") > 0);
			assert_true(cell(t, r, "bytes_per_clk_per_sm") <= 128 * 1.02);
			assert_true(cell(t, r, "bytes_per_clk_per_target") <= 128 * 1.02);
		}
	gp_table_free(t);
	t = measure("bw_dsm", warps, 8);
	assert_int_equal(t->nrows, 2);
	if (!all_na_below_90(t)) {
		print_message("pair: 1 warp %.2f, 32 warps %.2f B/clk/SM\n", cell(t, 0, "bytes_per_clk_per_sm"),
			      cell(t, 1, "bytes_per_clk_per_sm"));
		assert_true(cell(t, 1, "bytes_per_clk_per_sm") > cell(t, 0, "bytes_per_clk_per_sm"));
	}
	gp_table_free(t);
}

static void test_cluster_sass(void **state)
{
	static const char *const widths[] = { "32", "64", "128" };
	char k[64];

	NEED_GPU();
	if (dev.cc_major != 9 || !have_cuobjdump()) {
		print_message("skipped: needs cc 9.x and cuobjdump on PATH\n");
		skip();
	}
	/* The chases: 32 dependent loads per unrolled step at least. */
	expect("cluster", "sm_90", "lat_dsm_local", "LDS", NULL, 32);
	expect("cluster", "sm_90", "lat_dsm_cluster", "LD", NULL, 32);
	/* Barriers: 8 per trip. */
	expect("cluster", "sm_90", "lat_cbar_sync", "UCGABAR_ARV", NULL, 8);
	expect("cluster", "sm_90", "lat_cbar_sync", "UCGABAR_WAIT", NULL, 8);
	expect("cluster", "sm_90", "lat_cbar_relaxed", "UCGABAR_ARV", NULL, 8);
	expect("cluster", "sm_90", "lat_cbar_cta", "BAR", NULL, 8);
	/* Bandwidth: 8 accesses per trip. */
	for (size_t i = 0; i < GP_ARRAY_SIZE(widths); i++) {
		snprintf(k, sizeof k, "bw_dsm_ld%s_cluster", widths[i]);
		expect("cluster", "sm_90", k, "LD", NULL, 8);
		snprintf(k, sizeof k, "bw_dsm_st%s_cluster", widths[i]);
		expect("cluster", "sm_90", k, "ST", NULL, 8);
		snprintf(k, sizeof k, "bw_dsm_ld%s_local", widths[i]);
		expect("cluster", "sm_90", k, "LDS", NULL, 8);
		snprintf(k, sizeof k, "bw_dsm_st%s_local", widths[i]);
		expect("cluster", "sm_90", k, "STS", NULL, 8);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lat_dsm),
		cmocka_unit_test(test_cluster_barrier),
		cmocka_unit_test(test_bw_dsm),
		cmocka_unit_test(test_cluster_sass),
	};

	return cmocka_run_group_tests_name("gpu_cluster", tests, gpu_setup, gpu_teardown);
}
