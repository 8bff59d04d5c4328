/* test_insn.c — host tests of the instruction probes' host side (probes/insn.h) on fixed inputs:
 * the instruction list (every entry complete, names unique, kernels built for it, the `insn`
 * choices taken from it, the new bit instructions in it with their replay), latency from a
 * dependent chain's cycles, warps needed to hide it, ops/clk/SM from time and clock, % of the
 * architectural rate, the knee of synthetic occupancy curves, the per-SM occupancy rate, the
 * LDS:FFMA model, the rate table and the binary16 FMA used to check HFMA2. Each test can fail:
 * the expected numbers are worked out by hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment.h"
#include "insn.h"
#include "insn_shape.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static void test_chain_latency(void **state)
{
	/* 1 048 576 steps in 4 194 400 cycles with a 32-cycle timer: exactly 4 cycles a step. */
	NEAR(gp_chain_cycles_per_step(4194400.0, 96.0, 1048576.0), 4.0001, 1e-4);
	NEAR(gp_chain_cycles_per_step(4194304.0 + 40.0, 40.0, 1048576.0), 4.0, 1e-12);
	assert_true(isnan(gp_chain_cycles_per_step(100.0, 200.0, 10.0))); /* overhead above the time */
	assert_true(isnan(gp_chain_cycles_per_step(100.0, 0.0, 0.0)));
}

/* One warp's lanes: the fastest lane's cycles per step (a lane whose timer cost exceeds its time
 * has none) and the mean timer cost; no lane with a time leaves INFINITY. */
static void test_chain_fastest(void **state)
{
	uint64_t cyc[64];
	double ov;

	for (unsigned i = 0; i < 32; i++) {
		cyc[2 * i] = 4096 + 64 * i + 40; /* lane i: 4 + i / 16 cycles a step over 1024 steps */
		cyc[2 * i + 1] = 40 + (i % 2) * 2;
	}
	cyc[0] = 10; /* lane 0: its timer cost exceeds its time */
	NEAR(gp_chain_fastest(cyc, 1024.0, &ov), (4096.0 + 64 + 40 - 42) / 1024.0, 1e-12);
	NEAR(ov, 41.0, 1e-12);
	for (unsigned i = 0; i < 32; i++)
		cyc[2 * i] = 0;
	assert_true(isinf(gp_chain_fastest(cyc, 1024.0, &ov)));
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
	assert_int_equal(gp_arch_rate("popc", 9, 0), 16);
	assert_int_equal(gp_arch_rate("nosuch", 9, 0), 0);
	assert_int_equal(gp_arch_rate("fp32", 6, 1), 0); /* not in the table: unknown, not a guess */
}

/* Every entry names a kernel suffix, a SASS opcode, a known rate class, a replay; no name twice. */
static void test_list_complete(void **state)
{
	assert_true(gp_ninsns >= 22);
	for (size_t i = 0; i < gp_ninsns; i++) {
		const struct gp_insn *d = &gp_insns[i];
		assert_true(d->name[0] && d->sass[0] && d->ptx[0] && d->shape[0] && d->what[0]);
		for (const char *c = d->name; *c; c++)
			assert_true(islower((unsigned char)*c) || isdigit((unsigned char)*c) || *c == '_');
		for (const char *c = d->sass; *c; c++)
			assert_true(isupper((unsigned char)*c) || isdigit((unsigned char)*c) || *c == '.');
		if (gp_arch_rate(d->rate, 9, 0) <= 0)
			fail_msg("%s: rate class '%s' is not in the rate table", d->name, d->rate);
		if (d->alt_cc && (!d->alt_sass || gp_arch_rate(d->alt_rate, d->alt_cc / 10, d->alt_cc % 10) <= 0))
			fail_msg("%s: its sm_%d form has no SASS or no known rate class", d->name, d->alt_cc);
		assert_non_null(d->opnd);
		assert_non_null(d->start);
		assert_non_null(d->step);
		assert_ptr_equal(gp_insn_find(d->name), d);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(gp_insns[j].name, d->name))
				fail_msg("%s is in probes/insn.list twice", d->name);
	}
	assert_null(gp_insn_find("nosuch"));
	assert_null(gp_insn_find(NULL));
}

static char *slurp_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET) && (buf = malloc((size_t)n)) &&
	    fread(buf, 1, (size_t)n, f) == (size_t)n)
		*len = (size_t)n;
	else
		free(buf), buf = NULL;
	fclose(f);
	return buf;
}

static int has_symbol(const char *buf, size_t len, const char *prefix, const char *name)
{
	char sym[96];
	const size_t n = (size_t)snprintf(sym, sizeof sym, "%s%s", prefix, name) + 1; /* with its NUL */

	return memmem(buf, len, sym, n) != NULL;
}

/* nvcc made a kernel for every entry from the list alone: tput_<name> always, lat_<name> exactly
 * when the entry has a dependent chain. */
static void test_list_kernels_built(void **state)
{
	const char *b = getenv("BUILD");
	char path[512];
	size_t len = 0;
	char *fatbin;

	snprintf(path, sizeof path, "%s/kernels/probes/insn.fatbin", b && *b ? b : "build");
	if (!(fatbin = slurp_file(path, &len))) {
		print_message("skipped: no %s (make builds it)\n", path);
		skip();
	}
	for (size_t i = 0; i < gp_ninsns; i++) {
		const struct gp_insn *d = &gp_insns[i];
		if (!has_symbol(fatbin, len, "tput_", d->name))
			fail_msg("%s has no kernel tput_%s", path, d->name);
		if (has_symbol(fatbin, len, "lat_", d->name) != d->lat)
			fail_msg("%s: lat_%s %s", path, d->name, d->lat ? "is missing" : "exists for a throughput-only entry");
	}
	free(fatbin);
}

static int in_list(const char *list, const char *name)
{
	const size_t n = strlen(name);

	for (const char *p = list; (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
	return 0;
}

/* The experiments' `insn` choices and defaults are the list's: every entry in tput_insn, the
 * ones with a chain in lat_insn, so the default suite asks for no point that is n/a by
 * construction (a store has no chain). */
static void test_list_choices(void **state)
{
	const struct gp_param *lat = &gp_experiment_find("lat_insn")->impl->params[0];
	const struct gp_param *tput = &gp_experiment_find("tput_insn")->impl->params[0];

	assert_string_equal(lat->name, "insn");
	assert_string_equal(tput->name, "insn");
	assert_string_equal(lat->choices, GP_INSN_LAT_CHOICES);
	assert_string_equal(lat->defaults, GP_INSN_LAT_CHOICES);
	assert_string_equal(tput->choices, GP_INSN_CHOICES);
	assert_string_equal(tput->defaults, GP_INSN_CHOICES);
	assert_true(lat->choices[0] != ' ' && tput->choices[0] != ' ');
	for (size_t i = 0; i < gp_ninsns; i++) {
		assert_true(in_list(tput->defaults, gp_insns[i].name));
		assert_int_equal(in_list(lat->defaults, gp_insns[i].name), gp_insns[i].lat);
	}
	assert_false(in_list(lat->defaults, "sts"));
	assert_true(in_list(lat->defaults, "ffma") && in_list(lat->defaults, "lds"));
}

/* PRMT, BREV, FLO and POPC: in the list, each one SASS opcode, a 16- or 64-wide rate class, and
 * a host replay that does what the PTX manual says. */
static void test_list_bit_insns(void **state)
{
	const struct gp_insn *prmt = gp_insn_find("prmt"), *brev = gp_insn_find("brev");
	const struct gp_insn *flo = gp_insn_find("flo"), *popc = gp_insn_find("popc");
	uint64_t x = 31;

	assert_non_null(prmt);
	assert_non_null(brev);
	assert_non_null(flo);
	assert_non_null(popc);
	assert_string_equal(prmt->sass, "PRMT");
	assert_string_equal(brev->sass, "BREV");
	assert_string_equal(flo->sass, "FLO");
	assert_string_equal(popc->sass, "POPC");
	assert_true(prmt->lat && brev->lat && flo->lat && popc->lat);
	assert_int_equal(gp_arch_rate(prmt->rate, 9, 0), 64);
	assert_int_equal(gp_arch_rate(brev->rate, 9, 0), 16);
	assert_int_equal(gp_arch_rate(flo->rate, 9, 0), 16);
	assert_int_equal(gp_arch_rate(popc->rate, 9, 0), 16);
	/* Selector 0x3102: bytes 2, 0, 1, 3 of x; 0xc: a's byte 0 (0xef) sign-replicated, then x's byte 0. */
	assert_int_equal(prmt->step(0x11223344u, 0x89abcdefu, 0x3102u, 0), 0x11334422u);
	assert_int_equal(prmt->step(0x11223344u, 0x89abcdefu, 0x000cu, 0), 0x444444ffu);
	assert_int_equal(prmt->step(0x11223344u, 0x89abcdefu, 0x7654u, 0), 0x89abcdefu);
	/* The list's selector is a 3-cycle: 3 steps are none, 256 (one loop trip) are one. */
	assert_int_equal(gp_insn_chain(prmt, 0x11223344u, 1, 3, 1), 0x11223344u);
	assert_int_equal(gp_insn_chain(prmt, 0x11223344u, 1, 256, 1), 0x11334422u);
	assert_int_equal(brev->step(1, 0, 0, 0), 0x80000000u);
	assert_int_equal(brev->step(0x12345678u, 0, 0, 0), 0x1e6a2c48u);
	assert_int_equal(flo->step(0, 0, 0, 0), 0xffffffffu);
	assert_int_equal(flo->step(1, 0, 0, 0), 0);
	assert_int_equal(flo->step(0x80000000u, 0, 0, 0), 31);
	/* FLO's chain cycles 31 -> 4 -> 2 -> 1 -> 0 -> ~0 -> 31: a skipped trip (256 = 4 mod 6) shows. */
	for (int i = 0; i < 6; i++)
		x = flo->step(x, 0, 0, 0);
	assert_int_equal(x, 31);
	assert_int_equal(gp_insn_chain(flo, 31, 1, 256, 1), 0); /* four steps on */
	assert_int_equal(popc->step(0xffffffffu, 0, 0, 0), 32);
	assert_int_equal(popc->step(0x12345678u, 0, 0, 0), 13);
}

/* The replay of the chains the older entries already had: a known ISETP trip, the shared chase
 * and the throughput expectation of a chase lane. */
static void test_replay(void **state)
{
	const struct gp_insn *isetp = gp_insn_find("isetp"), *lds = gp_insn_find("lds"), *ffma = gp_insn_find("ffma");
	const struct gp_insn *i2f = gp_insn_find("i2f");
	uint64_t opnd[INSN_OPND_WORDS];

	/* x = 5 = a: every step xors 0 into p = (5 != 7) = 1: latency trip ends at x = 1, throughput
	 * at x (p true). */
	assert_int_equal(gp_insn_chain(isetp, 5, 1, 256, 1), 1);
	assert_int_equal(gp_insn_chain(isetp, 5, 1, 256, 0), 5);
	assert_int_equal(gp_insn_chain(lds, 4, 1, 63, 1), 4); /* 63 x 32 words: once round the ring */
	assert_int_equal(gp_insn_chain(lds, 4, 1, 256, 1), (4 + 128 * 256) % INSN_RING_BYTES);
	gp_insn_operands(ffma, opnd);
	assert_int_equal(opnd[0], 0x3f7ffff0);
	assert_int_equal(opnd[2], 0x3fc00000); /* 1.5f */
	assert_int_equal(gp_insn_period(lds), 32);
	assert_int_equal(gp_insn_period(ffma), 7);
	assert_true(gp_insn_match(ffma, 0x3fc00000, 0x3fc00000) && !gp_insn_match(ffma, 0x3fc00001, 0x3fc00000));
	assert_string_equal(gp_insn_sass(i2f, 80), "I2F");
	assert_string_equal(gp_insn_sass(i2f, 90), "I2FP.F32.S32");
	assert_string_equal(gp_insn_rate(i2f, 86), "i2fp");
	assert_int_equal(gp_insn_results(gp_insn_find("hfma2")), 2);
}

/* Two SMs of two blocks each and one of a single block: rates 2 x 500 / 1000 and 2 x 500 / 2000
 * and 500 / 500; the median is 1; SM 5 ran one block, not two. */
static void test_occ_rate(void **state)
{
	static const unsigned long long blk[] = {
		0, 100, 1100, 0, 150, 1050, 1, 0, 2000, 1, 10, 1000, 5, 0, 500,
	};
	int sm, count;

	NEAR(gp_occ_rate(blk, 5, 2, 500.0, &sm, &count), 1.0, 1e-12);
	assert_int_equal(sm, 5);
	assert_int_equal(count, 1);
	NEAR(gp_occ_rate(blk, 4, 2, 500.0, &sm, &count), 0.75, 1e-12); /* even count: the mean of the two */
	assert_int_equal(sm, -1);
	assert_true(isnan(gp_occ_rate(blk, 0, 2, 500.0, &sm, &count)));
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
		cmocka_unit_test(test_chain_latency), cmocka_unit_test(test_chain_fastest),
		cmocka_unit_test(test_warps_to_hide),
		cmocka_unit_test(test_ops_per_clk),   cmocka_unit_test(test_knee_synthetic),
		cmocka_unit_test(test_mix_model),     cmocka_unit_test(test_arch_rates),
		cmocka_unit_test(test_half_fma),      cmocka_unit_test(test_list_complete),
		cmocka_unit_test(test_list_kernels_built), cmocka_unit_test(test_list_choices),
		cmocka_unit_test(test_list_bit_insns), cmocka_unit_test(test_replay),
		cmocka_unit_test(test_occ_rate),
	};

	return cmocka_run_group_tests_name("insn", tests, NULL, NULL);
}
