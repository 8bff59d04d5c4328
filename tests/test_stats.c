/* test_stats.c — gp_stats, the summary every result row is made of.
 *
 * The inputs are chosen so every expected value is exact in binary (or is the same correctly
 * rounded operation the definition names), so the checks are equalities, not tolerances: a wrong
 * median index, a population instead of a sample stddev or a spread over the mean shows up at
 * once. Also: the degenerate cases (one value, none, a NaN) and that the caller's repetitions
 * are not reordered behind its back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gp.h"
#include "stats.h"

/* cmocka 1.1 has no double assertion: compare exactly, print both on failure. */
#define assert_exact(a, b)                                                                         \
	do {                                                                                       \
		double a_ = (a), b_ = (b);                                                         \
		if (!(a_ == b_)) {                                                                 \
			print_error("%s = %.17g, expected %.17g\n", #a, a_, b_);                   \
			fail();                                                                    \
		}                                                                                  \
	} while (0)

static struct gp_stats summarise(const double *x, size_t n)
{
	struct gp_stats s;

	memset(&s, 0xa5, sizeof s);
	assert_int_equal(gp_stats(x, n, &s), 0);
	assert_int_equal(s.n, n);
	return s;
}

static void test_odd_n(void **state)
{
	/* sorted 2 2 5 8 8: deviations -3 -3 0 3 3, sum of squares 36, sample variance 36/4 = 9 */
	static const double x[] = { 8, 2, 5, 8, 2 };
	struct gp_stats s = summarise(x, GP_ARRAY_SIZE(x));

	assert_exact(s.min, 2);
	assert_exact(s.median, 5);
	assert_exact(s.max, 8);
	assert_exact(s.mean, 5);
	assert_exact(s.stddev, 3);
	assert_exact(s.spread, 6.0 / 5.0);
}

static void test_even_n(void **state)
{
	/* sorted 1 3 5 7: the median is the mean of the middle two, 4; sum of squares 20 */
	static const double x[] = { 7, 1, 5, 3 };
	struct gp_stats s = summarise(x, GP_ARRAY_SIZE(x));

	assert_exact(s.min, 1);
	assert_exact(s.median, 4);
	assert_exact(s.max, 7);
	assert_exact(s.mean, 4);
	assert_exact(s.stddev, sqrt(20.0 / 3.0));
	assert_exact(s.spread, 6.0 / 4.0);
}

static void test_even_n_median_not_an_element(void **state)
{
	static const double x[] = { 10, 2, 3, 100 };
	struct gp_stats s = summarise(x, GP_ARRAY_SIZE(x));

	assert_exact(s.median, 6.5);
	assert_exact(s.mean, 28.75);
}

static void test_large_shuffled(void **state)
{
	enum { N = 1001 };
	double *x = malloc(N * sizeof *x);
	struct gp_stats s;

	assert_non_null(x);
	/* 0..1000 in a scrambled order: 10 is coprime with 1001 = 7 * 11 * 13 */
	for (size_t i = 0; i < N; i++)
		x[i] = (double)((i * 10) % N);
	s = summarise(x, N);
	assert_exact(s.min, 0);
	assert_exact(s.max, 1000);
	assert_exact(s.median, 500);
	assert_exact(s.mean, 500);
	free(x);
}

static void test_spread_uses_magnitude_of_median(void **state)
{
	static const double x[] = { -2, -4, -2 };
	struct gp_stats s = summarise(x, GP_ARRAY_SIZE(x));

	assert_exact(s.median, -2);
	assert_exact(s.spread, 1);
}

static void test_identical_values(void **state)
{
	static const double x[] = { 3.5, 3.5, 3.5, 3.5 };
	static const double z[] = { 0, 0, 0 };
	struct gp_stats s = summarise(x, GP_ARRAY_SIZE(x));

	assert_exact(s.stddev, 0);
	assert_exact(s.spread, 0);
	/* A zero median must not turn the spread into NaN or infinity. */
	s = summarise(z, GP_ARRAY_SIZE(z));
	assert_exact(s.spread, 0);
}

static void test_single_value(void **state)
{
	static const double x[] = { 42.25 };
	struct gp_stats s = summarise(x, 1);

	assert_exact(s.min, 42.25);
	assert_exact(s.median, 42.25);
	assert_exact(s.max, 42.25);
	assert_exact(s.mean, 42.25);
	/* The sample stddev of one value is undefined (n - 1 = 0): reported as 0, never NaN. */
	assert_exact(s.stddev, 0);
	assert_exact(s.spread, 0);
}

static void test_empty_rejected(void **state)
{
	static const double x[] = { 1 };
	struct gp_stats s;

	assert_int_equal(gp_stats(x, 0, &s), -1);
}

static void test_nan_rejected(void **state)
{
	double x[] = { 1, 2, 3, 4 };
	struct gp_stats s;

	for (size_t i = 0; i < GP_ARRAY_SIZE(x); i++) {
		double keep = x[i];
		x[i] = NAN;
		assert_int_equal(gp_stats(x, GP_ARRAY_SIZE(x), &s), -1);
		x[i] = keep;
	}
	assert_int_equal(gp_stats(x, GP_ARRAY_SIZE(x), &s), 0);
}

static void test_input_unmodified(void **state)
{
	double x[] = { 9, -1, 4, 4, 0.5, 7, 3 };
	double copy[GP_ARRAY_SIZE(x)];

	memcpy(copy, x, sizeof x);
	summarise(x, GP_ARRAY_SIZE(x));
	assert_memory_equal(x, copy, sizeof x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_odd_n),
		cmocka_unit_test(test_even_n),
		cmocka_unit_test(test_even_n_median_not_an_element),
		cmocka_unit_test(test_large_shuffled),
		cmocka_unit_test(test_spread_uses_magnitude_of_median),
		cmocka_unit_test(test_identical_values),
		cmocka_unit_test(test_single_value),
		cmocka_unit_test(test_empty_rejected),
		cmocka_unit_test(test_nan_rejected),
		cmocka_unit_test(test_input_unmodified),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
