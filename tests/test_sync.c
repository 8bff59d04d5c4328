/* test_sync.c — host tests of the atomics and warp families' replays (no GPU): the latency chains
 * step by step, the throughput invariants against simulated update orders (whatever order the
 * hardware serialises a group's updates in, the checks must accept it, and reject a lost or a
 * repeated update), and the warp replay on hand-computed steps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "gp.h"
#include "atomic.h"
#include "warp.h"
#include "warp_shape.h"

static uint32_t f2u(float v) { return (union { float f; uint32_t u; }){ .f = v }.u; }
static float u2f(uint32_t u) { return (union { float f; uint32_t u; }){ .u = u }.f; }
static uint64_t d2u(double v) { return (union { double d; uint64_t u; }){ .d = v }.u; }
static double u2d(uint64_t u) { return (union { double d; uint64_t u; }){ .u = u }.d; }

static void test_atomic_chains(void **state)
{
	uint64_t s, x;

	gp_atomic_chain(gp_atomic_find("add_u32"), 5, &s, &x);
	assert_int_equal(s, 13);
	assert_int_equal(x, 8);
	gp_atomic_chain(gp_atomic_find("exch_b32"), 1, &s, &x);
	assert_int_equal(s, 22);
	assert_int_equal(x, 11);
	gp_atomic_chain(gp_atomic_find("exch_b32"), 2, &s, &x);
	assert_int_equal(s, 11);
	gp_atomic_chain(gp_atomic_find("cas_b32"), 1, &s, &x);
	assert_int_equal(s, 7);
	assert_int_equal(x, 5);
	gp_atomic_chain(gp_atomic_find("cas_b32"), 3, &s, &x);
	assert_int_equal(s, 7);
	assert_int_equal(x, 7);
	gp_atomic_chain(gp_atomic_find("min_s32"), 2, &s, &x);
	assert_int_equal(s, 3);
	assert_int_equal(x, 3);
	gp_atomic_chain(gp_atomic_find("add_f32"), 3, &s, &x);
	assert_true(u2f((uint32_t)s) == 5.0f && u2f((uint32_t)x) == 3.0f);
	/* f32 Fibonacci overflows and stays at inf. */
	gp_atomic_chain(gp_atomic_find("add_f32"), 1000, &s, &x);
	assert_int_equal(s, 0x7f800000u);
	assert_string_equal(GP_ATOMIC_CHOICES, "add_u32 add_u64 add_f32 add_f64 cas_b32 cas_b64 min_s32 max_s32 exch_b32");
}

/* One update of thread t by the operation's throughput semantics (atomic.list's tv, tw). */
static uint64_t update(const struct gp_atomic *a, uint64_t *slot, unsigned t)
{
	const uint64_t old = *slot;

	switch (a->kind) {
	case GP_AKIND_ADD:
		*slot = a->reg == GP_AREG_F32	? f2u(u2f((uint32_t)old) + 1.0f)
			: a->reg == GP_AREG_F64 ? d2u(u2d(old) + 1.0)
						: gp_atomic_mask(a, old + 1);
		break;
	case GP_AKIND_MIN: *slot = (int32_t)old < -(int32_t)(t + 1) ? old : (uint32_t)-(int32_t)(t + 1); break;
	case GP_AKIND_MAX: *slot = (int32_t)old > (int32_t)(t + 1) ? old : t + 1; break;
	case GP_AKIND_EXCH: *slot = t + 1; break;
	case GP_AKIND_CAS: *slot = old == 0 ? t + 1 : old; break;
	}
	return old;
}

/* k threads from t0, n updates each, in a random order; drop: one update lost. */
static void simulate(const struct gp_atomic *a, unsigned t0, unsigned k, long n, unsigned seed, int drop, uint64_t *slot,
		     uint64_t *xr)
{
	long left[64];
	long total = (long)k * n - drop;

	*slot = 0;
	*xr = 0;
	for (unsigned i = 0; i < k; i++)
		left[i] = n;
	srand(seed);
	while (total-- > 0) {
		unsigned i = (unsigned)rand() % k;
		while (!left[i])
			i = (i + 1) % k;
		left[i]--;
		*xr ^= update(a, slot, t0 + i);
	}
}

static void test_atomic_invariants(void **state)
{
	for (size_t i = 0; i < gp_natomics; i++) {
		const struct gp_atomic *a = &gp_atomics[i];
		for (unsigned seed = 1; seed < 20; seed++) {
			const unsigned k = 1 + seed % 7, t0 = 100 * seed;
			const long n = 2 + seed % 5;
			uint64_t slot, xr, want;
			int checked;
			simulate(a, t0, k, n, seed, 0, &slot, &xr);
			assert_true(gp_atomic_final_ok(a, slot, t0, k, n));
			want = gp_atomic_returns_xor(a, slot, t0, k, n, gp_atomic_add_xor(a, (uint64_t)k * n), &checked);
			if (checked)
				assert_true(gp_atomic_mask(a, xr) == gp_atomic_mask(a, want));
			/* A lost update: the count (ADD) or the results' XOR (EXCH, CAS) shows it. */
			simulate(a, t0, k, n, seed, 1, &slot, &xr);
			if (a->kind == GP_AKIND_ADD)
				assert_false(gp_atomic_final_ok(a, slot, t0, k, n));
			if (a->kind == GP_AKIND_CAS || a->kind == GP_AKIND_EXCH)
				assert_false(gp_atomic_final_ok(a, slot, t0, k, n) &&
					     gp_atomic_mask(a, xr) ==
						     gp_atomic_mask(a, gp_atomic_returns_xor(a, slot, t0, k, n, 0, &checked)));
		}
	}
}

/* An f32 sum of ones stops at 2^24; the XOR of what it returns, by brute force. */
static void test_atomic_f32_saturation(void **state)
{
	const struct gp_atomic *a = gp_atomic_find("add_f32");
	const uint64_t count = (1u << 24) + 5;
	uint64_t slot = 0, xr = 0;

	for (uint64_t i = 0; i < count; i++)
		xr ^= update(a, &slot, 0);
	assert_int_equal(slot, f2u(16777216.0f));
	assert_true(gp_atomic_final_ok(a, slot, 0, 1, (long)count));
	assert_int_equal(gp_atomic_add_xor(a, count), xr);
	assert_int_equal(gp_atomic_add_xor(a, count - 1), xr ^ f2u(16777216.0f));
}

static void test_warp_replay(void **state)
{
	uint32_t v[32], want[32], sum = 0, ballot = 0;

	gp_warp_chain(gp_warp_find("shfl_bfly"), 0, 1, 1, v);
	for (unsigned l = 0; l < 32; l++)
		assert_int_equal(v[l], WARP_START_PERM(l ^ 1u, 0u));
	gp_warp_chain(gp_warp_find("shfl_idx"), 0, 1, 3, v);
	for (unsigned l = 0; l < 32; l++)
		assert_int_equal(v[l], WARP_START_PERM((l + 3u) & 31u, 0u));
	gp_warp_chain(gp_warp_find("shfl_up"), 0, 1, 40, v);
	for (unsigned l = 0; l < 32; l++)
		assert_int_equal(v[l], WARP_START_PERM(0u, 0u));
	for (unsigned l = 0; l < 32; l++) {
		sum += WARP_START_DUP(l, 0u);
		ballot |= (uint32_t)(WARP_START_DUP(l, 0u) != 0) << l;
	}
	gp_warp_chain(gp_warp_find("redux_add"), 0, 1, 1, v);
	assert_int_equal(v[5], sum);
	gp_warp_chain(gp_warp_find("redux_add"), 0, 1, 2, v);
	assert_int_equal(v[31], 32u * sum);
	gp_warp_chain(gp_warp_find("vote_ballot"), 0, 1, 1, v);
	assert_int_equal(v[0], ballot);
	gp_warp_chain(gp_warp_find("vote_all"), 0, 2, 3, v);
	assert_int_equal(v[0], 0);
	gp_warp_chain(gp_warp_find("vote_any"), 0, 2, 3, v);
	assert_int_equal(v[7], 1);
	gp_warp_chain(gp_warp_find("match_all"), 0, 1, 1, v);
	assert_int_equal(v[3], 0);
	gp_warp_chain(gp_warp_find("match_all"), 0, 1, 2, v);
	assert_int_equal(v[3], 0xffffffffu);
	gp_warp_chain(gp_warp_find("match_any"), 0, 1, 1, v);
	assert_int_equal(v[0], v[5]); /* DUP: lanes 0 and 5 hold the same value */
	assert_true(v[0] & 1u << 5 && !(v[0] & 2u));
	gp_warp_tput_expect(gp_warp_find("syncwarp"), 3, want);
	assert_int_equal(want[2], WARP_START_PERM(2u, 0u) ^ WARP_START_PERM(2u, 1u) ^ WARP_START_PERM(2u, 2u) ^
				       WARP_START_PERM(2u, 3u) ^ WARP_START_PERM(2u, 4u) ^ WARP_START_PERM(2u, 5u) ^
				       WARP_START_PERM(2u, 6u) ^ WARP_START_PERM(2u, 7u));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_atomic_chains),
		cmocka_unit_test(test_atomic_invariants),
		cmocka_unit_test(test_atomic_f32_saturation),
		cmocka_unit_test(test_warp_replay),
	};

	return cmocka_run_group_tests_name("sync", tests, NULL, NULL);
}
