/* sassprobe.h — the SASS probes (stall_*, regbank_*): patch plans (sassplan.c), the patched
 * kernel of a point (sassprobe.c) and the derivations from their tables (sassprobe_report.c).
 * Plans and derivations are host-only, so tests/test_sassprobe.c runs them on real template
 * cubins and synthetic tables without a GPU.
 *
 * A plan finds the timed region of a template kernel (the instructions between its first two
 * unpredicated CS2R Rd, SR_CLOCKLO), the instructions of one form in it (FFMA R,R,R,R …), and
 * rewrites only the fields the experiment is about. Registers a plan may read are those below
 * REGCOUNT that no instruction of the region writes: reading any register is harmless, writing
 * one the surrounding code needs is not, so destinations are never changed. */
#ifndef GP_SASSPROBE_H
#define GP_SASSPROBE_H

#include <stddef.h>
#include <stdint.h>

#include "sass/cubin.h"
#include "sass/insn.h"
#include "table.h"

#define SP_OP_CS2R 0x805
#define SP_SR_CLOCKLO 0x50      /* CS2R special register, bits 72-79 */
#define SP_OP_LDG 0x981
#define SP_OP_LDS 0x984
#define SP_MAX_STREAM 1024

struct sp_region {
	size_t lo, hi;          /* instructions [lo, hi) of the kernel */
};

/* The timed region; -1 with c->err if the kernel has no two unpredicated SR_CLOCKLO reads. */
int sp_timed_region(struct gp_cubin *c, const char *kernel, struct sp_region *r);
/* Indices of the instructions with this opcode field inside r, in order; returns how many
 * (may exceed max, only max are stored). */
size_t sp_find_opcode(struct gp_cubin *c, const char *kernel, const struct sp_region *r, uint32_t opcode,
		      size_t *idx, size_t max);
/* free[reg] = 1 for registers below REGCOUNT that no instruction of r writes (Rd of known forms;
 * Rd and Rd+1 of unknown forms, whose field at bits 16-23 may be a 64-bit destination). */
int sp_free_regs(struct gp_cubin *c, const char *kernel, const struct sp_region *r, uint8_t free_[256]);
/* The lowest free register r with r % modulus == residue % modulus, not yet taken (taken[] is
 * updated); -1 if none. Residues, not numbers: a bank is a function of the low register bits. */
int sp_pick_reg(const uint8_t free_[256], uint8_t taken[256], unsigned residue, unsigned modulus);

/* E105: stall and yield of every FFMA R,R,R,R of the timed region; force where the pair is not
 * one ptxas emits. Returns the number of patched instructions, -1 with c->err. */
long sp_plan_stall(struct gp_cubin *c, const char *kernel, unsigned stall, unsigned yield);
/* E105 wait mask: for every load (opcode LDG/LDS) of the timed region, the first later
 * instruction whose wait mask holds the load's write scoreboard and that reads its destination;
 * clear that bit when `clear`. Returns the number of consumers found (and cleared), -1 on error. */
long sp_plan_wait(struct gp_cubin *c, const char *kernel, uint32_t load_opcode, int clear);

/* E103/E104/regbank_reuse: the i-th instruction of the stream (opcode op in the timed region)
 * gets sources src[i % n][0..2] (Ra, Rb, Rc; -1 leaves a field as it is, 255 is RZ) and its reuse
 * field set to reuse. Returns the stream length, -1 with c->err. */
long sp_plan_sources(struct gp_cubin *c, const char *kernel, uint32_t op, const int (*src)[3], size_t n,
		     unsigned reuse);

/* ---- the patched kernel of a sweep point (measurement side) ---- */

struct gp_meas;
/* Edits the private template copy c for the point in hand: returns what it counts (instructions
 * patched, consumers, stream length), or -1 with c's error — or after gp_meas_na/fail, whose
 * status then stands. */
typedef long (*sp_plan_fn)(struct gp_meas *m, struct gp_cubin *c, const char *kernel);
/* The device's template `file` (probes/patch/), patched by plan and loaded as the point's kernel
 * (the harness unloads it). *count gets the plan's return when it ran. A template or plan that
 * fails makes the point failed (or n/a, as the plan says) and returns 0; a CUDA error returns
 * its code. Callers look at gp_meas_ok() before going on. */
int sp_patched_kernel(struct gp_meas *m, const char *file, const char *kernel, sp_plan_fn plan, long *count);

/* ---- derivations (pure functions of a result table; sassprobe_report.c) ---- */

/* Smallest stall s such that every ok row of the dependent chain with stall >= s (1..15, both
 * yields) was correct, and the row at s - 1 (if measured) was wrong: the fixed FFMA latency with
 * no interlock. -1 if the table does not show it. */
int sp_min_safe_stall(const struct gp_table *t);
/* Bank count from regbank_map rows (rb_offset, cycles_per_insn): conflicts are the offsets whose
 * cost is nearer the slow level than the fast one; the count is the smallest power of two p
 * with conflict(k) == (k % p == 0) for every measured k >= 1. 0 if inconsistent or no
 * conflict seen. *penalty = slow - fast cycles per instruction. */
int sp_bank_count(const struct gp_table *t, double *penalty);
/* Reuse-cache entries for one slot: the largest `distinct` whose reuse=1 cost is nearer the
 * hit level (distinct=1, reuse=1) than the miss level (reuse=0). -1 if not measurable. */
int sp_reuse_entries(const struct gp_table *t, const char *slot, const char *layout);

#endif
