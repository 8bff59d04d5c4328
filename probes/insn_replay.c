/* insn_replay.c — the table of probes/insn.list and its host replay (insn.h). Each entry's host
 * fields become three functions (operands, start bits per class, one step on raw bits); the chain
 * replay runs trips of steps exactly as the kernels' asm does, so one differing bit means a step
 * was skipped, repeated or reordered. Pitfalls: no contraction of a * b + c into an FMA here
 * (-ffp-contract=off); MUFU is only approximated (double precision). */
#include "gp.h"
#include "insn.h"
#include "insn_shape.h"

#include <limits.h>
#include <math.h>
#include <string.h>

/* Bits <-> values, for the list's start and step expressions (a union reads the other member's
 * bits, as C11 defines). */
static uint32_t f2u(float v) { return (union { float f; uint32_t u; }){ .f = v }.u; }
static float u2f(uint32_t u) { return (union { float f; uint32_t u; }){ .u = u }.f; }
static uint64_t d2u(double v) { return (union { double d; uint64_t u; }){ .d = v }.u; }
static double u2d(uint64_t u) { return (union { double d; uint64_t u; }){ .u = u }.d; }

#define F(v) u2f((uint32_t)(v))
#define U(v) ((uint32_t)(v))
#define D(v) u2d(v)
#define F32B(v) f2u(v)
#define D64B(v) d2u(v)
#define H2B(lo, hi) ((uint64_t)(hi) << 16 | (lo))

/* HFMA2: two binary16 FMAs, rounded to nearest even each. */
static uint32_t h2_fma(uint32_t x, uint32_t a, uint32_t b)
{
	return (uint32_t)gp_half_fma((uint16_t)x, (uint16_t)a, (uint16_t)b) |
	       (uint32_t)gp_half_fma((uint16_t)(x >> 16), (uint16_t)(a >> 16), (uint16_t)(b >> 16)) << 16;
}

/* cvt.rzi.s32.f32: truncation, saturating, NaN to 0. */
static uint32_t f2i_trunc(uint32_t x)
{
	const float f = u2f(x);

	if (isnan(f))
		return 0;
	if (f >= 2147483648.0f)
		return INT32_MAX;
	if (f < -2147483648.0f)
		return (uint32_t)INT32_MIN;
	return (uint32_t)(int32_t)truncf(f);
}

/* A 64-bit register keeps all its bits; the others are 32-bit words. */
#define KEEP_F64(e) ((uint64_t)(e))
#define KEEP_F32(e) ((uint64_t)(uint32_t)(e))
#define KEEP_U32(e) ((uint64_t)(uint32_t)(e))
#define KEEP_H2(e) ((uint64_t)(uint32_t)(e))

#define INSN(name, sass, alt, rate, chain, type, check, frame, shape, ptx, pa, pb, pc, pstart, pstep, what) \
	static uint64_t opnd_##name(int which)                                                     \
	{                                                                                          \
		return which ? KEEP_##type(pb) : KEEP_##type(pa);                                  \
	}                                                                                          \
	static uint64_t start_##name(unsigned k)                                                   \
	{                                                                                          \
		return KEEP_##type(pstart);                                                        \
	}                                                                                          \
	static uint64_t step_##name(uint64_t x, uint64_t a, uint64_t b, float c)                   \
	{                                                                                          \
		return KEEP_##type(pstep);                                                         \
	}
#include "insn.list"
#undef INSN

#define NO_ALT 0, NULL, NULL
#define ALT(cc, sass, rate) cc, sass, #rate
#define CHAIN_LT 1
#define CHAIN_T 0
#define CHECK_EXACT 0
#define CHECK_APPROX 1

const struct gp_insn gp_insns[] = {
#define INSN(n, sass_, alt, rate_, chain, type_, check, frame_, shape_, ptx_, pa, pb, pc, pstart, pstep, what_) \
	{ .name = #n, .sass = sass_, .rate = #rate_, .shape = #shape_, .ptx = ptx_, .what = what_,          \
	  .alt_cc = alt, .lat = CHAIN_##chain, .type = GP_INSN_##type_, .approx = CHECK_##check,           \
	  .frame = GP_FRAME_##frame_, .c = pc, .opnd = opnd_##n, .start = start_##n, .step = step_##n },
#include "insn.list"
#undef INSN
};

GP_TABLE_LOOKUP(struct gp_insn, gp_insns, gp_ninsns, gp_insn_find)

const char gp_insn_names_sp[] =
#define INSN(name, ...) " " #name
#include "insn.list"
#undef INSN
	;
#define LAT_NAME_LT(name) " " #name
#define LAT_NAME_T(name)
const char gp_insn_lat_names_sp[] =
#define INSN(name, sass, alt, rate, chain, ...) LAT_NAME_##chain(name)
#include "insn.list"
#undef INSN
	;

const char *gp_insn_sass(const struct gp_insn *d, int cc)
{
	return d->alt_cc && cc >= d->alt_cc ? d->alt_sass : d->sass;
}

const char *gp_insn_rate(const struct gp_insn *d, int cc)
{
	return d->alt_cc && cc >= d->alt_cc ? d->alt_rate : d->rate;
}

int gp_insn_results(const struct gp_insn *d)
{
	return d->type == GP_INSN_H2 ? 2 : 1;
}

void gp_insn_operands(const struct gp_insn *d, uint64_t opnd[INSN_OPND_WORDS])
{
	opnd[0] = d->opnd(0);
	opnd[1] = d->opnd(1);
	for (unsigned k = 0; k < INSN_CLASSES; k++)
		opnd[2 + k] = d->start(k);
}

/* A PRED frame's trip opens with p = (x != b), xors each step's term into p and closes with a
 * select (latency: x = p; throughput: x = p ? x : b), as insn.cu's PRED frame does. */
static uint64_t pred_trip(const struct gp_insn *d, uint64_t x, uint64_t a, uint64_t b, long steps, int lat)
{
	int p = (uint32_t)x != (uint32_t)b;

	for (long s = 0; s < steps; s++)
		p ^= d->step(x, a, b, d->c) != 0;
	return lat ? (uint64_t)p : p ? x : b;
}

uint64_t gp_insn_chain(const struct gp_insn *d, uint64_t x, long trips, long steps, int lat)
{
	const uint64_t a = d->opnd(0), b = d->opnd(1);

	for (long t = 0; t < trips; t++) {
		if (d->frame == GP_FRAME_PRED) {
			x = pred_trip(d, x, a, b, steps, lat);
			continue;
		}
		for (long s = 0; s < steps; s++)
			x = d->step(x, a, b, d->c);
	}
	return x;
}

int gp_insn_match(const struct gp_insn *d, uint64_t got, uint64_t want)
{
	double g, w;

	if (!d->approx)
		return d->type == GP_INSN_F64 ? got == want : (uint32_t)got == (uint32_t)want;
	g = u2f((uint32_t)got);
	w = u2f((uint32_t)want);
	return isfinite(g) && fabs(g - w) <= 1e-2 * fabs(w);
}

/* Chain k of a shared chase starts at word lane + 32 k; every other chain k at class
 * (tid + k) mod 7. */
uint64_t gp_insn_tput_expect(const struct gp_insn *d, unsigned tid, long trips)
{
	uint64_t x = 0;

	for (unsigned k = 0; k < INSN_TPUT_ILP; k++) {
		const uint64_t s = d->frame == GP_FRAME_CHASE ? 4u * (tid % 32u) + 128u * k
							      : d->start((tid + k) % INSN_CLASSES);
		const uint64_t v = gp_insn_chain(d, s, trips, INSN_TPUT_STEPS, 0);
		x ^= d->type == GP_INSN_F64 ? v : (uint32_t)v;
	}
	return x;
}

unsigned gp_insn_period(const struct gp_insn *d)
{
	return d->frame == GP_FRAME_CHASE ? 32 : INSN_CLASSES;
}
