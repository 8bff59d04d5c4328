/* warp_replay.c — the table of probes/warp.list and its host replay (warp.h): each step computes
 * every lane's new value from the whole warp's old values, as the hardware exchanges them. */
#include "gp.h"
#include "warp.h"
#include "warp_shape.h"

#include <string.h>

static uint32_t all_nz(const uint32_t *w)
{
	for (unsigned i = 0; i < 32; i++)
		if (!w[i])
			return 0;
	return 1;
}

static uint32_t any_nz(const uint32_t *w)
{
	for (unsigned i = 0; i < 32; i++)
		if (w[i])
			return 1;
	return 0;
}

static uint32_t ballot_nz(const uint32_t *w)
{
	uint32_t b = 0;

	for (unsigned i = 0; i < 32; i++)
		b |= (uint32_t)(w[i] != 0) << i;
	return b;
}

static uint32_t match_any(const uint32_t *w, unsigned l)
{
	uint32_t b = 0;

	for (unsigned i = 0; i < 32; i++)
		b |= (uint32_t)(w[i] == w[l]) << i;
	return b;
}

static uint32_t match_all(const uint32_t *w)
{
	for (unsigned i = 1; i < 32; i++)
		if (w[i] != w[0])
			return 0;
	return 0xffffffffu;
}

/* redux.sync over the 32 lanes: unsigned add (mod 2^32), min, max, and bitwise ops. */
#define REDUCE(name, init, expr)                                                                   \
	static uint32_t name(const uint32_t *w)                                                    \
	{                                                                                          \
		uint32_t r = (init);                                                               \
		for (unsigned i = 0; i < 32; i++)                                                  \
			r = (expr);                                                                \
		return r;                                                                          \
	}
REDUCE(red_add, 0u, r + w[i])
REDUCE(red_min, 0xffffffffu, w[i] < r ? w[i] : r)
REDUCE(red_max, 0u, w[i] > r ? w[i] : r)
REDUCE(red_and, 0xffffffffu, r & w[i])
REDUCE(red_or, 0u, r | w[i])
REDUCE(red_xor, 0u, r ^ w[i])

#define WARP(name, sass, cc, frame, shape, ptx, pstart, pstep, what)                               \
	static uint32_t start_##name(unsigned lane, unsigned chain)                                \
	{                                                                                          \
		return WARP_START_##pstart(lane, chain);                                           \
	}                                                                                          \
	static uint32_t step_##name(const uint32_t *w, unsigned l)                                 \
	{                                                                                          \
		return (uint32_t)(pstep);                                                          \
	}
#include "warp.list"
#undef WARP

const struct gp_warp_op gp_warp_ops[] = {
#define WARP(n, sass_, cc_, frame_, shape, ptx_, pstart, pstep, what_)                             \
	{ .name = #n, .sass = sass_, .ptx = ptx_, .what = what_, .cc = cc_, .frame = GP_WFRAME_##frame_, \
	  .start = start_##n, .step = step_##n },
#include "warp.list"
#undef WARP
};

GP_TABLE_LOOKUP(struct gp_warp_op, gp_warp_ops, gp_nwarp_ops, gp_warp_find)

const char gp_warp_names_sp[] =
#define WARP(name, ...) " " #name
#include "warp.list"
#undef WARP
	;

void gp_warp_chain(const struct gp_warp_op *d, unsigned chain, long trips, long steps, uint32_t v[32])
{
	uint32_t next[32];

	for (unsigned l = 0; l < 32; l++)
		v[l] = d->start(l, chain);
	for (long t = 0; t < trips; t++) {
		for (unsigned l = 0; d->frame == GP_WFRAME_PRED && l < 32; l++)
			v[l] = v[l] != 0;
		for (long s = 0; s < steps; s++) {
			for (unsigned l = 0; l < 32; l++)
				next[l] = d->step(v, l);
			memcpy(v, next, sizeof next);
		}
	}
}

void gp_warp_tput_expect(const struct gp_warp_op *d, long trips, uint32_t want[32])
{
	uint32_t v[32];

	memset(want, 0, 32 * sizeof *want);
	for (unsigned c = 0; c < WARP_TPUT_ILP; c++) {
		gp_warp_chain(d, c, trips, WARP_TPUT_STEPS, v);
		for (unsigned l = 0; l < 32; l++)
			want[l] ^= v[l];
	}
}
