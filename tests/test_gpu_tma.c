/* test_gpu_tma.c — GPU tests of the asynchronous-copy probes (skipped, and counted as skipped,
 * where there is no GPU or no cuobjdump).
 *
 * Each experiment runs a short sweep through the harness: every row ok (every word of every copy
 * checked in the kernel, rates under their ceilings) on compute capability 9.0 for TMA and 8.0
 * for cp.async, n/a below; a copy from HBM takes longer than one from L2; a 16 KB box streams
 * faster than a 1 KB one; L2 feeds cp.async faster than HBM. The SASS test asserts that each
 * kernel holds the instruction it claims to time: UBLKCP (cp.async.bulk), UTMALDG
 * (cp.async.bulk.tensor; .MULTICAST in bw_tma_mc's), SYNCS (mbarrier), LDGSTS (cp.async), LDG +
 * STS. bw_tma_mc: every rank's copy checked, read and landed rates under their ceilings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gp.h"
#include "experiment.h"
#include "suite.h"
#include "tma_shape.h"

#include "gpu_test.h"
#include "sass_listing.h"

/* The row whose cells equal the pairs (a NULL column ends them); fails if none. */
static size_t row_of(const struct gp_table *t, const char *c1, const char *v1, const char *c2, const char *v2,
		     const char *c3, const char *v3)
{
	const long r = gp_table_find(t, 0, c1, v1, c2, v2, c3, v3, (const char *)NULL);

	assert_true(r >= 0);
	return (size_t)r;
}

/* ok where the GPU has the instruction, n/a where it has not (or the point cannot be formed). */
static void rows_ok_or_na(const struct gp_table *t, int have)
{
	for (size_t r = 0; r < t->nrows; r++) {
		const char *s = gp_table_get(t, r, "status");
		assert_true(have ? !strcmp(s, "ok") || !strncmp(s, "n/a", 3) : !strncmp(s, "n/a", 3));
	}
}

static void test_lat_tma(void **state)
{
	static const char *const set[] = { "copy", "bulk 1d 2d 5d", "box_bytes", "128 4096", "level", "l2 hbm", "steps", "64" };
	const char *const copies[] = { "bulk", "2d", "5d" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("lat_tma", set, 8);
	rows_ok_or_na(t, dev.cc_major >= 9);
	if (dev.cc_major >= 9) {
		/* 1-d at 4 KB is n/a (a 1-d box holds 256 elements); every other row measured. */
		assert_true(!strncmp(gp_table_get(t, row_of(t, "copy", "1d", "box_bytes", "4096", "level", "l2"), "status"),
				     "n/a", 3));
		for (size_t i = 0; i < 3; i++) {
			const size_t l2 = row_of(t, "copy", copies[i], "box_bytes", "4096", "level", "l2");
			const size_t hbm = row_of(t, "copy", copies[i], "box_bytes", "4096", "level", "hbm");
			print_message("%-4s 4 KB: L2 %.0f, HBM %.0f cycles\n", copies[i], cell(t, l2, "cycles_per_copy"),
				      cell(t, hbm, "cycles_per_copy"));
			assert_string_equal(gp_table_get(t, l2, "status"), "ok");
			assert_true(cell(t, hbm, "cycles_per_copy") > cell(t, l2, "cycles_per_copy"));
			assert_true(cell(t, l2, "fastest_copy_cycles") >= cell(t, l2, "floor_cycles"));
		}
	}
	gp_table_free(t);
}

static void test_bw_tma(void **state)
{
	static const char *const set[] = { "copy", "bulk 2d", "box_bytes", "1024 16384", "stages", "4",
					   "blocks_per_sm", "2", "bytes", "268435456" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("bw_tma", set, 10);
	rows_ok_or_na(t, dev.cc_major >= 9);
	if (dev.cc_major >= 9)
		for (size_t i = 0; i < 2; i++) {
			const char *copy = i ? "2d" : "bulk";
			const size_t lo = row_of(t, "copy", copy, "box_bytes", "1024", NULL, NULL);
			const size_t hi = row_of(t, "copy", copy, "box_bytes", "16384", NULL, NULL);
			print_message("%-4s 1 KB %.0f GB/s, 16 KB %.0f GB/s (ceiling %.0f)\n", copy,
				      cell(t, lo, "bandwidth_GBps"), cell(t, hi, "bandwidth_GBps"), cell(t, hi, "ceiling_GBps"));
			assert_string_equal(gp_table_get(t, hi, "status"), "ok");
			assert_true(cell(t, hi, "bandwidth_GBps") > cell(t, lo, "bandwidth_GBps"));
			assert_true(cell(t, hi, "bandwidth_GBps") > 0.4 * cell(t, hi, "ceiling_GBps"));
		}
	gp_table_free(t);
}

/* Multicast to every rank of a cluster: every rank's copy checked in the kernel (a rank that
 * missed a box leaves words unchecked and fails its row), the read rate under the HBM ceiling,
 * the landed rate (cluster x the read one) under 128 B/clk/SM. n/a off compute capability 9.0. */
static void test_bw_tma_mc(void **state)
{
	static const char *const set[] = { "copy", "2d 5d", "box_bytes", "4096 16384", "cluster", "2 4",
					   "bytes", "268435456" };
	struct gp_table *t;
	const int hopper = dev.cc_major == 9 && dev.cc_minor == 0;

	NEED_GPU();
	t = measure("bw_tma_mc", set, 8);
	assert_int_equal(t->nrows, 8);
	for (size_t r = 0; r < t->nrows; r++) {
		const double c = cell(t, r, "cluster"), read = cell(t, r, "bandwidth_GBps"), land = cell(t, r, "landed_GBps");
		if (!hopper) {
			assert_true(!strncmp(gp_table_get(t, r, "status"), "n/a", 3));
			continue;
		}
		print_message("%s %5s B cluster %.0f: read %.0f GB/s (%.1f %% of %.0f), landed %.0f GB/s (%.1f %% of %.0f) at %s MHz\n",
			      gp_table_get(t, r, "copy"), gp_table_get(t, r, "box_bytes"), c, read,
			      cell(t, r, "pct_of_ceiling"), cell(t, r, "ceiling_GBps"), land,
			      cell(t, r, "landed_pct_of_ceiling"), cell(t, r, "landed_ceiling_GBps"),
			      gp_table_get(t, r, "clock_MHz"));
		assert_string_equal(gp_table_get(t, r, "status"), "ok");
		assert_string_equal(gp_table_get(t, r, "level"), "hbm");
		assert_true(fabs(cell(t, r, "bytes_landed") / (c * cell(t, r, "bytes_read")) - 1) < 1e-4);
		assert_true(read > 0 && read <= 1.02 * cell(t, r, "ceiling_GBps"));
		assert_true(land > 1.9 * read && land <= 1.02 * cell(t, r, "landed_ceiling_GBps"));
		assert_true(cell(t, r, "clusters") >= 1 && cell(t, r, "blocks") == c * cell(t, r, "clusters"));
	}
	gp_table_free(t);
}

static void test_bw_cpasync(void **state)
{
	static const char *const set[] = { "level", "hbm l2", "stages", "1 4", "blocks_per_sm", "2", "bytes", "268435456" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("bw_cpasync", set, 8);
	for (size_t r = 0; r < t->nrows; r++) {
		const char *s = gp_table_get(t, r, "status"), *m = gp_table_get(t, r, "method");
		print_message("%-13s %-3s stages %s: %s GB/s %s\n", m, gp_table_get(t, r, "level"),
			      gp_table_get(t, r, "stages"), gp_table_get(t, r, "bandwidth_GBps"), s);
		/* ld + st rows only at stages 1; cp.async rows n/a below compute capability 8.0. */
		if (!strncmp(m, "ldg", 3))
			assert_string_equal(gp_table_get(t, r, "stages"), "1");
		if (!strncmp(m, "ldg", 3) || dev.cc_major >= 8)
			assert_string_equal(s, "ok");
		else
			assert_true(!strncmp(s, "n/a", 3));
	}
	if (dev.cc_major >= 8)
		assert_true(cell(t, row_of(t, "method", "cpasync16_cg", "level", "l2", "stages", "4"), "bandwidth_GBps") >
			    cell(t, row_of(t, "method", "cpasync16_cg", "level", "hbm", "stages", "4"), "bandwidth_GBps"));
	gp_table_free(t);
}

/* ---------------------------------------------------------------- SASS */

/* bw_tma_mc's kernel of a tensor copy (sm_90a): its UTMALDG all multicast (.MULTICAST), and its
 * mbarrier traffic (init, expect_tx, waits, the remote arrive). */
static void expect_mc(const char *name, int rank)
{
	char kname[64], path[512];
	struct sass_kernel k;
	size_t n = 0;

	if (!rank)
		return; /* cp.async.bulk is not multicast here */
	snprintf(kname, sizeof kname, "tma_mc_%s", name);
	expect("tma_mc_90a", "sm_90a", kname, "UTMALDG", NULL, 1);
	expect("tma_mc_90a", "sm_90a", kname, "SYNCS", NULL, 3);
	fatbin_path(path, sizeof path, "tma_mc_90a");
	assert_int_equal(sass_read(path, "sm_90a", kname, &k), 0);
	for (size_t i = 0; i < k.n; i++)
		if (!strncmp(k.ops[i], "UTMALDG", 7)) {
			print_message("%s: %s", kname, k.lines[i]);
			n += strstr(k.ops[i], ".MULTICAST") != NULL;
		}
	if (n == 0 || n != count_op(&k, "UTMALDG", NULL))
		fail_msg("%s: %zu of %zu UTMALDG carry .MULTICAST", kname, n, count_op(&k, "UTMALDG", NULL));
	kernel_free(&k);
}

static void test_sass(void **state)
{
	char kname[64];

	NEED_GPU();
	NEED_CUOBJDUMP();
	if (dev.cc_major != 9 || dev.cc_minor != 0) {
		print_message("skipped: the TMA kernels' SASS is checked for sm_90\n");
		skip();
	}
	/* One copy per timed step (each kernel's loop holds one), and its mbarrier traffic. */
#define EXPECT_TMA(name, rank)                                                                      \
	snprintf(kname, sizeof kname, "tma_lat_%s", #name);                                         \
	expect("tma", "sm_90", kname, (rank) ? "UTMALDG" : "UBLKCP", NULL, 1);                      \
	expect("tma", "sm_90", kname, "SYNCS", NULL, 2);                                            \
	snprintf(kname, sizeof kname, "tma_bw_%s", #name);                                          \
	expect("tma", "sm_90", kname, (rank) ? "UTMALDG" : "UBLKCP", NULL, 1);                      \
	expect("tma", "sm_90", kname, "SYNCS", NULL, 3);
	TMA_COPIES(EXPECT_TMA)
#undef EXPECT_TMA
	/* CPA_VEC copies per thread per stage, unrolled. */
#define EXPECT_CPA(name, w, async, cg, ptx)                                                         \
	snprintf(kname, sizeof kname, "cpa_%s", #name);                                             \
	expect("tma", "sm_90", kname, (async) ? "LDGSTS" : "LDG", NULL, CPA_VEC);                   \
	if (!(async))                                                                               \
		expect("tma", "sm_90", kname, "STS", NULL, CPA_VEC);
	CPA_METHODS(EXPECT_CPA)
#undef EXPECT_CPA
#define EXPECT_MC(name, rank) expect_mc(#name, rank);
	TMA_COPIES(EXPECT_MC)
#undef EXPECT_MC
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lat_tma),
		cmocka_unit_test(test_bw_tma),
		cmocka_unit_test(test_bw_tma_mc),
		cmocka_unit_test(test_bw_cpasync),
		cmocka_unit_test(test_sass),
	};

	return cmocka_run_group_tests(tests, gpu_setup, gpu_teardown);
}
