/* ffma_int.h — ffma.c's decoded kernel and bank model, shared with ffma_loop.c (not an API). */
#ifndef GP_SASS_FFMA_INT_H
#define GP_SASS_FFMA_INT_H

#include "sass/cubin.h"
#include "sass/ffma.h"
#include "sass/insn.h"

#include <stdint.h>

struct kern {
	struct gp_cubin *c;
	const struct gp_cubin_kernel *k;
	struct gp_insn *w;
	size_t n;
	uint8_t *target;        /* instruction i is a branch target */
	size_t loop_lo, loop_hi; /* the main loop's instructions [lo, hi] (hi < lo: none) */
	int banks;
};

int gp_ffma_kern_open(struct kern *k, struct gp_cubin *c, const char *kernel, int banks);
void gp_ffma_kern_close(struct kern *k);
int gp_ffma_is(struct gp_insn w);           /* FFMA R, R, R, R */
int gp_ffma_unpredicated(struct gp_insn w);
/* Registers a memory access's data takes (bits 73-75: 1, 2 or 4); the identity renaming. */
unsigned gp_ffma_mem_span(struct gp_insn w);
void gp_ffma_identity(uint8_t *perm);
/* The reuse bits the rule (ffma.h) gives FFMA i under the renaming perm. */
unsigned gp_ffma_reuse_rule(const struct kern *k, size_t i, const uint8_t *perm);
/* Statistics of k's words under perm (rule: the rule's bits counted too); served: scratch of
 * k->n + 1 bytes. */
void gp_ffma_count(const struct kern *k, const uint8_t *perm, uint8_t *served, int rule, struct gp_ffma_stats *s);
/* The loop pass (ffma_loop.c): renames the main loop's FFMA values in k->w and re-derives the
 * loop's FFMA reuse bits; *webs: values it may move, *moved: moved. 0, or -1 with k->c's error. */
int gp_ffma_loop_rename(struct kern *k, size_t *webs, size_t *moved);

#endif
