/* test_gpu_sass.c — GPU tests of the SASS-patched probes (stall_ffma, stall_wait, regbank_ffma,
 * regbank_map, regbank_reuse). Where there is no GPU each test says why and is reported skipped,
 * never passed.
 *
 * What they hold: a dependent FFMA chain patched to stall 8 cycles runs at about 8 cycles per
 * FFMA and stays correct, while a stall of 1 (below the fixed latency: no interlock) computes
 * something else; a shared-memory chase whose consumers keep their wait bit is correct and one
 * whose bit was cleared is not (it runs ahead of its loads); a stream of register-form FFMAs
 * whose two sources share a bank takes about one extra cycle per instruction over one whose
 * sources do not (sm_70+ has two banks, register number mod 2), at one warp per scheduler with
 * the default loop long enough for the clock sample; and the points the template cannot build
 * or run (more warps than its REGCOUNT allows in one block, more distinct registers of one
 * residue than it has free) come back as "n/a" rows, not as faults or failed validation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gp.h"
#include "experiment.h"
#include "suite.h"

#include "gpu_test.h"

/* Two points of experiment `name`: the first runs ("ok"), the second is one the template cannot
 * build or run, an "n/a" row whose numbers are "nan" (what gp_row_num writes) and whose measure()
 * returns 0 (measure() asserts that). */
static void assert_ok_then_na(const char *name, const char *const *set, size_t n, const char *what)
{
	struct gp_table *t = measure(name, set, n);

	assert_int_equal(t->nrows, 2);
	assert_string_equal(gp_table_get(t, 0, "status"), "ok");
	if (!gp_status_na(gp_table_get(t, 1, "status")))
		fail_msg("%s: status '%s', want n/a", what, gp_table_get(t, 1, "status"));
	assert_string_equal(gp_table_get(t, 1, "cycles_per_insn"), "nan");
	gp_table_free(t);
}

/* Experiment `name` over `set` (n strings): nrows rows, every one "ok" with a measured clock and,
 * where col is given, that column equal to want. */
static struct gp_table *measure_ok(const char *name, const char *const *set, size_t n, size_t nrows, const char *col,
				   double want)
{
	struct gp_table *t = measure(name, set, n);

	assert_int_equal(t->nrows, nrows);
	for (size_t r = 0; r < t->nrows; r++) {
		assert_string_equal(gp_table_get(t, r, "status"), "ok");
		assert_true(cell(t, r, "clock_MHz") > 200);
		if (col)
			assert_true(cell(t, r, col) == want);
	}
	return t;
}

/* Stall 8 covers the FFMA's fixed latency (4 on sm_70+), stall 1 does not. */
static void test_stall_ffma_dep_chain(void **state)
{
	static const char *const set[] = { "chain", "dep", "stall", "1 8", "yield", "0" };
	struct gp_table *t;

	NEED_GPU();
	t = measure_ok("stall_ffma", set, 6, 2, "patched_insns", 256);
	print_message("stall 1: %.3f, stall 8: %.3f cycles per FFMA\n", cell(t, 0, "cycles_per_insn"),
		      cell(t, 1, "cycles_per_insn"));
	assert_int_equal(cell(t, 0, "correct"), 0);
	assert_int_equal(cell(t, 1, "correct"), 1);
	assert_int_equal(cell(t, 1, "wrong_threads"), 0);
	assert_true(cell(t, 1, "cycles_per_insn") > 7.5 && cell(t, 1, "cycles_per_insn") < 9);
	gp_table_free(t);
}

/* The LDS chase: 16 consumers patched either way; cleared, the chase no longer ends where the
 * host's does (it runs ahead of its loads, so it is faster too). */
static void test_stall_wait_lds(void **state)
{
	static const char *const set[] = { "mem", "lds", "wait", "keep clear" };
	struct gp_table *t;

	NEED_GPU();
	t = measure_ok("stall_wait", set, 4, 2, "consumers_patched", 16);
	assert_int_equal(cell(t, 0, "correct"), 1);
	assert_int_equal(cell(t, 1, "correct"), 0);
	assert_true(cell(t, 1, "cycles_per_step") < cell(t, 0, "cycles_per_step"));
	gp_table_free(t);
}

/* Two points of `name` over `set` (n strings), the first with a bank conflict, the second
 * without: the second near one FFMA a clock per scheduler, the first at least half a clock slower. */
static void assert_conflict_then_free(const char *name, const char *const *set, size_t n, const char *what)
{
	struct gp_table *t = measure_ok(name, set, n, 2, NULL, 0);
	const double slow = cell(t, 0, "cycles_per_insn"), fast = cell(t, 1, "cycles_per_insn");

	print_message("%s: %.3f cycles per FFMA with the conflict, %.3f without\n", what, slow, fast);
	assert_true(fast >= 0.98 && fast < 1.3);
	assert_true(slow > fast + 0.5);
	gp_table_free(t);
}

/* rb_offset 0 puts RB in RA's bank, 1 in the other: at one warp the conflict shows in full. */
static void test_regbank_map_one_warp(void **state)
{
	static const char *const set[] = { "form", "pair", "rb_offset", "0 1", "warps", "1" };

	NEED_GPU();
	assert_conflict_then_free("regbank_map", set, 6, "RB in RA's bank / the other");
}

/* 8 warps per scheduler = 1024 threads in one block: more than the template's REGCOUNT allows. */
static void test_regbank_ffma_too_many_warps(void **state)
{
	static const char *const set[] = { "op", "ffma", "combo", "012", "reuse", "0", "warps", "1 8" };

	NEED_GPU();
	assert_ok_then_na("regbank_ffma", set, 8, "8 warps per SMSP");
}

/* The template has six free registers of one residue mod 8 beside the fixed pair, not eight. */
static void test_regbank_reuse_beyond_template(void **state)
{
	static const char *const set[] = { "slot", "a", "layout", "one", "distinct", "2 8", "reuse", "0", "warps", "4" };

	NEED_GPU();
	assert_ok_then_na("regbank_reuse", set, 10, "8 distinct registers");
}

/* The mixed layout shows a miss at all: its fixed registers of residues 0 and 1 sit in two banks
 * wherever regbank_map finds banks by register number, so the cycling register, read without
 * reuse, costs a two-way read that one register kept by the cache does not. */
static void test_regbank_reuse_mixed_miss(void **state)
{
	static const char *const set[] = { "slot", "b", "layout", "mixed", "distinct", "1", "reuse", "0 1", "warps", "4" };

	NEED_GPU();
	assert_conflict_then_free("regbank_reuse", set, 10, "mixed layout, one register without / with reuse");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stall_ffma_dep_chain),
		cmocka_unit_test(test_stall_wait_lds),
		cmocka_unit_test(test_regbank_map_one_warp),
		cmocka_unit_test(test_regbank_ffma_too_many_warps),
		cmocka_unit_test(test_regbank_reuse_beyond_template),
		cmocka_unit_test(test_regbank_reuse_mixed_miss),
	};

	return cmocka_run_group_tests_name("gpu_sass", tests, gpu_setup, gpu_teardown);
}
