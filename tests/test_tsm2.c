/* test_tsm2.c — host tests of TSM2X's model, tiling and instance grid (no GPU): the model on
 * fixed figures, the search on synthetic costs, a walk of the kernels' loops (bench/tsm2.h maps)
 * over every block and thread on sizes that are not tile multiples (every l < k once per C
 * element, only rows < m stored, no load outside A or B; V4 over its slices, their count held to
 * TSM2_KSPLIT_WAVES waves and the B tiles), and the grid list against the embedded images. */
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
#include "tsm2.h"
#include "tsm2_bench.h"
#include "tsm2_model.h"

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
	const double t16 = tsm2_model_time(&hw, m, k, 16, 128, 16, 16, 8, 64, m);
	assert_float_equal(t16, m * k * 8 / 3.35e12, 1e-12);
	assert_float_equal(tsm2_model_time(&hw, m, k, 16, 128, 8, 16, 8, 64, m), 2 * t16, 1e-12);
	/* one A element in flight per thread at low occupancy: memory under-used, slower */
	assert_true(tsm2_model_time(&hw, m, k, 16, 128, 16, 1, 8, 255, m) > t16);
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
	assert_int_equal(tsm2_kind_parse("v4", &k), 0);
	assert_int_equal(k, TSM2_V4);
	assert_string_equal(tsm2_kind_name(TSM2_CUBLAS), "cublas");
	assert_int_equal(tsm2_kernel_name(TSM2_V4, 4, 16, 16, name, sizeof name), 0);
	assert_string_equal(name, "tsm2_v4_f_t2_16_t3_16");
	assert_int_equal(tsm2_kernel_name(TSM2_V4, 8, 32, 8, name, sizeof name), 0);
	assert_int_equal(tsm2_kernel_name(TSM2_V4, 4, 32, 16, name, sizeof name), -1); /* V3 has it, V4 not */
	assert_int_equal(tsm2_kernel_name(TSM2_V4, 4, 8, 32, name, sizeof name), -1);
	assert_int_equal(tsm2_supports(TSM2_V4, 4, 100, 100, 4, 128, 4, 4, 1, why, sizeof why), 0);
	assert_int_equal(tsm2_supports(TSM2_V4, 4, 100, 100, 4, 100, 4, 16, 1, why, sizeof why), -1); /* t1 % 32 */
	assert_int_equal(tsm2_supports(TSM2_V4, 8, 100, 100, 2, 128, 16, 4, 1, why, sizeof why), -1); /* t2 > 2 n */
	assert_int_equal(tsm2_smem_bytes(TSM2_V4, 128, 16, 16, 4), 8192);
	/* V5: V4 with 16-byte B reads, t3 a multiple of the vector (4 floats, 2 doubles) */
	assert_int_equal(tsm2_kind_parse("v5", &k), 0);
	assert_int_equal(k, TSM2_V5);
	assert_true(tsm2_splits_k(TSM2_V4) && tsm2_splits_k(TSM2_V5) && !tsm2_splits_k(TSM2_V3));
	assert_int_equal(tsm2_kernel_name(TSM2_V5, 8, 16, 8, name, sizeof name), 0);
	assert_string_equal(name, "tsm2_v5_d_t2_16_t3_8");
	assert_int_equal(tsm2_kernel_name(TSM2_V5, 8, 16, 16, name, sizeof name), -1);
	assert_int_equal(tsm2_rows_per_thread(TSM2_V5, 1, 4), TSM2_V5_ROWS);
	assert_int_equal(tsm2_rows_per_thread(TSM2_V4, 1, 8), 1);
	assert_int_equal(tsm2_rows_per_thread(TSM2_L1, 8, 4), 8);
	assert_int_equal(tsm2_kernel_name(TSM2_V5, 4, 32, 16, name, sizeof name), -1); /* n <= 16 only */
	assert_int_equal(tsm2_kernel_name(TSM2_V5, 4, 16, 4, name, sizeof name), -1);
	assert_int_equal(tsm2_supports(TSM2_V5, 4, 100, 100, 16, 128, 16, 16, 1, why, sizeof why), 0);
	assert_int_equal(tsm2_supports(TSM2_V5, 8, 100, 100, 4, 80, 4, 16, 1, why, sizeof why), -1); /* t1 % 32 */
	assert_int_equal(tsm2_supports(TSM2_V5, 8, 100, 100, 4, 32, 4, 8, 1, why, sizeof why), 0);
	/* V5: the B tile and the ring of A chunks (TSM2_V5_STAGES x rows x t3 x t1) */
	assert_int_equal(tsm2_smem_bytes(TSM2_V5, 128, 16, 8, 8), 16384 + TSM2_V5_STAGES * TSM2_V5_ROWS * 8 * 128 * 8);
	/* bytes in flight: V4 one chunk a thread, V5 TSM2_V5_STAGES - 1 a row (two rows) */
	assert_float_equal(tsm2_inflight_bytes(TSM2_V4, 4, 128, 16, 4), 4 * 128 * 16 * 4, 0);
	assert_float_equal(tsm2_inflight_bytes(TSM2_V5, 3, 128, 8, 4), 3 * 128 * TSM2_V5_ROWS * 8 * 4 * (TSM2_V5_STAGES - 1), 0);
	/* V6: 16 bytes of rows a thread (four floats, two doubles), its own ring and slice rule */
	assert_int_equal(tsm2_kind_parse("v6", &k), 0);
	assert_int_equal(k, TSM2_V6);
	assert_string_equal(tsm2_kind_name(TSM2_V6), "v6");
	assert_true(tsm2_splits_k(TSM2_V6));
	assert_int_equal(tsm2_rows_per_thread(TSM2_V6, 1, 4), 4);
	assert_int_equal(tsm2_rows_per_thread(TSM2_V6, 1, 8), 2);
	assert_int_equal(tsm2_kernel_name(TSM2_V6, 4, 16, 4, name, sizeof name), 0);
	assert_string_equal(name, "tsm2_v6_f_t2_16_t3_4");
	assert_int_equal(tsm2_kernel_name(TSM2_V6, 8, 16, 2, name, sizeof name), 0);
	assert_string_equal(name, "tsm2_v6_d_t2_16_t3_2");
	assert_int_equal(tsm2_kernel_name(TSM2_V6, 8, 16, 4, name, sizeof name), -1); /* double: t3 2 only */
	assert_int_equal(tsm2_supports(TSM2_V6, 4, 100, 100, 16, 128, 16, 4, 1, why, sizeof why), 0);
	assert_int_equal(tsm2_supports(TSM2_V6, 8, 100, 100, 16, 128, 16, 2, 1, why, sizeof why), 0);
	/* the B tile and the ring: TSM2_V6_STAGES chunks of t3 columns of 16 bytes a thread */
	assert_int_equal(tsm2_smem_bytes(TSM2_V6, 128, 16, 4, 4), 8192 + TSM2_V6_STAGES * 16 * 4 * 128);
	assert_int_equal(tsm2_smem_bytes(TSM2_V6, 128, 16, 2, 8), 16384 + TSM2_V6_STAGES * 16 * 2 * 128);
	assert_float_equal(tsm2_inflight_bytes(TSM2_V6, 4, 128, 4, 4), 4 * 128 * 4 * 4 * 4 * (TSM2_V6_STAGES - 1), 0);
	assert_float_equal(tsm2_inflight_bytes(TSM2_V6, 4, 128, 2, 8), 4 * 128 * 2 * 2 * 8 * (TSM2_V6_STAGES - 1), 0);
	assert_int_equal(tsm2_blocks(10240, 128, tsm2_rows_per_thread(TSM2_V6, 1, 4)), 20);
	assert_int_equal(tsm2_blocks(10240, 128, tsm2_rows_per_thread(TSM2_V6, 1, 8)), 40);
	/* slices: 2 waves rounded down (132 SMs x 4 blocks x 2 / 60 row blocks = 17.6 -> 17, slices
	 * of 1807 k), one wave where two would leave slices under TSM2_V6_MIN_SLICE (10240 / 52 =
	 * 197: 26), at most the runs of TSM2_V6_SLICE_UNIT k (320 / 16 = 20), at least 1; a given
	 * count as for V4 (clamped the same way); the other kinds unchanged */
	assert_int_equal(tsm2_ksplit_for(TSM2_V6, 0, 132, 4, 60, 30720, 128), 17);
	assert_int_equal(tsm2_ksplit_for(TSM2_V6, 0, 132, 4, 20, 10240, 128), 26);
	assert_int_equal(tsm2_ksplit_for(TSM2_V6, 0, 132, 4, 20, 320, 128), 20);
	assert_int_equal(tsm2_ksplit_for(TSM2_V6, 99, 132, 4, 20, 320, 128), 20);
	assert_int_equal(tsm2_slice_begin(1, 52, 10240, TSM2_V6_SLICE_UNIT), 192); /* 640 runs: 12 or 13 each */
	assert_int_equal(tsm2_ksplit_for(TSM2_V6, 0, 132, 4, 2000, 10240, 128), 1);
	assert_int_equal(tsm2_ksplit_for(TSM2_V6, 7, 132, 4, 20, 10240, 128), 7);
	assert_int_equal(tsm2_ksplit_for(TSM2_V5, 0, 132, 4, 20, 10240, 128), tsm2_ksplit_choose(0, 132, 4, 20, 10240, 128));


	assert_int_equal(tsm2_supports(TSM2_V3, 4, 100, 100, 4, 96, 3, 4, 1, why, sizeof why), -1); /* t2 = 3 not compiled */
	assert_int_equal(tsm2_supports(TSM2_V3, 4, 100, 100, 4, 100, 4, 4, 1, why, sizeof why), -1);
	assert_int_equal(tsm2_supports(TSM2_V3, 4, 100, 100, 4, 128, 4, 4, 1, why, sizeof why), 0);
	assert_int_equal(tsm2_supports(TSM2_L1, 4, 100, 4, 4, 128, 4, 4, 0, why, sizeof why), -1);
	assert_int_equal(tsm2_smem_bytes(TSM2_V3, 128, 16, 8, 8), 16384);
	assert_int_equal(tsm2_smem_bytes(TSM2_V1, 128, 16, 8, 8), 0);
	assert_int_equal(tsm2_blocks(10000, 128, 1), 79);
	assert_int_equal(tsm2_blocks(10000, 128, 8), 10);
	assert_int_equal(tsm2_blocks(10000, 0, 1), 0); /* cuBLAS rows: no block size, no division */
	assert_float_equal(tsm2_gflops(20480, 20480, 16, 1.0), 2.0 * 20480 * 20480 * 16 / 1e-3 / 1e9, 1e-6);
	assert_float_equal(tsm2_bytes(10, 20, 2, 8), (200 + 40 + 20) * 8, 1e-12);
}

extern const unsigned char gp_image_bench_tsm2_aux[];

/* A kernel symbol in an embedded fatbin (an ELF string, NUL terminated); the fatbin header gives
 * the image's size. */
static int in_image(const unsigned char *img, const char *name)
{
	uint32_t magic;
	uint16_t hsize;
	uint64_t size;

	memcpy(&magic, img, 4);
	memcpy(&hsize, img + 6, 2);
	memcpy(&size, img + 8, 8);
	assert_int_equal(magic, 0xba55ed50u);
	return memmem(img, hsize + size, name, strlen(name) + 1) != NULL;
}

/* The one list (bench/tsm2.list) and the images agree: every entry's kernel is in the image the
 * bench loads it from (tsm2_image) and in no other, and a (t2, t3) the grid leaves out is in none
 * (V4's left-out corners among them). */
static void test_instances_in_image(void **state)
{
	static const int pow2[] = { 0, 1, 2, 4, 8, 16, 32, 64 };
	const unsigned char *distinct[32];
	size_t nd = 0;
	int v4 = 0, v5 = 0, v6 = 0, entries = 0;

	for (; tsm2_image(entries); entries++) {
		size_t d = 0;
		while (d < nd && distinct[d] != tsm2_image(entries))
			d++;
		if (d == nd && nd + 1 < GP_ARRAY_SIZE(distinct))
			distinct[nd++] = tsm2_image(entries);
	}
	distinct[nd++] = gp_image_bench_tsm2_aux;
	for (int e = 4; e <= 8; e += 4)
		for (int kind = TSM2_V0; kind <= TSM2_L2; kind++)
			for (size_t a = 0; a < GP_ARRAY_SIZE(pow2); a++)
				for (size_t b = 0; b < GP_ARRAY_SIZE(pow2); b++) {
					const int i = tsm2_instance(kind, e, pow2[a], pow2[b]);
					char name[64], want[64];
					snprintf(want, sizeof want, "tsm2_%s_%c_t2_%d_t3_%d", tsm2_kind_name(kind),
						 e == 8 ? 'd' : 'f', pow2[a], pow2[b]);
					assert_int_equal(tsm2_kernel_name(kind, e, pow2[a], pow2[b], name, sizeof name),
							 i >= 0 ? 0 : -1);
					if (i < 0)
						snprintf(name, sizeof name, "%s", want);
					else if (kind > TSM2_V1)
						assert_string_equal(name, want);
					for (size_t g = 0; g < nd; g++)
						if (in_image(distinct[g], name) != (i >= 0 && distinct[g] == tsm2_image(i)))
							fail_msg("%s: grid entry %d, image %zu has it: %d", name, i, g, !(i >= 0));
				}
	for (int e = 4; e <= 8; e += 4)
		for (size_t a = 1; a < GP_ARRAY_SIZE(pow2); a++)
			for (size_t b = 1; b < GP_ARRAY_SIZE(pow2); b++)
				v4 += tsm2_instance(TSM2_V4, e, pow2[a], pow2[b]) >= 0,
				v5 += tsm2_instance(TSM2_V5, e, pow2[a], pow2[b]) >= 0,
				v6 += tsm2_instance(TSM2_V6, e, pow2[a], pow2[b]) >= 0;
	assert_int_equal(entries, 182);
	assert_int_equal(nd, 15); /* 14 images of the grid and the auxiliary one */
	assert_int_equal(v4, 28); /* 14 (t2, t3) per precision */
	assert_int_equal(v5, 15); /* t2 2..16 x t3 8, 16 per precision, double without 16 x 16 */
	assert_int_equal(v6, 8);  /* t2 2..16 x t3 4 (float), 2 (double) */
}

/* The candidate axes come from the list: V3's compiled t2 and t3, ascending. */
static void test_axes(void **state)
{
	int t2[8], t3[8], small[2];

	tsm2_axis(TSM2_V3, 8, 0, t2, GP_ARRAY_SIZE(t2));
	tsm2_axis(TSM2_V3, 8, 1, t3, GP_ARRAY_SIZE(t3));
	assert_memory_equal(t2, ((const int[]){ 2, 4, 8, 16, 32, 0 }), 6 * sizeof(int));
	assert_memory_equal(t3, ((const int[]){ 4, 8, 16, 32, 0 }), 5 * sizeof(int));
	tsm2_axis(TSM2_L1, 4, 1, t3, GP_ARRAY_SIZE(t3));
	assert_memory_equal(t3, ((const int[]){ 2, 4, 8, 16, 0 }), 5 * sizeof(int));
	tsm2_axis(TSM2_V3, 4, 0, small, GP_ARRAY_SIZE(small)); /* cut to fit, still terminated */
	assert_int_equal(small[0], 2);
	assert_int_equal(small[1], 0);
}

/* M403 with the grid. The H100 measured V3 float (t2 = t3 = 16, 128 registers, 512 threads/SM)
 * at 33 % of the HBM read rate at m = 10240 and 80 % at 30720; capacity alone predicted 100 % for
 * both. 10240 rows are 77.6 threads per SM: Little's law then says 4966 of the 7691 bytes in
 * flight that the bandwidth needs, 65 %. */
static void test_model_grid(void **state)
{
	const struct tsm2_hw hw = h100(4);
	const double need = 600 * 3.35e12 / (132 * 1.98e9), full = 10240.0 * 10240 * 4 / 3.35e12;
	const int cap = tsm2_occupancy(&hw, 128, 128, 16, 4);
	double t, ks7;

	assert_int_equal(cap, 512);
	assert_float_equal(tsm2_resident(&hw, cap, 10240), 10240.0 / 132, 1e-12);
	assert_float_equal(tsm2_resident(&hw, cap, 30720 * 3), 512, 1e-12); /* the grid exceeds capacity */
	assert_float_equal(tsm2_resident(&hw, 0, 10240), 0, 1e-12);
	t = tsm2_model_time(&hw, 10240, 10240, 16, 128, 16, 16, 4, 128, 10240);
	assert_float_equal(t, full / (10240.0 / 132 * 16 * 4 / need), 1e-12);
	assert_true(full / t < 0.7); /* not the 100 % the capacity-only model said */
	/* m = 30720: 232.7 threads per SM, 14894 bytes in flight: saturated */
	assert_float_equal(tsm2_model_time(&hw, 30720, 30720, 16, 128, 16, 16, 4, 128, 30720),
			   30720.0 * 30720 * 4 / 3.35e12, 1e-12);
	/* V4 at m = 10240 with 7 slices (one wave): 543 threads per SM, capped at 512 */
	ks7 = tsm2_model_time(&hw, 10240, 10240, 16, 128, 16, 16, 4, 128, 10240.0 * 7);
	assert_float_equal(ks7, full, 1e-12);
	/* compute utilisation falls with the grid too: 8 blocks per SM of capacity, 8 threads resident */
	assert_float_equal(tsm2_util_comp(&hw, tsm2_resident(&hw, 1024, 132 * 8), 32, 4), 8.0 * 32 * 4 / (4 * 128),
			   1e-12);
}

/* V4's slice count: the rule's arithmetic on H100 figures (132 SMs, 4 resident blocks of 128):
 * TSM2_KSPLIT_WAVES (4) waves of 528 blocks = 2112 blocks wanted. */
static void test_ksplit_choose(void **state)
{
	const int sms = 132, bps = 4;
	const long want = (long)TSM2_KSPLIT_WAVES * sms * bps;

	assert_int_equal(TSM2_KSPLIT_WAVES, 4);
	/* m = 10240: 80 row blocks: 27 slices (2160 blocks), 26 would leave 32 short of 2112 */
	assert_int_equal(tsm2_ksplit_choose(0, sms, bps, 80, 10240, 128), 27);
	assert_int_equal(tsm2_ksplit_choose(0, sms, bps, 240, 30720, 128), 9); /* m = 30720 */
	assert_int_equal(tsm2_ksplit_choose(0, sms, bps, 528, 67584, 128), 4); /* one wave of rows */
	assert_int_equal(tsm2_ksplit_choose(0, sms, bps, 2112, 270336, 128), 1); /* rows make 4 waves */
	assert_int_equal(tsm2_ksplit_choose(0, sms, bps, 3000, 384000, 128), 1);
	assert_int_equal(tsm2_ksplit_choose(0, sms, 0, 80, 10240, 128), 1);    /* nothing resident */
	/* never more slices than t1-long B tiles: k = 300 has 3, k = 1 has 1 */
	assert_int_equal(tsm2_ksplit_choose(0, sms, bps, 3, 300, 128), 3);
	assert_int_equal(tsm2_ksplit_choose(0, sms, bps, 3, 1, 128), 1);
	assert_int_equal(tsm2_ksplit_choose(0, sms, 16, 1, 1 << 24, 32), TSM2_KSPLIT_MAX);
	/* asked for: kept, or clamped to the tiles */
	assert_int_equal(tsm2_ksplit_choose(3, sms, bps, 80, 10240, 128), 3);
	assert_int_equal(tsm2_ksplit_choose(1, sms, bps, 1, 10240, 128), 1);
	assert_int_equal(tsm2_ksplit_choose(1000, sms, bps, 80, 10240, 128), 80);
	assert_int_equal(tsm2_ksplit_choose(3, sms, bps, 3, 47, 64), 1);
	/* the rule over a range: the fewest slices that make the waves, unless the tiles run out */
	for (int rb = 1; rb <= 3000; rb += 7)
		for (int k = 1; k <= 5000; k += 331) {
			const int ks = tsm2_ksplit_choose(0, sms, bps, rb, k, 128), tiles = tsm2_k_tiles(k, 128);
			assert_true(ks >= 1 && ks <= tiles);
			if (ks < tiles)
				assert_true((long)rb * ks >= want);
			if (ks > 1)
				assert_true((long)rb * (ks - 1) < want);
		}
}

/* Slices: whole tiles, each non-empty, sizes within one tile of each other, covering [0, k). */
static void test_slices(void **state)
{
	static const int ks_[] = { 1, 2, 3, 7, 64, 80 }, k_[] = { 1, 31, 128, 129, 1000, 10240 };
	static const int t1_[] = { 32, 128, 1024 };

	for (size_t a = 0; a < GP_ARRAY_SIZE(k_); a++)
		for (size_t b = 0; b < GP_ARRAY_SIZE(t1_); b++)
			for (size_t c = 0; c < GP_ARRAY_SIZE(ks_); c++) {
				const int k = k_[a], t1 = t1_[b], tiles = tsm2_k_tiles(k, t1);
				const int ks = ks_[c] < tiles ? ks_[c] : tiles;
				int lo = k, hi = 0;
				assert_int_equal(tsm2_slice_begin(0, ks, k, t1), 0);
				assert_int_equal(tsm2_slice_begin(ks, ks, k, t1), k);
				for (int s = 0; s < ks; s++) {
					const int k0 = tsm2_slice_begin(s, ks, k, t1);
					const int k1 = tsm2_slice_begin(s + 1, ks, k, t1);
					assert_true(k1 > k0);
					assert_int_equal(k0 % t1, 0);
					assert_true(k1 == k || k1 % t1 == 0);
					if (k1 < k) {
						lo = k1 - k0 < lo ? k1 - k0 : lo;
						hi = k1 - k0 > hi ? k1 - k0 : hi;
					}
				}
				assert_true(hi == 0 || hi - lo <= t1);
			}
	assert_int_equal(tsm2_k_tiles(10240, 128), 80);
	assert_int_equal(tsm2_k_tiles(10241, 128), 81);
	assert_int_equal(tsm2_k_tiles(0, 128), 1);
	/* 10 tiles in 4 slices: 2, 3, 2, 3 (floor(s x 10 / 4)) */
	assert_int_equal(tsm2_slice_begin(1, 4, 1280, 128), 256);
	assert_int_equal(tsm2_slice_begin(2, 4, 1280, 128), 640);
	assert_int_equal(tsm2_slice_begin(3, 4, 1280, 128), 896);
}

/* The V3 / Opt1 / Opt2 / V4 loop structure on the host: counts[row * n + col] += 1 for every
 * (l, c) a thread multiplies with both A and B entries inside the matrices. kind 0: V3, 1: TSM2L
 * (tcf), 2: V4 over ks slices (blockIdx.y), each run as V3 on a k1 - k0 column problem whose A and
 * B start at k0, partial sums added: every C element must get one add per slice (C is zeroed
 * first, so a row left out would read 0 against cuBLAS). */
static void walk(int kind, int m, int k, int n, int t1, int t2, int t3, int tcf, int ks)
{
	int *cnt = calloc((size_t)m * n, sizeof *cnt), *stores = calloc((size_t)m * n, sizeof *stores);
	const int grid = tsm2_blocks(m, t1, kind == 1 ? tcf : 1), slices = kind == 2 ? ks : 1;

	assert_non_null(cnt);
	for (int y = 0; y < slices; y++) {
		const int k0 = kind == 2 ? tsm2_slice_begin(y, ks, k, t1) : 0;
		const int len = (kind == 2 ? tsm2_slice_begin(y + 1, ks, k, t1) : k) - k0; /* the panel's k */
		assert_true(len > 0); /* the kernel's empty-slice return never fires on the host's ks */
		for (int b = 0; b < grid; b++)
			for (long rb = (long)b * t1; rb < m; rb += kind == 1 ? (long)grid * t1 : m + 1)
				for (int tid = 0; tid < t1; tid++) {
					const int row = (int)rb + tid, lr = tsm2_load_row(row, m);
					assert_true(lr >= 0 && lr < m);
					for (int p = 0; p < n; p += t2)
						for (int j = 0; j < len; j += t1) {
							const int end = tsm2_tile_end(j, t1, len);
							assert_true(end - j <= t1);
							for (int l = j; l < end; l += t3)
								for (int i = 0; i < t3; i++) {
									assert_true(l - j + i < t1); /* in the sB tile */
									if (l + i >= len)
										continue; /* loads 0 */
									assert_true(k0 + l + i < k);
									for (int c = 0; c < t2; c++)
										if (p + c < n && row < m)
											cnt[(size_t)row * n + p + c]++;
								}
							if (j + t1 >= len)
								for (int c = 0; c < t2; c++)
									if (row < m && p + c < n)
										stores[(size_t)row * n + p + c]++;
						}
				}
	}
	for (size_t i = 0; i < (size_t)m * n; i++) {
		assert_int_equal(cnt[i], k);
		assert_int_equal(stores[i], slices);
	}
	free(cnt);
	free(stores);
}

static void test_tiling_coverage(void **state)
{
	walk(0, 100, 37, 5, 32, 4, 8, 1, 1);
	walk(0, 257, 300, 16, 128, 16, 16, 1, 1);
	walk(0, 64, 64, 2, 64, 2, 32, 1, 1);
	walk(0, 129, 1, 3, 32, 2, 4, 1, 1);
	walk(1, 1000, 8, 8, 64, 8, 8, 4, 1);
	walk(1, 999, 3, 3, 32, 2, 2, 7, 1);
	walk(1, 5000, 16, 16, 128, 16, 16, 64, 1);
	/* V4: one slice (V3's loop), several, one per tile, a partial last tile, k < t1 */
	walk(2, 257, 300, 16, 128, 16, 16, 1, 1);
	walk(2, 257, 300, 16, 128, 16, 16, 1, 3);
	walk(2, 333, 1001, 5, 64, 4, 4, 1, 7);
	walk(2, 333, 1001, 17, 64, 16, 8, 1, tsm2_k_tiles(1001, 64));
	walk(2, 100, 37, 3, 64, 2, 4, 1, tsm2_ksplit_choose(3, 132, 4, 2, 37, 64));
	walk(2, 1000, 4096, 2, 128, 2, 16, 1, tsm2_ksplit_choose(0, 132, 4, 8, 4096, 128));
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

/* The latency chase's lines are a permutation: every line of a power-of-two range exactly once
 * (so no two hops of the chain share one), spread over the range, and the chain of the default
 * size (65536 hops over 2^23 lines) has no repeated line. */
static void test_chase_lines(void **state)
{
	static unsigned char seen[1 << 16], hit[1 << 23 >> 3];
	long lo = 1 << 16, hi = -1;

	for (uint64_t h = 0; h < (1u << 16); h++) {
		const long l = tsm2_chase_line(h, 1 << 16);
		assert_true(l >= 0 && l < (1 << 16));
		assert_int_equal(seen[l], 0);
		seen[l] = 1;
	}
	for (uint64_t h = 0; h < 4096; h++) { /* consecutive hops land far apart */
		const long l = tsm2_chase_line(h, 1 << 16);
		lo = l < lo ? l : lo, hi = l > hi ? l : hi;
	}
	assert_true(lo < 1000 && hi > 64536);
	for (uint64_t h = 0; h < 16 * 4096; h++) {
		const long l = tsm2_chase_line(h, 1l << 23);
		assert_true(l >= 0 && l < (1l << 23));
		assert_int_equal(hit[l >> 3] >> (l & 7) & 1, 0);
		hit[l >> 3] |= (unsigned char)(1u << (l & 7));
	}
}

/* The per-point profile of tsm2r: each (precision, n, m) gets its best TSM2R kernel's % of the HBM
 * read rate (a kernel's best row where it has several), and each precision the lowest and the
 * average of those; failed rows and n > 16 do not count. */
static void test_point_profile(void **state)
{
	static const char csv[] = "kernel,precision,m,n,pct_of_hbm_read,hbm_read_GBps,status\n"
				  "v4,single,10240,16,62,3000,ok\n"
				  "v5,single,10240,16,91,3000,ok\n"
				  "v5,single,10240,16,93,3000,ok\n"
				  "cublas,single,10240,16,60,3000,ok\n"
				  "v4,single,20480,16,97,3000,ok\n"
				  "v5,single,20480,16,99,3000,wrong result\n"
				  "v5,single,20480,64,99.5,3000,ok\n"
				  "v4,double,10240,2,95,3000,ok\n";
	const struct gp_analysis *a = gp_analysis_find("tsm2r");
	struct gp_profile prof = { 0 };
	char err[128];
	struct gp_table *t = gp_table_parse(csv, sizeof csv - 1, err, sizeof err);
	const char *const want[][2] = {
		{ "tsm2r_single_n16_m10240_pct_hbm_read", "93" }, { "tsm2r_single_n16_m20480_pct_hbm_read", "97" },
		{ "tsm2r_single_min_pct_hbm_read", "93" },	   { "tsm2r_single_avg_pct_hbm_read", "95" },
		{ "tsm2r_double_n2_m10240_pct_hbm_read", "95" },  { "tsm2r_double_min_pct_hbm_read", "95" },
	};

	assert_non_null(t);
	assert_non_null(a);
	a->derive(&prof, t);
	for (size_t i = 0; i < GP_ARRAY_SIZE(want); i++) {
		size_t j = 0;
		while (j < prof.n && strcmp(prof.e[j].key, want[i][0]))
			j++;
		if (j == prof.n)
			fail_msg("no profile key %s", want[i][0]);
		assert_string_equal(prof.e[j].value, want[i][1]);
	}
	for (size_t j = 0; j < prof.n; j++)
		assert_null(strstr(prof.e[j].key, "_n64_"));
	gp_profile_free(&prof);
	gp_table_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threshold),   cmocka_unit_test(test_occupancy_and_util),
		cmocka_unit_test(test_model_time),  cmocka_unit_test(test_argmin),
		cmocka_unit_test(test_model_choose), cmocka_unit_test(test_names_and_support),
		cmocka_unit_test(test_tiling_coverage), cmocka_unit_test(test_hash), cmocka_unit_test(test_chase_lines),
		cmocka_unit_test(test_model_grid),  cmocka_unit_test(test_ksplit_choose),
		cmocka_unit_test(test_slices),      cmocka_unit_test(test_instances_in_image),
		cmocka_unit_test(test_axes),        cmocka_unit_test(test_point_profile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
