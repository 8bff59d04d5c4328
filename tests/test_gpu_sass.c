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

static int is_na(const struct gp_table *t, size_t r)
{
	return !strncmp(gp_table_get(t, r, "status"), "n/a:", 4);
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
	struct gp_table *t;

	NEED_GPU();
	t = measure("regbank_ffma", set, 8);
	assert_int_equal(t->nrows, 2);
	assert_string_equal(gp_table_get(t, 0, "status"), "ok");
	if (!is_na(t, 1))
		fail_msg("8 warps per SMSP: status '%s', want n/a", gp_table_get(t, 1, "status"));
	/* No number for a point that did not run: the cell is "nan" (what gp_row_num writes). */
	assert_string_equal(gp_table_get(t, 1, "cycles_per_insn"), "nan");
	gp_table_free(t);
}

/* The template has six free registers of one residue mod 8 beside the fixed pair, not eight. */
static void test_regbank_reuse_beyond_template(void **state)
{
	static const char *const set[] = { "slot", "a", "distinct", "2 8", "reuse", "0", "warps", "4" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("regbank_reuse", set, 8);
	assert_int_equal(t->nrows, 2);
	assert_string_equal(gp_table_get(t, 0, "status"), "ok");
	if (!is_na(t, 1))
		fail_msg("8 distinct registers: status '%s', want n/a", gp_table_get(t, 1, "status"));
	gp_table_free(t);
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
