/* ffma_loop.c — the loop pass of gp_ffma_improve: FFMA values renamed inside the main loop.
 *
 * The whole-kernel renaming (ffma.c) moves a register only where every occurrence in the kernel is
 * a 32-bit operand; ptxas, though, passes an accumulator through several registers within one
 * trip of an unrolled loop (an FFMA writes its sum into the register a spent LDS.128 fragment
 * held), so in such a kernel nearly every FFMA register is also part of a vector somewhere. This
 * pass renames values, not registers: a value is what one unpredicated FFMA R, R, R, R of the loop
 * writes, read only by FFMA sources before its register is written again within the same trip.
 * It may move to any register r' that, over its life [def, last read], nothing else touches,
 * whose old contents are dead (the first access to r' after the last read is a write, in the same
 * trip, that does not read it), that no shared load in flight at the def writes (its write barrier
 * not yet waited on), that no read barrier or non-FFMA reuse bit names, below the kernel's
 * register count. The loop must be one straight block: no branch into it or out of it but its
 * own backward branch.
 *
 * What an instruction touches: FFMA R, R, R, R and LDS exactly (an FFMA writes Rd and reads Ra, Rb,
 * Rc; an LDS writes its data registers and reads its address; predicated, their writes count as
 * reads); any other instruction is taken to read all four register fields four registers wide
 * and to write nothing for certain, which can only refuse a move. Local search, as ffma.c's: a
 * move to the other bank is kept when it lowers the kernel's conflicts counted with ffma.h's reuse
 * rule; the loop's FFMAs then keep each reuse bit of ptxas's that still holds under the new names
 * (still_valid) and take the rule's. Before anything is
 * written the result is checked: walking the loop once, every register every instruction reads
 * must hold the value (the writing instruction) it held in the original, and every register the
 * same value at the end; else nothing is written. */
#include "sass/ffma_int.h"
#include "sass/patch.h"

#include <stdlib.h>
#include <string.h>

#define OP_FFMA 0x223
#define OP_LDS 0x984
#define OP_EXIT 0x94d
#define NO_BAR 7
#define MAX_TOUCH 16

struct touch {
	uint8_t rd[MAX_TOUCH], wr[4];
	int nrd, nwr;
};

static const enum gp_insn_field reg_fields[4] = { GP_F_RD, GP_F_RA, GP_F_RB, GP_F_RC };
static const enum gp_insn_field src_fields[3] = { GP_F_RA, GP_F_RB, GP_F_RC };

static void add(uint8_t *set, int *n, int max, unsigned r)
{
	if (r < GP_REG_RZ && *n < max)
		set[(*n)++] = (uint8_t)r;
}

static void touches(struct gp_insn w, struct touch *t)
{
	const uint32_t op = gp_insn_get(w, GP_F_OPCODE);
	const int pred = !gp_ffma_unpredicated(w);

	t->nrd = t->nwr = 0;
	if (op == OP_FFMA) {
		for (int s = 0; s < 3; s++)
			add(t->rd, &t->nrd, MAX_TOUCH, gp_insn_get(w, src_fields[s]));
		if (pred)
			add(t->rd, &t->nrd, MAX_TOUCH, gp_insn_get(w, GP_F_RD));
		else
			add(t->wr, &t->nwr, 4, gp_insn_get(w, GP_F_RD));
		return;
	}
	if (op == OP_LDS) {
		const unsigned d = gp_insn_get(w, GP_F_RD);

		for (unsigned q = 0; q < 4; q++)
			add(t->rd, &t->nrd, MAX_TOUCH, gp_insn_get(w, GP_F_RA) + q);
		for (unsigned q = 0; d < GP_REG_RZ && q < gp_ffma_mem_span(w); q++)
			if (pred)
				add(t->rd, &t->nrd, MAX_TOUCH, d + q);
			else
				add(t->wr, &t->nwr, 4, d + q);
		return;
	}
	for (int f = 0; f < 4; f++) {
		const unsigned r = gp_insn_get(w, reg_fields[f]);

		for (unsigned q = 0; r < GP_REG_RZ && q < 4; q++)
			add(t->rd, &t->nrd, MAX_TOUCH, r + q);
	}
}

static int has(const uint8_t *set, int n, unsigned r)
{
	for (int i = 0; i < n; i++)
		if (set[i] == r)
			return 1;
	return 0;
}

static int reads(struct gp_insn w, unsigned r)
{
	struct touch t;

	touches(w, &t);
	return has(t.rd, t.nrd, r);
}

static int writes(struct gp_insn w, unsigned r)
{
	struct touch t;

	touches(w, &t);
	return has(t.wr, t.nwr, r);
}

/* A value: FFMA d's result, read by the FFMAs use[0..nuse) (an FFMA that reads it through
 * several sources is listed once), last read at `last`, its register written again at `next`. */
struct web {
	size_t d, last, next;
	size_t use[64];
	int nuse;
};

struct pass {
	struct kern *k;
	size_t lo, hi;
	uint8_t banned[256]; /* named by a read barrier's instruction or a non-FFMA reuse bit */
	uint8_t *served;
};

static int src_reads(struct gp_insn w, unsigned r)
{
	for (int s = 0; s < 3; s++)
		if (gp_insn_get(w, src_fields[s]) == r)
			return 1;
	return 0;
}

/* The value FFMA d writes, if it may move. */
static int find_web(const struct pass *p, size_t d, struct web *v)
{
	const struct gp_insn *w = p->k->w;
	const unsigned r = gp_insn_get(w[d], GP_F_RD);

	if (!gp_ffma_is(w[d]) || !gp_ffma_unpredicated(w[d]) || r >= GP_REG_RZ || p->banned[r])
		return 0;
	v->d = d, v->nuse = 0, v->last = d;
	for (size_t j = d + 1; j <= p->hi; j++) {
		if (reads(w[j], r)) {
			if (!gp_ffma_is(w[j]) || !gp_ffma_unpredicated(w[j]) || !src_reads(w[j], r) ||
			    v->nuse == (int)(sizeof v->use / sizeof v->use[0]))
				return 0;
			/* Reads it through Ra/Rb/Rc only: an FFMA reads no register as Rd. */
			v->use[v->nuse++] = j, v->last = j;
		}
		if (writes(w[j], r)) {
			v->next = j;
			return v->nuse > 0;
		}
	}
	return 0;
}

/* The write barrier of an LDS at i completes at the first instruction after it (around the loop)
 * that waits on it; is it still in flight at instruction d? */
static int in_flight(const struct pass *p, size_t i, size_t d)
{
	const struct gp_insn *w = p->k->w;
	const unsigned b = gp_insn_get(w[i], GP_F_WBAR);
	const size_t len = p->hi - p->lo + 1;

	if (b == NO_BAR)
		return 0;
	for (size_t s = 1; s < len; s++) {
		const size_t q = p->lo + (i - p->lo + s) % len;

		if (gp_insn_get(w[q], GP_F_WAIT) >> b & 1)
			return 0;
		if (q == d)
			return 1;
	}
	return 1;
}

/* May value v live in register x? (header comment) */
static int free_for(const struct pass *p, const struct web *v, unsigned x)
{
	const struct gp_insn *w = p->k->w;

	if (x >= (unsigned)p->k->k->regcount || x == 1 || p->banned[x] || x == gp_insn_get(w[v->d], GP_F_RD))
		return 0;
	for (size_t j = v->d + 1; j < v->last; j++)
		if (reads(w[j], x) || writes(w[j], x))
			return 0;
	if (reads(w[v->last], x))
		return 0;
	if (!writes(w[v->last], x)) {
		size_t j = v->last + 1;

		while (j <= p->hi && !reads(w[j], x) && !writes(w[j], x))
			j++;
		if (j > p->hi || reads(w[j], x))
			return 0;
	}
	for (size_t i = p->lo; i <= p->hi; i++)
		if ((reads(w[i], x) || writes(w[i], x)) && in_flight(p, i, v->d))
			return 0;
	return 1;
}

static void move(struct gp_insn *w, const struct web *v, unsigned from, unsigned to)
{
	gp_insn_set(&w[v->d], GP_F_RD, to);
	for (int u = 0; u < v->nuse; u++)
		for (int s = 0; s < 3; s++)
			if (gp_insn_get(w[v->use[u]], src_fields[s]) == from)
				gp_insn_set(&w[v->use[u]], src_fields[s], to);
}

static long cost(struct pass *p)
{
	uint8_t id[256];
	struct gp_ffma_stats s;

	gp_ffma_identity(id);
	gp_ffma_count(p->k, id, p->served, 1, &s);
	return (long)s.conflicts;
}

/* The loop is one block, and what may not be chosen. */
static int setup(struct pass *p)
{
	const struct gp_insn *w = p->k->w;

	memset(p->banned, 0, sizeof p->banned);
	/* Outside the loop: what an instruction with a write barrier touches (it may still be in
	 * flight when the loop starts), and the registers with a reuse bit just before it. */
	size_t last_exit = p->k->n;

	for (size_t i = 0; i < p->k->n; i++)
		if (gp_insn_get(w[i], GP_F_OPCODE) == OP_EXIT)
			last_exit = i;
	for (size_t i = 0; i < p->k->n; i++) {
		struct touch t;

		/* After the loop only the code past the last EXIT (outlined paths that branch back
		 * before it) may run before it again. */
		if (i >= p->lo && (i <= last_exit || last_exit == p->k->n))
			continue;
		touches(w[i], &t);
		for (int j = 0; gp_insn_get(w[i], GP_F_WBAR) != NO_BAR && j < t.nrd; j++)
			p->banned[t.rd[j]] = 1;
		for (int j = 0; gp_insn_get(w[i], GP_F_WBAR) != NO_BAR && j < t.nwr; j++)
			p->banned[t.wr[j]] = 1;
		for (int s = 0; i + 8 >= p->lo && i < p->lo && s < 3; s++)
			if (gp_insn_get(w[i], GP_F_REUSE) >> s & 1)
				for (unsigned q = 0, r = gp_insn_get(w[i], src_fields[s]); r < GP_REG_RZ && q < 4; q++)
					p->banned[r + q] = 1;
	}
	for (size_t i = p->lo; i <= p->hi; i++) {
		struct touch t;

		if ((i > p->lo && p->k->target[i]) || (i < p->hi && gp_insn_get(w[i], GP_F_OPCODE) == 0x947))
			return 0;
		touches(w[i], &t);
		if (gp_insn_get(w[i], GP_F_RBAR) != NO_BAR)
			for (int j = 0; j < t.nrd; j++)
				p->banned[t.rd[j]] = 1;
		for (int s = 0; s < 3 && !gp_ffma_is(w[i]); s++)
			if (gp_insn_get(w[i], GP_F_REUSE) >> s & 1)
				for (unsigned q = 0, r = gp_insn_get(w[i], src_fields[s]); r < GP_REG_RZ && q < 4; q++)
					p->banned[r + q] = 1;
	}
	return 1;
}

/* ptxas's reuse bits of FFMA i that still hold once renamed: the next instruction to read the
 * slot's register reads it in that slot, with nothing between writing it, no branch or branch
 * target between (an FFMA reading the slot from the same bank in between is fine: one entry per
 * bank). */
static unsigned still_valid(const struct pass *p, size_t i)
{
	const struct gp_insn *w = p->k->w;
	unsigned keep = 0;

	for (int s = 0; s < 3; s++) {
		const unsigned r = gp_insn_get(w[i], src_fields[s]);

		if (!(gp_insn_get(w[i], GP_F_REUSE) >> s & 1) || r >= GP_REG_RZ || gp_insn_get(w[i], GP_F_RD) == r)
			continue;
		for (size_t j = i + 1; j < p->hi && !p->k->target[j]; j++) {
			if (writes(w[j], r) || (reads(w[j], r) && !gp_ffma_is(w[j])))
				break;
			if (reads(w[j], r)) {
				keep |= (gp_insn_get(w[j], src_fields[s]) == r) << s;
				break;
			}
		}
	}
	return keep;
}

/* Every read sees the value it saw in the original, and the loop ends with the same values. */
static int same_dataflow(const struct pass *p, const struct gp_insn *orig)
{
	const struct gp_insn *w = p->k->w;
	long a[256], b[256];

	for (int r = 0; r < 256; r++)
		a[r] = b[r] = -1 - r;
	for (size_t i = p->lo; i <= p->hi; i++) {
		struct touch ta, tb;

		if (!gp_ffma_is(w[i]) &&
		    memcmp(&w[i], &orig[i], sizeof w[i]))
			return 0;
		touches(orig[i], &ta);
		touches(w[i], &tb);
		if (ta.nrd != tb.nrd || ta.nwr != tb.nwr)
			return 0;
		for (int j = 0; j < ta.nrd; j++)
			if (a[ta.rd[j]] != b[tb.rd[j]])
				return 0;
		for (int j = 0; j < ta.nwr; j++)
			a[ta.wr[j]] = (long)i, b[tb.wr[j]] = (long)i;
	}
	for (int r = 0; r < 256; r++)
		if (a[r] != b[r])
			return 0;
	return 1;
}

static void search(struct pass *p, size_t *webs, size_t *moved)
{
	struct gp_insn *w = p->k->w;
	long best = cost(p);
	int better = 1;

	for (size_t d = p->lo; d <= p->hi; d++) {
		struct web v;

		*webs += (size_t)find_web(p, d, &v);
	}
	for (int pass = 0; better && pass < 16; pass++) {
		better = 0;
		for (size_t d = p->lo; d <= p->hi; d++) {
			struct web v;
			unsigned r;

			if (!find_web(p, d, &v))
				continue;
			r = gp_insn_get(w[d], GP_F_RD);
			for (unsigned x = (r + 1) % 2; x < 256; x += 2) {
				long c;

				if (!free_for(p, &v, x))
					continue;
				move(w, &v, r, x);
							if ((c = cost(p)) < best) {
					best = c, better = 1;
					++*moved;
				} else
					move(w, &v, x, r);
				break; /* one register per bank: any free one of a bank costs the same */
			}
		}
	}
}

int gp_ffma_loop_rename(struct kern *k, size_t *webs, size_t *moved)
{
	struct pass p = { .k = k, .lo = k->loop_lo, .hi = k->loop_hi };
	struct gp_insn *orig;
	uint8_t id[256];
	int rc = 0;

	*webs = *moved = 0;
	if (k->loop_hi < k->loop_lo || !setup(&p))
		return 0;
	orig = malloc((k->n + 1) * sizeof *orig);
	p.served = calloc(k->n + 1, 1);
	if (!orig || !p.served) {
		free(orig);
		free(p.served);
		return gp_cubin_fail(k->c, "out of memory");
	}
	memcpy(orig, k->w, k->n * sizeof *orig);
	search(&p, webs, moved);
	gp_ffma_identity(id);
	for (size_t i = p.lo; i <= p.hi; i++)
		if (gp_ffma_is(k->w[i]))
			gp_insn_set(&k->w[i], GP_F_REUSE, still_valid(&p, i) | gp_ffma_reuse_rule(k, i, id));
	if (!*moved)
		memcpy(k->w, orig, k->n * sizeof *orig); /* nothing gained: ptxas's bits stay */
	else if (!same_dataflow(&p, orig))
		rc = gp_cubin_fail(k->c, "%s: the loop's renamed values fail the dataflow check", k->k->name);
	for (size_t i = p.lo; rc == 0 && *moved && i <= p.hi; i++)
		for (int f = 0; rc == 0 && f < 5; f++) { /* the register fields, then the reuse bits */
			const enum gp_insn_field fl = f < 4 ? reg_fields[f] : GP_F_REUSE;

			if (gp_insn_get(k->w[i], fl) != gp_insn_get(orig[i], fl))
				rc = gp_sass_patch(k->c, k->k->name, i, fl, gp_insn_get(k->w[i], fl), 0);
		}
	free(orig);
	free(p.served);
	return rc < 0 ? -1 : 0;
}
