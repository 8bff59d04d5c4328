/* test_changepoint.c — change-point detection (harness/changepoint.c) on synthetic latency
 * curves: clean staircases of 3, 4 and 5 levels (one with a near/far L2 split only 25 % apart),
 * the same with multiplicative noise and a gradual transition, a monotone ramp (no plateau may be
 * reported as a level boundary), and a single level (no boundary). Capacities must be found
 * within one sweep step of the truth. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "changepoint.h"
#include "gp.h"

#define NPTS 72
#define MAXLV 8

/* A log-spaced sweep: 3 points per octave from 1 KiB to 13 GiB. */
static void sweep(double *fp, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fp[i] = 1024.0 * pow(2.0, (double)i / 3.0);
}

/* Deterministic standard normal noise (Box-Muller over a 64-bit LCG). */
static double gauss(uint64_t *s)
{
	double u1, u2;

	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	u1 = ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	u2 = ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
	return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/* Staircase: latency lat[k] while footprint <= cap[k]; the last level is unbounded. noise is the
 * relative standard deviation; ramp > 0 makes each step take `ramp` points to climb. */
static void staircase(const double *fp, double *lat, size_t n, const double *levels, const double *cap,
		      size_t nlv, double noise, int ramp, uint64_t seed)
{
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;
		double v;
		while (k + 1 < nlv && fp[i] > cap[k])
			k++;
		v = levels[k];
		if (ramp && k > 0) {
			/* Points just past a capacity climb gradually from the previous level. */
			size_t first = 0;
			while (first < n && fp[first] <= cap[k - 1])
				first++;
			if (i - first < (size_t)ramp)
				v = levels[k - 1] + (levels[k] - levels[k - 1]) * (double)(i - first + 1) / (ramp + 1);
		}
		lat[i] = v * exp(noise * gauss(&seed));
	}
}

/* Index of the sweep step holding footprint f (exact or nearest below). */
static long step_of(const double *fp, size_t n, double f)
{
	long k = -1;

	for (size_t i = 0; i < n; i++)
		if (fp[i] <= f * (1 + 1e-12))
			k = (long)i;
	return k;
}

static void check_staircase(const double *levels, const double *cap, size_t nlv, double noise, int ramp)
{
	double fp[NPTS], lat[NPTS];
	struct gp_cp_result r;

	sweep(fp, NPTS);
	staircase(fp, lat, NPTS, levels, cap, nlv, noise, ramp, 12345);
	assert_int_equal(gp_changepoint(fp, lat, NPTS, &r), 0);
	if (r.nlevels != nlv) {
		print_error("expected %zu levels, found %zu (segments %zu, sigma %.4f)\n", nlv, r.nlevels,
			    r.nsegments, r.sigma);
		for (size_t k = 0; k < r.nlevels; k++)
			print_error("  level %zu: %.1f cycles, %.0f..%.0f B\n", k, r.level[k].latency,
				    r.level[k].footprint_first, r.level[k].footprint_last);
	}
	assert_int_equal(r.nlevels, nlv);
	for (size_t k = 0; k < nlv; k++) {
		assert_true(fabs(r.level[k].latency / levels[k] - 1) < 0.05 + 3 * noise);
		if (k + 1 < nlv) {
			const long truth = step_of(fp, NPTS, cap[k]);
			const long got = step_of(fp, NPTS, r.level[k].footprint_last);
			assert_true(labs(got - truth) <= 1);
			assert_true(r.level[k].footprint_next > r.level[k].footprint_last);
		}
	}
}

/* L1 / L2 / HBM. */
static const double lv3[] = { 33, 260, 650 };
static const double cap3[] = { 256 * 1024.0, 50 * 1048576.0 };
/* L1 / L2 near / L2 far / HBM: far only 25 % above near. */
static const double lv4[] = { 33, 260, 325, 650 };
static const double cap4[] = { 224 * 1024.0, 25 * 1048576.0, 50 * 1048576.0 };
/* plus the TLB-miss level past a few GB. */
static const double lv5[] = { 33, 260, 325, 650, 900 };
static const double cap5[] = { 224 * 1024.0, 25 * 1048576.0, 50 * 1048576.0, 1024 * 1048576.0 };

static void test_clean_3(void **state) { check_staircase(lv3, cap3, 3, 0, 0); }
static void test_clean_4_near_far(void **state) { check_staircase(lv4, cap4, 4, 0, 0); }
static void test_clean_5(void **state) { check_staircase(lv5, cap5, 5, 0, 0); }
static void test_noisy_3(void **state) { check_staircase(lv3, cap3, 3, 0.02, 0); }
static void test_noisy_4_near_far(void **state) { check_staircase(lv4, cap4, 4, 0.02, 0); }
static void test_noisy_5(void **state) { check_staircase(lv5, cap5, 5, 0.01, 0); }
/* Replacement is not LRU: past a capacity the hit rate falls over a sweep step (the far L2
 * level then needs a few more points of its own). */
static const double cap5g[] = { 224 * 1024.0, 16 * 1048576.0, 50 * 1048576.0, 1024 * 1048576.0 };
static void test_noisy_5_gradual(void **state) { check_staircase(lv5, cap5g, 5, 0.01, 1); }

/* Latency rising steadily with footprint: there are no plateaus, so no level boundary either. */
static void test_monotone_ramp(void **state)
{
	double fp[NPTS], lat[NPTS];
	struct gp_cp_result r;
	uint64_t s = 7;

	sweep(fp, NPTS);
	for (size_t i = 0; i < NPTS; i++)
		lat[i] = (30.0 + 10.0 * (double)i) * exp(0.005 * gauss(&s));
	assert_int_equal(gp_changepoint(fp, lat, NPTS, &r), 0);
	assert_true(r.nlevels <= 1);
}

static void test_single_level(void **state)
{
	double fp[NPTS], lat[NPTS];
	struct gp_cp_result r;
	uint64_t s = 99;

	sweep(fp, NPTS);
	for (size_t i = 0; i < NPTS; i++)
		lat[i] = 470.0 * exp(0.02 * gauss(&s));
	assert_int_equal(gp_changepoint(fp, lat, NPTS, &r), 0);
	assert_int_equal(r.nlevels, 1);
	assert_int_equal(r.level[0].first, 0);
	assert_int_equal(r.level[0].last, NPTS - 1);
	assert_true(fabs(r.level[0].latency / 470.0 - 1) < 0.02);
	assert_true(r.level[0].footprint_next == 0);
}

static void test_bad_input(void **state)
{
	const double fp[] = { 1024, 1024, 4096 }, lat[] = { 30, 31, 32 }, neg[] = { 30, -1, 32 };
	const double fpok[] = { 1024, 2048, 4096 };
	struct gp_cp_result r;

	assert_int_equal(gp_changepoint(fp, lat, 3, &r), -1);   /* not ascending */
	assert_int_equal(gp_changepoint(fpok, neg, 3, &r), -1); /* latency <= 0 */
	assert_int_equal(gp_changepoint(fpok, lat, 0, &r), -1);
	assert_int_equal(gp_changepoint(fpok, lat, 3, &r), 0);
}


/* The H100's default-path random chase to 128 MiB (run 20261122-145848, retired from results/ for
 * its clock-less tput_occupancy rows: `git show 3f7bb7d:results/h100-80gb-hbm3/20261122-145848/
 * lat_mem.csv`; the reference run 20261124-100211's levels fall within the bounds below): L1
 * rises gently from 32 to 38 cycles before the jump to L2, which must not shrink the L1 capacity
 * to the end of the flat part; L2 near/far and HBM follow. */
static void test_real_h100_capacities(void **state)
{
	static const double fp[] = { 1024, 4096, 16384, 65536, 131072, 163840, 196608, 229376, 262144,
				     327680, 393216, 524288, 1048576, 4194304, 8388608, 12582912, 16777216,
				     20971520, 25165824, 29360128, 33554432, 37748736, 41943040, 46137344,
				     50331648, 58720256, 67108864, 83886080, 100663296, 134217728 };
	static const double lat[] = { 32.03, 32.12, 32.50, 33.97, 35.96, 36.84, 37.83, 73.07, 161.85,
				      280.30, 280.12, 280.19, 279.68, 279.48, 279.46, 279.47, 279.42,
				      279.46, 291.38, 449.33, 524.28, 525.06, 524.82, 525.21, 529.80,
				      666.85, 683.01, 683.77, 683.49, 676.27 };
	struct gp_cp_result r;

	assert_int_equal(gp_changepoint(fp, lat, GP_ARRAY_SIZE(fp), &r), 0);
	assert_int_equal(r.nlevels, 4);
	/* L1 ends between 229376 (73 cycles) and 262144 (162): the geometric mean of 32 and 280 is 95 */
	assert_true(r.level[0].capacity > 229376 && r.level[0].capacity < 262144);
	assert_true(r.level[0].latency > 31 && r.level[0].latency < 34);
	/* near L2 to between 25 and 29 MB, far L2 to between 50 and 59 MB */
	assert_true(r.level[1].capacity > 25165824 && r.level[1].capacity < 29360128);
	assert_true(r.level[2].capacity > 50331648 && r.level[2].capacity < 58720256);
	assert_true(r.level[3].latency > 670 && r.level[3].latency < 690);
	/* every one of these boundaries stands far above the noise: nothing is merged */
	assert_int_equal(gp_changepoint_supported(fp, lat, GP_ARRAY_SIZE(fp), GP_CP_MIN_STEP, &r), 0);
	assert_int_equal(r.nlevels, 4);
	for (size_t k = 0; k + 1 < r.nlevels; k++)
		assert_true(gp_cp_supported(&r, k));
}

/* The H200's default-path random chase (run h200/20261124-102212, in git history): its far L2 plateau
 * (518 cycles, 41-50 MB) is only a few footprints wide and its first and last points lean into
 * the steps (512, 526), so the segmentation takes 38-59 MB as one sloped segment. The plateau
 * inside it must still be found (before, the profile published the near level's edge, 33 MB, as
 * the L2 capacity), and it must stand apart from both neighbours by the evidence rule. */
static void test_real_h200_far_level(void **state)
{
	static const double fp[] = { 1024, 4096, 16384, 65536, 131072, 163840, 196608, 229376, 262144,
				     327680, 393216, 524288, 1048576, 4194304, 8388608, 12582912, 16777216,
				     20971520, 25165824, 29360128, 33554432, 37748736, 41943040, 46137344,
				     50331648, 58720256, 67108864, 83886080, 100663296, 134217728, 268435456,
				     536870912, 1073741824, 2147483648.0, 4294967296.0 };
	static const double lat[] = { 32.0317, 32.1201, 32.4696, 33.8802, 35.7734, 36.6495, 37.6334,
				      71.8703, 158.195, 273.008, 272.295, 272.623, 272.661, 272.381,
				      272.491, 272.45, 272.445, 272.484, 272.485, 283.341, 455.21, 511.849,
				      517.945, 518.275, 518.331, 525.878, 640.054, 676.285, 676.322,
				      664.312, 670.309, 676.316, 678.682, 679.259, 681.043 };
	struct gp_cp_result r;

	assert_int_equal(gp_changepoint_supported(fp, lat, GP_ARRAY_SIZE(fp), GP_CP_MIN_STEP, &r), 0);
	assert_int_equal(r.nlevels, 4);
	assert_true(r.level[2].latency > 510 && r.level[2].latency < 530);
	/* L2 (near and far) ends between 59 and 67 MB, where the curve meets HBM's 676 cycles */
	assert_true(r.level[2].capacity > 58720256 && r.level[2].capacity < 67108864);
	assert_true(r.level[1].capacity > 29360128 && r.level[1].capacity < 33554432 * 1.0);
	for (size_t k = 0; k + 1 < r.nlevels; k++)
		assert_true(gp_cp_supported(&r, k));
}

/* Plateaus a few percent apart: one level for caches (10 % rule), two for a TLB curve (2 %). The
 * H100's 2 MB-page chase: 282 cycles to 256 MB, 293 from 768 MB. */
static void test_merge_ratio(void **state)
{
	static const double fp[] = { 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024,
				     1536, 2048, 3072, 4096, 6144, 8192 };
	static const double lat[] = { 279.1, 279.1, 278.1, 278.1, 281.6, 283.1, 283.0, 281.8, 282.6,
				      285.2, 282.5, 288.0, 289.1, 290.9, 291.1, 292.1, 292.6, 293.2,
				      293.1, 293.4, 293.4 };
	struct gp_cp_result r;

	assert_int_equal(gp_changepoint(fp, lat, GP_ARRAY_SIZE(fp), &r), 0);
	assert_int_equal(r.nlevels, 1);
	assert_int_equal(gp_changepoint_step(fp, lat, GP_ARRAY_SIZE(fp), GP_CP_TLB_STEP, &r), 0);
	assert_int_equal(r.nlevels, 2);
	/* reach between the last flat footprint (256) and the first on the upper level (768) */
	assert_true(r.level[0].capacity > 256 && r.level[0].capacity < 768);
	assert_true(r.level[1].latency - r.level[0].latency > 8 && r.level[1].latency - r.level[0].latency < 14);
}

/* Evidence: the H100's TLB step (282 -> 293 cycles over 8 and 11 points) stands far above its
 * noise; a flat curve with a few percent of scatter, searched at the TLB merge ratio, may be cut
 * into "levels", but none of their boundaries is supported. */
static void test_evidence(void **state)
{
	static const double fp[] = { 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024,
				     1536, 2048, 3072, 4096, 6144, 8192 };
	static const double lat[] = { 279.1, 279.1, 278.1, 278.1, 281.6, 283.1, 283.0, 281.8, 282.6,
				      285.2, 282.5, 288.0, 289.1, 290.9, 291.1, 292.1, 292.6, 293.2,
				      293.1, 293.4, 293.4 };
	double flat[GP_ARRAY_SIZE(fp)];
	struct gp_cp_result r;
	unsigned seed = 12345;

	assert_int_equal(gp_changepoint_step(fp, lat, GP_ARRAY_SIZE(fp), GP_CP_TLB_STEP, &r), 0);
	assert_int_equal(r.nlevels, 2);
	assert_true(r.level[0].npoints >= 3 && r.level[1].npoints >= 3);
	assert_true(r.level[0].step_t >= GP_CP_MIN_T);
	assert_true(gp_cp_supported(&r, 0));
	assert_false(gp_cp_supported(&r, 1)); /* the last level has no boundary */
	assert_true(r.level[1].step_t == 0);

	for (int trial = 0; trial < 50; trial++) {
		for (size_t i = 0; i < GP_ARRAY_SIZE(fp); i++) {
			seed = seed * 1103515245u + 12345u;
			flat[i] = 278.0 * (1.0 + 0.03 * ((double)(seed >> 16 & 0x7fff) / 32767.0 - 0.5));
		}
		assert_int_equal(gp_changepoint_step(fp, flat, GP_ARRAY_SIZE(fp), GP_CP_TLB_STEP, &r), 0);
		for (size_t k = 0; k + 1 < r.nlevels; k++)
			if (gp_cp_supported(&r, k))
				fail_msg("trial %d: noise detected as a level boundary at %g (step %.2f noise, t %.1f)",
					 trial, r.level[k].capacity, r.level[k].step_noise, r.level[k].step_t);
		/* what may be published: one level, no boundary */
		assert_int_equal(gp_changepoint_supported(fp, flat, GP_ARRAY_SIZE(fp), GP_CP_TLB_STEP, &r), 0);
		assert_int_equal(r.nlevels, 1);
	}
	assert_int_equal(gp_changepoint_supported(fp, lat, GP_ARRAY_SIZE(fp), GP_CP_TLB_STEP, &r), 0);
	assert_int_equal(r.nlevels, 2);
}

/* A curve that wavers by a few cycles from footprint to footprint without any level changing:
 * the H200's page-stride chase (results/h200/20261124-063552/lat_mem_tlb.csv, 4 MiB .. 8 GiB).
 * Its two averages differ by 9 standard errors, but the plateaus overlap (280.0 on the left,
 * 279.7 on the right): no boundary may be published. The H100's curve of the same run day
 * (a rise from 274-278 to 280-286 cycles past 256 MiB) keeps its level. */
static void test_wavering_is_not_a_level(void **state)
{
	static const double fp[] = { 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024,
				     1536, 2048, 3072, 4096, 6144, 8192 };
	static const double h200[] = { 275.549, 279.952, 278.827, 285.263, 286.533, 286.826, 285.39, 282.586,
				       281.882, 279.735, 280.542, 284.142, 279.776, 284.392, 288.185, 288.474,
				       288.777, 288.345, 289.62, 289.973, 289.473, 290.197, 290.548 };
	static const double h100[] = { 268.72, 273.82, 274.87, 276.69, 277.77, 276.58, 276.32, 275.43,
				       275.83, 276.90, 274.66, 277.53, 277.16, 279.79, 280.70, 283.34,
				       283.86, 285.22, 284.76, 285.19, 285.38, 285.73, 285.63 };
	struct gp_cp_result r;

	(void)state;
	assert_int_equal(gp_changepoint_supported(fp, h200, GP_ARRAY_SIZE(fp), GP_CP_TLB_STEP, &r), 0);
	assert_int_equal(r.nlevels, 1);
	assert_int_equal(gp_changepoint_supported(fp, h100, GP_ARRAY_SIZE(fp), GP_CP_TLB_STEP, &r), 0);
	assert_int_equal(r.nlevels, 2);
	assert_true(r.level[0].separated);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_3),        cmocka_unit_test(test_clean_4_near_far),
		cmocka_unit_test(test_clean_5),        cmocka_unit_test(test_noisy_3),
		cmocka_unit_test(test_noisy_4_near_far), cmocka_unit_test(test_noisy_5),
		cmocka_unit_test(test_noisy_5_gradual), cmocka_unit_test(test_monotone_ramp),
		cmocka_unit_test(test_single_level),   cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_real_h100_capacities), cmocka_unit_test(test_real_h200_far_level),
		cmocka_unit_test(test_merge_ratio),
		cmocka_unit_test(test_evidence),
		cmocka_unit_test(test_wavering_is_not_a_level),
	};

	return cmocka_run_group_tests_name("changepoint", tests, NULL, NULL);
}
