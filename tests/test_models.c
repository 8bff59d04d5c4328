/* test_models.c — seed 000 / seed 001 models on fixed inputs and on the committed H100 run.
 *
 * Hand-computed arithmetic (sAI, register need, intensities, bank accounting, M001 with Example
 * 1-like numbers), roofline classification on a synthetic machine, and gp_models_write on a
 * copy of the committed run: one row per ok FFMA SGEMM kernel in both CSVs (none for the 3xTF32
 * kernels, which have no FFMA tile), files complete. */
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
#include "models.h"
#include "sgemm.h"
#include "sgemm_fit.h"
#include "table.h"

#define RUN "results/h100-80gb-hbm3/20261124-100211"

static struct gp_machine synth(void)
{
	struct gp_machine m;

	memset(&m, 0, sizeof m);
	m.sms = 100;
	m.mhz = 1000;
	m.ffma_per_clk_sm = 128;
	m.lds_Bpc[0] = m.lds_Bpc[1] = m.lds_Bpc[2] = 128;
	m.lds_latency = 20;
	m.ffma_latency = 4;
	m.l2_latency = 256;
	m.hbm_GBps = 1000;
	m.l2_GBps = 4000;
	m.fp32_gflops = 128 * 2.0 * 100 * 1000 / 1e3;   /* 25600 */
	return m;
}

static void test_seed001_formulas(void **state)
{
	const struct gp_tile k1 = { "x", 12, 12, 12, 12, 8, 2, 16, 192, 192, 4, 256, 192, 192, 0, 1 };

	(void)state;
	/* M101: 12 x 12 -> 6, 8 x 8 -> 4. M102: 144 + 48 = 192 (seed: 192 of 236). */
	assert_float_equal(gp_sai(12, 12), 6.0, 1e-12);
	assert_float_equal(gp_sai(8, 8), 4.0, 1e-12);
	assert_int_equal(gp_reg_need(12, 12), 192);
	/* M103: 192 x 192 -> 48 flop/B, 128 x 128 -> 32 (seed 001 E115). */
	assert_float_equal(gp_intensity_global(192, 192), 48.0, 1e-12);
	assert_float_equal(gp_intensity_global(128, 128), 32.0, 1e-12);
	/* M104: 12 x 12 -> 3 flop/B, 8 x 8 -> 2. */
	assert_float_equal(gp_intensity_shared(&k1), 3.0, 1e-12);
	/* Banks: 6 + 6 LDS.64 per k, each at least 4 B per thread: 288 flops / 48 B = 6. */
	assert_float_equal(gp_intensity_shared_bank(&k1), 6.0, 1e-12);
}

static void test_bank_accounting_broadcast(void **state)
{
	/* Volkov: 16 B words via 4 LDS.128 all lanes reading one address: 4 x 4 B per 32 flops. */
	const struct gp_tile *v = gp_tile_find("sgemm_04_volkov");
	const struct gp_tile *w = gp_tile_find("sgemm_29_warptile");

	(void)state;
	assert_non_null(v);
	assert_non_null(w);
	assert_float_equal(gp_intensity_shared(v), 0.5, 1e-12);
	assert_float_equal(gp_intensity_shared_bank(v), 2.0, 1e-12);
	/* Warp tile: 4 LDS.128, A shared by 4 lanes, B by 8: max(4, 16/4) = 4 B each: 128/16 = 8. */
	assert_float_equal(gp_intensity_shared_bank(w), 8.0, 1e-12);
	assert_true(isnan(gp_intensity_shared(gp_tile_find("sgemm_01_naive"))));
}

static void test_roofline_classification(void **state)
{
	const struct gp_machine m = synth();
	/* shared 128 B x 100 x 1000 MHz = 12800 GB/s */
	const struct gp_tile naive = { "n", 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 256, 16, 16, 1, 0 };
	const struct gp_tile smem = { "s", 1, 1, 1, 1, 4, 1, 1, 1024, 1024, 16, 256, 1024, 1024, 0, 0 };
	const struct gp_tile big = { "b", 8, 8, 8, 8, 16, 4, 8, 128, 128, 8, 256, 128, 128, 0, 1 };
	struct gp_roof r;

	(void)state;
	gp_roofline(&m, &naive, &r);
	assert_float_equal(r.roof_global, 250.0, 1e-9);       /* 0.25 x 1000 */
	assert_string_equal(r.bound, "global");
	gp_roofline(&m, &smem, &r);
	assert_float_equal(r.i_global, 256.0, 1e-9);
	assert_float_equal(r.roof_shared_bank, 0.25 * 12800, 1e-6);
	assert_string_equal(r.bound, "shared");
	gp_roofline(&m, &big, &r);
	assert_float_equal(r.roof_global, 32000.0, 1e-6);     /* above 25600 */
	assert_float_equal(r.roof_shared_bank, 8 * 12800.0, 1e-6);
	assert_string_equal(r.bound, "fp32");
	assert_float_equal(r.roof_fp32, 25600.0, 1e-9);
}

static void test_m001_hand_computed(void **state)
{
	const struct gp_machine m = synth();
	/* c = 1/128; g_L / N_T = 256 / 1024 = 0.25; A = 0.2578125, B = 0.265625; T = c + LDS:
	 * big: 2 / 8 flop/B = 0.25 B per FFMA / 128 = 1/512. Sum = A/128 + B/128 + 1/128 + 1/512.
	 * Gflop/s = 2 x 100 x 1 GHz / sum. */
	const struct gp_tile big = { "b", 8, 8, 8, 8, 16, 4, 8, 128, 128, 8, 256, 128, 128, 0, 1 };
	const double sum = 0.2578125 / 128 + 0.265625 / 128 + 1.0 / 128 + 1.0 / 512;
	const double want = 200.0 / sum;

	(void)state;
	assert_float_equal(gp_predict_m001(&m, &big, 1024), want, want * 1e-12);
	assert_true(isnan(gp_predict_m001(&m, &big, 0)));
	/* The bound model never exceeds the FP32 roof and is monotone in the issue share. */
	assert_true(gp_predict_bound(&m, &big, 512) <= m.fp32_gflops);
	assert_true(gp_predict_bound(&m, &big, 512) > 0.8 * m.fp32_gflops);
}

/* The tiles and the bench's variant table are both bench/sgemm.list: every tile names a variant,
 * and the sizes its fields accept (bench/sgemm_fit.h's rule, as gp_kernel_fits asks it for the tuner)
 * are the variant's. */
static void test_tiles_match_variant_table(void **state)
{
	static const int sizes[] = { 1, 192, 768, 1009, 4096 };
	char why[200], why2[200];

	(void)state;
	/* Staged kernels' reuse tile is their block tile (bm = rx x threads-along-m): the per-thread
	 * shape times the block must give it back. */
	for (unsigned i = 0; i < gp_ntiles; i++) {
		const struct gp_tile *t = &gp_tiles[i];
		const struct sg_variant *v = sg_variant_find(t->name);
		assert_non_null(v);
		assert_true(t->rx * t->ry >= 1);
		if (t->lds_bytes && t->a_words)
			assert_int_equal(t->threads * t->rx * t->ry, t->gbm * t->gbn);
		if (t->lds_bytes) {
			assert_int_equal(v->bm, t->gbm);
			assert_int_equal(v->bn, t->gbn);
		}
		assert_int_equal(v->bk, t->bk);
		assert_int_equal(v->bx * v->by, t->threads);
		assert_true(v->bm == t->bm && v->bn == t->bn && v->any == t->any && v->vec4 == t->vec4);
		for (size_t s = 0; s < GP_ARRAY_SIZE(sizes); s++) {
			const int z = sizes[s];
			assert_int_equal(SG_FIT_SQUARE(t, z, why, sizeof why), sg_supports(v, z, z, z, z, z, z, why2, sizeof why2));
		}
		assert_ptr_equal(gp_tile_find(t->name), t);
	}
	assert_null(gp_tile_find("sgemm_41_tc3xtf32"));   /* tensor-core kernels have no FFMA tile */
	assert_int_equal(SG_FIT_SQUARE(gp_tile_find("sgemm_24_k1_12x12_base"), 512, why, sizeof why), -1);
	assert_string_equal(why, "needs m % 192, n % 192, k % 4 == 0");
}

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
	size_t n;
	int rc = a && b ? 0 : -1;

	while (!rc && (n = fread(buf, 1, sizeof buf, a)) > 0)
		if (fwrite(buf, 1, n, b) != n)
			rc = -1;
	if (a)
		fclose(a);
	if (b && fclose(b))
		rc = -1;
	return rc;
}

static void test_committed_run(void **state)
{
	char dir[] = "/tmp/gp_models_XXXXXX", path[512], err[256];
	static const char *const files[] = { "profile.csv", "meta.csv", "sgemm.csv" };
	struct gp_table *s, *roof, *mod;
	FILE *md;
	char *text = NULL;
	size_t len = 0;
	unsigned ok = 0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (unsigned i = 0; i < 3; i++) {
		char from[256];
		snprintf(from, sizeof from, RUN "/%s", files[i]);
		snprintf(path, sizeof path, "%s/%s", dir, files[i]);
		assert_int_equal(copy_file(from, path), 0);
	}
	md = open_memstream(&text, &len);
	assert_int_equal(gp_models_write(dir, md), 0);
	fclose(md);
	assert_non_null(strstr(text, "## Models"));
	assert_non_null(strstr(text, "| sgemm_29_warptile |"));
	snprintf(path, sizeof path, RUN "/sgemm.csv");
	s = gp_table_load(path, err, sizeof err);
	snprintf(path, sizeof path, "%s/roofline.csv", dir);
	roof = gp_table_load(path, err, sizeof err);
	snprintf(path, sizeof path, "%s/models.csv", dir);
	mod = gp_table_load(path, err, sizeof err);
	assert_non_null(s);
	assert_non_null(roof);
	assert_non_null(mod);
	/* Every kernel with an ok row and an FFMA tile has one row in each file; cuBLAS and the
	 * 3xTF32 tensor-core kernels (no FFMA tile: the models do not describe them) have none. */
	for (size_t r = 0; r < s->nrows; r++) {
		const char *k = gp_table_get(s, r, "kernel"), *st = gp_table_get(s, r, "status");
		int found = 0;
		if (strncmp(k, "sgemm_", 6) || strcmp(st, "ok"))
			continue;
		for (size_t q = 0; q < roof->nrows; q++)
			found += !strcmp(gp_table_get(roof, q, "kernel"), k);
		if (found != (gp_tile_find(k) ? 1 : 0))
			fail_msg("%s: %d rows in roofline.csv", k, found);
		ok += found;
	}
	assert_int_equal(roof->nrows, mod->nrows);
	assert_true(ok >= 20);
	/* The warp-tiled kernel: 32 flop/B global, FP32-bound, measured below every roof. */
	for (size_t q = 0; q < roof->nrows; q++) {
		double ig, meas, fp;
		if (strcmp(gp_table_get(roof, q, "kernel"), "sgemm_29_warptile"))
			continue;
		assert_int_equal(gp_table_get_double(roof, q, "intensity_global", &ig), 0);
		assert_int_equal(gp_table_get_double(roof, q, "gflops_measured", &meas), 0);
		assert_int_equal(gp_table_get_double(roof, q, "roof_fp32", &fp), 0);
		assert_float_equal(ig, 32.0, 1e-9);
		assert_string_equal(gp_table_get(roof, q, "bound"), "fp32");
		assert_true(meas > 40000 && meas < fp);
		assert_true(fp > 60000 && fp < 70000);   /* 126.4 x 2 x 132 x 1980 MHz */
	}
	/* No temporary files left behind. */
	snprintf(path, sizeof path, "ls %s | grep -c tmp", dir);
	{
		FILE *p = popen(path, "r");
		int n = -1;
		assert_non_null(p);
		assert_int_equal(fscanf(p, "%d", &n), 1);
		pclose(p);
		assert_int_equal(n, 0);
	}
	snprintf(path, sizeof path, "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
	gp_table_free(s);
	gp_table_free(roof);
	gp_table_free(mod);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed001_formulas),
		cmocka_unit_test(test_bank_accounting_broadcast),
		cmocka_unit_test(test_roofline_classification),
		cmocka_unit_test(test_m001_hand_computed),
		cmocka_unit_test(test_tiles_match_variant_table),
		cmocka_unit_test(test_committed_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
