/* test_gpu_l2map.c — GPU tests of lat_l2_map and of lat_const's second level. Where there is no
 * GPU each test says why and is reported skipped, never passed.
 *
 * The map: every row ok, every SM measured once with every line, each cell an L2 hit: slower than
 * an L1 hit and not slower than an HBM miss (both measured here by lat_mem, same run); where the
 * analysis finds SM groups, their far lines are slower than their near ones. The SASS: the chain
 * is ld.global.cg, which ptxas makes LDG.E.64.STRONG.GPU on sm_70 and later (checked on sm_90:
 * the same encoding as ld.relaxed.gpu), at least the 8 of a chain plus the warm-up load. The
 * constant chase: a footprint past the 2 KB constant L1 is slower than one inside it.
 *
 * bw_l2_side: every row ok, or (near and far only) n/a because the map found no sides; where
 * sides were found, both the near and the far stream were measured for all SMs and for one, the
 * classification covers the pool (each reader's near and far lines add up to every line), the
 * sides hold at least half the SMs and the readers are the sides' SMs (or one of them); every
 * rate is positive, under 128 B/clk per reading SM and under 128 B/clk x the readers in GB/s. The
 * SASS: the stream's loads are ld.global.cg (LDG ... STRONG.GPU), L2SIDE_UNROLL per loop trip. */
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
#include "analysis.h"
#include "experiment.h"
#include "l2map_shape.h"
#include "suite.h"

#include "gpu_test.h"
#include "sass_listing.h"

#define LINES 16

/* lat_mem's L1-hit (16 KiB) and HBM (8 x L2) latencies on the default path. */
static void l1_and_hbm(double *l1, double *hbm)
{
	char fp[96];
	const char *set[] = { "path", "default", "footprint_bytes", fp, "loads", "16384" };
	struct gp_table *t;

	snprintf(fp, sizeof fp, "16384 %lld", 8LL * dev.l2_bytes);
	t = measure("lat_mem", set, 6);
	assert_int_equal(t->nrows, 2);
	*l1 = cell(t, 0, "cycles_per_load");
	*hbm = cell(t, 1, "cycles_per_load");
	gp_table_free(t);
}

static void test_map_every_sm_every_line(void **state)
{
	static const char *const set[] = { "lines", "16", "trials", "2" };
	struct gp_table *t;
	int *seen;
	double l1, hbm, lo = INFINITY, hi = 0;

	NEED_GPU();
	l1_and_hbm(&l1, &hbm);
	t = measure("lat_l2_map", set, 4);
	assert_int_equal(t->nrows, (size_t)dev.sms * LINES);
	seen = calloc(65536, sizeof *seen);
	assert_non_null(seen);
	for (size_t r = 0; r < t->nrows; r++) {
		const double sm = cell(t, r, "sm"), line = cell(t, r, "line"), c = cell(t, r, "cycles");
		assert_string_equal(gp_table_get(t, r, "status"), "ok");
		assert_true(sm >= 0 && sm < 65536 && line >= 0 && line < LINES);
		seen[(int)sm]++;
		lo = fmin(lo, c);
		hi = fmax(hi, c);
		assert_true(c > l1 && c < 1.1 * hbm);
		assert_true(cell(t, r, "cycles_min") <= c && c <= cell(t, r, "cycles_max"));
	}
	print_message("L1 %.1f, L2 map %.1f..%.1f, HBM %.1f cycles\n", l1, lo, hi, hbm);
	for (size_t r = 0, n = 0; r < 65536; r++) {
		if (seen[r])
			assert_int_equal(seen[r], LINES);
		n += seen[r] > 0;
		if (r == 65535)
			assert_int_equal(n, dev.sms);
	}
	free(seen);
	gp_table_free(t);
}

static const char *key(const struct gp_profile *p, const char *k)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->e[i].key, k))
			return p->e[i].value;
	return NULL;
}

/* The default point, through the analysis: where groups stand out, far is slower than near. */
static void test_groups_far_above_near(void **state)
{
	static const char *const set[] = { "lines", "128" };
	struct gp_profile p = { .l2_bytes = 0 };
	struct gp_table *t;
	const char *parts;

	NEED_GPU();
	p.l2_bytes = dev.l2_bytes;
	t = measure("lat_l2_map", set, 2);
	gp_analysis_find("lat_l2_map")->derive(&p, t);
	parts = key(&p, "l2map_partitions_detected");
	assert_non_null(parts);
	print_message("partitions: %s, median %s cycles\n", parts, key(&p, "l2map_latency_cycles"));
	if (strcmp(parts, "none detected")) {
		print_message("near %s, far %s cycles, near fraction %s\n", key(&p, "l2map_near_latency_cycles"),
			      key(&p, "l2map_far_latency_cycles"), key(&p, "l2map_near_fraction"));
		assert_true(atof(key(&p, "l2map_far_latency_cycles")) > atof(key(&p, "l2map_near_latency_cycles")));
	}
	gp_profile_free(&p);
	gp_table_free(t);
}

static void test_map_sass(void **state)
{
	char sm[16];

	NEED_GPU();
	NEED_CUOBJDUMP();
	snprintf(sm, sizeof sm, "sm_%d%d", dev.cc_major, dev.cc_minor);
	expect("l2map", sm, "l2map_lat", "LDG", "STRONG.GPU", L2MAP_CHAIN + 1);
}

static void test_const_second_level(void **state)
{
	static const char *const set[] = { "footprint_bytes", "1024 16384", "loads", "16384" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("lat_const", set, 4);
	assert_int_equal(t->nrows, 2);
	print_message("constant chase: 1 KiB %.1f, 16 KiB %.1f cycles\n", cell(t, 0, "cycles_per_load"),
		      cell(t, 1, "cycles_per_load"));
	assert_true(cell(t, 1, "cycles_per_load") > 1.5 * cell(t, 0, "cycles_per_load"));
	gp_table_free(t);
}

/* One bw_l2_side row's invariants (see the file's head); 1 where it measured near/far sides. */
static int side_row_ok(const struct gp_table *t, size_t r)
{
	const char *st = gp_table_get(t, r, "status"), *side = gp_table_get(t, r, "side"), *sms = gp_table_get(t, r, "sms");
	double bpc, gbps, mhz, readers;

	if (!strncmp(st, "n/a: no L2 sides detected", 25) && strcmp(side, "all"))
		return 0;
	if (strcmp(st, "ok"))
		fail_msg("bw_l2_side %s/%s: %s", side, sms, st);
	bpc = cell(t, r, "bytes_per_clk_per_sm");
	gbps = cell(t, r, "bandwidth_GBps");
	mhz = cell(t, r, "clock_MHz");
	readers = cell(t, r, "sms_reading");
	print_message("%-4s %-3s SMs %3.0f: %8.1f GB/s, %5.2f B/clk/SM at %.0f MHz (map: near %s, far %s cycles; "
		      "%s + %s of %s lines)\n", side, sms, readers, gbps, bpc, mhz, gp_table_get(t, r, "near_cycles"),
		      gp_table_get(t, r, "far_cycles"), gp_table_get(t, r, "near_lines"), gp_table_get(t, r, "far_lines"),
		      gp_table_get(t, r, "lines"));
	assert_true(bpc > 0 && bpc <= 128 * 1.02);
	assert_true(gbps > 0 && gbps <= 128 * readers * mhz * 1e6 / 1e9 * 1.02);
	assert_true(readers == (!strcmp(sms, "one") ? 1 : cell(t, r, "sms_in_sides") > 0 ? cell(t, r, "sms_in_sides") : dev.sms));
	if (cell(t, r, "sides") < 2)
		return 0;
	assert_true(cell(t, r, "sms_in_sides") >= 0.5 * dev.sms && cell(t, r, "sms_in_sides") <= dev.sms);
	assert_true(cell(t, r, "near_lines") > 0 && cell(t, r, "far_lines") > 0);
	assert_true(cell(t, r, "near_lines") + cell(t, r, "far_lines") == cell(t, r, "lines"));
	return strcmp(side, "all") != 0;
}

static void test_side_bandwidth(void **state)
{
	static const char *const set[] = { "side", "near far all", "sms", "all one" };
	struct gp_table *t;
	int sided = 0;

	NEED_GPU();
	t = measure("bw_l2_side", set, 4);
	assert_int_equal(t->nrows, 6);
	for (size_t r = 0; r < t->nrows; r++)
		sided += side_row_ok(t, r);
	if (!sided)
		print_message("no L2 sides detected on this GPU: near and far are n/a, all lines measured\n");
	else
		assert_int_equal(sided, 4); /* near and far, all SMs and one: both sides measured */
	gp_table_free(t);
}

static void test_side_sass(void **state)
{
	char sm[16];

	NEED_GPU();
	NEED_CUOBJDUMP();
	snprintf(sm, sizeof sm, "sm_%d%d", dev.cc_major, dev.cc_minor);
	expect("l2map", sm, "l2side_stream", "LDG", "STRONG.GPU", L2SIDE_UNROLL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map_every_sm_every_line),
		cmocka_unit_test(test_side_bandwidth),
		cmocka_unit_test(test_side_sass),
		cmocka_unit_test(test_groups_far_above_near),
		cmocka_unit_test(test_map_sass),
		cmocka_unit_test(test_const_second_level),
	};

	return cmocka_run_group_tests_name("gpu_l2map", tests, gpu_setup, gpu_teardown);
}
