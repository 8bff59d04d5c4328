/* test_insn.c — host tests of the instruction probes' derivations (probes/insn.h) on fixed
 * inputs: latency from a dependent chain's cycles, warps needed to hide it, ops/clk/SM from time
 * and clock, % of the architectural rate, the knee of synthetic occupancy curves, the LDS:FFMA
 * model, the rate table and the binary16 FMA used to check HFMA2. Each test can fail: the
 * expected numbers are worked out by hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "insn.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static void test_chain_latency(void **state)
{
	/* 1 048 576 steps in 4 194 400 cycles with a 32-cycle timer: exactly 4 cycles a step. */
	NEAR(gp_chain_cycles_per_step(4194400.0, 96.0, 1048576.0), 4.0001, 1e-4);
	NEAR(gp_chain_cycles_per_step(4194304.0 + 40.0, 40.0, 1048576.0), 4.0, 1e-12);
	assert_true(isnan(gp_chain_cycles_per_step(100.0, 200.0, 10.0))); /* overhead above the time */
	assert_true(isnan(gp_chain_cycles_per_step(100.0, 0.0, 0.0)));
}

static void test_warps_to_hide(void **state)
{
	/* GT200: 31.5 cycles latency, 4 cycles/warp: 7.875 warps (seed 000 M003 says about 8). */
	NEAR(gp_warps_to_hide(31.5, 4.0), 7.875, 1e-12);
	/* Hopper FFMA: 4 cycles, 128 lanes: a warp-instruction every 0.25 cycles: 16 warps/SM. */
	NEAR(gp_cycles_per_warp_at_rate(128), 0.25, 1e-12);
	NEAR(gp_warps_to_hide(4.0, gp_cycles_per_warp_at_rate(128)), 16.0, 1e-12);
	/* MUFU: 16/clk/SM = 2 cycles per warp; 20 cycles latency hides behind 10 warps. */
	NEAR(gp_warps_to_hide(20.0, gp_cycles_per_warp_at_rate(16)), 10.0, 1e-12);
	assert_true(isnan(gp_warps_to_hide(4.0, 0.0)));
	assert_true(isnan(gp_cycles_per_warp_at_rate(0)));
}

static void test_ops_per_clk(void **state)
{
	/* 132 SMs x 128 ops x 1.98e9 clk/s x 1 ms = 33 454 080 000 ops in 1 ms: 128 ops/clk/SM. */
	NEAR(gp_ops_per_clk_per_sm(132.0 * 128 * 1.98e9 * 1e-3, 1.0, 1980.0, 132), 128.0, 1e-9);
	/* The same work in 2 ms at half the clock is still 128 per clock. */
	NEAR(gp_ops_per_clk_per_sm(132.0 * 128 * 1.98e9 * 1e-3, 2.0, 990.0, 132), 128.0, 1e-9);
	assert_true(isnan(gp_ops_per_clk_per_sm(1e9, 0.0, 1980.0, 132)));
	assert_true(isnan(gp_ops_per_clk_per_sm(1e9, 1.0, 0.0, 132)));
	NEAR(gp_pct_of_rate(126.7, 128), 98.984375, 1e-9);
	assert_true(isnan(gp_pct_of_rate(10, 0)));
}

/* min(slope * w, plateau): the knee is plateau / slope, the first point reaching 90 % lies at or
 * after 0.9 of it. */
static void test_knee_synthetic(void **state)
{
	double w[64], r[64];
	struct gp_knee k;

	for (int i = 0; i < 64; i++) {
		w[i] = i + 1;
		r[i] = fmin(8.0 * w[i], 128.0); /* knee at 16 warps */
	}
	assert_int_equal(gp_knee_find(w, r, 64, 0.9, &k), 0);
	NEAR(k.plateau, 128.0, 1e-12);
	NEAR(k.slope, 8.0, 1e-12);
	NEAR(k.knee_model, 16.0, 1e-12);
	NEAR(k.knee_first, 15.0, 1e-12); /* 8 x 15 = 120 >= 115.2; 8 x 14 = 112 is not */

	/* A curve that saturates at half the issue rate (the register-bank finding): plateau 64,
	 * slope 8 per warp: knee 8; a noisy point above the plateau is the plateau. */
	for (int i = 0; i < 64; i++)
		r[i] = fmin(8.0 * w[i], 64.0) + ((i % 3) - 1) * 0.2;
	assert_int_equal(gp_knee_find(w, r, 64, 0.9, &k), 0);
	NEAR(k.plateau, 64.2, 1e-9);
	NEAR(k.knee_model, 64.2 / 7.8, 1e-9); /* first point is 8 - 0.2 */
	NEAR(k.knee_first, 8.0, 1e-12);

	/* Unsorted sparse sweep (the default warps list), slope taken from the fewest warps. */
	{
		double ws[] = { 64, 1, 32, 4, 8, 16, 2 };
		double rs[7];
		for (int i = 0; i < 7; i++)
			rs[i] = fmin(4.0 * ws[i], 100.0);
		assert_int_equal(gp_knee_find(ws, rs, 7, 0.9, &k), 0);
		NEAR(k.knee_model, 25.0, 1e-12);
		NEAR(k.knee_first, 32.0, 1e-12);
	}
	assert_int_equal(gp_knee_find(w, r, 0, 0.9, &k), -1);
	w[3] = 0;
	assert_int_equal(gp_knee_find(w, r, 64, 0.9, &k), -1);
}

static void test_mix_model(void **state)
{
	/* 4 warp-instr/clk shared by LDS and FFMA, 1 warp-LDS/clk, 128 lanes. */
	NEAR(gp_mix_model(1, 128, 1.0, 4.0), 32.0, 1e-12);        /* LDS bound: 25 % */
	NEAR(gp_mix_model(2, 128, 1.0, 4.0), 64.0, 1e-12);        /* LDS bound */
	NEAR(gp_mix_model(4, 128, 1.0, 4.0), 32.0 * 3.2, 1e-12);  /* issue bound: 4 x 4/5 */
	NEAR(gp_mix_model(8, 128, 1.0, 4.0), 32.0 * 32.0 / 9.0, 1e-12);
	NEAR(gp_mix_model(8, 64, 1.0, 4.0), 64.0, 1e-12);         /* lane bound (sm_70) */
	assert_true(isnan(gp_mix_model(0, 128, 1.0, 4.0)));
}

static void test_arch_rates(void **state)
{
	assert_int_equal(gp_arch_rate("fp32", 9, 0), 128);
	assert_int_equal(gp_arch_rate("fp32", 8, 0), 64);
	assert_int_equal(gp_arch_rate("fp64", 9, 0), 64);
	assert_int_equal(gp_arch_rate("fp64", 8, 6), 2);
	assert_int_equal(gp_arch_rate("fp16", 9, 0), 256);
	assert_int_equal(gp_arch_rate("mufu", 9, 0), 16);
	assert_int_equal(gp_arch_rate("imad", 9, 0), 64);
	assert_int_equal(gp_arch_rate("nosuch", 9, 0), 0);
	assert_int_equal(gp_arch_rate("fp32", 6, 1), 0); /* not in the table: unknown, not a guess */
}

static void test_half_fma(void **state)
{
	assert_int_equal(gp_double_to_half(1.0), 0x3c00);
	assert_int_equal(gp_double_to_half(-2.0), 0xc000);
	assert_int_equal(gp_double_to_half(65504.0), 0x7bff);
	assert_int_equal(gp_double_to_half(65520.0), 0x7c00);          /* rounds to infinity */
	assert_int_equal(gp_double_to_half(0x1p-24), 0x0001);          /* smallest subnormal */
	assert_int_equal(gp_double_to_half(1.0 + 0x1p-11), 0x3c00);    /* tie: to even */
	assert_int_equal(gp_double_to_half(1.0 + 3 * 0x1p-11), 0x3c02); /* tie: to even, up */
	NEAR(gp_half_to_double(0x3bff), 1.0 - 0x1p-11, 0);
	NEAR(gp_half_to_double(0x0001), 0x1p-24, 0);
	/* 1 x (1 - 2^-11) + 2^-8 = 1 + 3.5 x 2^-10: a tie between 0x3c03 and 0x3c04, to even. */
	assert_int_equal(gp_half_fma(0x3c00, 0x3bff, 0x1c00), 0x3c04);
	/* 1.5 x (1 - 2^-11) + 2^-8 = 1.5 + 3.25 x 2^-10 (spacing 2^-10): 1.5 + 3 x 2^-10 = 0x3e03. */
	assert_int_equal(gp_half_fma(0x3e00, 0x3bff, 0x1c00), 0x3e03);
	assert_int_equal(gp_half_fma(0x4000, 0x4000, 0x3c00), 0x4500); /* 2 x 2 + 1 = 5 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chain_latency), cmocka_unit_test(test_warps_to_hide),
		cmocka_unit_test(test_ops_per_clk),   cmocka_unit_test(test_knee_synthetic),
		cmocka_unit_test(test_mix_model),     cmocka_unit_test(test_arch_rates),
		cmocka_unit_test(test_half_fma),
	};

	return cmocka_run_group_tests_name("insn", tests, NULL, NULL);
}
