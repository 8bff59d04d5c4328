/* test_gpu_mem.c — GPU tests of the memory probes. Where there is no GPU each test says why and
 * is reported skipped, never passed.
 *
 * Chain correctness: a chase comes back to its start after a whole number of trips round the
 * cycle (the probe checks the final pointer; the row says "returned_to_start" and "ok").
 * Footprints: a footprint presented as missing L2 touches more distinct lines than the device's
 * L2 holds, and is slower than one that fits; one that fits L2 but not L1 is slower than one
 * that fits L1. On-chip chases close their cycles too. Points this device cannot form (a block
 * over the shared memory a block may have, more blocks than fit an SM, an "HBM" footprint L2
 * could hold) are n/a rows, not failures; cuMemcpyDtoD, which writes no clock sample, still gets
 * the SM clock (of the harness's spin after it). */
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
#include "mem_shape.h"
#include "experiment.h"
#include "suite.h"

#include "gpu_test.h"

/* 4 KiB = 32 slots, 256 KiB = 2048 slots: 4096 loads are whole trips round each cycle. */
static void test_chain_returns_to_start(void **state)
{
	static const char *const set[] = { "pattern", "random stride", "path", "default cg nc",
					   "footprint_bytes", "4096 262144", "loads", "4096" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("lat_mem", set, 8);
	assert_int_equal(t->nrows, 12);
	for (size_t r = 0; r < t->nrows; r++) {
		assert_string_equal(gp_table_get(t, r, "status"), "ok");
		assert_string_equal(gp_table_get(t, r, "chain_check"), "returned_to_start");
		assert_true(fmod(cell(t, r, "loads_per_launch"), cell(t, r, "slots")) == 0);
	}
	gp_table_free(t);
}

static void test_footprints_exceed_caches(void **state)
{
	char big[32], set_fp[96];
	const char *set[] = { "path", "default", "footprint_bytes", set_fp, "loads", "16384" };
	struct gp_table *t;
	double l1, l2, dram;

	NEED_GPU();
	/* 16 KiB fits any L1; 8 MiB exceeds every L1 (at most the shared/L1 array of an SM) and
	 * fits the L2 of any GPU with more than 16 MB; 8 x L2 misses it. */
	snprintf(big, sizeof big, "%lld", 8LL * dev.l2_bytes);
	snprintf(set_fp, sizeof set_fp, "16384 8388608 %s", big);
	t = measure("lat_mem", set, 6);
	assert_int_equal(t->nrows, 3);
	assert_true(cell(t, 1, "lines_touched_bytes") > dev.smem_per_sm);
	assert_true(cell(t, 2, "lines_touched_bytes") > dev.l2_bytes);
	l1 = cell(t, 0, "cycles_per_load");
	l2 = cell(t, 1, "cycles_per_load");
	dram = cell(t, 2, "cycles_per_load");
	print_message("L1 %.1f, L2 %.1f, DRAM %.1f cycles\n", l1, l2, dram);
	if (dev.l2_bytes > 16 << 20)
		assert_true(l2 > 1.5 * l1);
	assert_true(dram > 1.2 * l2);
	gp_table_free(t);
}

static void test_tlb_and_dist(void **state)
{
	static const char *const tlb[] = { "footprint_bytes", "4194304 67108864", "loads", "4096" };
	static const char *const tlb_wide[] = { "stride_bytes", "33554432", "footprint_bytes", "4194304 67108864",
						"loads", "4096" };
	static const char *const dist[] = { "footprint_bytes", "16384 1073741824", "records", "1024" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("lat_mem_tlb", tlb, 4);
	assert_int_equal(t->nrows, 2);
	for (size_t r = 0; r < t->nrows; r++) /* MEM_TLB_SLOTS_PER_PAGE lines on each 2 MiB page */
		assert_true(cell(t, r, "slots") == cell(t, r, "footprint_bytes") / 2097152 * MEM_TLB_SLOTS_PER_PAGE);
	gp_table_free(t);
	/* A sweep crossing a 32 MiB stride with a 4 MiB footprint: one slot, no chain; an n/a row
	 * (measure() requires every point to return 0), and 64 MiB (two slots) still measures. */
	t = measure("lat_mem_tlb", tlb_wide, 6);
	assert_int_equal(t->nrows, 2);
	assert_true(gp_status_na(gp_table_get(t, 0, "status")));
	assert_string_equal(gp_table_get(t, 1, "status"), "ok");
	gp_table_free(t);
	t = measure("lat_mem_dist", dist, 4);
	assert_int_equal(t->nrows, 2);
	assert_true(cell(t, 1, "p50_cycles") > cell(t, 0, "p50_cycles"));
	assert_true(cell(t, 0, "p95_cycles") >= cell(t, 0, "p50_cycles"));
	gp_table_free(t);
}

static void test_onchip_chases_close(void **state)
{
	static const char *const sm[] = { "footprint_bytes", "1024 16384", "stride_bytes", "4 128", "loads", "8192" };
	static const char *const cst[] = { "footprint_bytes", "256 65536", "loads", "8192" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("lat_smem", sm, 6);
	assert_int_equal(t->nrows, 4);
	for (size_t r = 0; r < t->nrows; r++)
		assert_true(cell(t, r, "cycles_per_load") > 2 && cell(t, r, "cycles_per_load") < 200);
	gp_table_free(t);
	t = measure("lat_const", cst, 4);
	assert_int_equal(t->nrows, 2);
	assert_true(cell(t, 1, "cycles_per_load") >= cell(t, 0, "cycles_per_load") * 0.9);
	gp_table_free(t);
}

static void test_bandwidth_under_ceilings(void **state)
{
	static const char *const sm[] = { "width", "32 128", "pattern", "conflict_free", "op", "lds", "iters", "1024" };
	static const char *const bank[] = { "width", "32", "pad", "0 1", "stride", "1 2 32", "iters", "256" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("bw_smem", sm, 8);
	for (size_t r = 0; r < t->nrows; r++)
		assert_true(cell(t, r, "bytes_per_clk_per_sm") <= 128 * 1.02);
	gp_table_free(t);
	t = measure("bank_smem", bank, 8);
	/* Rows: pad 0 strides 1, 2, 32, then pad 1. Stride 32 unpadded: 32-way; padded: none. */
	assert_true(cell(t, 2, "conflict_degree_measured") > 8);
	assert_true(cell(t, 5, "conflict_degree_measured") < 2);
	gp_table_free(t);
}

static void test_points_not_on_this_device(void **state)
{
	static const char *const sm[] = { "footprint_bytes", "1048576", "loads", "1024" };
	static const char *const ldg[] = { "width", "32", "path", "default", "blocks_per_sm", "32", "threads", "1024" };
	char two_l2[32];
	const char *hbm[] = { "op", "read", "bytes", two_l2 };
	struct gp_table *t;

	NEED_GPU();
	snprintf(two_l2, sizeof two_l2, "%lld", 2LL * dev.l2_bytes);
	t = measure("lat_smem", sm, 4); /* 1 MiB of shared memory: more than any block may have */
	assert_true(gp_status_na(gp_table_get(t, 0, "status")));
	gp_table_free(t);
	t = measure("bw_global", ldg, 8); /* 32 blocks of 1024 threads: more than any SM holds */
	assert_true(gp_status_na(gp_table_get(t, 0, "status")));
	gp_table_free(t);
	t = measure("bw_hbm", hbm, 4);
	assert_true(gp_status_na(gp_table_get(t, 0, "status")));
	gp_table_free(t);
}

static void test_hbm_ops_have_a_clock(void **state)
{
	char four_l2[32], quarter_l2[32];
	const char *set[] = { "op", "l2_read read dtod", "bytes", four_l2, "l2_footprint", quarter_l2 };
	struct gp_table *t;

	NEED_GPU();
	snprintf(four_l2, sizeof four_l2, "%lld", 4LL * dev.l2_bytes);
	snprintf(quarter_l2, sizeof quarter_l2, "%d", dev.l2_bytes / 4);
	t = measure("bw_hbm", set, 6);
	assert_int_equal(t->nrows, 3);
	for (size_t r = 0; r < t->nrows; r++) {
		assert_string_equal(gp_table_get(t, r, "status"), "ok");
		assert_true(cell(t, r, "clock_MHz") > 100);
		assert_true(cell(t, r, "bandwidth_GBps") > 0);
	}
	/* l2_read over 16 contexts (gp_meas_contexts); the points after it in the run's own */
	assert_string_equal(gp_table_get(t, 0, "reps_stop"), "fixed count; over 16 contexts");
	assert_string_equal(gp_table_get(t, 1, "reps_stop"), "fixed count");
	assert_string_equal(gp_table_get(t, 2, "reps_stop"), "fixed count");
	gp_table_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chain_returns_to_start),   cmocka_unit_test(test_footprints_exceed_caches),
		cmocka_unit_test(test_tlb_and_dist),             cmocka_unit_test(test_onchip_chases_close),
		cmocka_unit_test(test_bandwidth_under_ceilings), cmocka_unit_test(test_points_not_on_this_device),
		cmocka_unit_test(test_hbm_ops_have_a_clock),
	};

	return cmocka_run_group_tests_name("gpu_mem", tests, gpu_setup, gpu_teardown);
}
