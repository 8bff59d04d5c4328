/* test_reach.c — the TLB model fit (harness/reach.c): it recovers the reach and miss cost of a
 * curve made from the model, says "no reach" for a flat or a wavering curve, refuses bad input,
 * and finds the reach of a real H100 page-stride chase whose ramp a step detector cut in
 * different places from run to run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "changepoint.h"
#include "reach.h"

#define MIB 1048576.0

/* The default suite's footprints: 4 MiB .. 8 GiB, two a factor of two. */
static const double fp_mib[] = { 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024,
				 1536, 2048, 3072, 4096, 6144, 8192 };
#define N (sizeof fp_mib / sizeof fp_mib[0])

static void footprints(double *fp)
{
	for (size_t i = 0; i < N; i++)
		fp[i] = fp_mib[i] * MIB;
}

/* hit + miss x max(0, 1 - R / F) plus a fixed pseudo-random wobble of +-amp cycles. */
static void model(double *lat, const double *fp, double hit, double miss, double R, double amp)
{
	for (size_t i = 0; i < N; i++) {
		const double u = fp[i] > R ? 1.0 - R / fp[i] : 0.0, w = sin(12.9898 * (double)(i + 1)) * amp;
		lat[i] = hit + miss * u + w;
	}
}

static void test_recovers_the_model(void **state)
{
	double fp[N], lat[N];
	struct gp_reach r;

	(void)state;
	footprints(fp);
	model(lat, fp, 280.0, 10.0, 300 * MIB, 0.3);
	assert_int_equal(gp_reach_fit(fp, lat, N, &r), 0);
	assert_true(r.supported);
	assert_true(fabs(r.reach / (300 * MIB) - 1.0) < 0.15);
	assert_true(fabs(r.miss - 10.0) < 1.0);
	assert_true(fabs(r.hit - 280.0) < 0.5);
	assert_true(r.miss_t >= GP_CP_MIN_T);
	assert_true(r.below >= GP_REACH_MIN_POINTS && r.far >= GP_REACH_MIN_POINTS);
}

/* No step: the best fit finds some small "miss" in the wobble, far from the evidence a reach
 * needs. */
static void test_flat_curve_has_no_reach(void **state)
{
	double fp[N], lat[N];
	struct gp_reach r;

	(void)state;
	footprints(fp);
	model(lat, fp, 280.0, 0.0, 300 * MIB, 3.0);
	assert_int_equal(gp_reach_fit(fp, lat, N, &r), 0);
	assert_false(r.supported);
	assert_true(r.median > 276 && r.median < 284);
}

/* A step whose two sides overlap (a curve that wavers as much as it rises) is not a reach, however
 * many standard errors its averages lie apart. */
static void test_overlapping_sides_are_not_a_reach(void **state)
{
	double fp[N], lat[N];
	struct gp_reach r;

	(void)state;
	footprints(fp);
	model(lat, fp, 280.0, 8.0, 300 * MIB, 0.3);
	lat[2] = 291.0; /* one point below the reach as slow as the far side */
	assert_int_equal(gp_reach_fit(fp, lat, N, &r), 0);
	assert_false(r.separated);
	assert_false(r.supported);
}

/* An uncommitted H100 run, 20261125-020819 at b8c2c74 (results/README.md), lat_mem_tlb, cg path,
 * 2 MiB stride: flat at
 * 285 cycles to 256 MiB, then a ramp to 294.8 at 8 GiB. The change-point levels published no
 * reach for this curve (its upper side is a ramp, never a plateau) and one for a curve of the
 * same card two minutes later. */
static void test_real_h100_ramp(void **state)
{
	static const double lat[N] = { 285.15, 286.40, 285.26, 285.19, 285.10, 285.39, 285.31, 285.27,
				       285.15, 284.65, 284.71, 284.67, 285.17, 287.78, 289.71, 291.37,
				       292.37, 293.09, 293.56, 294.12, 294.17, 294.57, 294.76 };
	double fp[N];
	struct gp_reach r;

	(void)state;
	footprints(fp);
	assert_int_equal(gp_reach_fit(fp, lat, N, &r), 0);
	assert_true(r.supported);
	assert_true(r.reach > 256 * MIB && r.reach < 384 * MIB);
	assert_true(r.miss > 9.0 && r.miss < 10.5);
	assert_true(r.hit > 284.9 && r.hit < 285.5);
}

static void test_bad_input(void **state)
{
	double fp[N], lat[N];
	struct gp_reach r;

	(void)state;
	footprints(fp);
	model(lat, fp, 280.0, 10.0, 300 * MIB, 0.3);
	assert_int_equal(gp_reach_fit(NULL, lat, N, &r), -1);
	assert_int_equal(gp_reach_fit(fp, lat, 5, &r), -1); /* too few points for both sides */
	lat[4] = 0;
	assert_int_equal(gp_reach_fit(fp, lat, N, &r), -1);
	lat[4] = 280;
	fp[6] = fp[5]; /* footprints not ascending */
	assert_int_equal(gp_reach_fit(fp, lat, N, &r), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recovers_the_model),
		cmocka_unit_test(test_flat_curve_has_no_reach),
		cmocka_unit_test(test_overlapping_sides_are_not_a_reach),
		cmocka_unit_test(test_real_h100_ramp),
		cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests_name("reach", tests, NULL, NULL);
}
