/* ffma_model.c — the decoded FFMA kernel and the bank model of ffma.h: which FFMA reads are served
 * by the reuse cache, the conflicts of each FFMA, the reuse rule; shared by the whole-kernel
 * renaming (ffma.c) and the loop pass (ffma_loop.c). The instruction facts: ffma.c's header. */
#include "sass/ffma_int.h"

#include <stdlib.h>
#include <string.h>

#define OP_FFMA 0x223
#define OP_BRA 0x947

int gp_ffma_is(struct gp_insn w)
{
	return gp_insn_get(w, GP_F_OPCODE) == OP_FFMA;
}

int gp_ffma_unpredicated(struct gp_insn w)
{
	return gp_insn_get(w, GP_F_PRED) == GP_PRED_PT && !gp_insn_get(w, GP_F_PNEG);
}

static long bra_target(struct gp_insn w, size_t i)
{
	const uint64_t hi = gp_insn_bits(w, 34, 48), lo = gp_insn_bits(w, 16, 8);
	const int64_t words = (int64_t)(((hi << 8) | lo) << 8) >> 8; /* 56 bits, signed */

	return (long)i + 1 + (long)(words / 4);
}

void gp_ffma_kern_close(struct kern *k)
{
	free(k->w);
	free(k->target);
	memset(k, 0, sizeof *k);
}

int gp_ffma_kern_open(struct kern *k, struct gp_cubin *c, const char *kernel, int banks)
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
		gp_ffma_kern_close(k);
		return gp_cubin_fail(c, "out of memory");
	}
	text = gp_cubin_text(c, k->k);
	k->loop_lo = 1, k->loop_hi = 0;
	for (size_t i = 0; i < k->n; i++)
		k->w[i] = gp_insn_load(text + i * GP_INSN_BYTES);
	for (size_t i = 0, best = 0; i < k->n; i++) {
		size_t nffma = 0;
		long t;

		if (gp_insn_get(k->w[i], GP_F_OPCODE) != OP_BRA)
			continue;
		t = bra_target(k->w[i], i);
		if (t < 0 || (size_t)t >= k->n)
			continue;
		k->target[t] = 1;
		if ((size_t)t >= i)
			continue;
		/* The main loop: the backward branch whose body holds the most FFMAs, the shorter one
		 * of equals (an outlined retry path that branches back from the kernel's end to just
		 * before the loop spans it and more). */
		for (size_t j = (size_t)t; j <= i; j++)
			nffma += gp_ffma_is(k->w[j]);
		if (k->loop_hi < k->loop_lo || nffma > best ||
		    (nffma == best && i - (size_t)t < k->loop_hi - k->loop_lo))
			k->loop_lo = (size_t)t, k->loop_hi = i, best = nffma;
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
		if (k->target[i] || !gp_ffma_is(w)) {
			memset(&rc, 0, sizeof rc);
			continue;
		}
		reuse = gp_insn_get(w, GP_F_REUSE) | (rule ? gp_ffma_reuse_rule(k, i, perm) : 0);
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
void gp_ffma_count(const struct kern *k, const uint8_t *perm, uint8_t *served, int rule, struct gp_ffma_stats *s)
{
	int reads = 0, hits = 0;

	memset(s, 0, sizeof *s);
	s->insn = k->n;
	serve_all(k, perm, served, rule);
	for (size_t i = 0; i < k->n; i++) {
		const int in_loop = i >= k->loop_lo && i <= k->loop_hi;

		s->loop_insn += in_loop;
		if (!gp_ffma_is(k->w[i]))
			continue;
		s->ffma++;
		s->loop_ffma += in_loop;
		s->reuse_ffma += gp_insn_get(k->w[i], GP_F_REUSE) != 0;
		s->conflicts += (size_t)ffma_conflicts(k, i, perm, served[i], &reads, &hits);
	}
	s->reads = (size_t)reads, s->served = (size_t)hits;
}

/* Reuse bits FFMA i may carry (header comment's conditions), registers renamed by perm: slot s
 * where the next FFMA to read slot s from the same bank, before any other instruction or branch
 * target, reads the same register, gp_ffma_unpredicated like i, and no FFMA from i on writes it first. */
unsigned gp_ffma_reuse_rule(const struct kern *k, size_t i, const uint8_t *perm)
{
	static const enum gp_insn_field slot[3] = { GP_F_RA, GP_F_RB, GP_F_RC };
	const struct gp_insn a = k->w[i];
	unsigned bits = 0;

	if (!gp_ffma_is(a) || !gp_ffma_unpredicated(a))
		return 0;
	for (int s = 0; s < 3; s++) {
		const uint32_t r = gp_insn_get(a, slot[s]);
		const unsigned b = perm[r] % (unsigned)k->banks;

		if (r == GP_REG_RZ)
			continue;
		for (size_t j = i + 1; j < k->n; j++) {
			const struct gp_insn w = k->w[j];
			const uint32_t v = gp_insn_get(w, slot[s]);

			if (gp_insn_get(k->w[j - 1], GP_F_RD) == r || k->target[j] || !gp_ffma_is(w))
				break;
			if (v == GP_REG_RZ || perm[v] % (unsigned)k->banks != b)
				continue;
			if (v == r && gp_ffma_unpredicated(w))
				bits |= 1u << s;
			break;
		}
	}
	return bits;
}

unsigned gp_ffma_mem_span(struct gp_insn w)
{
	const unsigned sz = (unsigned)gp_insn_bits(w, 73, 3); /* the access size: 4 32-bit, 5 64, 6 128 */

	return sz == 6 ? 4 : sz == 5 ? 2 : 1;
}

void gp_ffma_identity(uint8_t *perm)
{
	for (int r = 0; r < 256; r++)
		perm[r] = (uint8_t)r;
}
