/* sassprobe_report.c — what the SASS probes (stall_ffma, stall_wait, regbank_ffma, regbank_map,
 * regbank_reuse) make of their tables, without the device: the derivations (minimum safe stall,
 * bank count, reuse-cache entries), the profile keys and the REPORT.md sections in seed 001's
 * Figure 2 / Table 2 / Table 3 layouts with Kepler's numbers (configs/reference.csv) beside ours.
 * Only rows whose status is "ok" feed a derivation: an n/a point, a fault (expected or not) or a
 * failed check has no numbers to trust; the tables still show those rows' status. */
#include "gp.h"
#include "analysis.h"
#include "sassprobe.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- derivations */

static int cell_is(const struct gp_table *t, size_t r, const char *col, const char *v)
{
	const char *s = gp_table_get(t, r, col);
	return s && !strcmp(s, v);
}

/* Per stall count, the rows without the yield bit decide where there are any: a GPU may not stall
 * at all for the largest counts with yield set (1-2 cycles and wrong results), which says nothing
 * about the fixed latency and would hide the answer. */
int sp_min_safe_stall(const struct gp_table *t)
{
	int wrong[2][16] = { { 0 } }, seen[2][16] = { { 0 } }, best = -1;
	int wrong_s[16], seen_s[16];

	for (size_t r = 0; r < t->nrows; r++) {
		double s, ok, y = 1;
		if (!gp_table_row_ok(t, r) || !cell_is(t, r, "chain", "dep") || gp_table_get_double(t, r, "stall", &s) ||
		    gp_table_get_double(t, r, "correct", &ok) || s < 1 || s > 15)
			continue;
		if (gp_table_get_double(t, r, "yield", &y))
			y = 1;
		seen[y != 0][(int)s] = 1;
		wrong[y != 0][(int)s] |= ok != 1;
	}
	for (int s = 0; s < 16; s++) {
		const int y = seen[0][s] ? 0 : 1;
		seen_s[s] = seen[y][s];
		wrong_s[s] = wrong[y][s];
	}
	for (int s = 15; s >= 1; s--) {
		if (!seen_s[s])
			continue;
		if (wrong_s[s])
			break;
		best = s;
	}
	return best;
}

/* Cycles per instruction of the rows selected by (col == val), indexed by an integer column. */
static size_t collect(const struct gp_table *t, const char *selcol, const char *selval, const char *keycol,
		      double *key, double *cyc, size_t max)
{
	size_t n = 0;

	for (size_t r = 0; r < t->nrows && n < max; r++) {
		if (!gp_table_row_ok(t, r) || (selcol && !cell_is(t, r, selcol, selval)) ||
		    gp_table_get_double(t, r, keycol, &key[n]) || gp_table_get_double(t, r, "cycles_per_insn", &cyc[n]) ||
		    isnan(cyc[n]))
			continue;
		n++;
	}
	return n;
}

#define SP_MIN_STEP 0.1 /* cycles per instruction: smaller differences are noise, not a conflict */

int sp_bank_count(const struct gp_table *t, double *penalty)
{
	static const char *const forms[] = { "pair", "triple" };
	double key[256], cyc[256];

	*penalty = NAN;
	for (size_t f = 0; f < GP_ARRAY_SIZE(forms); f++) {
		size_t n = collect(t, "form", forms[f], "rb_offset", key, cyc, 256);
		double fast = INFINITY, slow = -INFINITY, mid;
		int any = 0;

		for (size_t i = 0; i < n; i++) {
			fast = fmin(fast, cyc[i]);
			slow = fmax(slow, cyc[i]);
		}
		if (n < 2 || slow - fast < SP_MIN_STEP)
			continue;       /* no conflict in this form: try the next */
		mid = (fast + slow) / 2;
		for (int p = 2; p <= 32; p *= 2) {
			int consistent = 1;
			for (size_t i = 0; i < n && consistent; i++) {
				long k = (long)key[i];
				int conflict = cyc[i] > mid, predicted = k % p == 0;
				any |= conflict && k;
				consistent = conflict == predicted;
			}
			if (consistent && any) {
				*penalty = slow - fast;
				return p;
			}
		}
		*penalty = slow - fast;
		return 0;
	}
	return 0;
}

/* A regbank_reuse row's layout: a table from before the parameter has rows of layout "one". */
static int layout_is(const struct gp_table *t, size_t r, const char *layout)
{
	const char *s = gp_table_get(t, r, "layout");
	return !strcmp(s && *s ? s : "one", layout);
}

int sp_reuse_entries(const struct gp_table *t, const char *slot, const char *layout)
{
	double hit = NAN, miss = NAN, at_n[65];
	int have[65] = { 0 }, best = -1;

	for (size_t r = 0; r < t->nrows; r++) {
		double d, reuse, c;
		if (!gp_table_row_ok(t, r) || !cell_is(t, r, "slot", slot) || !layout_is(t, r, layout) ||
		    gp_table_get_double(t, r, "distinct", &d) ||
		    gp_table_get_double(t, r, "reuse", &reuse) || gp_table_get_double(t, r, "cycles_per_insn", &c) ||
		    d < 1 || d > 64)
			continue;
		if (!reuse) {
			miss = isnan(miss) ? c : fmax(miss, c);
			continue;
		}
		if (d == 1)
			hit = c;
		at_n[(int)d] = c;
		have[(int)d] = 1;
	}
	if (isnan(hit) || isnan(miss) || miss - hit < SP_MIN_STEP)
		return -1;
	for (int d = 1; d <= 64; d++) {
		if (!have[d])
			continue;
		if (at_n[d] - hit > (miss - hit) / 2)
			break;
		best = d;
	}
	return best;
}

/* ---------------------------------------------------------------- stall_ffma, stall_wait */

static void stall_ffma_derive(struct gp_profile *prof, const struct gp_table *t)
{
	const int s = sp_min_safe_stall(t);

	if (s > 0)
		gp_profile_add(prof, "ffma_min_safe_stall", s, "cycles",
			       "smallest patched stall count keeping a dependent FFMA chain correct (no interlock)",
			       "stall_ffma");
}

/* "4.02 ok", "1 **wrong**", or the status of a point without numbers. */
static void stall_cell(FILE *md, const struct gp_table *t, const char *chain, const char *stall, const char *yield)
{
	const long r = gp_table_find(t, 0, "chain", chain, "stall", stall, "yield", yield, NULL);
	const char *status = r >= 0 ? gp_table_get(t, (size_t)r, "status") : NULL;
	char cell[64], num[32];

	if (r >= 0 && !gp_table_row_ok(t, (size_t)r))
		snprintf(cell, sizeof cell, "%.40s", status ? status : "");
	else if (r >= 0)
		snprintf(cell, sizeof cell, "%s %s",
			 gp_md_fmt(num, sizeof num, gp_table_num(t, (size_t)r, "cycles_per_insn")),
			 gp_table_num(t, (size_t)r, "correct") == 1 ? "ok" : "**wrong**");
	gp_md_str(md, r >= 0 ? cell : NULL);
}

/* Seed 001 Figure 2 as a table: stall count down, the dependent and independent chains with both
 * yield bits across; Kepler's control code 0x2n suspended the warp n cycles. */
static void stall_ffma_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const cols[][2] = { { "dep", "1" }, { "dep", "0" }, { "ind", "1" }, { "ind", "0" } };
	const int safe = sp_min_safe_stall(t);

	fprintf(md, "Seed 001 Figure 2 on Volta-family control bits: cycles per FFMA (one warp) and whether the "
		    "chain's result still equals the host's, for every stall count patched into every timed FFMA. "
		    "Kepler had one control byte per instruction (0x2n: wait n cycles); here the stall count is "
		    "bits 105-108 and the yield bit 109 of each instruction.\n\n");
	gp_md_header(md, "stall", "dep, yield 1", "dep, yield 0", "ind, yield 1", "ind, yield 0",
		     "paper K20m: code 0x2n waits");
	for (int s = 0; s <= 15; s++) {
		char sv[8], key[32];
		snprintf(sv, sizeof sv, "%d", s);
		if (gp_table_find(t, 0, "stall", sv, NULL) < 0)
			continue;
		gp_md_num(md, s);
		for (size_t c = 0; c < GP_ARRAY_SIZE(cols); c++)
			stall_cell(md, t, cols[c][0], sv, cols[c][1]);
		snprintf(key, sizeof key, "wait_cycles@%d", s);
		gp_md_cell(md, gp_reference(ref, "stall_ffma", key, NULL, NULL));
		gp_md_end(md);
	}
	fputc('\n', md);
	gp_md_header(md, "derived", "here", "published (Volta and later)");
	gp_md_str(md, "smallest stall keeping the dependent chain correct (= fixed FFMA latency, no interlock)");
	gp_md_num(md, safe > 0 ? safe : NAN);
	gp_md_cell(md, gp_reference(ref, "stall_ffma", "published_ffma_latency", NULL, NULL));
	gp_md_end(md);
	fputc('\n', md);
}

static void stall_wait_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const mems[] = { "ldg", "lds" }, *const waits[] = { "keep", "clear" };

	fprintf(md, "Seed 001 Observation 2 (memory dependency barriers) on Volta-family scoreboards: a pointer chase "
		    "whose consumer's wait bit on the load's scoreboard is kept or cleared. Cleared, the consumer "
		    "reads the register before the load has written it; a fault there is an expected result.\n\n");
	gp_md_header(md, "load", "wait bit", "consumers patched", "cycles per step", "result");
	for (size_t i = 0; i < GP_ARRAY_SIZE(mems); i++)
		for (size_t w = 0; w < GP_ARRAY_SIZE(waits); w++) {
			const long r = gp_table_find(t, 0, "mem", mems[i], "wait", waits[w], NULL);
			if (r < 0)
				continue;
			gp_md_str(md, mems[i]);
			gp_md_str(md, waits[w]);
			gp_md_cell(md, gp_table_get(t, (size_t)r, "consumers_patched"));
			gp_md_cell(md, gp_table_get(t, (size_t)r, "cycles_per_step"));
			gp_md_str(md, !gp_table_row_ok(t, (size_t)r) ? gp_table_get(t, (size_t)r, "status")
				  : gp_table_num(t, (size_t)r, "correct") == 1 ? "correct" : "**stale / wrong**");
			gp_md_end(md);
		}
	fputc('\n', md);
}

/* ---------------------------------------------------------------- regbank_ffma */

/* Penalty of all three sources in one residue class over the best combo (FFMA, no reuse, the most
 * warps measured): what a same-bank triple costs once latency is hidden. */
static void regbank_ffma_derive(struct gp_profile *prof, const struct gp_table *t)
{
	const double wmax = gp_table_max_ok(t, "warps");
	double same = NAN, best = INFINITY;

	for (size_t r = 0; r < t->nrows; r++) {
		const double c = gp_table_num(t, r, "cycles_per_insn");
		if (!gp_table_row_ok(t, r) || !cell_is(t, r, "op", "ffma") || gp_table_num(t, r, "warps") != wmax ||
		    gp_table_num(t, r, "reuse") != 0 || isnan(c))
			continue;
		if (cell_is(t, r, "combo", "000"))
			same = c;
		best = fmin(best, c);
	}
	if (!isnan(same) && isfinite(best))
		gp_profile_add(prof, "ffma_same_bank_penalty_cycles", same - best, "cycles/insn/SMSP",
			       "FFMA with Ra Rb Rc of one residue mod 8 minus the best combo, no reuse flags",
			       "regbank_ffma");
}

/* Seed 001 Table 2's layout: instruction, throughput per SM, efficiency, conflict; Kepler's eight
 * rows under ours. Th/SM here is lanes per clock per SM: 4 SMSPs x 32 lanes / cycles per insn. */
static void regbank_ffma_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const kepler[] = {
		"FFMA R5, R4, R1, R0", "FFMA R2, R4, R1, R0", "FFMA R5, R2, R1, R0", "FFMA R3, R2, R1, R0",
		"FFMA R5, R9, R3, R1", "FFMA R11, R9, R3, R1", "FMUL R4, R1, R0", "FMUL R4, R2, R0",
	};
	static const char *const paper[] = { "th@%s", "eff@%s", "conf@%s" };
	const double wmax = gp_table_max_ok(t, "warps");
	char num[32], key[64];

	fprintf(md, "Seed 001 Table 2 layout: throughput of an instruction stream whose source registers were patched "
		    "into each combination (residues mod 8 of Ra Rb Rc; Rd is the template's). Th/SM = 128 / cycles per "
		    "instruction per SMSP; Eff = Th/SM / 128 lanes. Rows at %s warps per SMSP.\n\n",
		gp_md_fmt(num, sizeof num, wmax));
	gp_md_header(md, "Inst (here)", "combo", "reuse", "cycles/insn/SMSP", "Th/SM", "Eff (%)", "status");
	for (size_t r = 0; r < t->nrows; r++) {
		const double cpi = gp_table_num(t, r, "cycles_per_insn");
		if (gp_table_num(t, r, "warps") != wmax)
			continue;
		gp_md_str(md, gp_table_get(t, r, "insn"));
		gp_md_str(md, gp_table_get(t, r, "combo")); /* "012" is a name, not a number */
		gp_md_cell(md, gp_table_get(t, r, "reuse"));
		gp_md_cell(md, gp_table_get(t, r, "cycles_per_insn"));
		gp_md_num(md, 128.0 / cpi);
		gp_md_num(md, 100.0 / cpi);
		gp_md_str(md, gp_table_get(t, r, "status"));
		gp_md_end(md);
	}
	fputc('\n', md);
	gp_md_header(md, "Inst (paper, K20m, single issue)", "Th/SM", "Eff (%)", "Conf (way)");
	for (size_t i = 0; i < GP_ARRAY_SIZE(kepler); i++) {
		gp_md_str(md, kepler[i]);
		for (size_t p = 0; p < GP_ARRAY_SIZE(paper); p++) {
			snprintf(key, sizeof key, paper[p], kepler[i]);
			gp_md_cell(md, gp_reference(ref, "regbank_ffma", key, NULL, NULL));
		}
		gp_md_end(md);
	}
	fputc('\n', md);
}

/* ---------------------------------------------------------------- regbank_map */

static void regbank_map_derive(struct gp_profile *prof, const struct gp_table *t)
{
	double penalty;
	const int banks = sp_bank_count(t, &penalty);

	if (banks <= 0)
		return;
	gp_profile_add(prof, "register_banks", banks, "banks",
		       "FFMA source pairs/triples: conflicting register offsets are the multiples of this", "regbank_map");
	gp_profile_add(prof, "bank_conflict_penalty_cycles", penalty, "cycles/insn/SMSP",
		       "conflicting minus conflict-free FFMA stream, no reuse flags", "regbank_map");
}

/* Seed 001 Table 3's layout: banks down, registers across — ours inferred from the measured
 * conflicts (bank = r mod banks), Kepler's from the paper. */
static void regbank_map_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	double penalty;
	const int banks = sp_bank_count(t, &penalty);
	char here[96], num[32], regs[160], key[16];

	fprintf(md, "Seed 001 Table 3 layout, by measurement: FFMA streams reading RA and RB (pair: Rc = RZ; triple: "
		    "Rc of RA's residue), RB's residue mod 32 relative to RA swept; a conflicting offset costs "
		    "cycles.\n\n");
	gp_md_header(md, "form", "offset", "instruction", "cycles/insn/SMSP", "status");
	for (size_t r = 0; r < t->nrows; r++) {
		gp_md_str(md, gp_table_get(t, r, "form"));
		gp_md_cell(md, gp_table_get(t, r, "rb_offset"));
		gp_md_str(md, gp_table_get(t, r, "insn"));
		gp_md_cell(md, gp_table_get(t, r, "cycles_per_insn"));
		gp_md_str(md, gp_table_get(t, r, "status"));
		gp_md_end(md);
	}
	fputc('\n', md);
	snprintf(here, sizeof here, "here (inferred: %d banks, penalty %s cycles)", banks,
		 gp_md_fmt(num, sizeof num, penalty));
	gp_md_header(md, "bank", here, "paper K20m");
	for (int b = 0; b < 4; b++) {
		int len = 0;
		regs[0] = 0;
		for (int reg = 0; banks > b && reg < 32 && len >= 0 && (size_t)len < sizeof regs; reg++)
			if (reg % banks == b)
				len += snprintf(regs + len, sizeof regs - len, "%sR%d", len ? " " : "", reg);
		snprintf(key, sizeof key, "bank%d", b);
		snprintf(here, sizeof here, "Bank%d", b);
		gp_md_str(md, here);
		gp_md_str(md, regs);
		gp_md_cell(md, gp_reference(ref, "regbank_map", key, NULL, NULL));
		gp_md_end(md);
	}
	fputc('\n', md);
}

/* ---------------------------------------------------------------- regbank_reuse */

static const char *const reuse_slots[] = { "a", "b", "c" };

static void regbank_reuse_derive(struct gp_profile *prof, const struct gp_table *t)
{
	static const struct {
		const char *layout, *infix, *what;
	} kinds[] = {
		{ "one", "", "most distinct registers of one residue mod 8 cycling through one slot with reuse set that "
			     "still avoid the bank conflict" },
		{ "mixed", "mixed_", "most registers of consecutive residues mod 8 (0, 1, ...) cycling through one slot "
				     "with reuse set that still avoid the bank conflict" },
	};

	for (size_t s = 0; s < GP_ARRAY_SIZE(reuse_slots); s++)
		for (size_t k = 0; k < GP_ARRAY_SIZE(kinds); k++) {
			const int n = sp_reuse_entries(t, reuse_slots[s], kinds[k].layout);
			char key[64];
			if (n < 1)
				continue;
			snprintf(key, sizeof key, "reuse_cache_entries_%sslot_%s", kinds[k].infix, reuse_slots[s]);
			gp_profile_add(prof, key, n, "values", kinds[k].what, "regbank_reuse");
		}
}

static void regbank_reuse_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const layouts[] = { "one", "mixed" };

	fprintf(md, "Operand reuse cache (no Kepler counterpart): one slot cycles through N registers, the other two "
		    "read fixed registers without reuse; cycles per instruction per SMSP with the reuse flag off / on. "
		    "Layout `one`: every register of one residue mod 8 (a miss is a three-way same-bank read); `mixed`: "
		    "the cycling registers of residues 0, 1, ... mod 8 and the fixed two of residues 0 and 1 (a miss is "
		    "a two-way read). Entries per slot = the largest N that still avoids the conflict: with `one` how "
		    "many registers of one bank a slot keeps, with `mixed` how many of consecutive residues.\n\n");
	gp_md_header(md, "slot", "layout", "N", "reuse off", "reuse on");
	for (size_t s = 0; s < GP_ARRAY_SIZE(reuse_slots); s++)
		for (size_t l = 0; l < GP_ARRAY_SIZE(layouts); l++)
			for (int n = 1; n <= 8; n++) {
				long off = -1, on = -1;
				for (size_t r = 0; r < t->nrows; r++) {
					double d, reuse;
					if (!cell_is(t, r, "slot", reuse_slots[s]) || !layout_is(t, r, layouts[l]) ||
					    gp_table_get_double(t, r, "distinct", &d) || d != n ||
					    gp_table_get_double(t, r, "reuse", &reuse))
						continue;
					if (reuse)
						on = (long)r;
					else
						off = (long)r;
				}
				if (off < 0 && on < 0)
					continue;
				gp_md_str(md, reuse_slots[s]);
				gp_md_str(md, layouts[l]);
				gp_md_num(md, n);
				gp_md_cell(md, off >= 0 ? gp_table_get(t, (size_t)off, "cycles_per_insn") : NULL);
				gp_md_cell(md, on >= 0 ? gp_table_get(t, (size_t)on, "cycles_per_insn") : NULL);
				gp_md_end(md);
			}
	fputc('\n', md);
	gp_md_header(md, "slot", "entries, one residue", "entries, mixed residues");
	for (size_t s = 0; s < GP_ARRAY_SIZE(reuse_slots); s++) {
		const int n = sp_reuse_entries(t, reuse_slots[s], "one"), nm = sp_reuse_entries(t, reuse_slots[s], "mixed");
		gp_md_str(md, reuse_slots[s]);
		gp_md_num(md, n > 0 ? n : NAN);
		gp_md_num(md, nm > 0 ? nm : NAN);
		gp_md_end(md);
	}
	fputc('\n', md);
}

GP_ANALYSIS_BY_NAME(stall_ffma);
GP_ANALYSIS(stall_wait, NULL, stall_wait_report);
GP_ANALYSIS_BY_NAME(regbank_ffma);
GP_ANALYSIS_BY_NAME(regbank_map);
GP_ANALYSIS_BY_NAME(regbank_reuse);
