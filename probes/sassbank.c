/* sassbank.c — the register-bank probes: regbank_ffma (E103, seed 001 Table 2), regbank_map
 * (E104, Table 3) and regbank_reuse (the operand reuse cache). Each point rewrites the source
 * registers (and reuse flags) of a template's 240-instruction stream (probes/patch/regbank.cu)
 * to the combination under test and times 4 x warps warps of it in one block: cycles per
 * instruction per scheduler (SMSP) from the block-wide clock window. Pitfall: the template keeps
 * 64 values live to have registers to choose from, so its REGCOUNT bounds the warps of a block
 * and the registers of one residue; a point beyond either is n/a, not a failure. */
#include "gp.h"
#include "experiment.h"
#include "measure.h"
#include "sassprobe.h"
#include "sassprobe_shape.h"

#include <stdio.h>
#include <string.h>

#define SP_PATTERN_MAX 16

struct bank {
	const char *kernel, *mnemonic;
	uint32_t op;
	int nsrc;
	int src[SP_PATTERN_MAX][3]; /* instruction i reads src[i % n] (-1: as the template has it) */
	size_t n;
	unsigned reuse;
	int warps, iters, threads;
	long stream;
	CUdeviceptr out, t0, t1, in;
	const unsigned long long *h_t0, *h_t1;
	/* The experiment's sources from the template's free registers: 0, or -1 after gp_meas_na. */
	int (*pattern)(struct gp_meas *m, const uint8_t free_[256]);
};

/* "FFMA Rd, R16, R24, R32": the destination is the template's. */
static void insn_cell(struct gp_meas *m, const struct bank *b)
{
	char text[96];
	int len = snprintf(text, sizeof text, "%s Rd", b->mnemonic);

	for (int s = 0; s < b->nsrc && len > 0 && (size_t)len < sizeof text; s++)
		len += b->src[0][s] == GP_REG_RZ ? snprintf(text + len, sizeof text - len, ", RZ")
						 : snprintf(text + len, sizeof text - len, ", R%d", b->src[0][s]);
	gp_meas_str(m, "insn", text);
}

static void reg_cells(struct gp_meas *m, const int *src)
{
	gp_meas_int(m, "ra", src[0]);
	gp_meas_int(m, "rb", src[1]);
	gp_meas_int(m, "rc", src[2]);
}

/* Registers a pattern may read (below REGCOUNT, never written in the timed loop), the pattern,
 * and the stream's sources rewritten to it. */
static long bank_plan(struct gp_meas *m, struct gp_cubin *c, const char *kernel)
{
	struct bank *b = m->ctx;
	struct sp_region r;
	uint8_t free_[256];

	if (sp_timed_region(c, kernel, &r) < 0 || sp_free_regs(c, kernel, &r, free_) < 0) {
		gp_meas_fail(m, "template: %s", gp_cubin_error(c));
		return -1;
	}
	if (b->pattern(m, free_) < 0)
		return -1;
	return sp_plan_sources(c, kernel, b->op, (const int(*)[3])b->src, b->n, b->reuse);
}

/* What every register-bank point shares once the experiment has named its kernel and pattern;
 * the cells a point that cannot be built shows (each table has those it declares). */
static int bank_setup(struct gp_meas *m)
{
	struct bank *b = m->ctx;
	float in[SP_BANK_IN];
	size_t tb;
	int rc, maxt = 0, regs = 0;

	b->src[0][0] = b->src[0][1] = b->src[0][2] = -1;
	reg_cells(m, b->src[0]);
	gp_meas_str(m, "insn", "–");
	gp_meas_str(m, "regs", "–");
	b->warps = (int)gp_meas_param(m, "warps");
	b->iters = (int)gp_meas_param(m, "iters");
	b->threads = 128 * b->warps;
	b->stream = -1;
	rc = sp_patched_kernel(m, "regbank", b->kernel, bank_plan, &b->stream);
	gp_meas_int(m, "stream_len", b->stream);
	if (rc || !gp_meas_ok(m))
		return rc;
	if (gp_cu.cuFuncGetAttribute(&maxt, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, m->fn) != CUDA_SUCCESS ||
	    gp_cu.cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, m->fn) != CUDA_SUCCESS) {
		gp_meas_fail(m, "cannot read the template's register count");
		return 0;
	}
	if (b->threads > maxt)
		return gp_meas_na(m, "%d warps per SMSP (%d threads) do not fit one block: the template uses %d "
				  "registers per thread (at most %d threads)", b->warps, b->threads, regs, maxt);
	/* 1.0f (and its bits as an integer): no NaN, no denormal, nothing data-dependent. */
	for (size_t i = 0; i < SP_BANK_IN; i++)
		in[i] = 1.0f;
	tb = (size_t)b->threads * sizeof *b->h_t0;
	if ((rc = gp_meas_buf(m, &b->out, (size_t)b->threads * sizeof(float), GP_NO_POISON)) ||
	    (rc = gp_meas_buf(m, &b->t0, tb, GP_NO_POISON)) || (rc = gp_meas_buf(m, &b->t1, tb, GP_NO_POISON)) ||
	    (rc = gp_meas_input(m, &b->in, in, sizeof in)))
		return rc;
	b->h_t0 = gp_meas_readback(m, b->t0, tb, GP_EVERY_REP);
	b->h_t1 = gp_meas_readback(m, b->t1, tb, GP_EVERY_REP);
	gp_meas_launch(m, 1, (unsigned)b->threads, 0);
	gp_meas_args(m, &b->out, &b->t0, &b->t1, &b->in, &b->iters, gp_meas_clock(m));
	return 0;
}

/* First start to last end over the block, per instruction of one SMSP (warps instructions of
 * each stream position). */
static void bank_sample(struct gp_meas *m)
{
	const struct bank *b = m->ctx;
	unsigned long long first = ~0ull, last = 0;

	for (int i = 0; i < b->threads; i++) {
		first = b->h_t0[i] < first ? b->h_t0[i] : first;
		last = b->h_t1[i] > last ? b->h_t1[i] : last;
	}
	gp_sample(m, "cycles_per_insn", (double)(last - first) / ((double)b->stream * b->iters * b->warps));
}

/* Floor: a scheduler issues at most one instruction per clock. */
static void bank_finish(struct gp_meas *m)
{
	const double cpi = gp_meas_stat(m, "cycles_per_insn", GP_MEDIAN);

	gp_meas_num(m, "insn_per_clk_per_smsp", 1.0 / cpi);
	gp_meas_floor(m, "one SMSP", cpi, 1.0, 0.02, "cycles per instruction");
}

/* An experiment: the probe every bank experiment shares, with its own setup, and the descriptor
 * probes/sassprobe.def names. */
#define BANK_EXPERIMENT(name, params_, columns_)                                                    \
	static const struct gp_probe name##_probe = {                                              \
		.runner = GP_RUN_SYNC, .setup = name##_setup, .sample = bank_sample,               \
		.finish = bank_finish, .primary = "cycles_per_insn", .ctx_size = sizeof(struct bank), \
	};                                                                                         \
	GP_EXP_PROBE(name, params_, columns_, &name##_probe)

/* map and reuse run the same 240-FFMA stream: the same occupancy and length. */
#define BANK_STREAM_PARAMS                                                                          \
	{ "warps", GP_PARAM_INT, 1, 8, NULL, "4", "warps per scheduler (SMSP)" },                 \
	{ "iters", GP_PARAM_INT, 1, 100000, NULL, "1024",                                         \
	  "loop trips of the 240-FFMA stream (1 warp: >= 100 us for the clock sample)" }

/* ---------------------------------------------------------------- E103 regbank_ffma */

#define BANK_OP_NAME(name, T, ptx, cons, mnemonic, cls, nsrc) " " #name

static const struct gp_param regbank_ffma_params[] = {
	/* Every instruction of the list, by default too; + 1 drops the leading space. */
	{ "op", GP_PARAM_NAME, 0, 0, SP_BANK_OPS(BANK_OP_NAME) + 1, SP_BANK_OPS(BANK_OP_NAME) + 1,
	  "instruction of the stream" },
	{ "combo", GP_PARAM_NAME, 0, 0, "000 001 010 100 012 013 023 123 same", "000 001 010 100 012 same",
	  "register residues mod 8 of Ra Rb Rc (distinct registers); same: one register in every slot" },
	{ "reuse", GP_PARAM_INT, 0, 7, NULL, "0 7", "reuse flags of every instruction (1 Ra, 2 Rb, 4 Rc)" },
	{ "warps", GP_PARAM_INT, 1, 8, NULL, "1 4", "warps per scheduler (SMSP); the block has 4x as many" },
	{ "iters", GP_PARAM_INT, 1, 100000, NULL, "1024", "loop trips of the 240-instruction stream" },
};

static const char *const regbank_cols[] = {
	"op", "combo", "reuse", "warps", "ra", "rb", "rc", "insn", "stream_len", "cycles_per_insn",
	"cycles_per_insn_min", "cycles_per_insn_max", "insn_per_clk_per_smsp", "clock_MHz", "reps", "status",
};

static const struct {
	const char *name, *kernel, *mnemonic;
	enum gp_insn_class cls;
	int nsrc;
} bank_ops[] = {
#define BANK_OP_ROW(name, T, ptx, cons, mnemonic, cls, nsrc) { #name, "bank_" #name, mnemonic, cls, nsrc },
	SP_BANK_OPS(BANK_OP_ROW)
#undef BANK_OP_ROW
};

/* Ra Rb Rc of the combo's residues mod 8 (distinct registers), or one register in every slot. */
static int combo_pattern(struct gp_meas *m, const uint8_t free_[256])
{
	struct bank *b = m->ctx;
	const char *combo = gp_meas_param_str(m, "combo");
	uint8_t taken[256] = { 0 };
	int *src = b->src[0], ok = 1;

	if (!strcmp(combo, "same")) {
		src[0] = src[1] = sp_pick_reg(free_, taken, 0, 8);
		src[2] = b->nsrc > 2 ? src[0] : -1;
		ok = src[0] >= 0;
	} else {
		for (int s = 0; s < b->nsrc && ok; s++)
			ok = (src[s] = sp_pick_reg(free_, taken, (unsigned)(combo[s] - '0'), 8)) >= 0;
	}
	reg_cells(m, src);
	if (!ok)
		return gp_meas_na(m, "no free registers of residues %s below REGCOUNT", combo), -1;
	insn_cell(m, b);
	return 0;
}

static int regbank_ffma_setup(struct gp_meas *m)
{
	struct bank *b = m->ctx;
	const char *opname = gp_meas_param_str(m, "op");
	size_t o = 0;

	while (o + 1 < GP_ARRAY_SIZE(bank_ops) && strcmp(bank_ops[o].name, opname))
		o++;
	*b = (struct bank){ .kernel = bank_ops[o].kernel, .mnemonic = bank_ops[o].mnemonic,
			    .op = gp_insn_classes[bank_ops[o].cls].opcode, .nsrc = bank_ops[o].nsrc, .n = 1,
			    .reuse = (unsigned)gp_meas_param(m, "reuse"), .pattern = combo_pattern };
	if (b->nsrc < 3)
		b->reuse &= 3; /* FMUL has no Rc: bit 2 would mean something else */
	gp_meas_int(m, "reuse", b->reuse);
	return bank_setup(m);
}

BANK_EXPERIMENT(regbank_ffma, regbank_ffma_params, regbank_cols);

/* ---------------------------------------------------------------- E104 regbank_map */

static const struct gp_param regbank_map_params[] = {
	{ "form", GP_PARAM_NAME, 0, 0, "pair triple", "pair triple",
	  "pair: FFMA Rd, RA, RB, RZ; triple: FFMA Rd, RA, RB, RC with RC of RA's residue" },
	{ "rb_offset", GP_PARAM_INT, 0, 31, NULL, "0:15:1",
	  "RB's residue mod 32 relative to RA (0: another register of RA's residue)" },
	BANK_STREAM_PARAMS,
};

static const char *const regbank_map_cols[] = {
	"form", "rb_offset", "warps", "ra", "rb", "rc", "insn", "stream_len", "cycles_per_insn",
	"cycles_per_insn_min", "cycles_per_insn_max", "clock_MHz", "reps", "status",
};

/* RA of residue 0 mod 32, RB at the offset, RC = RZ (pair) or another register of RA's residue. */
static int map_pattern(struct gp_meas *m, const uint8_t free_[256])
{
	struct bank *b = m->ctx;
	const long k = gp_meas_param(m, "rb_offset");
	uint8_t taken[256] = { 0 };
	int *src = b->src[0];

	src[0] = sp_pick_reg(free_, taken, 0, 32);
	src[2] = strcmp(gp_meas_param_str(m, "form"), "triple") ? GP_REG_RZ : sp_pick_reg(free_, taken, 0, 32);
	src[1] = sp_pick_reg(free_, taken, (unsigned)k, 32);
	reg_cells(m, src);
	/* The template's register budget may hold too few registers of one residue (triple at offset
	 * 0 needs three): n/a where the suite asked for that offset, no row in the default sweep. */
	if (src[0] < 0 || src[1] < 0 || src[2] < 0)
		return (gp_point_given(m->pt, "rb_offset")
				? gp_meas_na(m, "no free register of residue %ld mod 32 below REGCOUNT", k)
				: gp_meas_skip(m)),
		       -1;
	insn_cell(m, b);
	return 0;
}

static int regbank_map_setup(struct gp_meas *m)
{
	struct bank *b = m->ctx;

	*b = (struct bank){ .kernel = "bank_ffma", .mnemonic = "FFMA", .op = gp_insn_classes[GP_I_FFMA_RRR].opcode,
			    .nsrc = 3, .n = 1, .pattern = map_pattern };
	return bank_setup(m);
}

BANK_EXPERIMENT(regbank_map, regbank_map_params, regbank_map_cols);

/* ---------------------------------------------------------------- regbank_reuse */

static const struct gp_param regbank_reuse_params[] = {
	{ "slot", GP_PARAM_NAME, 0, 0, "a b c", "a b c", "operand slot whose register cycles" },
	{ "layout", GP_PARAM_NAME, 0, 0, "one mixed", "one mixed",
	  "one: every register of one residue mod 8; mixed: the cycling register j of residue j mod 8, "
	  "the fixed two of residues 0 and 1" },
	{ "distinct", GP_PARAM_INT, 1, 8, NULL, "1 2 3 4", "distinct registers cycling through the slot" },
	{ "reuse", GP_PARAM_INT, 0, 1, NULL, "0 1", "reuse flag on the cycling slot" },
	BANK_STREAM_PARAMS,
};

static const char *const regbank_reuse_cols[] = {
	"slot", "layout", "distinct", "reuse", "warps", "regs", "stream_len", "cycles_per_insn", "cycles_per_insn_min",
	"cycles_per_insn_max", "clock_MHz", "reps", "status",
};

/* Instruction i: the slot under test reads X[i % distinct] (reuse flag as asked), the other two
 * slots read F1, F2 without reuse.
 *  one:   F1, F2 and every X of one residue mod 8: a miss in the cache is a three-way same-bank
 *         read and a hit a two-way one; N = how many registers of one bank a slot keeps.
 *  mixed: X[j] of residue j mod 8, F1 of residue 0, F2 of residue 1: wherever the banks are the
 *         register number modulo a power of two (regbank_map), F1 and F2 sit in two banks and X[j]
 *         shares one of them, so a miss is a two-way read and a hit none; N registers of
 *         consecutive residues still hitting = how many the slot keeps across banks (one per bank
 *         if the cache is organised by bank, as a compiler that sets reuse on a slot's register
 *         while the next instruction reads another of the other bank assumes). */
static int reuse_pattern(struct gp_meas *m, const uint8_t free_[256])
{
	struct bank *b = m->ctx;
	const int slot = gp_meas_param_str(m, "slot")[0] - 'a', distinct = (int)gp_meas_param(m, "distinct");
	const int mixed = !strcmp(gp_meas_param_str(m, "layout"), "mixed");
	uint8_t taken[256] = { 0 };
	const int f1 = sp_pick_reg(free_, taken, 0, 8), f2 = sp_pick_reg(free_, taken, mixed ? 1 : 0, 8);
	char regs[160];
	int len = snprintf(regs, sizeof regs, "F=R%d,R%d X=", f1, f2), ok = f1 >= 0 && f2 >= 0;

	for (int j = 0; j < distinct && ok; j++) {
		const int x = sp_pick_reg(free_, taken, mixed ? (unsigned)j % 8 : 0, 8);
		ok = x >= 0;
		for (int s = 0, other = 0; s < 3 && ok; s++)
			b->src[j][s] = s == slot ? x : other++ ? f2 : f1;
		if (ok && len > 0 && (size_t)len < sizeof regs)
			len += snprintf(regs + len, sizeof regs - len, "%sR%d", j ? ";" : "", x);
	}
	gp_meas_str(m, "regs", regs);
	b->n = (size_t)distinct;
	return ok ? 0 : (gp_meas_na(m, "not enough free registers of the residues mod 8 asked for below REGCOUNT"), -1);
}

static int regbank_reuse_setup(struct gp_meas *m)
{
	struct bank *b = m->ctx;
	const int slot = gp_meas_param_str(m, "slot")[0] - 'a';

	*b = (struct bank){ .kernel = "bank_ffma", .mnemonic = "FFMA", .op = gp_insn_classes[GP_I_FFMA_RRR].opcode,
			    .nsrc = 3, .reuse = gp_meas_param(m, "reuse") ? 1u << slot : 0, .pattern = reuse_pattern };
	return bank_setup(m);
}

BANK_EXPERIMENT(regbank_reuse, regbank_reuse_params, regbank_reuse_cols);
