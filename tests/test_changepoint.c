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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_3),        cmocka_unit_test(test_clean_4_near_far),
		cmocka_unit_test(test_clean_5),        cmocka_unit_test(test_noisy_3),
		cmocka_unit_test(test_noisy_4_near_far), cmocka_unit_test(test_noisy_5),
		cmocka_unit_test(test_noisy_5_gradual), cmocka_unit_test(test_monotone_ramp),
		cmocka_unit_test(test_single_level),   cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests_name("changepoint", tests, NULL, NULL);
}
