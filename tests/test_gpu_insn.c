/* test_gpu_insn.c — GPU tests of the instruction probes (skipped, and counted as skipped, where
 * there is no GPU or no cuobjdump).
 *
 * Each experiment runs a short sweep through the harness and every row must validate (the chain
 * matches the host) and stay under its ceiling. The SASS test reads `cuobjdump -sass` of the
 * embedded fatbins for the device's sm and asserts that every probe's kernel holds the
 * instructions it claims to time: for every entry of probes/insn.list, at least 256 of its SASS
 * opcode per unrolled trip (the constant-operand shape with a uniform-register or constant
 * operand); LDS immediately followed by FFMA for the shared chains. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp.h"
#include "experiment.h"
#include "insn.h"
#include "suite.h"

#include "gpu_test.h"
#include "sass_listing.h"

static void test_lat_insn_all(void **state)
{
	static const char *const set[] = { "iters", "1024" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("lat_insn", set, 2);
	for (size_t r = 0; r < t->nrows; r++) {
		const char *n = gp_table_get(t, r, "insn");
		const struct gp_insn *d = gp_insn_find(n);
		/* The default sweep holds only instructions with a chain: no n/a rows. */
		assert_non_null(d);
		assert_true(d->lat);
		assert_string_equal(gp_table_get(t, r, "status"), "ok");
		/* A dependent step takes at least one cycle and, for ALU and shared memory, well under
		 * a hundred (DFMA and MUFU included). */
		print_message("%-10s %6.2f cycles\n", n, cell(t, r, "cycles_per_step"));
		assert_true(cell(t, r, "cycles_per_step") >= 1 && cell(t, r, "cycles_per_step") < 100);
	}
	gp_table_free(t);
}

static void test_tput_insn_all(void **state)
{
	static const char *const set[] = { "iters", "256" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("tput_insn", set, 2);
	for (size_t r = 0; r < t->nrows; r++) {
		double arch = cell(t, r, "arch_ops_per_clk_per_sm"), v = cell(t, r, "ops_per_clk_per_sm");
		assert_string_equal(gp_table_get(t, r, "status"), "ok");
		print_message("%-10s %7.2f ops/clk/SM (arch %g)\n", gp_table_get(t, r, "insn"), v, arch);
		assert_true(v > 0);
		if (arch > 0)
			assert_true(v <= 1.02 * arch);
		/* The FP32 pipe at full occupancy gets close to its rate with 8 chains. */
		if (!strcmp(gp_table_get(t, r, "insn"), "ffma"))
			assert_true(v >= 0.9 * arch);
	}
	gp_table_free(t);
}

static void test_lat_ffma_operands(void **state)
{
	static const char *const set[] = { "operand", "reg smem const", "threads", "32 1024", "iters", "512" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("lat_ffma", set, 6);
	assert_int_equal(t->nrows, 6);
	/* rows (operand is the fastest parameter): reg@32, smem@32, const@32, reg@1024, … */
	for (size_t r = 0; r < t->nrows; r++)
		assert_string_equal(gp_table_get(t, r, "status"), "ok");
	/* The LDS -> FFMA step costs a shared load more than the FFMA alone. */
	assert_string_equal(gp_table_get(t, 1, "operand"), "smem");
	assert_true(cell(t, 1, "cycles_per_ffma_min") > cell(t, 0, "cycles_per_ffma_min") + 10);
	assert_true(cell(t, 2, "cycles_per_ffma_min") >= 2 && cell(t, 2, "cycles_per_ffma_min") < 40);
	gp_table_free(t);
}

static void test_lds_ffma_mix(void **state)
{
	static const char *const set[] = { "ffma_per_lds", "1 8", "addr", "distinct broadcast", "iters", "128" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("tput_lds_ffma", set, 6);
	assert_int_equal(t->nrows, 4);
	for (size_t r = 0; r < t->nrows; r++)
		assert_string_equal(gp_table_get(t, r, "status"), "ok");
	/* rows: 1 distinct, 1 broadcast, 8 distinct, 8 broadcast: more FFMAs per load, more FFMA/clk. */
	assert_true(cell(t, 2, "ffma_per_clk_per_sm") > cell(t, 0, "ffma_per_clk_per_sm"));
	gp_table_free(t);
}

static void test_occupancy_sweep(void **state)
{
	static const char *const set[] = { "chain", "ffma lds_ffma", "warps", "1 8 32 64", "iters", "256" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("tput_occupancy", set, 6);
	assert_int_equal(t->nrows, 8);
	for (size_t r = 0; r < t->nrows; r++)
		assert_string_equal(gp_table_get(t, r, "status"), "ok");
	/* More warps never lose throughput by much, and one warp is far from the plateau. */
	assert_true(cell(t, 3, "ops_per_clk_per_sm") > 4 * cell(t, 0, "ops_per_clk_per_sm"));
	assert_true(cell(t, 7, "ops_per_clk_per_sm") > 4 * cell(t, 4, "ops_per_clk_per_sm"));
	gp_table_free(t);
}

/* ---------------------------------------------------------------- SASS */

static void test_sass_counts(void **state)
{
	char sm[16], kname[64], path[512];
	struct sass_kernel k;
	int cc;

	NEED_GPU();
	NEED_CUOBJDUMP();
	snprintf(sm, sizeof sm, "sm_%d%d", dev.cc_major, dev.cc_minor);
	cc = dev.cc_major * 10 + dev.cc_minor;
	/* lat_: 256 per trip; tput_: 8 chains x 32 steps = 256 per trip. The XCB shape's operand is
	 * the kernel parameter: staged in a uniform register (ptxas for sm_90) or read straight from
	 * the bank (c[0x0][…]), either is the form the probe claims. */
	for (size_t i = 0; i < gp_ninsns; i++) {
		const struct gp_insn *d = &gp_insns[i];
		const char *operand = strcmp(d->shape, "XCB") ? NULL : "UR|c[";
		if (d->lat) {
			snprintf(kname, sizeof kname, "lat_%s", d->name);
			expect("insn", sm, kname, gp_insn_sass(d, cc), operand, 256);
		}
		snprintf(kname, sizeof kname, "tput_%s", d->name);
		expect("insn", sm, kname, gp_insn_sass(d, cc), operand, 256);
	}
	/* Seed 000 Tables 2/3: 256 FFMAs in lat_ffma's loop, the constant operand, LDS -> FFMA. */
	expect("arith", sm, "lat_ffma", "FFMA", NULL, 256);
	expect("arith", sm, "lat_ffma_const", "FFMA", "UR|c[", 256);
	expect("arith", sm, "tput_ffma", "FFMA", NULL, 128);
	fatbin_path(path, sizeof path, "arith");
	assert_int_equal(sass_read(path, sm, "lat_ffma_smem", &k), 0);
	print_message("lat_ffma_smem    LDS->FFMA pairs: %zu (want >= 256)\n", count_pairs(&k, "LDS", "FFMA"));
	assert_true(count_pairs(&k, "LDS", "FFMA") >= 256);
	kernel_free(&k);
	fatbin_path(path, sizeof path, "insn");
	assert_int_equal(sass_read(path, sm, "occ_lds_ffma", &k), 0);
	assert_true(count_pairs(&k, "LDS", "FFMA") >= 256);
	kernel_free(&k);
	/* E010: R FFMAs per LDS: 256 FFMAs and 256 / R loads per trip. */
	expect("insn", sm, "mix_ffma1", "LDS", NULL, 256);
	expect("insn", sm, "mix_ffma8", "FFMA", NULL, 256);
	expect("insn", sm, "mix_ffma8", "LDS", NULL, 32);
	expect("insn", sm, "occ_ffma", "FFMA", NULL, 3 * 256);
	/* selftest_clock's tensor load: 4 chains x 16 mma.sync per trip, on the tensor cores. */
	if (cc >= 80)
		expect("clockcheck", sm, "clock_mma", "HMMA", NULL, 64);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lat_insn_all),	  cmocka_unit_test(test_tput_insn_all),
		cmocka_unit_test(test_lat_ffma_operands), cmocka_unit_test(test_lds_ffma_mix),
		cmocka_unit_test(test_occupancy_sweep),	  cmocka_unit_test(test_sass_counts),
	};

	return cmocka_run_group_tests_name("gpu_insn", tests, gpu_setup, gpu_teardown);
}
