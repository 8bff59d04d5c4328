/* planner.c — seed 001 Table 5 (E111): where the non-FFMA instructions of an SGEMM inner loop go,
 * and how far each load sits from its first use, planned and as nvcc actually compiled it.
 *
 * Pattern: a loop trip is bk iterations of rx x ry FFMAs; a slot follows every `every` FFMAs.
 * Bookkeeping takes slot 0 of each iteration, the LDS of iteration i + 1's fragments the earliest
 * free slots of iteration i, LDG the earliest free slots of the trip, STS the slots just before
 * BAR.SYNC (end of iteration bk - 2, so iteration bk - 1's LDS read the new tile). A load's
 * distance counts every instruction (FFMA and slot) up to its first consumer; it must reach
 * latency x ipc (seed 001 Eq. 2 with Kepler's 7 instructions per 4 clocks; 1 on Hopper, which
 * issues one instruction per clock per scheduler). Pitfall: distances in instructions assume
 * the warp issues back to back; more warps per scheduler lengthen the time, so this is the
 * single-warp worst case. */
#include "planner.h"
#include "models.h"
#include "sass/cubin.h"
#include "sass/insn.h"
#include "gp.h"
#include "table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int gp_plan_min_distance(double latency, double ipc)
{
	return (int)ceil(latency * ipc - 1e-9);
}

int gp_plan_slot_label(int j, int every)
{
	return j * every + every - 1;
}

struct layout {
	int f, s, every, it;   /* FFMAs and slots per iteration, spacing, instructions per iteration */
};

static int pos_ffma(const struct layout *l, int i, int f)
{
	return i * l->it + f + f / l->every;
}

static int pos_slot(const struct layout *l, int i, int j)
{
	return i * l->it + gp_plan_slot_label(j, l->every) + j + 1;
}

static int put(struct gp_plan *p, int i, int j, const char *what)
{
	if (p->cell[j][i][0])
		return -1;
	snprintf(p->cell[j][i], sizeof p->cell[j][i], "%s", what);
	return 0;
}

/* Earliest (dir 1) or latest (dir -1) free slot of iteration i, or -1. */
static int free_slot(const struct gp_plan *p, int i, int dir, int before)
{
	if (dir > 0) {
		for (int j = 0; j < p->nslots; j++)
			if (!p->cell[j][i][0])
				return j;
	} else {
		for (int j = before - 1; j >= 0; j--)
			if (!p->cell[j][i][0])
				return j;
	}
	return -1;
}

static void add_load(struct gp_plan *p, const char *what, int i, int j, int distance, int need)
{
	struct gp_plan_load *ld = &p->load[p->nload++];

	snprintf(ld->what, sizeof ld->what, "%s", what);
	ld->iter = i;
	ld->slot = j;
	ld->distance = distance;
	ld->need = need;
	p->nshort += distance < need;
}

static int words_per(int bytes)
{
	return bytes >= 4 ? bytes / 4 : 1;
}

/* Place the LDS of iteration i (fragments of iteration i + 1) and record their distances. */
static int place_lds(struct gp_plan *p, const struct gp_plan_in *in, const struct layout *l, int i)
{
	const int w = words_per(in->lds_bytes), na = (in->rx + w - 1) / w, nb = (in->ry + w - 1) / w;
	const int next = (i + 1) % in->bk, wrap = i + 1 == in->bk ? in->bk * l->it : 0;
	char what[24];

	for (int v = 0; v < na + nb; v++) {
		const int isa = v < na, vv = isa ? v : v - na;
		/* c[x][y] in x-major order: row x first used at FFMA x ry, column y at FFMA y. */
		const int f = isa ? vv * w * in->ry : vv * w;
		const int j = free_slot(p, i, 1, 0);
		if (j < 0)
			return -1;
		snprintf(what, sizeof what, "LDS.%d %s", in->lds_bytes * 8, isa ? "smA" : "smB");
		put(p, i, j, what);
		if (p->nload < GP_PLAN_MAXLOADS)
			add_load(p, what, i, j, pos_ffma(l, next, f) + wrap - pos_slot(l, i, j), p->d_lds);
	}
	return 0;
}

int gp_plan_make(const struct gp_plan_in *in, struct gp_plan *p, char *err, size_t errlen)
{
	struct layout l;
	int tx, bar_it, bar_j, wa, wb, nldg, nsts, sts_pos[64], nsts_placed = 0;

	memset(p, 0, sizeof *p);
	if (in->rx < 1 || in->ry < 1 || in->bk < 1 || in->bk > GP_PLAN_MAXBK || in->every < 1 || in->ipc <= 0 ||
	    in->threads < 1 || in->lds_bytes < 4 || in->ldg_bytes < 4 || in->sts_bytes < 4) {
		snprintf(err, errlen, "bad plan input (rx %d ry %d bk %d every %d; bk <= %d)", in->rx, in->ry, in->bk,
			 in->every, GP_PLAN_MAXBK);
		return -1;
	}
	l.f = in->rx * in->ry;
	l.every = in->every;
	l.s = l.f / in->every;
	l.it = l.f + l.s;
	if (l.s < 3 || l.s > GP_PLAN_MAXSLOTS) {
		snprintf(err, errlen, "%d FFMAs per iteration give %d slots (need 3..%d)", l.f, l.s, GP_PLAN_MAXSLOTS);
		return -1;
	}
	p->nslots = l.s;
	p->loop_len = in->bk * l.it;
	p->d_lds = gp_plan_min_distance(in->lat_lds, in->ipc);
	p->d_ldg = gp_plan_min_distance(in->lat_ldg, in->ipc);
	/* Block tile: tx x ty threads of rx x ry; per thread per trip bk ry / ty words of A ... */
	for (tx = 1; tx * tx < in->threads; tx++)
		;
	wa = (in->rx * in->ry * in->bk + in->rx * tx - 1) / (in->rx * tx);
	wb = (in->rx * in->ry * in->bk + in->ry * tx - 1) / (in->ry * tx);
	nldg = (wa + words_per(in->ldg_bytes) - 1) / words_per(in->ldg_bytes) +
	       (wb + words_per(in->ldg_bytes) - 1) / words_per(in->ldg_bytes);
	nsts = (wa + words_per(in->sts_bytes) - 1) / words_per(in->sts_bytes) +
	       (wb + words_per(in->sts_bytes) - 1) / words_per(in->sts_bytes);
	if (nsts > 64) {
		snprintf(err, errlen, "%d STS per trip: too many", nsts);
		return -1;
	}
	for (int i = 0; i < in->bk; i++)
		put(p, i, 0, i == 0 ? "ISETP P0" : "IADD ptr");
	bar_it = in->bk >= 2 ? in->bk - 2 : 0;
	bar_j = l.s - 1 - (in->bk == 1);
	put(p, bar_it, bar_j, "BAR.SYNC");
	put(p, in->bk - 1, l.s - 1, "BRA loop");
	for (int k = 0; k < nsts; k++) {
		const int j = free_slot(p, bar_it, -1, bar_j);
		char what[24];
		if (j < 0)
			goto full;
		snprintf(what, sizeof what, "STS.%d", in->sts_bytes * 8);
		put(p, bar_it, j, what);
		sts_pos[nsts_placed++] = pos_slot(&l, bar_it, j);
	}
	/* Earliest-placed STS first in program order. */
	for (int a = 0; a < nsts_placed; a++)
		for (int b = a + 1; b < nsts_placed; b++)
			if (sts_pos[b] < sts_pos[a]) {
				const int t = sts_pos[a];
				sts_pos[a] = sts_pos[b];
				sts_pos[b] = t;
			}
	for (int i = 0; i < in->bk; i++)
		if (place_lds(p, in, &l, i) < 0)
			goto full;
	for (int k = 0, i = 0; k < nldg; k++) {
		int j = -1;
		char what[24];
		while (i < in->bk && (j = free_slot(p, i, 1, 0)) < 0)
			i++;
		if (j < 0)
			goto full;
		snprintf(what, sizeof what, "LDG.%d %s", in->ldg_bytes * 8, k < nldg / 2 ? "A" : "B");
		put(p, i, j, what);
		/* Its consumer: the STS of the same share of the tile; if that comes too soon in this
		 * trip, the registers are held and stored in the next trip (seed 001: 419). */
		{
			const int sp = sts_pos[k * nsts / nldg];
			int d = sp - pos_slot(&l, i, j);
			if (d < p->d_ldg)
				d += p->loop_len;
			if (p->nload < GP_PLAN_MAXLOADS)
				add_load(p, what, i, j, d, p->d_ldg);
		}
	}
	return 0;
full:
	snprintf(err, errlen, "%d slots per iteration cannot hold the LDS, LDG and STS of rx %d ry %d bk %d", l.s,
		 in->rx, in->ry, in->bk);
	return -1;
}

void gp_plan_print(const struct gp_plan_in *in, const struct gp_plan *p, FILE *out)
{
	int minlds = -1, minldg = -1;

	fprintf(out, "Plan for rx %d, ry %d, bk %d (%d threads, LDS.%d, LDG.%d, STS.%d): a slot after every %d FFMAs, "
		"%d slots per iteration, %d instructions per trip. Minimum distances at %.3g instructions/clock: "
		"LDS %d (latency %.1f cycles), LDG %d (latency %.1f cycles).\n\n",
		in->rx, in->ry, in->bk, in->threads, in->lds_bytes * 8, in->ldg_bytes * 8, in->sts_bytes * 8, in->every,
		p->nslots, p->loop_len, in->ipc, p->d_lds, in->lat_lds, p->d_ldg, in->lat_ldg);
	fprintf(out, "| slot |");
	for (int i = 0; i < in->bk; i++)
		fprintf(out, " %d |", i);
	fprintf(out, "\n|---|");
	for (int i = 0; i < in->bk; i++)
		fprintf(out, "---|");
	fprintf(out, "\n");
	for (int j = 0; j < p->nslots; j++) {
		fprintf(out, "| %d |", gp_plan_slot_label(j, in->every));
		for (int i = 0; i < in->bk; i++)
			fprintf(out, " %s |", p->cell[j][i]);
		fprintf(out, "\n");
	}
	for (int k = 0; k < p->nload; k++) {
		int *m = !strncmp(p->load[k].what, "LDS", 3) ? &minlds : &minldg;
		if (*m < 0 || p->load[k].distance < *m)
			*m = p->load[k].distance;
	}
	fprintf(out, "\nPlanned load-to-use distances: shortest LDS %d (need %d), shortest LDG -> STS %d (need %d); "
		"%d of %d loads too close.\n", minlds, p->d_lds, minldg, p->d_ldg, p->nshort, p->nload);
}

/* ------------------------------------------------------------------ SASS */

static int mem_width(struct gp_insn w)
{
	const unsigned sz = (unsigned)gp_insn_bits(w, GP_MEM_SIZE_LO, 3);

	return sz == 5 ? 8 : sz == 6 ? 16 : 4;
}

/* Registers [lo, lo + n) read by w, for the forms whose operands we know; 0 if none match. */
static int reads(struct gp_insn w, int lo, int n)
{
	const uint32_t op = gp_insn_get(w, GP_F_OPCODE);
	uint32_t r[4];
	int nr = 0, span = 1;

	if (op == 0x223) {
		r[nr++] = gp_insn_get(w, GP_F_RA);
		r[nr++] = gp_insn_get(w, GP_F_RB);
		r[nr++] = gp_insn_get(w, GP_F_RC);
	} else if (op == 0x823 || op == 0x423) {
		r[nr++] = gp_insn_get(w, GP_F_RA);
		r[nr++] = gp_insn_get(w, GP_F_RC);
	} else if (op == GP_OP_STS) {
		/* STS [Ra + imm], Rb: the data register is a vector of the access size. */
		r[nr++] = gp_insn_get(w, GP_F_RB);
		span = mem_width(w) / 4;
	}
	for (int k = 0; k < nr; k++)
		if (r[k] != GP_REG_RZ && (int)r[k] + span > lo && (int)r[k] < lo + n)
			return 1;
	return 0;
}

static int writes(struct gp_insn w, int lo, int n)
{
	const uint32_t op = gp_insn_get(w, GP_F_OPCODE);
	const int rd = (int)gp_insn_get(w, GP_F_RD);
	int span;

	if (op == GP_OP_LDS || op == GP_OP_LDG)
		span = mem_width(w) / 4;
	else if (op == 0x223 || op == 0x823 || op == 0x423)
		span = 1;
	else
		return 0;
	return rd != GP_REG_RZ && rd + span > lo && rd < lo + n;
}

static int cmp_int(const void *a, const void *b)
{
	return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

static void summarise(struct gp_sass_dist *d, int *v, int *cyc, int n, const int *widths)
{
	int cnt[3] = { 0, 0, 0 }, best = 0;

	memset(d, 0, sizeof *d);
	d->n = n;
	d->min_cycles = -1;
	for (int k = 0; k < n; k++) {
		if (d->min_cycles < 0 || v[k] < d->min || (v[k] == d->min && cyc[k] < d->min_cycles)) {
			d->min = v[k];
			d->min_cycles = cyc[k];
		}
		cnt[widths[k] == 16 ? 2 : widths[k] == 8]++;
	}
	qsort(v, (size_t)n, sizeof *v, cmp_int);
	if (n) {
		d->median = v[n / 2];
		d->max = v[n - 1];
	}
	for (int k = 1; k < 3; k++)
		if (cnt[k] > cnt[best])
			best = k;
	d->width = n ? 4 << best : 0;
}

int gp_sass_distances(const char *path, const char *kernel, struct gp_sass_report *r, char *err, size_t errlen)
{
	struct gp_cubin c;
	const struct gp_cubin_kernel *k;
	const unsigned char *text;
	int io = 0, rc = -1, first = -1, last = -1;
	int *dl = NULL, *cl = NULL, *wl = NULL, *dg = NULL, *cg = NULL, *wg = NULL, nl = 0, ng = 0;

	memset(r, 0, sizeof *r);
	if (gp_cubin_load(&c, path, &io) < 0) {
		snprintf(err, errlen, "%s", gp_cubin_error(&c));
		gp_cubin_close(&c);
		return -1;
	}
	k = gp_cubin_kernel(&c, kernel);
	if (!k) {
		snprintf(err, errlen, "%s", gp_cubin_error(&c));
		goto out;
	}
	text = gp_cubin_text(&c, k);
	dl = calloc(k->ninsn + 1, sizeof *dl);
	cl = calloc(k->ninsn + 1, sizeof *cl);
	wl = calloc(k->ninsn + 1, sizeof *wl);
	dg = calloc(k->ninsn + 1, sizeof *dg);
	cg = calloc(k->ninsn + 1, sizeof *cg);
	wg = calloc(k->ninsn + 1, sizeof *wg);
	if (!dl || !cl || !wl || !dg || !cg || !wg) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < k->ninsn; i++) {
		const uint32_t op = gp_insn_get(gp_insn_load(text + i * 16), GP_F_OPCODE);
		r->nffma += op == 0x223;
		r->nlds += op == GP_OP_LDS;
		r->nldg += op == GP_OP_LDG;
		r->nsts += op == GP_OP_STS;
		if (op == 0x223) {
			if (first < 0)
				first = (int)i;
			last = (int)i;
		}
	}
	/* The inner loop: loads from a little before the first FFMA to the last (the prologue's
	 * loads feed the first tile and are not part of the steady state). */
	for (int i = first < 32 ? 0 : first - 32; first >= 0 && i <= last; i++) {
		const struct gp_insn w = gp_insn_load(text + (size_t)i * 16);
		const uint32_t op = gp_insn_get(w, GP_F_OPCODE);
		const int rd = (int)gp_insn_get(w, GP_F_RD), n = mem_width(w) / 4;
		int cyc = 0;

		if ((op != GP_OP_LDS && op != GP_OP_LDG) || rd == GP_REG_RZ)
			continue;
		for (size_t j = (size_t)i + 1; j < k->ninsn; j++) {
			const struct gp_insn u = gp_insn_load(text + j * 16);
			cyc += (int)gp_insn_get(gp_insn_load(text + (j - 1) * 16), GP_F_STALL);
			if (reads(u, rd, n)) {
				if (op == GP_OP_LDS) {
					dl[nl] = (int)j - i;
					cl[nl] = cyc;
					wl[nl++] = n * 4;
				} else {
					dg[ng] = (int)j - i;
					cg[ng] = cyc;
					wg[ng++] = n * 4;
				}
				break;
			}
			if (writes(u, rd, n) || gp_insn_get(u, GP_F_OPCODE) == gp_insn_classes[GP_I_EXIT].opcode)
				break;
		}
	}
	summarise(&r->lds, dl, cl, nl, wl);
	summarise(&r->ldg, dg, cg, ng, wg);
	rc = 0;
out:
	free(dl);
	free(cl);
	free(wl);
	free(dg);
	free(cg);
	free(wg);
	gp_cubin_close(&c);
	return rc;
}

/* ------------------------------------------------------------------ run directory, CLI */

int gp_plan_from_run(const char *run_dir, struct gp_plan_in *in, char *err, size_t errlen)
{
	struct gp_machine m;

	if (gp_machine_load(run_dir, &m, err, errlen) < 0)
		return -1;
	if (isnan(m.lds_latency) || isnan(m.l2_latency)) {
		snprintf(err, errlen, "%s: profile.csv lacks lds_latency_cycles or l2 latency", run_dir);
		return -1;
	}
	/* One warp issues at most one instruction per clock on its scheduler; the measured FFMA
	 * rate per SM over 4 schedulers x 32 lanes says how close to 1 that is. */
	in->ipc = m.ffma_per_clk_sm / (4.0 * 32.0);
	in->lat_lds = m.lds_latency;
	/* SGEMM's tiles are re-read from L2; HBM latency is the cold-miss worst case. */
	in->lat_ldg = m.l2_latency;
	return 0;
}

static void plan_defaults(struct gp_plan_in *in)
{
	/* sgemm_29_warptile: 8 x 8 per thread, bk 8, LDS.128 fragments, LDG.128, STS.128. */
	memset(in, 0, sizeof *in);
	in->rx = in->ry = in->bk = 8;
	in->threads = 256;
	in->lds_bytes = in->ldg_bytes = in->sts_bytes = 16;
	in->every = 6;
}

static void print_sass(const struct gp_sass_report *s, const struct gp_plan *p, const char *kernel, FILE *out)
{
	fprintf(out, "\nAchieved by `%s` (%d FFMA, %d LDS, %d LDG, %d STS in the kernel; distances by register "
		"dataflow from each inner-loop load to the first instruction reading its registers):\n\n",
		kernel, s->nffma, s->nlds, s->nldg, s->nsts);
	fprintf(out, "| load | planner minimum | loads | shortest | median | longest | shortest in issue cycles | width B |\n");
	fprintf(out, "|---|---|---|---|---|---|---|---|\n");
	fprintf(out, "| LDS -> FFMA | %d | %d | %d | %d | %d | %d | %d |\n", p->d_lds, s->lds.n, s->lds.min,
		s->lds.median, s->lds.max, s->lds.min_cycles, s->lds.width);
	fprintf(out, "| LDG -> STS | %d | %d | %d | %d | %d | %d | %d |\n", p->d_ldg, s->ldg.n, s->ldg.min,
		s->ldg.median, s->ldg.max, s->ldg.min_cycles, s->ldg.width);
	fprintf(out, "\nA distance below the minimum is not an error by itself: other warps on the scheduler fill "
		"the gap (the planner's number is the single-warp worst case).\n");
}

int gp_planner_report(const char *run_dir, const char *cubin, FILE *md)
{
	struct gp_plan_in in;
	struct gp_plan *p;
	struct gp_sass_report s;
	char err[512];
	int rc = -1;

	plan_defaults(&in);
	if (gp_plan_from_run(run_dir, &in, err, sizeof err) < 0) {
		fprintf(stderr, "gpuprobe: plan: %s\n", err);
		return -1;
	}
	p = malloc(sizeof *p);
	if (!p || gp_plan_make(&in, p, err, sizeof err) < 0) {
		fprintf(stderr, "gpuprobe: plan: %s\n", p ? err : "out of memory");
		goto out;
	}
	fprintf(md, "\n## Schedule planner (seed 001 Table 5, E111)\n\n");
	gp_plan_print(&in, p, md);
	if (cubin) {
		if (gp_sass_distances(cubin, "sgemm_29_warptile", &s, err, sizeof err) < 0) {
			fprintf(md, "\nSASS distances not available: %s\n", err);
		} else {
			print_sass(&s, p, "sgemm_29_warptile", md);
		}
	} else {
		fprintf(md, "\nSASS distances: run `gpuprobe plan RUN --cubin sgemm.sm_90.cubin --kernel sgemm_29_warptile`.\n");
	}
	rc = 0;
out:
	free(p);
	return rc;
}

static int int_arg(const char *s, int *v)
{
	char *end;
	long x = strtol(s, &end, 10);

	if (*s == 0 || *end || x < 1 || x > 4096)
		return -1;
	*v = (int)x;
	return 0;
}

int gp_planner_main(int argc, char **argv)
{
	struct gp_plan_in in;
	struct gp_plan *p = NULL;
	struct gp_sass_report s;
	const char *run = NULL, *cubin = NULL, *kernel = "sgemm_29_warptile";
	char err[512];
	int rc = 2;

	plan_defaults(&in);
	for (int i = 1; i < argc; i++) {
		int *dst = !strcmp(argv[i], "--rx") ? &in.rx : !strcmp(argv[i], "--ry") ? &in.ry :
			   !strcmp(argv[i], "--bk") ? &in.bk : !strcmp(argv[i], "--every") ? &in.every :
			   !strcmp(argv[i], "--lds-bytes") ? &in.lds_bytes : NULL;
		if (dst && i + 1 < argc) {
			if (int_arg(argv[++i], dst) < 0)
				goto usage;
		} else if (!strcmp(argv[i], "--cubin") && i + 1 < argc) {
			cubin = argv[++i];
		} else if (!strcmp(argv[i], "--kernel") && i + 1 < argc) {
			kernel = argv[++i];
		} else if (argv[i][0] != '-' && !run) {
			run = argv[i];
		} else {
			goto usage;
		}
	}
	if (!run)
		goto usage;
	{
		const int rx = in.rx, ry = in.ry, bk = in.bk;
		if (gp_plan_from_run(run, &in, err, sizeof err) < 0) {
			fprintf(stderr, "gpuprobe: plan: %s\n", err);
			return 3;
		}
		in.rx = rx, in.ry = ry, in.bk = bk;
	}
	p = malloc(sizeof *p);
	if (!p) {
		fprintf(stderr, "gpuprobe: plan: out of memory\n");
		return 1;
	}
	if (gp_plan_make(&in, p, err, sizeof err) < 0) {
		fprintf(stderr, "gpuprobe: plan: %s\n", err);
		rc = 2;
		goto out;
	}
	gp_plan_print(&in, p, stdout);
	rc = 0;
	if (cubin) {
		if (gp_sass_distances(cubin, kernel, &s, err, sizeof err) < 0) {
			fprintf(stderr, "gpuprobe: plan: %s\n", err);
			rc = 8;
			goto out;
		}
		print_sass(&s, p, kernel, stdout);
	}
out:
	free(p);
	return rc;
usage:
	fprintf(stderr, "usage: gpuprobe plan RUN_DIR [--rx N --ry N --bk N --every N --lds-bytes B] "
		"[--cubin FILE --kernel K]\n");
	return 2;
}
