/* atomic_replay.c — the table of probes/atomic.list and its host replay (atomic.h): the latency
 * chain step by step as the kernel's asm runs it (the slot gets step(s, x, y), the chain gets
 * the slot's old value), and the throughput run's invariants, which do not depend on the order
 * in which the hardware serialised the updates. Pitfall: f32 atom.add flushes subnormals; the
 * chains here never make one, so plain float addition (no contraction: -ffp-contract=off)
 * replays it bit for bit. */
#include "gp.h"
#include "atomic.h"
#include "atomic_shape.h"

#include <string.h>

static uint32_t f2u(float v) { return (union { float f; uint32_t u; }){ .f = v }.u; }
static float u2f(uint32_t u) { return (union { float f; uint32_t u; }){ .u = u }.f; }
static uint64_t d2u(double v) { return (union { double d; uint64_t u; }){ .d = v }.u; }
static double u2d(uint64_t u) { return (union { double d; uint64_t u; }){ .u = u }.d; }

#define F(v) u2f((uint32_t)(v))
#define D(v) u2d(v)
#define U32(v) ((uint32_t)(v))
#define I32(v) ((int32_t)(uint32_t)(v))
#define F32B(v) f2u(v)
#define D64B(v) d2u(v)

#define ATOMIC(name, ptx, reg, red, shape, sg, ss, sr, ps0, px0, py, pstep, kind, tv, tw, what)   \
	static uint64_t step_##name(uint64_t s, uint64_t x, uint64_t y)                            \
	{                                                                                          \
		(void)x;                                                                           \
		(void)y;                                                                           \
		return (uint64_t)(pstep);                                                          \
	}
#include "atomic.list"
#undef ATOMIC

#define HAS_RED 1
#define HAS_NORED 0

const struct gp_atomic gp_atomics[] = {
#define ATOMIC(n, ptx_, reg_, red, shape, sg, ss, sr, ps0, px0, py, pstep, kind_, tv, tw, what_)   \
	{ .name = #n, .ptx = ptx_, .sass_global = sg, .sass_shared = ss, .sass_red = sr, .what = what_, \
	  .reg = GP_AREG_##reg_, .kind = GP_AKIND_##kind_, .has_red = HAS_##red, .s0 = (ps0),       \
	  .x0 = (px0), .y = (py), .step = step_##n },
#include "atomic.list"
#undef ATOMIC
};

GP_TABLE_LOOKUP(struct gp_atomic, gp_atomics, gp_natomics, gp_atomic_find)

const char gp_atomic_names_sp[] =
#define ATOMIC(name, ...) " " #name
#include "atomic.list"
#undef ATOMIC
	;

int gp_atomic_bytes(const struct gp_atomic *a)
{
	return a->reg == GP_AREG_R64 || a->reg == GP_AREG_F64 ? 8 : 4;
}

uint64_t gp_atomic_mask(const struct gp_atomic *a, uint64_t bits)
{
	return gp_atomic_bytes(a) == 8 ? bits : (uint32_t)bits;
}

void gp_atomic_chain(const struct gp_atomic *a, long steps, uint64_t *slot, uint64_t *x)
{
	uint64_t s = gp_atomic_mask(a, a->s0), v = gp_atomic_mask(a, a->x0);

	for (long i = 0; i < steps; i++) {
		const uint64_t old = s;
		s = gp_atomic_mask(a, a->step(s, v, a->y));
		v = old;
	}
	*slot = s;
	*x = v;
}

/* The bits of the integer i in the operation's type; f32 saturates where 1 no longer adds. */
static uint64_t count_bits(const struct gp_atomic *a, uint64_t i)
{
	switch (a->reg) {
	case GP_AREG_F32: return f2u((float)(i > (1u << 24) ? 1u << 24 : i));
	case GP_AREG_F64: return d2u((double)i);
	default: return gp_atomic_mask(a, i);
	}
}

int gp_atomic_final_ok(const struct gp_atomic *a, uint64_t got, unsigned t0, unsigned k, long n)
{
	const uint64_t v = gp_atomic_mask(a, got);

	switch (a->kind) {
	case GP_AKIND_ADD: return v == count_bits(a, (uint64_t)k * (uint64_t)n);
	case GP_AKIND_MIN: return v == (uint32_t)-(int64_t)((uint64_t)t0 + k);
	case GP_AKIND_MAX: return v == (uint64_t)t0 + k;
	case GP_AKIND_EXCH:
	case GP_AKIND_CAS: return v >= (uint64_t)t0 + 1 && v <= (uint64_t)t0 + k;
	}
	return 0;
}

/* XOR of 0 … m - 1. */
static uint64_t xor_upto(uint64_t m)
{
	const uint64_t last = m - 1;

	if (!m)
		return 0;
	switch (last & 3) {
	case 0: return last;
	case 1: return 1;
	case 2: return last + 1;
	default: return 0;
	}
}

uint64_t gp_atomic_add_xor(const struct gp_atomic *a, uint64_t count)
{
	uint64_t x = 0;

	if (a->reg == GP_AREG_R32 || a->reg == GP_AREG_R64)
		return gp_atomic_mask(a, xor_upto(count));
	if (a->reg == GP_AREG_F32 && count > (1u << 24) + 1u) {
		/* Past 2^24 every update returns 2^24: the same bits, an odd or even number of times. */
		x = gp_atomic_add_xor(a, (1u << 24) + 1u);
		return (count - (1u << 24) - 1u) & 1 ? x ^ count_bits(a, 1u << 24) : x;
	}
	for (uint64_t i = 0; i < count; i++)
		x ^= count_bits(a, i);
	return x;
}

/* EXCH: the results are 0 and every value written but the last, so their XOR is the XOR of all
 * writes with the last value; a thread writing t + 1 an even number of times adds nothing.
 * CAS (compare 0, swap t + 1): the first update returns 0 and swaps, every other returns the
 * winner's value. */
uint64_t gp_atomic_returns_xor(const struct gp_atomic *a, uint64_t final, unsigned t0, unsigned k, long n,
			       uint64_t add_xor, int *checked)
{
	const uint64_t v = gp_atomic_mask(a, final), count = (uint64_t)k * (uint64_t)n;
	uint64_t writes = 0;

	*checked = 1;
	switch (a->kind) {
	case GP_AKIND_ADD: return add_xor;
	case GP_AKIND_CAS: return (count - 1) & 1 ? v : 0;
	case GP_AKIND_EXCH:
		for (unsigned t = t0; n & 1 && t < t0 + k; t++)
			writes ^= (uint64_t)t + 1;
		return writes ^ v;
	default: *checked = 0; return 0;
	}
}

int gp_atomic_trips(int iters, int shared, unsigned k)
{
	const unsigned div = shared && k > ATOM_SHARED_KCAP ? ATOM_SHARED_KCAP : k ? k : 1;
	const long trips = (long)iters * (shared ? ATOM_SHARED_WORK : 1) / (long)div;

	return trips > 0 ? (int)trips : 1;
}
