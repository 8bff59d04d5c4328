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
	if (banks < 1 || banks > 64)
		return gp_cubin_fail(c, "register bank count %d: must be 1 to 64", banks);
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

/* The reuse cache as regbank_reuse measures it: per operand slot, one register per bank (layout
 * `one`: a slot keeps one register of a bank; `mixed`: one of each bank at once). Walked in
 * program order with registers renamed by perm; served[i] gets FFMA i's slots served (bit s). An
 * entry is filled by a read with the slot's reuse bit; a read of that slot and bank without the
 * bit, a write of the register, any instruction but an FFMA and any branch target empty entries
 * (conservative: a hit is counted only where the cache surely holds the value). */
struct rcache {
	uint8_t valid[3][64];
	unsigned reg[3][64];
};

static unsigned reuse_bits(const struct kern *k, size_t i, const uint8_t *perm);

/* rule: as if the reuse rule's bits (gp_ffma_improve's, under perm) were set too. */
static void serve_all(const struct kern *k, const uint8_t *perm, uint8_t *served, int rule)
{
	static const enum gp_insn_field slot[3] = { GP_F_RA, GP_F_RB, GP_F_RC };
	struct rcache rc;

	memset(&rc, 0, sizeof rc);
	for (size_t i = 0; i < k->n; i++) {
		const struct gp_insn w = k->w[i];
		unsigned reuse, d;

		served[i] = 0;
		if (k->target[i] || !is_ffma(w)) {
			memset(&rc, 0, sizeof rc);
			continue;
		}
		reuse = gp_insn_get(w, GP_F_REUSE) | (rule ? reuse_bits(k, i, perm) : 0);
		for (int s = 0; s < 3; s++) {
			const unsigned v = gp_insn_get(w, slot[s]), b = perm[v] % (unsigned)k->banks;
			int hit;

			if (v == GP_REG_RZ)
				continue;
			hit = rc.valid[s][b] && rc.reg[s][b] == v;
			served[i] |= (uint8_t)(hit << s);
			rc.valid[s][b] = reuse >> s & 1;
			rc.reg[s][b] = v;
		}
		d = gp_insn_get(w, GP_F_RD);
		for (int s = 0; s < 3; s++)
			for (int b = 0; b < k->banks; b++)
				if (rc.valid[s][b] && rc.reg[s][b] == d)
					rc.valid[s][b] = 0;
	}
}

/* Bank conflicts of FFMA i with registers renamed by perm, its slots `served` from the cache;
 * *reads, *hits: its reads and cache hits. */
static int ffma_conflicts(const struct kern *k, size_t i, const uint8_t *perm, uint8_t served, int *reads,
			  int *hits)
{
	static const enum gp_insn_field slot[3] = { GP_F_RA, GP_F_RB, GP_F_RC };
	unsigned r[3], nr = 0, per_bank[64] = { 0 }, conf = 0;

	for (int s = 0; s < 3; s++) {
		unsigned v = gp_insn_get(k->w[i], slot[s]);
		int dup = 0;

		if (v == GP_REG_RZ)
			continue;
		++*reads;
		if (served >> s & 1) {
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

/* Statistics under perm, with the reuse rule's bits counted too where rule (serve_all); served:
 * scratch of k->n + 1 bytes. */
static void stats_of(const struct kern *k, const uint8_t *perm, uint8_t *served, int rule, struct gp_ffma_stats *s)
{
	int reads = 0, hits = 0;

	memset(s, 0, sizeof *s);
	s->insn = k->n;
	serve_all(k, perm, served, rule);
	for (size_t i = 0; i < k->n; i++) {
		const int in_loop = i >= k->loop_lo && i <= k->loop_hi;

		s->loop_insn += in_loop;
		if (!is_ffma(k->w[i]))
			continue;
		s->ffma++;
		s->loop_ffma += in_loop;
		s->reuse_ffma += gp_insn_get(k->w[i], GP_F_REUSE) != 0;
		s->conflicts += (size_t)ffma_conflicts(k, i, perm, served[i], &reads, &hits);
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
	uint8_t perm[256], *served;

	if (kern_open(&k, c, kernel, banks) < 0)
		return -1;
	if (!(served = malloc(k.n + 1))) {
		kern_close(&k);
		return gp_cubin_fail(c, "out of memory");
	}
	identity(perm);
	stats_of(&k, perm, served, 0, s);
	free(served);
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

/* Reuse bits FFMA i may carry (header comment's conditions), registers renamed by perm: slot s
 * where the next FFMA to read slot s from the same bank, before any other instruction or branch
 * target, reads the same register, unpredicated like i, and no FFMA from i on writes it first. */
static unsigned reuse_bits(const struct kern *k, size_t i, const uint8_t *perm)
{
	static const enum gp_insn_field slot[3] = { GP_F_RA, GP_F_RB, GP_F_RC };
	const struct gp_insn a = k->w[i];
	unsigned bits = 0;

	if (!is_ffma(a) || !unpredicated(a))
		return 0;
	for (int s = 0; s < 3; s++) {
		const uint32_t r = gp_insn_get(a, slot[s]);
		const unsigned b = perm[r] % (unsigned)k->banks;

		if (r == GP_REG_RZ)
			continue;
		for (size_t j = i + 1; j < k->n; j++) {
			const struct gp_insn w = k->w[j];
			const uint32_t v = gp_insn_get(w, slot[s]);

			if (gp_insn_get(k->w[j - 1], GP_F_RD) == r || k->target[j] || !is_ffma(w))
				break;
			if (v == GP_REG_RZ || perm[v] % (unsigned)k->banks != b)
				continue;
			if (v == r && unpredicated(w))
				bits |= 1u << s;
			break;
		}
	}
	return bits;
}

static int set_reuse(struct kern *k, const uint8_t *perm, size_t *added)
{
	for (size_t i = 0; i < k->n; i++) {
		const unsigned old = gp_insn_get(k->w[i], GP_F_REUSE), add = reuse_bits(k, i, perm) & ~old;

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
		for (int j = 0; is_ffma(k->w[i]) && j < 4; j++)
			rn->used[gp_insn_get(k->w[i], f[j])] = 1;
	rn->used[GP_REG_RZ] = 0;
	return (rn->served = calloc(k->n + 1, 1)) ? 0 : -1;
}

/* The kernel's FFMA conflicts under rn->perm. Whole, not around the moved registers: a register's
 * bank decides which cache entry it takes, so a move changes hits of other registers too. */
static long cost(const struct kern *k, struct rename *rn)
{
	struct gp_ffma_stats s;

	stats_of(k, rn->perm, rn->served, rn->rule, &s);
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
	/* Renaming first, counting the hits the reuse rule will add under each candidate; then the
	 * rule on the renamed kernel (its registers' banks are the final ones). */
	rc = o->rename ? rename_regs(&k, o->reuse, &movable, &moved) : 0;
	kern_close(&k);
	if (rc == 0 && o->reuse) {
		uint8_t id[256];

		identity(id);
		rc = kern_open(&k, c, kernel, o->banks) < 0 ? -1 : set_reuse(&k, id, &added);
		kern_close(&k);
	}
	if (rc == 0)
		rc = gp_ffma_stats(c, kernel, o->banks, after);
	if (rc < 0)
		memcpy(text, saved, bytes); /* all or nothing */
	else
		after->reuse_set = added, after->movable = movable, after->renamed = moved;
	free(saved);
	return rc;
}
