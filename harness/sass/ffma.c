/* ffma.c — register-bank statistics of an FFMA kernel and the in-place patch of ffma.h.
 *
 * Which registers an instruction touches is known here only for the forms an SGEMM's data path
 * uses, each checked against nvcc cubins by tests/test_sass_ffma.c: FFMA/FMUL/FADD (insn.c's
 * classes), LDS/STS/LDG/STG with the access size in bits 73-75 (4: 32-bit, 5: 64, 6: 128), the
 * data register of a store at bits 32-39 and the global address a 64-bit pair, CS2R Rd, SRZ
 * (bits 72-79 = 0xff; bit 80 set: a 64-bit pair of zeros). Every other instruction pins any
 * register its four register fields could name, four registers wide, which can only cost
 * freedom, never correctness. A BRA's target is i + 1 + the signed 48-bit field at bits 34-81
 * (in instructions): the self-branch after EXIT lands on itself, a loop's on its head. */
#include "sass/ffma.h"
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
#define MEM_SIZE_LO 73
#define SR_ZERO 0xff
#define REG_SP 1 /* the ABI's stack pointer */

enum reg_state { R_UNUSED, R_SCALAR, R_ZPAIR, R_PINNED };
enum op_kind { K_SCALAR, K_ZPAIR, K_PIN };

struct operand {
	enum gp_insn_field f;
	unsigned span;
	enum op_kind kind;
};

struct kern {
	struct gp_cubin *c;
	const struct gp_cubin_kernel *k;
	struct gp_insn *w;
	size_t n;
	uint8_t *target;        /* instruction i is a branch target */
	size_t loop_lo, loop_hi; /* the largest loop's instructions [lo, hi] (hi < lo: none) */
	int banks;
};

static unsigned mem_span(struct gp_insn w)
{
	unsigned sz = (unsigned)gp_insn_bits(w, MEM_SIZE_LO, 3);

	return sz == 6 ? 4 : sz == 5 ? 2 : 1;
}

/* A load's (store 0) or a store's (store 1) register operands: a load's data Rd then its address
 * Ra, a store's address Ra then its data Rb. The data is mem_span registers (pinned when more than
 * one), the address addr_regs (a shared-memory offset: one; a global pointer: a pinned pair). */
static int mem_operands(struct gp_insn w, int store, unsigned addr_regs, struct operand *o)
{
	const struct operand data = { store ? GP_F_RB : GP_F_RD, mem_span(w), mem_span(w) > 1 ? K_PIN : K_SCALAR };
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

static int is_ffma(struct gp_insn w)
{
	return gp_insn_get(w, GP_F_OPCODE) == OP_FFMA;
}

static int unpredicated(struct gp_insn w)
{
	return gp_insn_get(w, GP_F_PRED) == GP_PRED_PT && !gp_insn_get(w, GP_F_PNEG);
}

static long bra_target(struct gp_insn w, size_t i)
{
	uint64_t raw = gp_insn_bits(w, 34, 48);
	int64_t off = (int64_t)(raw << 16) >> 16;

	return (long)i + 1 + (long)off;
}

static void kern_close(struct kern *k)
{
	free(k->w);
	free(k->target);
	memset(k, 0, sizeof *k);
}

static int kern_open(struct kern *k, struct gp_cubin *c, const char *kernel, int banks)
{
	const unsigned char *text;

	memset(k, 0, sizeof *k);
	if (banks < 1)
		return gp_cubin_fail(c, "register bank count %d: must be at least 1", banks);
	if (c->sm < 70)
		return gp_cubin_fail(c, "sm_%d: not a 128-bit Volta-family instruction set", c->sm);
	if (!(k->k = gp_cubin_kernel(c, kernel)))
		return -1;
	k->c = c, k->n = k->k->ninsn, k->banks = banks;
	k->w = malloc((k->n + 1) * sizeof *k->w);
	k->target = calloc(k->n + 1, 1);
	if (!k->w || !k->target) {
		kern_close(k);
		return gp_cubin_fail(c, "out of memory");
	}
	text = gp_cubin_text(c, k->k);
	k->loop_lo = 1, k->loop_hi = 0;
	for (size_t i = 0; i < k->n; i++)
		k->w[i] = gp_insn_load(text + i * GP_INSN_BYTES);
	for (size_t i = 0; i < k->n; i++) {
		long t;

		if (gp_insn_get(k->w[i], GP_F_OPCODE) != OP_BRA)
			continue;
		t = bra_target(k->w[i], i);
		if (t < 0 || (size_t)t >= k->n)
			continue;
		k->target[t] = 1;
		if ((size_t)t < i && (k->loop_hi < k->loop_lo || i - (size_t)t > k->loop_hi - k->loop_lo))
			k->loop_lo = (size_t)t, k->loop_hi = i;
	}
	return 0;
}

/* Source slot s (0 Ra, 1 Rb, 2 Rc) of FFMA i is served by the reuse cache. */
static int served(const struct kern *k, size_t i, int s)
{
	static const enum gp_insn_field slot[3] = { GP_F_RA, GP_F_RB, GP_F_RC };
	struct gp_insn p;

	if (i == 0 || k->target[i] || !is_ffma(k->w[i - 1]))
		return 0;
	p = k->w[i - 1];
	return (gp_insn_get(p, GP_F_REUSE) >> s & 1) && gp_insn_get(p, slot[s]) == gp_insn_get(k->w[i], slot[s]) &&
	       gp_insn_get(p, GP_F_RD) != gp_insn_get(p, slot[s]);
}

/* Bank conflicts of FFMA i with registers renamed by perm; *reads, *hits: its reads and cache hits. */
static int ffma_conflicts(const struct kern *k, size_t i, const uint8_t *perm, int *reads, int *hits)
{
	static const enum gp_insn_field slot[3] = { GP_F_RA, GP_F_RB, GP_F_RC };
	unsigned r[3], nr = 0, per_bank[256] = { 0 }, conf = 0;

	for (int s = 0; s < 3; s++) {
		unsigned v = gp_insn_get(k->w[i], slot[s]);
		int dup = 0;

		if (v == GP_REG_RZ)
			continue;
		++*reads;
		if (served(k, i, s)) {
			++*hits;
			continue;
		}
		v = perm[v];
		for (unsigned j = 0; j < nr; j++)
			dup |= r[j] == v;
		if (!dup)
			r[nr++] = v;
	}
	for (unsigned j = 0; j < nr; j++)
		conf += per_bank[r[j] % (unsigned)k->banks]++ > 0;
	return (int)conf;
}

static void stats_of(const struct kern *k, const uint8_t *perm, struct gp_ffma_stats *s)
{
	int reads = 0, hits = 0;

	memset(s, 0, sizeof *s);
	s->insn = k->n;
	for (size_t i = 0; i < k->n; i++) {
		const int in_loop = i >= k->loop_lo && i <= k->loop_hi;

		s->loop_insn += in_loop;
		if (!is_ffma(k->w[i]))
			continue;
		s->ffma++;
		s->loop_ffma += in_loop;
		s->reuse_ffma += gp_insn_get(k->w[i], GP_F_REUSE) != 0;
		s->conflicts += (size_t)ffma_conflicts(k, i, perm, &reads, &hits);
	}
	s->reads = (size_t)reads, s->served = (size_t)hits;
}

static void identity(uint8_t *perm)
{
	for (int r = 0; r < 256; r++)
		perm[r] = (uint8_t)r;
}

int gp_ffma_stats(struct gp_cubin *c, const char *kernel, int banks, struct gp_ffma_stats *s)
{
	struct kern k;
	uint8_t perm[256];

	if (kern_open(&k, c, kernel, banks) < 0)
		return -1;
	identity(perm);
	stats_of(&k, perm, s);
	kern_close(&k);
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

/* Reuse bits FFMA i may carry for FFMA i + 1 (header comment's conditions). */
static unsigned reuse_bits(const struct kern *k, size_t i)
{
	static const enum gp_insn_field slot[3] = { GP_F_RA, GP_F_RB, GP_F_RC };
	struct gp_insn a = k->w[i], b;
	unsigned bits = 0;

	if (i + 1 >= k->n || k->target[i + 1] || !is_ffma(a) || !is_ffma(k->w[i + 1]) || !unpredicated(a) ||
	    !unpredicated(k->w[i + 1]))
		return 0;
	b = k->w[i + 1];
	for (int s = 0; s < 3; s++) {
		uint32_t r = gp_insn_get(a, slot[s]);

		if (r != GP_REG_RZ && r == gp_insn_get(b, slot[s]) && r != gp_insn_get(a, GP_F_RD))
			bits |= 1u << s;
	}
	return bits;
}

static int set_reuse(struct kern *k, size_t *added)
{
	for (size_t i = 0; i < k->n; i++) {
		const unsigned old = gp_insn_get(k->w[i], GP_F_REUSE), add = reuse_bits(k, i) & ~old;

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
	size_t *use[256];       /* FFMAs reading or writing each register */
	size_t nuse[256];
	uint32_t *stamp;
	uint32_t now;
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

	for (int pass = 0; pass < 2; pass++) {
		memset(rn->nuse, 0, sizeof rn->nuse);
		for (size_t i = 0; i < k->n; i++) {
			if (!is_ffma(k->w[i]))
				continue;
			for (int j = 0; j < 4; j++) {
				const unsigned r = gp_insn_get(k->w[i], f[j]);

				if (r == GP_REG_RZ || (rn->nuse[r] && rn->use[r] && pass && rn->use[r][rn->nuse[r] - 1] == i))
					continue;
				if (pass)
					rn->use[r][rn->nuse[r]] = i;
				rn->nuse[r]++;
			}
		}
		for (int r = 0; pass == 0 && r < 256; r++)
			if (!(rn->use[r] = malloc((rn->nuse[r] + 1) * sizeof *rn->use[r])))
				return -1;
	}
	return (rn->stamp = calloc(k->n + 1, sizeof *rn->stamp)) ? 0 : -1;
}

/* Conflicts of the FFMAs touching registers a, b, c, d (RZ: none) under rn->perm. */
static long local_cost(const struct kern *k, struct rename *rn, const unsigned *regs, int nregs)
{
	long cost = 0;
	int reads = 0, hits = 0;

	rn->now++;
	for (int j = 0; j < nregs; j++)
		for (size_t u = 0; u < rn->nuse[regs[j]]; u++) {
			const size_t i = rn->use[regs[j]][u];

			if (rn->stamp[i] == rn->now)
				continue;
			rn->stamp[i] = rn->now;
			cost += ffma_conflicts(k, i, rn->perm, &reads, &hits);
		}
	return cost;
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
	const long before = local_cost(k, rn, regs, nregs);

	swap_images(rn, regs, nregs);
	if (local_cost(k, rn, regs, nregs) < before)
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
			if (rn->state[x] != R_SCALAR || !rn->nuse[x])
				continue;
			for (unsigned y = 0; y < 256; y++) {
				const unsigned two[2] = { x, y };

				if (y != x && rn->state[y] == R_SCALAR && (y < x || !rn->nuse[y]))
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
	for (int r = 0; r < 256; r++)
		free(rn->use[r]);
	free(rn->stamp);
}

static int rename_regs(struct kern *k, size_t *movable, size_t *moved)
{
	struct rename rn;
	int rc = 0;

	memset(&rn, 0, sizeof rn);
	identity(rn.perm);
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
	size_t bytes, added = 0, movable = 0, moved = 0;
	int rc;

	if (kern_open(&k, c, kernel, o->banks) < 0)
		return -1;
	text = gp_cubin_text(c, k.k);
	bytes = k.n * GP_INSN_BYTES;
	if (!(saved = malloc(bytes + 1))) {
		kern_close(&k);
		return gp_cubin_fail(c, "out of memory");
	}
	memcpy(saved, text, bytes);
	rc = o->reuse ? set_reuse(&k, &added) : 0;
	if (rc == 0 && o->rename)
		rc = rename_regs(&k, &movable, &moved);
	kern_close(&k);
	if (rc == 0)
		rc = gp_ffma_stats(c, kernel, o->banks, after);
	if (rc < 0)
		memcpy(text, saved, bytes); /* all or nothing */
	else
		after->reuse_set = added, after->movable = movable, after->renamed = moved;
	free(saved);
	return rc;
}
