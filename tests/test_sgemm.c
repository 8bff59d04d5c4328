/* test_sgemm.c — host tests of the GEMM ladder's arithmetic and index maps (no GPU).
 *
 * Rates and peaks on fixed numbers; the correctness bound against real FP32 accumulation (it
 * must pass an honest float dot product and fail one with a dropped term); the shared-memory
 * reservation of the occupancy sweep; and, through the same inline index maps the kernels use
 * (bench/sgemm_map.h, sgemm_wgmma.h, sgemm_tmaffma.h), a walk over every block and thread of each bound-checked
 * variant's launch on sizes that are not tile multiples: each element of C written exactly once,
 * A read only inside the allocation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gp.h"
#include "blas.h"
#include "experiment.h"
#include "sgemm.h"
#include "sgemm_patch.h"
#include "sgemm_map.h"
#include "sgemm_wgmma.h"
#include "sgemm_tmaffma.h"

static void test_rates(void **state)
{
	/* 2 * 4096^3 flops in 2.7 ms */
	assert_float_equal(sg_gflops(4096, 4096, 4096, 2.7), 2.0 * 4096.0 * 4096 * 4096 / 2.7e-3 / 1e9, 1e-6);
	assert_float_equal(sg_gflops(2560, 2560, 1024, 1.0), 13421.7728, 1e-3);
	assert_true(isnan(sg_gflops(1, 1, 1, 0)));
	/* H100 SXM: 132 SMs x 128 lanes x 2 x 1980 MHz = 66.9 TFLOP/s */
	assert_float_equal(sg_peak_gflops(128, 132, 1980), 66908.16, 1e-6);
	assert_int_equal(sg_fp64_lanes_per_sm(9, 0), 64);
	assert_int_equal(sg_fp64_lanes_per_sm(8, 0), 32);
	assert_int_equal(sg_fp64_lanes_per_sm(8, 9), 2);
	/* cuBLAS at 51.5 TFLOP/s on that peak: 77 % */
	assert_float_equal(100.0 * 51500 / sg_peak_gflops(128, 132, 1980), 76.97, 0.01);
}

/* The 3xTF32 ceiling and the accuracy rule the tensor-core kernels are held to. */
static void test_tc_ceiling_and_accuracy(void **state)
{
	const struct sg_variant *tc = sg_variant_find("sgemm_41_tc3xtf32"), *ffma = sg_variant_find("sgemm_29_warptile");
	const struct sg_variant *d = sg_variant_find("dgemm_05_k3_16x16");

	assert_non_null(tc);
	assert_non_null(ffma);
	assert_non_null(d);
	assert_int_equal(tc->pipe, SG_TF32X3_MMA);
	assert_int_equal(ffma->pipe, SG_FP32_FMA);
	assert_int_equal(d->pipe, SG_FP64_FMA);
	assert_string_equal(sg_pipe_name(tc->pipe), "3xtf32 mma");
	assert_string_equal(sg_pipe_name(ffma->pipe), "fp32 fma");
	assert_string_equal(sg_pipe_name(d->pipe), "fp64 fma");
	assert_string_equal(sg_pipe_name(sg_variant_find("cublas_d")->pipe), "cublas");
	assert_false(sg_pipe_has_ceiling(sg_variant_find("cublas")->pipe));
	assert_true(sg_pipe_has_ceiling(tc->pipe));
	/* H100 SXM at 1980 MHz: TF32 2048 flops/clk/SM -> 535 TFLOP/s; three mma per product. */
	assert_int_equal(sg_tf32_flops_per_clk_sm(9, 0), 2048);
	assert_int_equal(sg_tf32_flops_per_clk_sm(7, 5), 0);
	assert_float_equal(sg_ceiling_gflops(tc, 9, 0, 132, 1980), 2048.0 * 132 * 1980e6 / 1e9 / 3.0, 1e-6);
	/* FFMA kernels keep the FP32 lane peak, double ones the FP64 lanes. */
	assert_float_equal(sg_ceiling_gflops(ffma, 9, 0, 132, 1980), sg_peak_gflops(128, 132, 1980), 1e-6);
	assert_float_equal(sg_ceiling_gflops(d, 9, 0, 132, 1980), sg_peak_gflops(64, 132, 1980), 1e-6);
	/* cuBLAS SGEMM (pedantic) is held to the FP32 peak; DGEMM may use DMMA: twice the FP64 one. */
	assert_float_equal(sg_ceiling_gflops(sg_variant_find("cublas"), 9, 0, 132, 1980), sg_peak_gflops(128, 132, 1980), 1e-6);
	assert_float_equal(sg_ceiling_gflops(sg_variant_find("cublas_d"), 9, 0, 132, 1980),
			   2 * sg_peak_gflops(64, 132, 1980), 1e-6);
	/* No tensor cores: no ceiling (the host marks such rows n/a before measuring). */
	assert_float_equal(sg_ceiling_gflops(tc, 7, 5, 40, 1590), 0.0, 0);
	/* Accuracy: within 4x of cuBLAS's error against exact dot products; a TF32-only product
	 * (about 2^-11 relative per term, ~1e-4 on the sum) against FP32's ~1e-6 fails. */
	assert_true(sg_accuracy_ok(3.9e-6, 1e-6));
	assert_false(sg_accuracy_ok(4.1e-6, 1e-6));
	assert_false(sg_accuracy_ok(1.2e-4, 1e-6));
	assert_false(sg_accuracy_ok(NAN, 1e-6));
	assert_false(sg_accuracy_ok(1e-7, NAN));
	/* Every tensor-core variant's dynamic shared memory fits the H100's 227 KB opt-in. */
	for (size_t i = 0; i < sg_nvariants; i++)
		if (sg_variants[i].pipe == SG_TF32X3_MMA)
			assert_true(sg_variants[i].dyn_smem > 48 * 1024 && sg_variants[i].dyn_smem <= 232448);
}

static void test_err_bound_values(void **state)
{
	assert_float_equal(sg_err_bound(4096, 4), 64.0 * 0x1p-24 * 64.0, 1e-12);
	assert_float_equal(sg_err_bound(1, 4), 64.0 * 0x1p-24, 1e-12);
	assert_float_equal(sg_err_bound(0, 4), 64.0 * 0x1p-24, 1e-12);
	assert_true(sg_err_bound(1024, 8) < 1e-12);
}

static uint64_t rng = 12345;

static float uni(void)
{
	rng = rng * 6364136223846793005ull + 1442695040888963407ull;
	return (float)((double)(rng >> 40) * 0x1p-23 - 1.0);
}

/* m x n results of a k-long float dot product per element (sequential, like a GEMM thread),
 * against the double reference: inside the bound; with one term dropped: outside. */
static void check_bound_k(int k, int drop)
{
	enum { M = 8, N = 8 };
	float *a = malloc((size_t)k * M * sizeof *a), *b = malloc((size_t)k * N * sizeof *b);
	float c[M * N], r[M * N];

	assert_non_null(a);
	assert_non_null(b);
	for (int i = 0; i < k * M; i++)
		a[i] = uni();
	for (int i = 0; i < k * N; i++)
		b[i] = uni();
	for (int j = 0; j < N; j++)
		for (int i = 0; i < M; i++) {
			float acc = 0;
			double ref = 0;
			for (int l = 0; l < k; l++) {
				if (!(drop && l == k / 2))
					acc = fmaf(a[i + l * M], b[l + j * k], acc);
				ref += (double)a[i + l * M] * b[l + j * k];
			}
			c[i + j * M] = acc;
			r[i + j * M] = (float)ref;
		}
	if (drop)
		assert_true(sg_rel_err_f(c, r, M, N, M) > sg_err_bound(k, 4));
	else
		assert_true(sg_rel_err_f(c, r, M, N, M) < sg_err_bound(k, 4));
	free(a);
	free(b);
}

static void test_err_bound_catches(void **state)
{
	static const int ks[] = { 16, 256, 1024, 4096, 12288 };

	for (size_t i = 0; i < GP_ARRAY_SIZE(ks); i++) {
		check_bound_k(ks[i], 0);
		check_bound_k(ks[i], 1);
	}
}

static void test_rel_err(void **state)
{
	/* 2 x 2 in a leading dimension of 3: the padding row is NaN and must be ignored. */
	const float r[6] = { 3, 4, NAN, 0, 0, NAN };
	float c[6] = { 3, 4, NAN, 0, 0, NAN };
	const double rd[4] = { 1, 0, 0, 1 }, cd[4] = { 1, 0, 0, 1.5 };

	assert_float_equal(sg_rel_err_f(c, r, 2, 2, 3), 0.0, 0);
	c[1] = 4.5f; /* off by 0.5 on a norm of 5 */
	assert_float_equal(sg_rel_err_f(c, r, 2, 2, 3), 0.1, 1e-12);
	c[3] = NAN; /* a poisoned element that was never written */
	assert_true(isnan(sg_rel_err_f(c, r, 2, 2, 3)));
	assert_float_equal(sg_rel_err_d(cd, rd, 2, 2, 2), 0.5 / sqrt(2.0), 1e-12);
}

static void test_reserve_smem(void **state)
{
	const int per_sm = 233472, reserved = 1024, max_dyn = 232448; /* H100 */

	assert_int_equal(sg_reserve_smem(4, 1088, reserved, per_sm, max_dyn), 56192);
	assert_int_equal(sg_reserve_smem(0, 1088, reserved, per_sm, max_dyn), -1);
	/* A kernel with 100 KB of its own cannot be squeezed to 3 blocks. */
	assert_int_equal(sg_reserve_smem(3, 100 * 1024, reserved, per_sm, max_dyn), -1);
	for (int blocks = 1; blocks <= 32; blocks++) {
		static const int statics[] = { 0, 1088, 16640, 33280 };
		for (size_t s = 0; s < GP_ARRAY_SIZE(statics); s++) {
			const long dyn = sg_reserve_smem(blocks, statics[s], reserved, per_sm, max_dyn);
			if (dyn < 0) {
				assert_true(sg_blocks_by_smem(statics[s], reserved, per_sm) < blocks);
				continue;
			}
			assert_int_equal(sg_blocks_by_smem(statics[s] + (int)dyn, reserved, per_sm), blocks);
			assert_int_equal(dyn % 128, 0);
		}
	}
}

static void test_shapes(void **state)
{
	int m, k, n;

	assert_int_equal(sg_shape("w2w4w", 192, &m, &k, &n), 0);
	assert_int_equal(m, 192);
	assert_int_equal(k, 384);
	assert_int_equal(n, 768);
	assert_int_equal(sg_shape("4w2ww", 10, &m, &k, &n), 0);
	assert_true(m == 40 && k == 20 && n == 10);
	assert_int_equal(sg_shape("ww", 10, &m, &k, &n), -1);
	assert_int_equal(sg_shape("seed002", 768, &m, &k, &n), 0);
	assert_true(m == 2560 && k == 1024 && n == 2560);
	assert_int_equal(sg_round_up(4100, 8), 4104);
	assert_int_equal(sg_round_up(4100, 1), 4100);
	assert_int_equal(sg_round_up(4096, 32), 4096);
}

/* Every variant in the registry's kernel list, every kernel of the list in the table. */
static void test_table_vs_registry(void **state)
{
	const struct gp_experiment *e = gp_experiment_find("sgemm"), *d = gp_experiment_find("dgemm");
	char why[128];

	assert_non_null(e);
	assert_non_null(d);
	for (size_t i = 0; i < sg_nvariants; i++) {
		const struct sg_variant *v = &sg_variants[i];
		const struct gp_experiment *x = v->elem == 8 ? d : e;
		const char *choices = x->impl->params[x->impl->nparams - 1].choices;
		const char *p = strstr(choices, v->name);
		const size_t l = strlen(v->name);
		assert_non_null(p);
		assert_true(p[l] == ' ' || p[l] == '\0');
		assert_ptr_equal(sg_variant_find(v->name), v);
		/* Tile multiples are accepted, one more is refused unless the variant claims any size. */
		assert_int_equal(sg_supports(v, 4 * 768, 4 * 768, 4 * 768, 4 * 768, 4 * 768, 4 * 768, why, sizeof why), 0);
		if (v->bm > 1)
			assert_int_equal(sg_supports(v, 4 * 768 + 1, 4 * 768, 4 * 768, 4 * 768 + 4, 4 * 768, 4 * 768 + 4, why,
						     sizeof why) == 0,
					 v->any);
	}
	assert_null(sg_variant_find("sgemm_99_nope"));
}

/* The kernel parameters are bench/sgemm.list's names: every float variant for the sgemm family's
 * choices and sgemm's default, every double one for dgemm's, in the list's order, one space
 * apart; the other sweeps' defaults are what they always were. */
static const struct gp_param *kernel_param(const char *exp)
{
	const struct gp_experiment *e = gp_experiment_find(exp);

	assert_non_null(e);
	assert_string_equal(e->impl->params[e->impl->nparams - 1].name, "kernel");
	return &e->impl->params[e->impl->nparams - 1];
}

static void test_kernel_lists(void **state)
{
	static const struct {
		const char *exp, *defaults;
	} sweeps[] = {
		{ "sgemm_shapes", "sgemm_23_k1_8x8 sgemm_26_k1_12x12 sgemm_30_cpasync3 cublas" },
		{ "sgemm_occupancy", "sgemm_04_volkov sgemm_06_method1 sgemm_30_cpasync3" },
		{ "sgemm_lda", "sgemm_12_method5_v3 sgemm_13_method6 sgemm_16_k3 cublas" },
	};
	char want[2][4096] = { "", "" };

	for (size_t i = 0; i < sg_nvariants; i++) {
		char *w = want[sg_variants[i].elem == 8];
		snprintf(w + strlen(w), sizeof want[0] - strlen(w), "%s%s", *w ? " " : "", sg_variants[i].name);
	}
	assert_string_equal(kernel_param("sgemm")->choices, want[0]);
	assert_string_equal(kernel_param("sgemm")->defaults, want[0]);
	assert_string_equal(kernel_param("dgemm")->choices, want[1]);
	assert_string_equal(kernel_param("dgemm")->defaults, want[1]);
	for (size_t i = 0; i < GP_ARRAY_SIZE(sweeps); i++) {
		assert_string_equal(kernel_param(sweeps[i].exp)->choices, want[0]);
		assert_string_equal(kernel_param(sweeps[i].exp)->defaults, sweeps[i].defaults);
	}
	assert_true(!strncmp(want[0], "sgemm_01_naive sgemm_02_smem ", 29));
	assert_true(strlen(want[0]) > 5 && !strcmp(want[0] + strlen(want[0]) - 7, " cublas"));
}

/* The symbol name as a fatbin's ELF string tables hold it (NUL on both sides), within the fatbin's
 * own size (its header: magic, version, header size, payload size). */
static int image_holds(const unsigned char *img, const char *name)
{
	uint32_t magic;
	uint16_t hdr;
	uint64_t fat;
	char pat[160];
	const int n = snprintf(pat, sizeof pat, "%c%s%c", 0, name, 0);

	memcpy(&magic, img, 4);
	memcpy(&hdr, img + 6, 2);
	memcpy(&fat, img + 8, 8);
	assert_int_equal(magic, 0xBA55ED50u);
	return memmem(img, hdr + fat, pat, (size_t)n) != NULL;
}

/* Each variant's kernel is in the module its list line names, and in no other. */
static void test_images_hold_their_kernels(void **state)
{
	for (size_t i = 0; i < sg_nvariants; i++) {
		const struct sg_variant *v = &sg_variants[i];
		const unsigned char *img = sg_variant_image(v);
		if (v->kind == SG_K_CUBLAS) {
			assert_null(img);
			continue;
		}
		if (sg_patch_base(v)) { /* patched at run time from its base's cubin: no module of its own */
			const struct sg_variant *b = sg_variant_find(sg_patch_base(v));
			assert_null(img);
			assert_non_null(b);
			assert_non_null(sg_variant_image(b));
			continue;
		}
		assert_non_null(img);
		if (!image_holds(img, v->name))
			fail_msg("%s is not in the module its list line names", v->name);
		for (size_t j = 0; j < sg_nvariants; j++) {
			const unsigned char *other = sg_variant_image(&sg_variants[j]);
			if (other && other != img && image_holds(other, v->name))
				fail_msg("%s is also in %s's module", v->name, sg_variants[j].name);
		}
	}
	assert_null(sg_variant_image(&sg_variants[sg_nvariants]));
}

enum check { C_NONE, C_V1, C_V2, C_V3 };

static enum check check_of(const struct sg_variant *v)
{
	if (v->kind != SG_K_VOLKOV || !v->any)
		return C_NONE;
	return strstr(v->name, "_v1") ? C_V1 : strstr(v->name, "_v2") ? C_V2 : C_V3;
}

/* One thread of a gemm_wgmma block (1-D swizzled grid): a consumer's accumulator registers
 * through sgemm_wgmma.h's map, the one the kernel's epilogue stores through; warpgroup 0 stores
 * nothing. */
static void cover_wgmma(const struct sg_variant *v, int m, int n, unsigned bx, unsigned tx, unsigned char *cnt)
{
	const int wg = (int)tx / 128 - 1, w = (int)tx / 32 % 4, g = (int)tx % 32 / 4, t = (int)tx % 4;
	int tm, tn;

	if (wg < 0)
		return;
	assert_true(wg < SGW_CONSUMERS);
	sg_swizzle((int)bx, (m + v->bm - 1) / v->bm, (n + v->bn - 1) / v->bn, 8, &tm, &tn);
	for (int i = 0; i < v->bn / 2; i++) {
		const int r = tm * v->bm + sgw_row(wg, w, g, i / 2 % 2), c = tn * v->bn + sgw_col(i, t);
		assert_true(sgw_row(wg, w, g, i / 2 % 2) < v->bm && sgw_col(i, t) < v->bn);
		if (r < m && c < n)
			cnt[r + (size_t)c * m]++;
	}
}

/* One thread of a gemm_tmaffma block (1-D swizzled grid): its TM x TN elements through
 * sgemm_tmaffma.h's map, the one the kernel's epilogue stores through. */
static void cover_tmaffma(const struct sg_variant *v, int m, int n, unsigned bx, unsigned tx, unsigned char *cnt)
{
	const int warp = (int)tx / 32, lane = (int)tx % 32;
	int tm, tn;

	sg_swizzle((int)bx, (m + v->bm - 1) / v->bm, (n + v->bn - 1) / v->bn, 8, &tm, &tn);
	for (int i = 0; i < v->na / 4; i++) /* the line's na, gap: TM, TN */
		for (int q = 0; q < 4; q++)
			for (int j = 0; j < v->gap; j++) {
				const int tr = sgf_row(v->bm, v->na, warp, lane, i, q), tc = sgf_col(v->bm, v->na, v->gap, warp, lane, j);
				const int r = tm * v->bm + tr, c = tn * v->bn + tc;
				assert_true(tr < v->bm && tc < v->bn);
				if (r < m && c < n)
					cnt[r + (size_t)c * m]++;
			}
}

/* Walk the launch of v on m x n x k; count the writes to each element of C and check A's reads. */
static void cover(const struct sg_variant *v, int m, int n, int k)
{
	unsigned grid[3], block[3];
	unsigned char *cnt = calloc((size_t)m * n, 1);
	const int lda = m + 3;
	const long a_alloc = (long)lda * k + SG_SLACK_ELEMS;
	const enum check ck = check_of(v);

	assert_non_null(cnt);
	sg_launch_dims(v, m, n, grid, block);
	for (unsigned bx = 0; bx < grid[0]; bx++)
		for (unsigned by = 0; by < grid[1]; by++)
			for (unsigned ty = 0; ty < block[1]; ty++)
				for (unsigned tx = 0; tx < block[0]; tx++) {
					if (v->kind == SG_K_NAIVE) {
						const int r = (int)(bx * block[0] + tx), c = (int)(by * block[1] + ty);
						if (r < m && c < n)
							cnt[r + (size_t)c * m]++;
					} else if (v->kind == SG_K_TILE) {
						for (int i = 0; i < v->bm / (int)block[0]; i++)
							for (int j = 0; j < v->bn / (int)block[1]; j++) {
								const int r = sg_t_row((int)bx, v->bm, (int)tx, i, (int)block[0]);
								const int c = sg_t_col((int)by, v->bn, (int)ty, j, (int)block[1]);
								if (r < m && c < n)
									cnt[r + (size_t)c * m]++;
							}
					} else if (v->kind == SG_K_VOLKOV) {
						const int nt = (int)block[0];
						for (int a = 0; a < v->na; a++) {
							const int r = sg_v_row((int)bx, (int)grid[0], (int)tx, a, nt, v->na, v->gap);
							const int ra = ck == C_V3 ? sg_clamp_row(r, m) : r;
							/* A reads: row ra of columns 0 .. k-1 (V1 guards rows >= m). */
							if (ck == C_V3)
								assert_true(ra >= 0 && ra < m);
							if (ck == C_V2)
								assert_true(ra + (long)(k - 1) * lda < a_alloc);
							for (int j = 0; j < v->bn; j++) {
								const int c = (int)by * v->bn + j;
								if (r < m && c < n)
									cnt[r + (size_t)c * m]++;
							}
						}
					} else if (v->kind == SG_K_TMA && v->pipe == SG_FP32_FMA) {
						cover_tmaffma(v, m, n, bx, tx, cnt);
					} else if (v->kind == SG_K_TMA) {
						cover_wgmma(v, m, n, bx, tx, cnt);
					} else {
						fail_msg("%s: no coverage model", v->name);
					}
				}
	for (size_t i = 0; i < (size_t)m * n; i++)
		if (cnt[i] != 1)
			fail_msg("%s %dx%dx%d: element (%zu, %zu) written %d times", v->name, m, n, k, i % m, i / m, cnt[i]);
	free(cnt);
}

static void test_coverage_any_size(void **state)
{
	static const int sizes[][3] = { { 1, 1, 1 }, { 65, 17, 33 }, { 129, 31, 17 }, { 200, 45, 100 }, { 257, 130, 7 },
					{ 64, 16, 16 } };

	for (size_t i = 0; i < sg_nvariants; i++) {
		const struct sg_variant *v = &sg_variants[i];
		if (!v->any || v->kind == SG_K_CUBLAS)
			continue;
		for (size_t s = 0; s < GP_ARRAY_SIZE(sizes); s++)
			cover(v, sizes[s][0], sizes[s][1], sizes[s][2]);
	}
}

/* The tile-multiple variants of the seed 000 family on their own sizes. */
static void test_coverage_multiples(void **state)
{
	for (size_t i = 0; i < sg_nvariants; i++) {
		const struct sg_variant *v = &sg_variants[i];
		if (v->any || (v->kind != SG_K_VOLKOV && v->kind != SG_K_TILE))
			continue;
		cover(v, 2 * v->bm, 3 * v->bn, 2 * v->bk);
	}
}

static void test_swizzle_bijection(void **state)
{
	static const int dims[][2] = { { 1, 1 }, { 32, 32 }, { 9, 5 }, { 8, 3 }, { 17, 64 }, { 3, 100 } };

	for (size_t d = 0; d < GP_ARRAY_SIZE(dims); d++) {
		const int tm_n = dims[d][0], tn_n = dims[d][1];
		unsigned char *seen = calloc((size_t)tm_n * tn_n, 1);
		assert_non_null(seen);
		for (int id = 0; id < tm_n * tn_n; id++) {
			int tm, tn;
			sg_swizzle(id, tm_n, tn_n, 8, &tm, &tn);
			assert_true(tm >= 0 && tm < tm_n && tn >= 0 && tn < tn_n);
			assert_int_equal(seen[tm + (size_t)tn * tm_n]++, 0);
		}
		free(seen);
	}
}

static void test_launch_dims(void **state)
{
	unsigned g[3], b[3];

	sg_launch_dims(sg_variant_find("sgemm_06_method1"), 4096, 4096, g, b);
	assert_true(g[0] == 32 && g[1] == 256 && b[0] == 64 && b[1] == 1);
	sg_launch_dims(sg_variant_find("sgemm_30_cpasync3"), 4096, 8192, g, b);
	assert_true(g[0] == 32 * 64 && g[1] == 1 && b[0] == 256);
	sg_launch_dims(sg_variant_find("sgemm_16_k3"), 65, 64, g, b);
	assert_true(g[0] == 2 && g[1] == 1 && b[0] == 16 && b[1] == 8);
	sg_launch_dims(sg_variant_find("sgemm_26_k1_12x12"), 12288, 12288, g, b);
	assert_true(g[0] == 64 && g[1] == 64 && b[0] == 256);
	/* gemm_wgmma: one block of 384 threads per 128 x 256 tile, edges included. */
	sg_launch_dims(sg_variant_find("sgemm_45_wgmma3xtf32_128x256"), 4096, 8192 + 1, g, b);
	assert_true(g[0] == 32 * 33 && g[1] == 1 && b[0] == 384 && b[1] == 1);
}

/* sgemm_modes' inputs: uniform values in [-1, 1), wide ones sign x 2^e x [1, 2) with every e of
 * -20..20 drawn and both signs; all exact in float. */
static void test_mode_inputs(void **state)
{
	int seen[2 * SG_WIDE_EXP + 1] = { 0 }, neg = 0;
	uint64_t s = 1;

	assert_int_equal(sg_dist_parse("uniform"), SG_DIST_UNIFORM);
	assert_int_equal(sg_dist_parse("wide"), SG_DIST_WIDE);
	assert_int_equal(sg_dist_parse("normal"), -1);
	for (int i = 0; i < 100000; i++) {
		const uint64_t bits = (s += 0x9e3779b97f4a7c15ull) * 0xbf58476d1ce4e5b9ull;
		const double u = sg_dist_value(SG_DIST_UNIFORM, bits), w = sg_dist_value(SG_DIST_WIDE, bits);
		int e;
		assert_true(u >= -1.0 && u < 1.0 && (double)(float)u == u);
		assert_true((double)(float)w == w);
		const double f = frexp(fabs(w), &e); /* [0.5, 1) x 2^e: the exponent of [1, 2) is e - 1 */
		assert_true(f >= 0.5 && e - 1 >= -SG_WIDE_EXP && e - 1 <= SG_WIDE_EXP);
		seen[e - 1 + SG_WIDE_EXP]++;
		neg += w < 0;
	}
	for (int e = 0; e <= 2 * SG_WIDE_EXP; e++) /* about 100000 / 41 each */
		assert_true(seen[e] > 2000 && seen[e] < 2900);
	assert_true(neg > 45000 && neg < 55000);
}

/* The sampled-entry errors: per entry |c - r| / mag, max and median (even count: the two middle
 * values' mean), the Frobenius measure; a NaN result poisons all three. */
static void test_sample_errors(void **state)
{
	const double ref[] = { 1, -2, 0, 4 }, mag[] = { 2, 4, 1, 8 };
	const float c[] = { 1.5f, -2, 0.25f, 3 }, bad[] = { 1, NAN, 0, 4 };
	struct sg_err e;

	sg_sample_errors(c, ref, mag, 4, &e);
	assert_float_equal(e.max, 0.25, 1e-15);    /* 0.5 / 2 and 0.25 / 1 */
	assert_float_equal(e.median, 0.1875, 1e-15); /* (0.125 + 0.25) / 2 */
	assert_float_equal(e.fro, sqrt((0.25 + 0.0625 + 1) / 21.0), 1e-15);
	sg_sample_errors(c, ref, mag, 3, &e);
	assert_float_equal(e.median, 0.25, 1e-15);
	sg_sample_errors(bad, ref, mag, 4, &e);
	assert_true(isnan(e.max) && isnan(e.median) && isnan(e.fro));
}

/* The cuBLAS modes: each name parses back to its mode, the parameter's list names them all in
 * order, pedantic is the first (the baseline every other mode is held to), and the compute types
 * are the ones cuBLAS defines for FP32. */
static void test_blas_modes(void **state)
{
	static const char names[] = GP_BLAS_MODE_NAMES;
	char want[256] = "";
	enum gp_blas_mode md;

	assert_int_equal(GP_BLAS_PEDANTIC, 0);
	for (int i = 0; i < GP_BLAS_NMODES; i++) {
		assert_int_equal(gp_blas_mode_parse(gp_blas_mode_name((enum gp_blas_mode)i), &md), 0);
		assert_int_equal(md, i);
		assert_non_null(strstr(gp_blas_mode_compute((enum gp_blas_mode)i), "CUBLAS_COMPUTE_32F"));
		strcat(want, " ");
		strcat(want, gp_blas_mode_name((enum gp_blas_mode)i));
	}
	assert_string_equal(names, want);
	assert_string_equal(gp_blas_mode_compute(GP_BLAS_BF16X9), "CUBLAS_COMPUTE_32F_EMULATED_16BFX9");
	assert_string_equal(gp_blas_mode_math(GP_BLAS_BF16X9_EAGER), "CUBLAS_FP32_EMULATED_BF16X9_MATH");
	assert_int_equal(gp_blas_mode_parse("fp64", &md), -1);
	assert_null(gp_blas_mode_name(GP_BLAS_NMODES));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_err_bound_values),
		cmocka_unit_test(test_tc_ceiling_and_accuracy),
		cmocka_unit_test(test_err_bound_catches),
		cmocka_unit_test(test_rel_err),
		cmocka_unit_test(test_reserve_smem),
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_table_vs_registry),
		cmocka_unit_test(test_kernel_lists),
		cmocka_unit_test(test_images_hold_their_kernels),
		cmocka_unit_test(test_coverage_any_size),
		cmocka_unit_test(test_coverage_multiples),
		cmocka_unit_test(test_swizzle_bijection),
		cmocka_unit_test(test_launch_dims),
		cmocka_unit_test(test_mode_inputs),
		cmocka_unit_test(test_sample_errors),
		cmocka_unit_test(test_blas_modes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
