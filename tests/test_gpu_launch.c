/* test_gpu_launch.c — GPU tests of lat_launch. Where there is no GPU each test says why and is
 * reported skipped, never passed.
 *
 * Every mode and grid runs with every kernel stamped in order (the probe fails the row
 * otherwise), times above zero, the GPU's gap between kernels within the host's time per launch;
 * back-to-back launches cost the host less each than a launch waited for; a full grid takes the
 * GPU at least as long as one block; queued's repetitions in the contexts asked for. The kernel's two stamps are stores (STG). */
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

/* Rows in sweep order: mode sync, async, graph, queued; each grid one, full. */
static void test_launch_modes(void **state)
{
	static const char *const set[] = { "launches", "200", "contexts", "4" };
	struct gp_table *t;
	double sync_host, async_issue;

	NEED_GPU();
	t = measure("lat_launch", set, 4);
	assert_int_equal(t->nrows, 8);
	for (size_t r = 0; r < t->nrows; r++) {
		print_message("%-5s %-4s host %.2f issue %.2f gpu %.2f gap %.2f span %.2f us\n", gp_table_get(t, r, "mode"),
			      gp_table_get(t, r, "grid"), cell(t, r, "host_us_per_launch"), cell(t, r, "issue_us_per_launch"),
			      cell(t, r, "gpu_us_per_launch"), cell(t, r, "gpu_gap_us"), cell(t, r, "kernel_gpu_us"));
		assert_string_equal(gp_table_get(t, r, "status"), "ok");
		assert_true(cell(t, r, "host_us_per_launch") > 0);
		assert_true(cell(t, r, "gpu_us_per_launch") > 0);
		assert_true(cell(t, r, "gpu_gap_us") <= 1.05 * cell(t, r, "host_us_per_launch"));
		assert_true(cell(t, r, "clock_MHz") > 100);
	}
	sync_host = cell(t, 0, "host_us_per_launch");
	async_issue = cell(t, 2, "issue_us_per_launch");
	assert_true(async_issue < sync_host);
	assert_true(cell(t, 2, "host_us_per_launch") < sync_host);
	/* The median launch: sync's launch + wait outlasts its launch call; graph times no call. */
	for (size_t r = 0; r < 2; r++)
		assert_true(cell(t, r, "host_us_p50") > cell(t, r, "issue_us_p50") && cell(t, r, "issue_us_p50") > 0);
	for (size_t r = 0; r < 6; r++) /* only queued spreads over contexts */
		assert_string_equal(gp_table_get(t, r, "contexts"), "");
	for (size_t r = 2; r < 8; r++) {
		assert_string_equal(gp_table_get(t, r, "host_us_p50"), "");
		if (r == 4 || r == 5)
			assert_string_equal(gp_table_get(t, r, "issue_us_p50"), "");
		else
			assert_true(cell(t, r, "issue_us_p50") > 0);
	}
	/* In a graph the host is out of the way: a full grid costs the GPU more than one block
	 * (back to back, the host's issue rate hides it: H100, async full 3.8 us < one 4.0 us). */
	assert_true(cell(t, 5, "gpu_us_per_launch") > cell(t, 4, "gpu_us_per_launch"));
	/* Queued behind the gate, every launch was in before the GPU ran them, and the GPU's own gap
	 * is no longer than async's, which the host's issue rate can only lengthen. */
	for (size_t r = 6; r < 8; r++) {
		assert_string_equal(gp_table_get(t, r, "mode"), "queued");
		assert_int_equal((int)cell(t, r, "queued"), 200);
		assert_string_equal(gp_table_get(t, r, "contexts"), "4");
		assert_non_null(strstr(gp_table_get(t, r, "reps_stop"), "over 4 contexts"));
		assert_true(cell(t, r, "gpu_gap_us") <= 1.1 * cell(t, r - 4, "gpu_gap_us"));
	}
	gp_table_free(t);
}

static void test_launch_sass(void **state)
{
	char sm[16];

	NEED_GPU();
	NEED_CUOBJDUMP();
	snprintf(sm, sizeof sm, "sm_%d%d", dev.cc_major, dev.cc_minor);
	expect("launch", sm, "launch_empty", "STG", NULL, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_launch_modes),
		cmocka_unit_test(test_launch_sass),
	};

	return cmocka_run_group_tests_name("gpu_launch", tests, gpu_setup, gpu_teardown);
}
