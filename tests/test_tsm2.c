/* test_tsm2.c — host tests of TSM2X's model and tiling (no GPU).
 *
 * The model (M401-M407) on fixed figures (the paper's V100 threshold, an H100-like device), the
 * parameter search on synthetic costs (minimum and tie-breaks), and a walk of the kernels' loops
 * (bench/tsm2.h maps, the same the kernels compile) over every block and thread on sizes that are
 * not tile multiples: each C element gets every l < k exactly once, only rows < m are stored, and
 * no load leaves A or B. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gp.h"
#include "tsm2.h"

static struct tsm2_hw h100(int elem)
{
	struct tsm2_hw hw = { .sms = 132, .regs_per_sm = 65536, .smem_per_sm = 233472, .max_threads_per_sm = 2048,
			      .max_blocks_per_sm = 32, .clock_hz = 1.98e9, .band_Bps = 3.35e12, .lat_mem_clk = 600,
			      .lat_comp_clk = 4, .lanes = elem == 8 ? 64 : 128 };
	hw.perf_flops = 2.0 * hw.lanes * hw.sms * hw.clock_hz;
	return hw;
}

static void test_threshold(void **state)
{
	struct tsm2_hw v100 = { .band_Bps = 900e9, .perf_flops = 7500e9 };
	struct tsm2_hw h = h100(4);

	assert_float_equal(tsm2_t2_threshold(&v100, 8), 66.667, 1e-3);  /* paper: V100 ~ 70 */
	v100.perf_flops = 1430e9, v100.band_Bps = 288e9;
	assert_float_equal(tsm2_t2_threshold(&v100, 8), 39.72, 1e-2);   /* paper: K40c ~ 40 */
	assert_float_equal(tsm2_t2_threshold(&h, 4), 66.90816e12 / 3.35e12 * 4, 1e-6); /* ~ 80 */
}

static void test_occupancy_and_util(void **state)
{
	const struct tsm2_hw hw = h100(8);

	/* regs 64, t1 128: threads 16 blocks, regs 65536 / 8192 = 8, smem 233472 / 17408 = 13 */
	assert_int_equal(tsm2_occupancy(&hw, 64, 128, 16, 8), 1024);
	/* regs 61 rounds to 64 */
	assert_int_equal(tsm2_occupancy(&hw, 61, 128, 16, 8), 1024);
	/* regs 32: regs allow 16, threads 16, smem 13 -> 13 blocks */
	assert_int_equal(tsm2_occupancy(&hw, 32, 128, 16, 8), 13 * 128);
	assert_int_equal(tsm2_occupancy(&hw, 300, 256, 2, 4), 0);
	assert_float_equal(tsm2_regs_model(16, 16, 8, 24), (48 + 32) * 2 + 24, 1e-12);
	/* Little's law: 3.35e12 / (132 x 1.98e9) = 12.818 B / clk / SM; x 600 clk = 7690.9 B */
	assert_float_equal(tsm2_util_mem(&hw, 1024, 16, 8), 1024.0 * 16 * 8 / (600 * 3.35e12 / (132 * 1.98e9)), 1e-9);
	assert_float_equal(tsm2_util_mem(&hw, 1024, 16, 8), 17.04, 0.01);
	/* 256 FMAs in flight needed (4 clk x 64 lanes) */
	assert_float_equal(tsm2_util_comp(&hw, 128, 2, 1), 1.0, 1e-12);
}

static void test_model_time(void **state)
{
	const struct tsm2_hw hw = h100(8);
	const double m = 20480, k = 20480;
	/* saturated memory: time = m k ceil(n / t2) 8 / band */
	const double t16 = tsm2_model_time(&hw, m, k, 16, 128, 16, 16, 8, 64);
	assert_float_equal(t16, m * k * 8 / 3.35e12, 1e-12);
	assert_float_equal(tsm2_model_time(&hw, m, k, 16, 128, 8, 16, 8, 64), 2 * t16, 1e-12);
	/* one A element in flight per thread at low occupancy: memory under-used, slower */
	assert_true(tsm2_model_time(&hw, m, k, 16, 128, 16, 1, 8, 255) > t16);
	/* n = 128 > threshold (~40 in double at 33.8 TFLOP/s / 3.35 TB/s x 8): compute branch at t2 >= threshold */
	assert_true(tsm2_t2_threshold(&hw, 8) < 128);
}

static double synth(void *ctx, int t1, int t2, int t3)
{
	const int *mode = ctx;
	if (*mode == 1)
		return 5.0; /* all equal: tie-breaks decide */
	if (*mode == 2)
		return t2 == 4 ? NAN : 1.0 / t2; /* NaN skipped */
	return (t2 - 8.0) * (t2 - 8.0) + (t3 - 4.0) * (t3 - 4.0) + t1 / 1000.0;
}

static void test_argmin(void **state)
{
	const int t1s[] = { 64, 128, 256, 0 }, t2s[] = { 2, 4, 8, 16, 0 }, t3s[] = { 2, 4, 8, 0 }, none[] = { 0 };
	struct tsm2_choice c;
	int mode = 0;

	assert_int_equal(tsm2_argmin(t1s, t2s, t3s, synth, &mode, &c), 0);
	assert_int_equal(c.t1, 64);
	assert_int_equal(c.t2, 8);
	assert_int_equal(c.t3, 4);
	assert_float_equal(c.cost, 0.064, 1e-12);
	mode = 1;
	assert_int_equal(tsm2_argmin(t1s, t2s, t3s, synth, &mode, &c), 0);
	assert_int_equal(c.t2, 16);
	assert_int_equal(c.t3, 2);
	assert_int_equal(c.t1, 64);
	mode = 2;
	assert_int_equal(tsm2_argmin(t1s, t2s, t3s, synth, &mode, &c), 0);
	assert_int_equal(c.t2, 16);
	assert_int_equal(tsm2_argmin(none, t2s, t3s, synth, &mode, &c), -1);
}

static void test_model_choose(void **state)
{
	const struct tsm2_hw hw = h100(8);
	struct tsm2_choice c;

	/* memory-bound, n = 16: one pass over A (t2 = n), t3 the smallest that saturates */
	assert_int_equal(tsm2_model_choose(&hw, 20480, 20480, 16, 128, 8, &c), 0);
	assert_int_equal(c.t2, 16);
	assert_int_equal(c.t1, 128);
	assert_true(c.t3 >= 4);
	assert_int_equal(tsm2_model_choose(&hw, 20480, 20480, 2, 128, 8, &c), 0);
	assert_int_equal(c.t2, 2);
	/* n = 1: no compiled t2 <= n, falls back to 2 */
	assert_int_equal(tsm2_model_choose(&hw, 20480, 20480, 1, 128, 4, &c), 0);
	assert_int_equal(c.t2, 2);
}

static void test_names_and_support(void **state)
{
	char name[64], why[128];
	enum tsm2_kind k;

	assert_int_equal(tsm2_kernel_name(TSM2_V3, 8, 16, 12, name, sizeof name), -1);
	assert_int_equal(tsm2_kernel_name(TSM2_V3, 8, 16, 16, name, sizeof name), 0);
	assert_string_equal(name, "tsm2_v3_d_t2_16_t3_16");
	assert_int_equal(tsm2_kernel_name(TSM2_V3, 8, 32, 32, name, sizeof name), -1);
	assert_int_equal(tsm2_kernel_name(TSM2_V3, 4, 32, 32, name, sizeof name), 0);
	assert_int_equal(tsm2_kernel_name(TSM2_V1, 4, 8, 0, name, sizeof name), 0);
	assert_string_equal(name, "tsm2_v1_f_t2_8");
	assert_int_equal(tsm2_kernel_name(TSM2_L2, 4, 4, 2, name, sizeof name), 0);
	assert_string_equal(name, "tsm2_l2_f_t2_4_t3_2");
	assert_int_equal(tsm2_kind_parse("l1", &k), 0);
	assert_int_equal(k, TSM2_L1);
	assert_int_equal(tsm2_supports(TSM2_V3, 4, 100, 100, 4, 96, 3, 4, 1, why, sizeof why), -1); /* t2 = 3 not compiled */
	assert_int_equal(tsm2_supports(TSM2_V3, 4, 100, 100, 4, 100, 4, 4, 1, why, sizeof why), -1);
	assert_int_equal(tsm2_supports(TSM2_V3, 4, 100, 100, 4, 128, 4, 4, 1, why, sizeof why), 0);
	assert_int_equal(tsm2_supports(TSM2_L1, 4, 100, 4, 4, 128, 4, 4, 0, why, sizeof why), -1);
	assert_int_equal(tsm2_smem_bytes(TSM2_V3, 128, 16, 8), 16384);
	assert_int_equal(tsm2_smem_bytes(TSM2_V1, 128, 16, 8), 0);
	assert_int_equal(tsm2_blocks(10000, 128, 1), 79);
	assert_int_equal(tsm2_blocks(10000, 128, 8), 10);
	assert_int_equal(tsm2_blocks(10000, 0, 1), 0); /* cuBLAS rows: no block size, no division */
	assert_float_equal(tsm2_gflops(20480, 20480, 16, 1.0), 2.0 * 20480 * 20480 * 16 / 1e-3 / 1e9, 1e-6);
	assert_float_equal(tsm2_bytes(10, 20, 2, 8), (200 + 40 + 20) * 8, 1e-12);
}

/* The V3 / Opt1 / Opt2 loop structure on the host: counts[row * n + col] += 1 for every (l, c) a
 * thread multiplies with both A and B entries inside the matrices. */
static void walk(int kind, int m, int k, int n, int t1, int t2, int t3, int tcf)
{
	int *cnt = calloc((size_t)m * n, sizeof *cnt), *stores = calloc((size_t)m * n, sizeof *stores);
	const int grid = tsm2_blocks(m, t1, kind ? tcf : 1);

	assert_non_null(cnt);
	for (int b = 0; b < grid; b++)
		for (long rb = (long)b * t1; rb < m; rb += kind ? (long)grid * t1 : m + 1)
			for (int tid = 0; tid < t1; tid++) {
				const int row = (int)rb + tid, lr = tsm2_load_row(row, m);
				assert_true(lr >= 0 && lr < m);
				for (int p = 0; p < n; p += t2)
					for (int j = 0; j < k; j += t1) {
						const int end = tsm2_tile_end(j, t1, k);
						assert_true(end - j <= t1);
						for (int l = j; l < end; l += t3)
							for (int i = 0; i < t3; i++) {
								assert_true(l - j + i < t1); /* sB index inside the tile */
								for (int c = 0; c < t2; c++)
									if (l + i < k && p + c < n && row < m)
										cnt[(size_t)row * n + p + c]++;
							}
						if (j + t1 >= k)
							for (int c = 0; c < t2; c++)
								if (row < m && p + c < n)
									stores[(size_t)row * n + p + c]++;
					}
			}
	for (size_t i = 0; i < (size_t)m * n; i++) {
		assert_int_equal(cnt[i], k);
		assert_int_equal(stores[i], 1);
	}
	free(cnt);
	free(stores);
}

static void test_tiling_coverage(void **state)
{
	walk(0, 100, 37, 5, 32, 4, 8, 1);
	walk(0, 257, 300, 16, 128, 16, 16, 1);
	walk(0, 64, 64, 2, 64, 2, 32, 1);
	walk(0, 129, 1, 3, 32, 2, 4, 1);
	walk(1, 1000, 8, 8, 64, 8, 8, 4);
	walk(1, 999, 3, 3, 32, 2, 2, 7);
	walk(1, 5000, 16, 16, 128, 16, 16, 64);
}

static void test_hash(void **state)
{
	double lo = 1, hi = -1;
	for (uint64_t i = 0; i < 100000; i++) {
		const double v = tsm2_uniform(42, i);
		assert_true(v >= -1 && v < 1);
		assert_true((double)(float)v == v); /* exact in float */
		lo = fmin(lo, v), hi = fmax(hi, v);
	}
	assert_true(lo < -0.99 && hi > 0.99);
	assert_true(tsm2_uniform(42, 7) != tsm2_uniform(43, 7));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threshold),   cmocka_unit_test(test_occupancy_and_util),
		cmocka_unit_test(test_model_time),  cmocka_unit_test(test_argmin),
		cmocka_unit_test(test_model_choose), cmocka_unit_test(test_names_and_support),
		cmocka_unit_test(test_tiling_coverage), cmocka_unit_test(test_hash),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
