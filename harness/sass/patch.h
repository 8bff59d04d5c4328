/* patch.h — edit one field of one instruction of a kernel in a cubin, in place, with checks.
 *
 * A patch never moves code: it rewrites bits of one 16-byte word inside .text.<kernel>. It is
 * refused (error string in c->err, return -1) when the instruction is outside the kernel, a
 * relocation covers it, the value does not fit the field, a register operand would reach past the
 * kernel's register count, or the control fields would take a combination nvcc never emits;
 * `force` lifts only the last two kinds of check, never the first three, and never the refusal of
 * an architecture without a verified field map (gp_insn_isa: sm_70-sm_90, sm_100, sm_120). */
#ifndef GP_SASS_PATCH_H
#define GP_SASS_PATCH_H

#include "sass/cubin.h"
#include "sass/insn.h"

/* Stall/yield pairs ptxas emits for instructions that execute (sm_75 … sm_120, CUDA 13):
 * stall 1 with yield bit 1, stall 2-15 with either yield bit. Stall 0 only appears on the
 * unreachable self-branch and NOP padding after the last EXIT, and stall 1 is never paired with
 * yield bit 0. Anything else is an experiment (E105) and needs force. */
int gp_sass_stall_yield_valid(unsigned stall, unsigned yield);

/* Check that the patch is allowed, without changing anything: 0 or -1 with c->err. */
int gp_sass_patch_check(struct gp_cubin *c, const char *kernel, size_t index,
			enum gp_insn_field f, uint32_t value, int force);
/* Check and apply. */
int gp_sass_patch(struct gp_cubin *c, const char *kernel, size_t index, enum gp_insn_field f,
		  uint32_t value, int force);

/* Instruction `index` of a kernel; -1 with c->err if the kernel or index does not exist. */
int gp_sass_insn(struct gp_cubin *c, const char *kernel, size_t index, struct gp_insn *w);

#endif
