/* test_place.c — where the placements of a page-sensitive buffer lie (gp_place_stride,
 * harness/meas_api.c): tput_atomic's slots and bw_hbm's l2_read footprint are measured on copies
 * spread over one allocation, whose stride must be whole pages, an odd number of them (so the
 * copies differ in the low page bits too), at least the buffer's size, and keep the copies inside
 * the span (an eighth of the device's memory, GP_PLACE_SPAN at most). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gp.h"
#include "measure.h"

#define MIB (1ull << 20)
#define GIB (1ull << 30)

static void test_stride_is_odd_pages_in_span(void **state)
{
	static const struct {
		size_t bytes;
		unsigned n;
		size_t mem;
		size_t want;
	} c[] = {
		{ 1100000, 16, 80 * GIB, 127 * 2 * MIB }, /* 4 GiB / 16 = 128 pages: 127 */
		{ 8 * MIB, 10, 80 * GIB, 203 * 2 * MIB }, /* 4096 MiB / 10 = 204.8 pages: 203 */
		{ 1100000, 16, 8 * GIB, 31 * 2 * MIB },   /* an eighth of 8 GiB: 64 MiB apart -> 31 pages */
		{ 8 * MIB, 1, 80 * GIB, 8 * MIB },        /* one copy: its own size */
		{ 100 * MIB, 16, 8 * GIB, 100 * MIB },    /* larger than the span allows: its size */
		{ 3 * MIB, 4096, 80 * GIB, 2 * 2 * MIB }, /* the size rounded up to pages */
	};

	(void)state;
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		const size_t s = gp_place_stride(c[i].bytes, c[i].n, c[i].mem);
		assert_int_equal(s, c[i].want);
		assert_int_equal(s % GP_PLACE_ALIGN, 0);
		assert_true(s >= c[i].bytes);
	}
}

static void test_copies_stay_in_span(void **state)
{
	(void)state;
	for (unsigned n = 2; n <= 64; n++)
		for (size_t mem = 4 * GIB; mem <= 192 * GIB; mem *= 2) {
			const size_t bytes = 1100000, s = gp_place_stride(bytes, n, mem);
			const size_t span = mem / 8 < GP_PLACE_SPAN ? mem / 8 : GP_PLACE_SPAN;
			assert_true(s * (n - 1) + bytes <= span);
			assert_true((s / GP_PLACE_ALIGN) % 2 == 1);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stride_is_odd_pages_in_span),
		cmocka_unit_test(test_copies_stay_in_span),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
