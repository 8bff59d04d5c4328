/* test_gpu_sass.c — GPU tests of the SASS-patched register-bank probes (regbank_ffma,
 * regbank_map, regbank_reuse). Where there is no GPU each test says why and is reported
 * skipped, never passed.
 *
 * What they hold: a stream of register-form FFMAs whose two sources share a bank takes about one
 * extra cycle per instruction over one whose sources do not (sm_70+ has two banks, register
 * number mod 2), at one warp per scheduler with the default loop long enough for the clock
 * sample; and the points the template cannot build or run (more warps than its REGCOUNT allows
 * in one block, more distinct registers of one residue than it has free) come back as "n/a"
 * rows, not as faults or failed validation. */
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

/* rb_offset 0 puts RB in RA's bank, 1 in the other: at one warp the conflict shows in full. */
static void test_regbank_map_one_warp(void **state)
{
	static const char *const set[] = { "form", "pair", "rb_offset", "0 1", "warps", "1" };
	struct gp_table *t;
	double same, other;

	NEED_GPU();
	t = measure("regbank_map", set, 6);
	assert_int_equal(t->nrows, 2);
	for (size_t r = 0; r < t->nrows; r++) {
		assert_string_equal(gp_table_get(t, r, "status"), "ok");
		assert_true(cell(t, r, "clock_MHz") > 200);
	}
	same = cell(t, 0, "cycles_per_insn");
	other = cell(t, 1, "cycles_per_insn");
	print_message("same bank %.3f, other bank %.3f cycles per FFMA\n", same, other);
	assert_true(other >= 0.98 && other < 1.3);
	assert_true(same > other + 0.5);
	gp_table_free(t);
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
	static const char *const set[] = { "slot", "a", "distinct", "2 8", "reuse", "0", "warps", "4" };

	NEED_GPU();
	assert_ok_then_na("regbank_reuse", set, 8, "8 distinct registers");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regbank_map_one_warp),
		cmocka_unit_test(test_regbank_ffma_too_many_warps),
		cmocka_unit_test(test_regbank_reuse_beyond_template),
	};

	return cmocka_run_group_tests_name("gpu_sass", tests, gpu_setup, gpu_teardown);
}
