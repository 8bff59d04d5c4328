/* test_gpu_mma.c — GPU tests of the mma.sync probes (skipped, and counted as skipped, where there
 * is no GPU or no cuobjdump).
 *
 * lat_mma and tput_mma run every form of probes/mma.list on a short sweep: every row must
 * validate (each D element equals the host's exact sum) and stay within its bounds, or be n/a
 * exactly where mma.h says this cc cannot run the form; many warps must beat one warp's
 * dependent chain by more than 4x. The SASS test reads `cuobjdump -sass` of the embedded fatbin
 * for the device's sm and asserts that each kernel holds at least one tensor instruction (the
 * list's opcode) per mma of its unrolled trip. */
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
#include "mma.h"
#include "mma_shape.h"
#include "suite.h"

#include "gpu_test.h"
#include "sass_listing.h"

/* The form of row r; whether this device can run it (else its row must be n/a). */
static const struct gp_mma *row_form(const struct gp_table *t, size_t r, int *runs)
{
	const struct gp_mma *d = gp_mma_find(gp_table_get(t, r, "variant"));
	char why[256];

	assert_non_null(d);
	*runs = gp_mma_cannot(d, dev.cc_major, dev.cc_minor, why, sizeof why) == NULL;
	if (!*runs)
		assert_true(gp_status_na(gp_table_get(t, r, "status")));
	else
		assert_string_equal(gp_table_get(t, r, "status"), "ok");
	return d;
}

static void test_lat_mma_all(void **state)
{
	static const char *const set[] = { "iters", "32" };
	struct gp_table *t;
	int runs;

	NEED_GPU();
	t = measure("lat_mma", set, 2);
	assert_int_equal(t->nrows, gp_nmmas);
	for (size_t r = 0; r < t->nrows; r++) {
		const struct gp_mma *d = row_form(t, r, &runs);
		const double peak = gp_mma_peak(d, dev.cc_major, dev.cc_minor), cyc = runs ? cell(t, r, "cycles_per_mma") : 0;
		if (!runs)
			continue;
		print_message("%-24s %7.2f cycles\n", d->name, cyc);
		/* No faster than one sub-partition's share of the peak; a tensor op takes under 200. */
		assert_true(cyc >= (peak > 0 ? 0.98 * 4 * gp_mma_flops(d) / peak : 1) && cyc < 200);
	}
	gp_table_free(t);
}

/* Many warps' rate against one warp's chain, per form, and every rate under its peak. */
static void test_tput_mma_all(void **state)
{
	static const char *const lat_set[] = { "iters", "16" };
	static const char *const set[] = { "blocks_per_sm", "4", "threads", "128", "iters", "32" };
	struct gp_table *lat, *t;
	int runs;

	NEED_GPU();
	lat = measure("lat_mma", lat_set, 2);
	t = measure("tput_mma", set, 6);
	assert_int_equal(t->nrows, gp_nmmas);
	for (size_t r = 0; r < t->nrows; r++) {
		const struct gp_mma *d = row_form(t, r, &runs);
		const double peak = gp_mma_peak(d, dev.cc_major, dev.cc_minor);
		double v, one;
		if (!runs)
			continue;
		v = cell(t, r, "flops_per_clk_per_sm");
		one = gp_mma_flops(d) / cell(lat, r, "cycles_per_mma");
		print_message("%-24s %8.1f FLOP/clk/SM (one warp's chain %.1f, peak %g)\n", d->name, v, one, peak);
		assert_string_equal(gp_table_get(lat, r, "variant"), d->name);
		if (peak > 0)
			assert_true(v <= 1.02 * peak);
		assert_true(v > 4 * one);
	}
	gp_table_free(lat);
	gp_table_free(t);
}

/* More warps per SM never lose much: 32 warps against 4 (f16 m16n8k16, f32 accumulators). */
static void test_tput_warps(void **state)
{
	static const char *const set[] = { "variant", "f16_f32_m16n8k16", "blocks_per_sm", "1 8", "threads", "128" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("tput_mma", set, 6);
	assert_int_equal(t->nrows, 2);
	for (size_t r = 0; r < t->nrows; r++)
		assert_string_equal(gp_table_get(t, r, "status"), "ok");
	assert_true(cell(t, 1, "flops_per_clk_per_sm") >= 0.95 * cell(t, 0, "flops_per_clk_per_sm"));
	gp_table_free(t);
}

static void test_sass_counts(void **state)
{
	char sm[16], kname[64], why[256];

	NEED_GPU();
	NEED_CUOBJDUMP();
	snprintf(sm, sizeof sm, "sm_%d%d", dev.cc_major, dev.cc_minor);
	/* lat_: one chain of MMA_TRIP_STEPS per trip; tput_: MMA_CHAINS of them. A form this sm
	 * cannot run has an empty kernel. */
	for (size_t i = 0; i < gp_nmmas; i++) {
		const struct gp_mma *d = &gp_mmas[i];
		if (gp_mma_cannot(d, dev.cc_major, dev.cc_minor, why, sizeof why))
			continue;
		snprintf(kname, sizeof kname, "lat_%s", d->name);
		expect("mma", sm, kname, d->sass, NULL, MMA_TRIP_STEPS);
		snprintf(kname, sizeof kname, "tput_%s", d->name);
		expect("mma", sm, kname, d->sass, NULL, (size_t)MMA_TRIP_STEPS * MMA_CHAINS);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lat_mma_all), cmocka_unit_test(test_tput_mma_all),
		cmocka_unit_test(test_tput_warps),  cmocka_unit_test(test_sass_counts),
	};

	return cmocka_run_group_tests_name("gpu_mma", tests, gpu_setup, gpu_teardown);
}
