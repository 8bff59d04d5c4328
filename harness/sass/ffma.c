/* ffma.c — register-bank statistics of an FFMA kernel and the in-place patch of ffma.h.
 *
 * Which registers an instruction touches is known here only for the forms an SGEMM's data path
 * uses, each checked against nvcc cubins by tests/test_sass_ffma.c: FFMA/FMUL/FADD (insn.c's
 * classes), LDS/STS/LDG/STG with the access size in bits 73-75 (4: 32-bit, 5: 64, 6: 128), the
 * data register of a store at bits 32-39 and the global address a 64-bit pair, CS2R Rd, SRZ
 * (bits 72-79 = 0xff; bit 80 set: a 64-bit pair of zeros). Every other instruction pins any
 * register its four register fields could name, four registers wide, which can only cost
 * freedom, never correctness. A BRA's offset from the next instruction, in 4-byte words, is the
 * signed field of bits 34-81 (high) and 16-23 (low 8 bits): checked against cuobjdump's targets of
 * all 1163 branches of four sm_90 cubins (sgemm_warp, sgemm_tmaffma_90a, insn, dgemm); the
 * self-branch after EXIT lands on itself, a loop's on its head. */
#include "sass/ffma.h"
#include "sass/ffma_int.h"
#include "sass/insn.h"
#include "sass/patch.h"

#include <stdlib.h>
#include <string.h>

#define OP_FFMA 0x223
#define OP_LDS 0x984
#define OP_STS 0x388
#define OP_LDG 0x981
#define OP_STG 0x986
#define OP_CS2R 0x805
#define OP_BRA 0x947
#define SR_ZERO 0xff
#define REG_SP 1 /* the ABI's stack pointer */

enum reg_state { R_UNUSED, R_SCALAR, R_ZPAIR, R_PINNED };
enum op_kind { K_SCALAR, K_ZPAIR, K_PIN };

struct operand {
	enum gp_insn_field f;
	unsigned span;
	enum op_kind kind;
};

/* A load's (store 0) or a store's (store 1) register operands: a load's data Rd then its address
 * Ra, a store's address Ra then its data Rb. The data is gp_ffma_mem_span registers (pinned when more than
 * one), the address addr_regs (a shared-memory offset: one; a global pointer: a pinned pair). */
static int mem_operands(struct gp_insn w, int store, unsigned addr_regs, struct operand *o)
{
	const struct operand data = { store ? GP_F_RB : GP_F_RD, gp_ffma_mem_span(w), gp_ffma_mem_span(w) > 1 ? K_PIN : K_SCALAR };
	const struct operand addr = { GP_F_RA, addr_regs, addr_regs > 1 ? K_PIN : K_SCALAR };

	o[0] = store ? addr : data;
	o[1] = store ? data : addr;
	return 2;
}

/* The register operands of w; returns how many (at most 4). */
static int operands(struct gp_insn w, struct operand *o)
{
	const uint32_t op = gp_insn_get(w, GP_F_OPCODE);
	const enum gp_insn_class cl = gp_insn_classify(w);
	static const enum gp_insn_field all[4] = { GP_F_RD, GP_F_RA, GP_F_RB, GP_F_RC };
	int n = 0;

	if (cl == GP_I_FFMA_RRR || cl == GP_I_FFMA_RIR || cl == GP_I_FFMA_RRI || cl == GP_I_FMUL_RRR ||
	    cl == GP_I_FADD_RRR) {
		for (int i = 0; i < 4; i++)
			if (gp_insn_classes[cl].regs & 1u << i)
				o[n++] = (struct operand){ all[i], 1, K_SCALAR };
		return n;
	}
	switch (op) {
	case OP_LDS: return mem_operands(w, 0, 1, o);
	case OP_STS: return mem_operands(w, 1, 1, o);
	case OP_LDG: return mem_operands(w, 0, 2, o);
	case OP_STG: return mem_operands(w, 1, 2, o);
	case OP_CS2R:
		if (gp_insn_bits(w, 72, 8) == SR_ZERO && gp_insn_bits(w, 80, 1) && !(gp_insn_get(w, GP_F_RD) & 1))
			o[n++] = (struct operand){ GP_F_RD, 2, K_ZPAIR };
		else
			o[n++] = (struct operand){ GP_F_RD, 2, K_PIN };
		return n;
	default:
		for (int i = 0; i < 4; i++)
			o[n++] = (struct operand){ all[i], 4, K_PIN };
		return n;
	}
}

int gp_ffma_stats(struct gp_cubin *c, const char *kernel, int banks, struct gp_ffma_stats *s)
{
	struct kern k;
	uint8_t perm[256], *served;

	if (gp_ffma_kern_open(&k, c, kernel, banks) < 0)
		return -1;
	if (!(served = malloc(k.n + 1))) {
		gp_ffma_kern_close(&k);
		return gp_cubin_fail(c, "out of memory");
	}
	gp_ffma_identity(perm);
	gp_ffma_count(&k, perm, served, 0, s);
	free(served);
	gp_ffma_kern_close(&k);
	return 0;
}

double gp_ffma_conflicts_per_ffma(const struct gp_ffma_stats *s)
{
	return s->ffma ? (double)s->conflicts / (double)s->ffma : 0;
}

double gp_ffma_reuse_share(const struct gp_ffma_stats *s)
{
	return s->ffma ? (double)s->reuse_ffma / (double)s->ffma : 0;
}

double gp_ffma_loop_share(const struct gp_ffma_stats *s)
{
	return s->loop_insn ? (double)s->loop_ffma / (double)s->loop_insn : 0;
}

/* ---------------------------------------------------------------- reuse flags */

static int set_reuse(struct kern *k, const uint8_t *perm, size_t *added)
{
	for (size_t i = 0; i < k->n; i++) {
		const unsigned old = gp_insn_get(k->w[i], GP_F_REUSE), add = gp_ffma_reuse_rule(k, i, perm) & ~old;

		if (!add)
			continue;
		if (gp_sass_patch(k->c, k->k->name, i, GP_F_REUSE, old | add, 0) < 0)
			return -1;
		gp_insn_set(&k->w[i], GP_F_REUSE, old | add);
		*added += (size_t)__builtin_popcount(add);
	}
	return 0;
}

/* ---------------------------------------------------------------- renaming */

struct rename {
	uint8_t state[256];
	uint8_t perm[256];
	uint8_t used[256];      /* the register is an operand of some FFMA */
	uint8_t *served;        /* scratch of serve_all */
	int rule;               /* the reuse rule runs after the renaming: count its hits */
};

/* One register's state from two of its occurrences: a zero pair's register may also be a scalar
 * operand (the accumulator it zeroes), anything else mixed is pinned. */
static uint8_t merge(uint8_t cur, uint8_t want)
{
	if (cur == R_UNUSED || cur == want)
		return want;
	if (cur == R_PINNED || want == R_PINNED)
		return R_PINNED;
	return (cur == R_ZPAIR && want == R_SCALAR) || (cur == R_SCALAR && want == R_ZPAIR) ? R_ZPAIR : R_PINNED;
}

static void classify(const struct kern *k, struct rename *rn)
{
	static const uint8_t of_kind[] = { [K_SCALAR] = R_SCALAR, [K_ZPAIR] = R_ZPAIR, [K_PIN] = R_PINNED };
	const int regcount = k->k->regcount;

	for (size_t i = 0; i < k->n; i++) {
		struct operand o[4];
		const int n = operands(k->w[i], o);

		for (int j = 0; j < n; j++) {
			const unsigned r = gp_insn_get(k->w[i], o[j].f);

			for (unsigned q = r; q < r + o[j].span && q < GP_REG_RZ; q++)
				rn->state[q] = merge(rn->state[q], of_kind[o[j].kind]);
		}
	}
	for (int r = 0; r < 256; r++) {
		if (r == REG_SP || r >= regcount)
			rn->state[r] = R_PINNED;
		else if (rn->state[r] == R_UNUSED)
			rn->state[r] = R_SCALAR;
	}
	for (int r = 0; r < 256; r += 2) /* a pair moves whole or not at all */
		if ((rn->state[r] == R_ZPAIR) != (rn->state[r + 1] == R_ZPAIR))
			rn->state[r] = rn->state[r + 1] = R_PINNED;
}

static int index_uses(const struct kern *k, struct rename *rn)
{
	static const enum gp_insn_field f[4] = { GP_F_RD, GP_F_RA, GP_F_RB, GP_F_RC };

	for (size_t i = 0; i < k->n; i++)
		for (int j = 0; gp_ffma_is(k->w[i]) && j < 4; j++)
			rn->used[gp_insn_get(k->w[i], f[j])] = 1;
	rn->used[GP_REG_RZ] = 0;
	return (rn->served = calloc(k->n + 1, 1)) ? 0 : -1;
}

/* The kernel's FFMA conflicts under rn->perm. Whole, not around the moved registers: a register's
 * bank decides which cache entry it takes, so a move changes hits of other registers too. */
static long cost(const struct kern *k, struct rename *rn)
{
	struct gp_ffma_stats s;

	gp_ffma_count(k, rn->perm, rn->served, rn->rule, &s);
	return (long)s.conflicts;
}

static void swap_images(struct rename *rn, const unsigned *regs, int nregs)
{
	for (int j = 0; j + 1 < nregs; j += 2) {
		const uint8_t t = rn->perm[regs[j]];

		rn->perm[regs[j]] = rn->perm[regs[j + 1]];
		rn->perm[regs[j + 1]] = t;
	}
}

/* Try the move (swap the images of regs[0] and [1], [2] and [3] ...); keep it if it lowers the
 * conflicts. Returns 1 if kept. */
static int try_move(const struct kern *k, struct rename *rn, const unsigned *regs, int nregs)
{
	const long before = cost(k, rn);

	swap_images(rn, regs, nregs);
	if (cost(k, rn) < before)
		return 1;
	swap_images(rn, regs, nregs);
	return 0;
}

/* Local search: swap two movable scalars, flip a zero pair, swap two zero pairs; until no move
 * lowers the conflicts (each kept move lowers a non-negative integer: it ends). */
static void search(const struct kern *k, struct rename *rn)
{
	int better = 1;

	while (better) {
		better = 0;
		for (unsigned x = 0; x < 256; x++) {
			if (rn->state[x] == R_ZPAIR && !(x & 1)) {
				const unsigned flip[2] = { x, x + 1 };

				better |= try_move(k, rn, flip, 2);
				for (unsigned y = x + 2; y < 256; y += 2) {
					const unsigned pair[4] = { x, y, x + 1, y + 1 };

					if (rn->state[y] == R_ZPAIR)
						better |= try_move(k, rn, pair, 4);
				}
			}
			if (rn->state[x] != R_SCALAR || !rn->used[x])
				continue;
			for (unsigned y = 0; y < 256; y++) {
				const unsigned two[2] = { x, y };

				if (y != x && rn->state[y] == R_SCALAR && (y < x || !rn->used[y]))
					better |= try_move(k, rn, two, 2);
			}
		}
	}
}

/* Rewrite every movable register operand through rn->perm. */
static int apply(struct kern *k, const struct rename *rn)
{
	for (size_t i = 0; i < k->n; i++) {
		struct operand o[4];
		const int n = operands(k->w[i], o);

		for (int j = 0; j < n; j++) {
			const unsigned r = gp_insn_get(k->w[i], o[j].f);
			unsigned v;

			if (o[j].kind == K_PIN || r == GP_REG_RZ)
				continue;
			v = o[j].kind == K_ZPAIR ? (unsigned)(rn->perm[r] & ~1u) : rn->perm[r];
			if (v == r)
				continue;
			if (gp_sass_patch(k->c, k->k->name, i, o[j].f, v, 0) < 0)
				return -1;
		}
	}
	return 0;
}

static void rename_free(struct rename *rn)
{
	free(rn->served);
}

static int rename_regs(struct kern *k, int rule, size_t *movable, size_t *moved)
{
	struct rename rn;
	int rc = 0;

	memset(&rn, 0, sizeof rn);
	rn.rule = rule;
	gp_ffma_identity(rn.perm);
	classify(k, &rn);
	if (index_uses(k, &rn) < 0) {
		rename_free(&rn);
		return gp_cubin_fail(k->c, "out of memory");
	}
	search(k, &rn);
	for (int r = 0; r < 256; r++) {
		*movable += rn.state[r] == R_SCALAR || rn.state[r] == R_ZPAIR;
		*moved += rn.perm[r] != r;
	}
	rc = apply(k, &rn);
	rename_free(&rn);
	return rc;
}

int gp_ffma_improve(struct gp_cubin *c, const char *kernel, const struct gp_ffma_opts *o,
		    struct gp_ffma_stats *after)
{
	struct kern k;
	unsigned char *saved = NULL, *text;
	size_t bytes, added = 0, movable = 0, moved = 0, values = 0, vmoved = 0;
	int rc;

	if (gp_ffma_kern_open(&k, c, kernel, o->banks) < 0)
		return -1;
	text = gp_cubin_text(c, k.k);
	bytes = k.n * GP_INSN_BYTES;
	if (!(saved = malloc(bytes + 1))) {
		gp_ffma_kern_close(&k);
		return gp_cubin_fail(c, "out of memory");
	}
	memcpy(saved, text, bytes);
	/* Renaming first, counting the hits the reuse rule will add under each candidate; then the
	 * rule on the renamed kernel (its registers' banks are the final ones). */
	rc = o->rename ? rename_regs(&k, o->reuse, &movable, &moved) : 0;
	gp_ffma_kern_close(&k);
	if (rc == 0 && o->loop) {
		rc = gp_ffma_kern_open(&k, c, kernel, o->banks) < 0 ? -1 : gp_ffma_loop_rename(&k, &values, &vmoved);
		gp_ffma_kern_close(&k);
	}
	if (rc == 0 && o->reuse) {
		uint8_t id[256];

		gp_ffma_identity(id);
		rc = gp_ffma_kern_open(&k, c, kernel, o->banks) < 0 ? -1 : set_reuse(&k, id, &added);
		gp_ffma_kern_close(&k);
	}
	if (rc == 0)
		rc = gp_ffma_stats(c, kernel, o->banks, after);
	if (rc < 0)
		memcpy(text, saved, bytes); /* all or nothing */
	else
		after->reuse_set = added, after->movable = movable, after->renamed = moved,
		after->loop_values = values, after->loop_moved = vmoved;
	free(saved);
	return rc;
}
