/* sassplan.c — patch plans of the SASS probes (probes/sassprobe.h).
 *
 * Plans work on a private copy of a template cubin and go through gp_sass_patch, so the
 * relocation, bounds and REGCOUNT checks apply to every edit; only the stall/yield pairs ptxas
 * never emits are forced, because those are the experiment. Pitfall: a wait bit is cleared only
 * on a plain consumer (the first waiter reads the load's register), never on an unrelated wait. */
#include "sassprobe.h"
#include "sass/patch.h"
#include "gp.h"

#include <stdio.h>
#include <string.h>

static struct gp_insn at(struct gp_cubin *c, const struct gp_cubin_kernel *k, size_t i)
{
	return gp_insn_load(gp_cubin_text(c, k) + i * GP_INSN_BYTES);
}

static int is_clock_read(struct gp_insn w)
{
	return gp_insn_get(w, GP_F_OPCODE) == SP_OP_CS2R && gp_insn_bits(w, 72, 8) == SP_SR_CLOCKLO &&
	       gp_insn_get(w, GP_F_PRED) == GP_PRED_PT && !gp_insn_get(w, GP_F_PNEG);
}

int sp_timed_region(struct gp_cubin *c, const char *kernel, struct sp_region *r)
{
	const struct gp_cubin_kernel *k = gp_cubin_kernel(c, kernel);
	long first = -1;

	if (!k)
		return -1;
	for (size_t i = 0; i < k->ninsn; i++) {
		if (!is_clock_read(at(c, k, i)))
			continue;
		if (first < 0) {
			first = (long)i;
			continue;
		}
		r->lo = (size_t)first + 1;
		r->hi = i;
		return 0;
	}
	return gp_cubin_fail(c, "%s: no two unpredicated CS2R SR_CLOCKLO around a timed region", kernel);
}

size_t sp_find_opcode(struct gp_cubin *c, const char *kernel, const struct sp_region *r, uint32_t opcode,
		      size_t *idx, size_t max)
{
	const struct gp_cubin_kernel *k = gp_cubin_kernel(c, kernel);
	size_t n = 0;

	if (!k)
		return 0;
	for (size_t i = r->lo; i < r->hi && i < k->ninsn; i++)
		if (gp_insn_get(at(c, k, i), GP_F_OPCODE) == opcode) {
			if (n < max)
				idx[n] = i;
			n++;
		}
	return n;
}

int sp_free_regs(struct gp_cubin *c, const char *kernel, const struct sp_region *r, uint8_t free_[256])
{
	const struct gp_cubin_kernel *k = gp_cubin_kernel(c, kernel);

	if (!k)
		return -1;
	if (k->regcount <= 0)
		return gp_cubin_fail(c, "%s has no REGCOUNT", kernel);
	memset(free_, 0, 256);
	for (int i = 0; i < k->regcount && i < GP_REG_RZ; i++)
		free_[i] = 1;
	for (size_t i = r->lo; i < r->hi; i++) {
		struct gp_insn w = at(c, k, i);
		unsigned rd = gp_insn_get(w, GP_F_RD);
		int known = gp_insn_classify(w) != GP_I_UNKNOWN;

		free_[rd] = 0;
		if (!known && rd + 1 < 256)
			free_[rd + 1] = 0;
	}
	free_[GP_REG_RZ] = 0;
	return 0;
}

int sp_pick_reg(const uint8_t free_[256], uint8_t taken[256], unsigned residue, unsigned modulus)
{
	for (unsigned reg = residue % modulus; reg < GP_REG_RZ; reg += modulus)
		if (free_[reg] && !taken[reg]) {
			taken[reg] = 1;
			return (int)reg;
		}
	return -1;
}

long sp_plan_stall(struct gp_cubin *c, const char *kernel, unsigned stall, unsigned yield)
{
	size_t idx[SP_MAX_STREAM], n;
	struct sp_region r;

	if (sp_timed_region(c, kernel, &r) < 0)
		return -1;
	n = sp_find_opcode(c, kernel, &r, gp_insn_classes[GP_I_FFMA_RRR].opcode, idx, SP_MAX_STREAM);
	if (!n || n > SP_MAX_STREAM)
		return gp_cubin_fail(c, "%s: %zu FFMA R,R,R,R in the timed region", kernel, n);
	/* Forced always: the patcher checks each half against the other's old value, which can
	 * refuse a valid final pair on the way; the pair itself is the experiment's parameter. */
	for (size_t i = 0; i < n; i++)
		if (gp_sass_patch(c, kernel, idx[i], GP_F_STALL, stall, 1) < 0 ||
		    gp_sass_patch(c, kernel, idx[i], GP_F_YIELD, yield, 1) < 0)
			return -1;
	return (long)n;
}

static int reads_reg(struct gp_insn w, unsigned reg)
{
	return gp_insn_get(w, GP_F_RA) == reg || gp_insn_get(w, GP_F_RB) == reg || gp_insn_get(w, GP_F_RC) == reg;
}

long sp_plan_wait(struct gp_cubin *c, const char *kernel, uint32_t load_opcode, int clear)
{
	const struct gp_cubin_kernel *k = gp_cubin_kernel(c, kernel);
	struct sp_region r;
	long found = 0;

	if (!k || sp_timed_region(c, kernel, &r) < 0)
		return -1;
	for (size_t i = r.lo; i < r.hi; i++) {
		struct gp_insn w = at(c, k, i);
		unsigned sb = gp_insn_get(w, GP_F_WBAR), rd = gp_insn_get(w, GP_F_RD);

		if (gp_insn_get(w, GP_F_OPCODE) != load_opcode || sb >= GP_SB_COUNT)
			continue;
		for (size_t j = i + 1; j < r.hi; j++) {
			struct gp_insn u = at(c, k, j);
			unsigned wait = gp_insn_get(u, GP_F_WAIT);

			if (!(wait >> sb & 1))
				continue;
			if (!reads_reg(u, rd))
				break;  /* someone else waits first: not a plain consumer */
			if (clear && gp_sass_patch(c, kernel, j, GP_F_WAIT, wait & ~(1u << sb), 0) < 0)
				return -1;
			found++;
			break;
		}
	}
	if (!found)
		return gp_cubin_fail(c, "%s: no load (opcode %#x) of the timed region has a waiting consumer", kernel,
			             load_opcode);
	return found;
}

long sp_plan_sources(struct gp_cubin *c, const char *kernel, uint32_t op, const int (*src)[3], size_t n,
		     unsigned reuse)
{
	static const enum gp_insn_field slot[3] = { GP_F_RA, GP_F_RB, GP_F_RC };
	size_t idx[SP_MAX_STREAM], len;
	struct sp_region r;

	if (!n)
		return gp_cubin_fail(c, "empty source pattern");
	if (sp_timed_region(c, kernel, &r) < 0)
		return -1;
	len = sp_find_opcode(c, kernel, &r, op, idx, SP_MAX_STREAM);
	if (!len || len > SP_MAX_STREAM)
		return gp_cubin_fail(c, "%s: %zu instructions of opcode %#x in the timed region", kernel, len, op);
	for (size_t i = 0; i < len; i++) {
		for (int s = 0; s < 3; s++)
			if (src[i % n][s] >= 0 &&
			    gp_sass_patch(c, kernel, idx[i], slot[s], (uint32_t)src[i % n][s], 0) < 0)
				return -1;
		if (gp_sass_patch(c, kernel, idx[i], GP_F_REUSE, reuse, 0) < 0)
			return -1;
	}
	return (long)len;
}
