/* patch.c — safety-checked in-place edits of instruction fields.
 *
 * Why each check: an index past .text.<k> would edit another kernel or metadata; a relocation
 * under the word is rewritten by the loader, so our bits would be lost or would corrupt its
 * value; a register at or above REGCOUNT faults on launch (sm_90 knows the count only from
 * REGCOUNT); 255 is RZ and always legal. A register field is only checked as a register where
 * the instruction's form is known to hold a register there; in an unknown form it is checked
 * anyway (the conservative reading), and a known non-register field (the immediate's low bits
 * in FFMA R, R, imm, R) is refused unless forced. 64-bit operands use R(n+1) too, which the
 * opcode alone cannot tell; the REGCOUNT check is then one register short. Scoreboards are 0-5
 * with 7 meaning none; 6 does not exist. */
#include "sass/patch.h"

#include <stdio.h>

int gp_sass_stall_yield_valid(unsigned stall, unsigned yield)
{
	if (stall < 1 || stall > 15 || yield > 1)
		return 0;
	return !(stall == 1 && yield == 0);
}

static const struct gp_cubin_kernel *locate(struct gp_cubin *c, const char *kernel, size_t index)
{
	const struct gp_cubin_kernel *k;

	if (c->sm < 70)
		return gp_cubin_fail(c, "sm_%d: not a 128-bit Volta-family instruction set", c->sm), NULL;
	k = gp_cubin_kernel(c, kernel);
	if (!k)
		return NULL;
	if (index >= k->ninsn)
		return gp_cubin_fail(c, "instruction %zu is past the end of %s (%zu instructions)", index,
			             kernel, k->ninsn), NULL;
	return k;
}

int gp_sass_insn(struct gp_cubin *c, const char *kernel, size_t index, struct gp_insn *w)
{
	const struct gp_cubin_kernel *k = locate(c, kernel, index);

	if (!k)
		return -1;
	*w = gp_insn_load(gp_cubin_text(c, k) + index * GP_INSN_BYTES);
	return 0;
}

static int check_reg(struct gp_cubin *c, const struct gp_cubin_kernel *k, struct gp_insn w,
		     enum gp_insn_field f, uint32_t value, int force)
{
	const char *name = gp_insn_fields[f].name;

	if (gp_insn_field_is_reg_operand_sm(c->sm, w, f) == 0 && !force)
		return gp_cubin_fail(c, "%s of this %s is not a register operand (use force)", name,
			             gp_insn_classes[gp_insn_classify_sm(c->sm, w)].name);
	if (value == GP_REG_RZ || force)
		return 0;
	if (k->regcount < 0)
		return gp_cubin_fail(c, "%s has no REGCOUNT; cannot check R%u (use force)", k->name, value);
	if (value >= (uint32_t)k->regcount)
		return gp_cubin_fail(c, "R%u is not below %s's register count %d", value, k->name, k->regcount);
	return 0;
}

static int check_control(struct gp_cubin *c, struct gp_insn w, enum gp_insn_field f, uint32_t value,
			 int force)
{
	if (force)
		return 0;
	if (f == GP_F_STALL || f == GP_F_YIELD) {
		unsigned stall = f == GP_F_STALL ? value : gp_insn_get(w, GP_F_STALL);
		unsigned yield = f == GP_F_YIELD ? value : gp_insn_get(w, GP_F_YIELD);
		if (!gp_sass_stall_yield_valid(stall, yield))
			return gp_cubin_fail(c, "stall %u with yield bit %u is not a combination nvcc emits (use force)",
				             stall, yield);
	}
	if ((f == GP_F_WBAR || f == GP_F_RBAR) && value >= GP_SB_COUNT && value != GP_SB_NONE)
		return gp_cubin_fail(c, "scoreboard %u does not exist (0-%d, %d = none)", value, GP_SB_COUNT - 1,
			             GP_SB_NONE);
	return 0;
}

int gp_sass_patch_check(struct gp_cubin *c, const char *kernel, size_t index,
			enum gp_insn_field f, uint32_t value, int force)
{
	const struct gp_cubin_kernel *k;
	const struct gp_cubin_reloc *r;
	struct gp_insn w;

	if ((unsigned)f >= GP_F_COUNT)
		return gp_cubin_fail(c, "unknown field %d", (int)f);
	k = locate(c, kernel, index);
	if (!k)
		return -1;
	if (!gp_insn_isa(c->sm)) /* no force: the bits would be written where nothing says the field is */
		return gp_cubin_fail(c, "sm_%d: no verified instruction field map for this architecture (verified: %s)",
			             c->sm, gp_insn_isa_names());
	if (f == GP_F_OPCODE && !force) /* another opcode is another instruction, with other operands */
		return gp_cubin_fail(c, "changing the opcode makes a different instruction (use force)");
	w = gp_insn_load(gp_cubin_text(c, k) + index * GP_INSN_BYTES);
	r = gp_cubin_reloc_in(c, k->text, index * GP_INSN_BYTES, GP_INSN_BYTES);
	if (r)
		return gp_cubin_fail(c, "instruction %zu of %s is under a relocation (type %#x at %#llx)", index,
			             kernel, r->type, (unsigned long long)r->offset);
	if (gp_insn_set(&w, f, value) < 0)
		return gp_cubin_fail(c, "value %u does not fit %s (%u bits)", value, gp_insn_fields[f].name,
			             gp_insn_fields[f].width);
	if (gp_insn_fields[f].is_reg && check_reg(c, k, w, f, value, force) < 0)
		return -1;
	return check_control(c, w, f, value, force);
}

int gp_sass_patch(struct gp_cubin *c, const char *kernel, size_t index, enum gp_insn_field f,
		  uint32_t value, int force)
{
	const struct gp_cubin_kernel *k;
	unsigned char *p;
	struct gp_insn w;

	if (gp_sass_patch_check(c, kernel, index, f, value, force) < 0)
		return -1;
	k = gp_cubin_kernel(c, kernel);
	p = gp_cubin_text(c, k) + index * GP_INSN_BYTES;
	w = gp_insn_load(p);
	gp_insn_set(&w, f, value);
	gp_insn_store(p, w);
	return 0;
}
