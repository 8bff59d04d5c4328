/* test_mma.c — host tests of the mma.sync probes' host side (probes/mma.h) on fixed inputs: the
 * list's own consistency (register counts follow from shape and types, names unique and in the
 * `variant` choices), the FLOP and peaks per form, the expected result words, the exact-range
 * limit on iters, and the n/a reasons by compute capability. Each test can fail: the numbers are
 * worked out by hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "mma.h"
#include "mma_shape.h"

/* Registers per thread an operand of rows x cols elements needs: elements over the warp's 32
 * lanes, times their bits, over the register's bits (64 for f64, else 32). */
static int regs(int rows, int cols, int bits, int reg_bits)
{
	return rows * cols / 32 * bits / reg_bits;
}

static void test_list_registers(void **state)
{
	for (size_t i = 0; i < gp_nmmas; i++) {
		const struct gp_mma *d = &gp_mmas[i];
		const int rb = d->in == GP_MMA_IN_F64 ? 64 : 32, bits = gp_mma_in_bits(d);
		const int acc_reg_bits = gp_mma_acc_bits(d) * gp_mma_acc_per_reg(d);

		print_message("%-24s A %d B %d D %d\n", d->name, d->na, d->nb, d->nd);
		/* A holds K/2 columns per row in the sparse forms. */
		assert_int_equal(d->na, regs(d->m, gp_mma_keff(d), bits, rb));
		assert_int_equal(d->nb, regs(d->k, d->n, bits, rb));
		assert_int_equal(d->nd, d->m * d->n / 32 * gp_mma_acc_bits(d) / acc_reg_bits);
		assert_true(d->na <= 8 && d->nb <= 4 && d->nd <= 4); /* the kernels' operand slots */
		assert_true(strstr(d->ptx, d->sparse ? "mma.sp::ordered_metadata.sync.aligned." : "mma.sync.aligned.") == d->ptx);
		assert_true(!strcmp(d->sass, "HMMA") || !strcmp(d->sass, "IMMA") || !strcmp(d->sass, "DMMA") ||
			    !strcmp(d->sass, "QMMA"));
		/* FP8 (QMMA on sm_89) is the one family ptxas emulates on a later target. */
		assert_int_equal(d->emu != 0, !strcmp(d->sass, "QMMA"));
		assert_true(d->cc >= 75 && d->cc <= 90 && (d->emu == 0 || d->emu > d->cc));
	}
}

static void test_list_names(void **state)
{
	char shape[32], choices[2048];

	snprintf(choices, sizeof choices, "%s ", gp_mma_names_sp);
	for (size_t i = 0; i < gp_nmmas; i++) {
		const struct gp_mma *d = &gp_mmas[i];
		char sp[96];
		/* The name ends with the shape and the PTX names it. */
		snprintf(shape, sizeof shape, "m%dn%dk%d", d->m, d->n, d->k);
		assert_true(strlen(d->name) > strlen(shape));
		assert_string_equal(d->name + strlen(d->name) - strlen(shape), shape);
		assert_non_null(strstr(d->ptx, shape));
		assert_int_equal(!strncmp(d->name, "sp_", 3), d->sparse);
		assert_ptr_equal(gp_mma_find(d->name), d);
		snprintf(sp, sizeof sp, " %s ", d->name);
		assert_non_null(strstr(choices, sp));
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(gp_mmas[j].name, d->name);
	}
	assert_null(gp_mma_find("f16_m16n8k16"));
	assert_null(gp_mma_find(NULL));
	assert_true(GP_MMA_CHOICES[0] != ' ' && strlen(choices) < sizeof choices - 1);
}

static void test_flops_and_peaks(void **state)
{
	const struct gp_mma *h = gp_mma_find("f16_f32_m16n8k16"), *s = gp_mma_find("sp_f16_f32_m16n8k32");
	const struct gp_mma *dm = gp_mma_find("f64_f64_m8n8k4"), *t = gp_mma_find("tf32_f32_m16n8k4");

	assert_non_null(h);
	assert_non_null(s);
	assert_non_null(dm);
	assert_non_null(t);
	/* 2 x 16 x 8 x 16 = 4096; the sparse m16n8k32 counts its logical K: 8192; 2 x 8 x 8 x 4 = 512. */
	assert_true(gp_mma_flops(h) == 4096 && gp_mma_flops(s) == 8192 && gp_mma_flops(dm) == 512);
	assert_int_equal(gp_mma_keff(h), 16);
	assert_int_equal(gp_mma_keff(s), 16);
	/* H100 (9.0): f16 4096 dense per clock per SM, sparse twice that; tf32 2048; fp64 256. */
	assert_true(gp_mma_peak(h, 9, 0) == 4096 && gp_mma_peak(s, 9, 0) == 8192);
	assert_true(gp_mma_peak(t, 9, 0) == 2048 && gp_mma_peak(dm, 9, 0) == 256);
	/* Ada's rate is card-dependent: no peak, so no ceiling and no percentage. */
	assert_true(gp_mma_peak(h, 8, 9) == 0);
	assert_string_equal(gp_mma_rate_type(gp_mma_find("s8_s32_m16n8k32")), "int8");
	assert_string_equal(gp_mma_rate_type(gp_mma_find("e5m2_f32_m16n8k32")), "fp8");
}

static void test_expect_words(void **state)
{
	uint32_t w[2];

	/* f16 accumulators: 2 x 64 x 16 = 2048 = 0x6800 in binary16, both halves. */
	assert_int_equal(gp_mma_expect(gp_mma_find("f16_f16_m16n8k16"), 64, w), 1);
	assert_int_equal(w[0], 0x68006800u);
	/* f32: 2 x 3 x 8 = 48.0f = 0x42400000. */
	assert_int_equal(gp_mma_expect(gp_mma_find("tf32_f32_m16n8k8"), 3, w), 1);
	assert_int_equal(w[0], 0x42400000u);
	/* s32, sparse k64: K_eff 32, 2 x 10 x 32 = 640. */
	assert_int_equal(gp_mma_expect(gp_mma_find("sp_s8_s32_m16n8k64"), 10, w), 1);
	assert_int_equal(w[0], 640u);
	/* f64: 2 x 1 x 4 = 8.0 = 0x4020000000000000, low word first. */
	assert_int_equal(gp_mma_expect(gp_mma_find("f64_f64_m8n8k4"), 1, w), 2);
	assert_int_equal(w[0], 0u);
	assert_int_equal(w[1], 0x40200000u);
	assert_int_equal(gp_mma_words(gp_mma_find("f64_f64_m8n8k4")), 4);
	assert_int_equal(gp_mma_words(gp_mma_find("f16_f16_m16n8k8")), 2);
}

static void test_exact_range(void **state)
{
	/* f16: 2^11 / (2 x 16) = 64 trips of m16n8k16, 128 of m16n8k8; the default iters (64) fits
	 * every form. */
	assert_int_equal(gp_mma_max_iters(gp_mma_find("f16_f16_m16n8k16")), 64);
	assert_int_equal(gp_mma_max_iters(gp_mma_find("f16_f16_m16n8k8")), 128);
	for (size_t i = 0; i < gp_nmmas; i++)
		assert_true(gp_mma_max_iters(&gp_mmas[i]) >= 64);
	/* f32 (23 bits), sparse tf32 k16: K_eff 8: 2^23 / 16. */
	assert_int_equal(gp_mma_max_iters(gp_mma_find("sp_tf32_f32_m16n8k16")), 524288);
}

static void test_operands_and_cannot(void **state)
{
	uint64_t o[3];
	char why[256];

	gp_mma_operands(gp_mma_find("bf16_f32_m16n8k8"), o);
	assert_true(o[0] == 0x3f803f80ull && o[1] == 0xbf80bf80ull && o[2] == MMA_META);
	gp_mma_operands(gp_mma_find("f64_f64_m16n8k16"), o);
	assert_true(o[0] == 0x3ff0000000000000ull && o[1] == 0xbff0000000000000ull);
	/* m16n8k16 f64 is sm_90's; FP8 is sm_89's and emulated from sm_90 on. */
	assert_non_null(gp_mma_cannot(gp_mma_find("f64_f64_m16n8k16"), 8, 0, why, sizeof why));
	assert_null(gp_mma_cannot(gp_mma_find("f64_f64_m16n8k16"), 9, 0, why, sizeof why));
	assert_null(gp_mma_cannot(gp_mma_find("e4m3_f32_m16n8k32"), 8, 9, why, sizeof why));
	assert_non_null(gp_mma_cannot(gp_mma_find("e4m3_f32_m16n8k32"), 9, 0, why, sizeof why));
	assert_non_null(strstr(why, "emulated"));
	assert_non_null(gp_mma_cannot(gp_mma_find("f16_f32_m16n8k16"), 7, 5, why, sizeof why));
	assert_null(gp_mma_cannot(gp_mma_find("f16_f32_m16n8k8"), 7, 5, why, sizeof why));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_registers), cmocka_unit_test(test_list_names),
		cmocka_unit_test(test_flops_and_peaks), cmocka_unit_test(test_expect_words),
		cmocka_unit_test(test_exact_range),     cmocka_unit_test(test_operands_and_cannot),
	};

	return cmocka_run_group_tests_name("mma", tests, NULL, NULL);
}
