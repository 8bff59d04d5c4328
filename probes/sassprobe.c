/* sassprobe.c — probes that patch SASS: stall_ffma / stall_wait (E105, seed 001 Figure 2) and
 * regbank_ffma / regbank_map / regbank_reuse (E103, E104, seed 001 Tables 2 and 3).
 *
 * Each point copies the device's template cubin (probes/patch/), rewrites the fields under test
 * with the plans of sassplan.c, loads the copy with cuModuleLoadData and times it with clock64.
 * A variant may trap or hang on purpose: the harness runs every point in a child process, so
 * that becomes a row of its own. Pitfall: a dependent chain run with too short a stall does not
 * slow down, it computes something else; every stall point therefore checks the arithmetic
 * against the host, and "correct" is a result column, not a validity condition of the row. */
#include "gp.h"
#include "experiment.h"
#include "analysis.h"
#include "measure.h"
#include "stats.h"
#include "templates.h"
#include "sassprobe.h"
#include "sass/patch.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define STALL_THREADS 32
#define STALL_ILP 8
#define WAIT_UNROLL 16
#define WAIT_RING 61
#define WAIT_STEP 17
#define NLIVE 64
#define SP_PATTERN_MAX 16

static const float chain_bc[2] = { 1.0f - 0x1p-20f, 0x1p-19f };

__attribute__((format(printf, 3, 4))) static void say(char *status, size_t n, const char *fmt, ...)
{
	va_list ap;

	if (strcmp(status, "ok"))
		return;         /* keep the first reason */
	va_start(ap, fmt);
	vsnprintf(status, n, fmt, ap);
	va_end(ap);
}

static int device_sm(const struct gp_device *d)
{
	return d->cc_major * 10 + d->cc_minor;
}

/* A private, parsed copy of template `file` for the device's sm; GP_EVALID with status if none. */
static int open_template(const struct gp_device *d, const char *file, struct gp_cubin *c, char *status,
			 size_t n)
{
	const struct gp_template_cubin *tc = gp_template_find(file, device_sm(d));

	memset(c, 0, sizeof *c);
	if (!tc) {
		say(status, n, "no %s template cubin for sm_%d (built for sm_75 ... sm_90)", file, device_sm(d));
		return GP_EVALID;
	}
	if (gp_cubin_open(c, tc->start, (size_t)(tc->end - tc->start)) < 0) {
		say(status, n, "template %s: %s", file, gp_cubin_error(c));
		return GP_EVALID;
	}
	return 0;
}

static int load_image(const struct gp_cubin *c, const char *kernel, CUmodule *mod, CUfunction *fn)
{
	GP_CU(cuModuleLoadData(mod, c->image));
	GP_CU(cuModuleGetFunction(fn, *mod, kernel));
	return 0;
error:
	return GP_ECUDA;
}

static int end_row(struct gp_table *t, const char *name, const char *status, int rc)
{
	char err[128];

	gp_row_str(t, "status", status);
	if (gp_row_end(t, err, sizeof err)) {
		gp_err("internal: %s row: %s", name, err);
		return GP_EFAIL;
	}
	if (rc)
		return rc;
	return gp_status_rc(status);
}

static float start_value(unsigned tid)
{
	return 1.0f + (float)(tid % 7) * 0.125f;
}

static float fma_chain(float x, long n)
{
	for (long i = 0; i < n; i++)
		x = fmaf(x, chain_bc[0], chain_bc[1]);
	return x;
}

/* ---------------------------------------------------------------- E105 stall_ffma */

static const struct gp_param stall_ffma_params[] = {
	{ "chain", GP_PARAM_NAME, 0, 0, "dep ind", "dep ind",
	  "dep: one dependent FFMA chain; ind: 8 interleaved independent chains" },
	{ "stall", GP_PARAM_INT, 0, 15, NULL, "0:15:1", "stall count written into every timed FFMA" },
	{ "yield", GP_PARAM_INT, 0, 1, NULL, "0 1", "yield bit written into every timed FFMA (0 = may switch)" },
	{ "iters", GP_PARAM_INT, 1, 100000, NULL, "1024", "loop trips of 256 FFMAs" },
};

static const char *const stall_ffma_cols[] = {
	"chain", "stall", "yield", "valid_encoding", "patched_insns", "ffma_per_thread", "cycles_per_insn",
	"cycles_per_insn_min", "cycles_per_insn_max", "correct", "wrong_threads", "clock_MHz", "reps", "status",
};

struct stall_res {
	long patched, per_thread;
	double cpi, cpi_min, cpi_max, mhz;
	int correct, wrong;
};

static void stall_reference(int dep, long per_chain, float *ref)
{
	for (unsigned k = 0; k < 7; k++)
		for (int a = 0; a < (dep ? 1 : STALL_ILP); a++)
			ref[k * STALL_ILP + a] = fma_chain(start_value(k) + 0.0625f * (float)a, per_chain);
}

static int stall_run(struct gp_run *run, struct gp_cubin *c, const char *kernel, int dep, int iters,
		     struct stall_res *res, char *status, size_t slen)
{
	const int nout = STALL_THREADS * (dep ? 1 : STALL_ILP), nrep = run->reps;
	const long per_chain = res->per_thread / (dep ? 1 : STALL_ILP);
	unsigned long long cyc[STALL_THREADS];
	float *out = malloc(nout * sizeof *out), ref[7 * STALL_ILP];
	double *r_cpi = malloc(nrep * sizeof *r_cpi), *r_clk = malloc(nrep * sizeof *r_clk);
	CUdeviceptr d_out = 0, d_cyc = 0, d_bc = 0, d_cs = 0;
	CUmodule mod = NULL;
	CUfunction fn;
	struct gp_clock_sample cs;
	struct gp_stats s_cpi, s_clk;
	void *args[] = { &d_out, &d_cyc, &d_bc, &iters, &d_cs };
	int rc = GP_EFAIL;

	if (!out || !r_cpi || !r_clk)
		goto done;
	stall_reference(dep, per_chain, ref);
	if ((rc = load_image(c, kernel, &mod, &fn)) || (rc = gp_alloc(&d_out, nout * sizeof *out)) ||
	    (rc = gp_alloc(&d_cyc, sizeof cyc)) || (rc = gp_alloc(&d_bc, sizeof chain_bc)) ||
	    (rc = gp_alloc(&d_cs, sizeof cs)) || (rc = gp_upload(d_bc, chain_bc, sizeof chain_bc)))
		goto done;
	res->correct = 1;
	for (int r = -run->warmup; r < nrep; r++) {
		double worst = 0;
		gp_cu.cuMemsetD8(d_out, 0xff, nout * sizeof *out);
		if ((rc = gp_launch(fn, 1, STALL_THREADS, 0, args, NULL)) || (rc = gp_download(cyc, d_cyc, sizeof cyc)) ||
		    (rc = gp_download(out, d_out, nout * sizeof *out)) || (rc = gp_download(&cs, d_cs, sizeof cs)))
			goto done;
		if (r < 0)
			continue;
		res->wrong = 0;
		for (int tid = 0; tid < STALL_THREADS; tid++) {
			int bad = 0;
			for (int a = 0; a < nout / STALL_THREADS; a++)
				bad |= memcmp(&out[tid * (nout / STALL_THREADS) + a], &ref[(tid % 7) * STALL_ILP + a],
					      sizeof(float)) != 0;
			res->wrong += bad;
			worst = fmax(worst, (double)cyc[tid]);
		}
		res->correct &= res->wrong == 0;
		r_cpi[r] = worst / (double)res->per_thread;
		r_clk[r] = gp_clock_mhz(&cs);
	}
	gp_stats(r_cpi, nrep, &s_cpi);
	gp_stats(r_clk, nrep, &s_clk);
	res->cpi = s_cpi.median;
	res->cpi_min = s_cpi.min;
	res->cpi_max = s_cpi.max;
	res->mhz = s_clk.median;
	if (s_clk.median <= 0)
		say(status, slen, "clock sample too short to measure the SM clock (raise iters)");
	/* One warp issues at most one instruction per clock. */
	if (res->cpi < 0.98)
		say(status, slen, "%.3f cycles per FFMA for one warp beats the issue limit of 1: broken probe",
		    res->cpi);
	rc = 0;
done:
	if (mod)
		gp_cu.cuModuleUnload(mod);
	gp_free(d_out);
	gp_free(d_cyc);
	gp_free(d_bc);
	gp_free(d_cs);
	free(out);
	free(r_cpi);
	free(r_clk);
	return rc;
}

static int stall_ffma_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	const char *chain = gp_point_str(pt, "chain");
	const int dep = !strcmp(chain, "dep");
	const unsigned stall = (unsigned)gp_point_int(pt, "stall"), yield = (unsigned)gp_point_int(pt, "yield");
	const int iters = (int)gp_point_int(pt, "iters");
	const char *kernel = dep ? "stall_dep" : "stall_ind";
	struct stall_res res = { .cpi = NAN, .cpi_min = NAN, .cpi_max = NAN, .mhz = NAN, .correct = -1, .wrong = -1 };
	struct gp_cubin c;
	char status[256] = "ok";
	int rc;

	if (!(rc = open_template(run->dev, "stall", &c, status, sizeof status))) {
		if ((res.patched = sp_plan_stall(&c, kernel, stall, yield)) < 0) {
			say(status, sizeof status, "patch: %s", gp_cubin_error(&c));
			rc = GP_EVALID;
		} else {
			res.per_thread = res.patched * iters;
			rc = stall_run(run, &c, kernel, dep, iters, &res, status, sizeof status);
		}
	}
	gp_cubin_close(&c);
	if (rc && rc != GP_EVALID)
		say(status, sizeof status, "%s", gp_last_error());
	gp_row_begin(t);
	gp_row_str(t, "chain", chain);
	gp_row_int(t, "stall", stall);
	gp_row_int(t, "yield", yield);
	gp_row_int(t, "valid_encoding", gp_sass_stall_yield_valid(stall, yield));
	gp_row_int(t, "patched_insns", res.patched);
	gp_row_int(t, "ffma_per_thread", res.per_thread);
	gp_row_num(t, "cycles_per_insn", res.cpi);
	gp_row_num(t, "cycles_per_insn_min", res.cpi_min);
	gp_row_num(t, "cycles_per_insn_max", res.cpi_max);
	gp_row_int(t, "correct", res.correct);
	gp_row_int(t, "wrong_threads", res.wrong);
	gp_row_num(t, "clock_MHz", res.mhz);
	gp_row_int(t, "reps", run->reps);
	return end_row(t, "stall_ffma", status, rc);
}

static void stall_ffma_derive(struct gp_profile *prof, const struct gp_table *t)
{
	int s = sp_min_safe_stall(t);

	if (s > 0)
		gp_profile_add(prof, "ffma_min_safe_stall", s, "cycles",
			       "smallest patched stall count keeping a dependent FFMA chain correct (no interlock)",
			       "stall_ffma");
}

static void stall_ffma_report(FILE *md, const struct gp_table *t, const struct gp_table *ref);

GP_EXP_IMPL(stall_ffma, stall_ffma_params, stall_ffma_cols, stall_ffma_measure);
GP_ANALYSIS(stall_ffma, stall_ffma_derive, stall_ffma_report);

/* ---------------------------------------------------------------- E105 stall_wait */

static const struct gp_param stall_wait_params[] = {
	{ "mem", GP_PARAM_NAME, 0, 0, "ldg lds", "ldg lds", "pointer chase through global (LDG) or shared (LDS) memory" },
	{ "wait", GP_PARAM_NAME, 0, 0, "keep clear", "keep clear", "the consumer's wait bit on the load's scoreboard" },
	{ "iters", GP_PARAM_INT, 1, 1000000, NULL, "8192", "loop trips of 16 dependent loads" },
};

static const char *const stall_wait_cols[] = {
	"mem", "wait", "consumers_patched", "steps_per_thread", "cycles_per_step", "cycles_per_step_min",
	"cycles_per_step_max", "correct", "wrong_threads", "clock_MHz", "reps", "status",
};

static void wait_table(unsigned *tab)
{
	for (unsigned i = 0; i < 64; i++)
		tab[i] = i < WAIT_RING ? 4u * ((i + WAIT_STEP) % WAIT_RING) : 0u;
}

static unsigned wait_reference(const unsigned *tab, unsigned tid, long steps)
{
	unsigned idx = 4u * (tid % WAIT_RING);

	for (long s = 0; s < steps; s++)
		idx = tab[idx / 4] & 0xfcu;
	return idx;
}

static int stall_wait_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	const char *mem = gp_point_str(pt, "mem"), *wait = gp_point_str(pt, "wait");
	const int lds = !strcmp(mem, "lds"), nrep = run->reps;
	int iters = (int)gp_point_int(pt, "iters");
	const long steps = (long)iters * WAIT_UNROLL;
	const char *kernel = lds ? "stall_lds" : "stall_ldg";
	unsigned tab[64], out[STALL_THREADS], ref[STALL_THREADS];
	unsigned long long cyc[STALL_THREADS];
	double *r_cps = malloc(nrep * sizeof *r_cps), *r_clk = malloc(nrep * sizeof *r_clk);
	struct gp_stats s_cps = { .median = NAN, .min = NAN, .max = NAN }, s_clk = { .median = NAN };
	CUdeviceptr d_out = 0, d_cyc = 0, d_tab = 0, d_cs = 0;
	CUmodule mod = NULL;
	CUfunction fn;
	struct gp_clock_sample cs;
	struct gp_cubin c;
	void *args[] = { &d_out, &d_cyc, &d_tab, &iters, &d_cs };
	char status[256] = "ok";
	long patched = -1;
	int rc, correct = -1, wrong = -1;

	wait_table(tab);
	for (unsigned i = 0; i < STALL_THREADS; i++)
		ref[i] = wait_reference(tab, i, steps);
	if ((rc = open_template(run->dev, "stall", &c, status, sizeof status)))
		goto row;
	rc = GP_EFAIL;
	if (!r_cps || !r_clk)
		goto row;
	if ((patched = sp_plan_wait(&c, kernel, lds ? SP_OP_LDS : SP_OP_LDG, !strcmp(wait, "clear"))) < 0) {
		say(status, sizeof status, "patch: %s", gp_cubin_error(&c));
		rc = GP_EVALID;
		goto row;
	}
	if ((rc = load_image(&c, kernel, &mod, &fn)) || (rc = gp_alloc(&d_out, sizeof out)) ||
	    (rc = gp_alloc(&d_cyc, sizeof cyc)) || (rc = gp_alloc(&d_tab, sizeof tab)) ||
	    (rc = gp_alloc(&d_cs, sizeof cs)) || (rc = gp_upload(d_tab, tab, sizeof tab)))
		goto row;
	correct = 1;
	for (int r = -run->warmup; r < nrep; r++) {
		double worst = 0;
		if ((rc = gp_launch(fn, 1, STALL_THREADS, 0, args, NULL)) || (rc = gp_download(cyc, d_cyc, sizeof cyc)) ||
		    (rc = gp_download(out, d_out, sizeof out)) || (rc = gp_download(&cs, d_cs, sizeof cs)))
			goto row;
		if (r < 0)
			continue;
		wrong = 0;
		for (int i = 0; i < STALL_THREADS; i++) {
			wrong += out[i] != ref[i];
			worst = fmax(worst, (double)cyc[i]);
		}
		correct &= wrong == 0;
		r_cps[r] = worst / (double)steps;
		r_clk[r] = gp_clock_mhz(&cs);
	}
	gp_stats(r_cps, nrep, &s_cps);
	gp_stats(r_clk, nrep, &s_clk);
	if (s_clk.median <= 0)
		say(status, sizeof status, "clock sample too short to measure the SM clock (raise iters)");
	rc = 0;
row:
	if (rc && rc != GP_EVALID)
		say(status, sizeof status, "%s", gp_last_error());
	if (mod)
		gp_cu.cuModuleUnload(mod);
	gp_free(d_out);
	gp_free(d_cyc);
	gp_free(d_tab);
	gp_free(d_cs);
	gp_cubin_close(&c);
	free(r_cps);
	free(r_clk);
	gp_row_begin(t);
	gp_row_str(t, "mem", mem);
	gp_row_str(t, "wait", wait);
	gp_row_int(t, "consumers_patched", patched);
	gp_row_int(t, "steps_per_thread", steps);
	gp_row_num(t, "cycles_per_step", s_cps.median);
	gp_row_num(t, "cycles_per_step_min", s_cps.min);
	gp_row_num(t, "cycles_per_step_max", s_cps.max);
	gp_row_int(t, "correct", correct);
	gp_row_int(t, "wrong_threads", wrong);
	gp_row_num(t, "clock_MHz", s_clk.median);
	gp_row_int(t, "reps", nrep);
	return end_row(t, "stall_wait", status, rc);
}

static void stall_wait_report(FILE *md, const struct gp_table *t, const struct gp_table *ref);

GP_EXP_IMPL(stall_wait, stall_wait_params, stall_wait_cols, stall_wait_measure);
GP_ANALYSIS(stall_wait, NULL, stall_wait_report);

/* ---------------------------------------------------------------- register-bank streams */

/* One stream experiment point: template kernel, source pattern, reuse field, warps per SMSP. */
struct bank_point {
	const char *kernel;
	uint32_t op;
	int src[SP_PATTERN_MAX][3];
	size_t n;
	unsigned reuse;
	int warps, iters;
};

struct bank_res {
	long stream;
	double cpi, cpi_min, cpi_max, mhz;
};

static const struct {
	const char *name, *kernel, *mnemonic;
	enum gp_insn_class cls;
	int nsrc;
} bank_ops[] = {
	{ "ffma", "bank_ffma", "FFMA", GP_I_FFMA_RRR, 3 },
	{ "fmul", "bank_fmul", "FMUL", GP_I_FMUL_RRR, 2 },
	{ "iadd3", "bank_iadd3", "IADD3", GP_I_IADD3_RRR, 3 },
};

/* Registers a pattern may read: below REGCOUNT, never written in the timed loop. */
static int bank_free(struct gp_cubin *c, const char *kernel, uint8_t free_[256], char *status, size_t n)
{
	struct sp_region r;

	if (sp_timed_region(c, kernel, &r) < 0 || sp_free_regs(c, kernel, &r, free_) < 0) {
		say(status, n, "template: %s", gp_cubin_error(c));
		return GP_EVALID;
	}
	return 0;
}

/* Time the patched stream: 4 x warps warps in one block (warps per SMSP), block-wide clock
 * window over instructions per SMSP. */
static int bank_run(struct gp_run *run, struct gp_cubin *c, struct bank_point *bp, struct bank_res *res,
		    char *status, size_t slen)
{
	const int threads = 128 * bp->warps, nrep = run->reps;
	const size_t nin = NLIVE + 8;
	unsigned long long *t0 = malloc(threads * sizeof *t0), *t1 = malloc(threads * sizeof *t1);
	float in[NLIVE + 8];
	double *r_cpi = malloc(nrep * sizeof *r_cpi), *r_clk = malloc(nrep * sizeof *r_clk);
	CUdeviceptr d_out = 0, d_t0 = 0, d_t1 = 0, d_in = 0, d_cs = 0;
	CUmodule mod = NULL;
	CUfunction fn;
	struct gp_clock_sample cs;
	struct gp_stats s_cpi, s_clk;
	void *args[] = { &d_out, &d_t0, &d_t1, &d_in, &bp->iters, &d_cs };
	int rc = GP_EFAIL;

	if (!t0 || !t1 || !r_cpi || !r_clk)
		goto done;
	if ((res->stream = sp_plan_sources(c, bp->kernel, bp->op, (const int(*)[3])bp->src, bp->n, bp->reuse)) < 0) {
		say(status, slen, "patch: %s", gp_cubin_error(c));
		rc = GP_EVALID;
		goto done;
	}
	/* 1.0f (and its bits as an integer): no NaN, no denormal, nothing data-dependent. */
	for (size_t i = 0; i < nin; i++)
		in[i] = 1.0f;
	if ((rc = load_image(c, bp->kernel, &mod, &fn)))
		goto done;
	/* The template keeps 64 values live, so its REGCOUNT may not allow 4 x warps warps in one
	 * block (8 warps per SMSP = 1024 threads need <= 64 registers): a point it cannot run. */
	{
		int maxt = 0, regs = 0;
		if (gp_cu.cuFuncGetAttribute(&maxt, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn) != CUDA_SUCCESS ||
		    gp_cu.cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn) != CUDA_SUCCESS) {
			say(status, slen, "cannot read the template's register count");
			rc = GP_EVALID;
			goto done;
		}
		if (threads > maxt) {
			say(status, slen,
			    "n/a: %d warps per SMSP (%d threads) do not fit one block: the template uses %d "
			    "registers per thread (at most %d threads)",
			    bp->warps, threads, regs, maxt);
			rc = 0;
			goto done;
		}
	}
	if ((rc = gp_alloc(&d_out, threads * sizeof(float))) ||
	    (rc = gp_alloc(&d_t0, threads * sizeof *t0)) || (rc = gp_alloc(&d_t1, threads * sizeof *t1)) ||
	    (rc = gp_alloc(&d_in, sizeof in)) || (rc = gp_alloc(&d_cs, sizeof cs)) ||
	    (rc = gp_upload(d_in, in, sizeof in)))
		goto done;
	for (int r = -run->warmup; r < nrep; r++) {
		unsigned long long first = ~0ull, last = 0;
		if ((rc = gp_launch(fn, 1, (unsigned)threads, 0, args, NULL)) ||
		    (rc = gp_download(t0, d_t0, threads * sizeof *t0)) || (rc = gp_download(t1, d_t1, threads * sizeof *t1)) ||
		    (rc = gp_download(&cs, d_cs, sizeof cs)))
			goto done;
		if (r < 0)
			continue;
		for (int i = 0; i < threads; i++) {
			first = t0[i] < first ? t0[i] : first;
			last = t1[i] > last ? t1[i] : last;
		}
		r_cpi[r] = (double)(last - first) / ((double)res->stream * bp->iters * bp->warps);
		r_clk[r] = gp_clock_mhz(&cs);
	}
	gp_stats(r_cpi, nrep, &s_cpi);
	gp_stats(r_clk, nrep, &s_clk);
	res->cpi = s_cpi.median;
	res->cpi_min = s_cpi.min;
	res->cpi_max = s_cpi.max;
	res->mhz = s_clk.median;
	if (s_clk.median <= 0)
		say(status, slen, "clock sample too short to measure the SM clock (raise iters)");
	if (res->cpi < 0.98)
		say(status, slen, "%.3f cycles per instruction per SMSP beats the issue limit of 1: broken probe",
		    res->cpi);
	rc = 0;
done:
	if (mod)
		gp_cu.cuModuleUnload(mod);
	gp_free(d_out);
	gp_free(d_t0);
	gp_free(d_t1);
	gp_free(d_in);
	gp_free(d_cs);
	free(t0);
	free(t1);
	free(r_cpi);
	free(r_clk);
	return rc;
}

/* "FFMA R5, R16, R24, R32" for the report and the row: the destination is the template's. */
static void insn_text(char *buf, size_t n, const char *mnemonic, int nsrc, const int *src)
{
	int len = snprintf(buf, n, "%s Rd", mnemonic);

	for (int s = 0; s < nsrc && len > 0 && (size_t)len < n; s++)
		len += src[s] == GP_REG_RZ ? snprintf(buf + len, n - len, ", RZ")
					    : snprintf(buf + len, n - len, ", R%d", src[s]);
}

static void row_regs(struct gp_table *t, const int *src)
{
	gp_row_int(t, "ra", src[0]);
	gp_row_int(t, "rb", src[1]);
	gp_row_int(t, "rc", src[2]);
}

/* ---------------------------------------------------------------- E103 regbank_ffma */

static const struct gp_param regbank_ffma_params[] = {
	{ "op", GP_PARAM_NAME, 0, 0, "ffma fmul iadd3", "ffma fmul iadd3", "instruction of the stream" },
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

/* Ra Rb Rc for a combo; -1 with status if the template lacks free registers of those residues. */
static int combo_regs(const char *combo, const uint8_t free_[256], int nsrc, int *src)
{
	uint8_t taken[256] = { 0 };

	src[0] = src[1] = src[2] = -1;
	if (!strcmp(combo, "same")) {
		src[0] = sp_pick_reg(free_, taken, 0, 8);
		src[1] = src[0];
		src[2] = nsrc > 2 ? src[0] : -1;
		return src[0] < 0 ? -1 : 0;
	}
	for (int s = 0; s < nsrc; s++)
		if ((src[s] = sp_pick_reg(free_, taken, (unsigned)(combo[s] - '0'), 8)) < 0)
			return -1;
	return 0;
}

static int regbank_ffma_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	const char *opname = gp_point_str(pt, "op"), *combo = gp_point_str(pt, "combo");
	struct bank_point bp = { .reuse = (unsigned)gp_point_int(pt, "reuse"), .warps = (int)gp_point_int(pt, "warps"),
				 .iters = (int)gp_point_int(pt, "iters"), .n = 1 };
	struct bank_res res = { -1, NAN, NAN, NAN, NAN };
	uint8_t free_[256];
	char status[256] = "ok", text[96] = "–";
	struct gp_cubin c;
	size_t o = 0;
	int rc;

	while (strcmp(bank_ops[o].name, opname))
		o++;
	bp.kernel = bank_ops[o].kernel;
	bp.op = gp_insn_classes[bank_ops[o].cls].opcode;
	if (bank_ops[o].nsrc < 3)
		bp.reuse &= 3;  /* FMUL has no Rc: bit 2 would mean something else */
	bp.src[0][0] = bp.src[0][1] = bp.src[0][2] = -1;
	if (!(rc = open_template(run->dev, "regbank", &c, status, sizeof status)) &&
	    !(rc = bank_free(&c, bp.kernel, free_, status, sizeof status))) {
		if (combo_regs(combo, free_, bank_ops[o].nsrc, bp.src[0]) < 0) {
			say(status, sizeof status, "n/a: no free registers of residues %s below REGCOUNT", combo);
			rc = 0;
		} else {
			insn_text(text, sizeof text, bank_ops[o].mnemonic, bank_ops[o].nsrc, bp.src[0]);
			rc = bank_run(run, &c, &bp, &res, status, sizeof status);
		}
	}
	gp_cubin_close(&c);
	if (rc && rc != GP_EVALID)
		say(status, sizeof status, "%s", gp_last_error());
	gp_row_begin(t);
	gp_row_str(t, "op", opname);
	gp_row_str(t, "combo", combo);
	gp_row_int(t, "reuse", bp.reuse);
	gp_row_int(t, "warps", bp.warps);
	row_regs(t, bp.src[0]);
	gp_row_str(t, "insn", text);
	gp_row_int(t, "stream_len", res.stream);
	gp_row_num(t, "cycles_per_insn", res.cpi);
	gp_row_num(t, "cycles_per_insn_min", res.cpi_min);
	gp_row_num(t, "cycles_per_insn_max", res.cpi_max);
	gp_row_num(t, "insn_per_clk_per_smsp", 1.0 / res.cpi);
	gp_row_num(t, "clock_MHz", res.mhz);
	gp_row_int(t, "reps", run->reps);
	return end_row(t, "regbank_ffma", status, rc);
}

/* Penalty of all three sources in one residue class over the best combo (FFMA, no reuse, the
 * most warps measured): what a same-bank triple costs once latency is hidden. */
static void regbank_ffma_derive(struct gp_profile *prof, const struct gp_table *t)
{
	double wmax = 0, w, same = NAN, best = INFINITY, reuse, c;

	for (size_t r = 0; r < t->nrows; r++)
		if (!strcmp(gp_table_get(t, r, "status"), "ok") && !gp_table_get_double(t, r, "warps", &w))
			wmax = fmax(wmax, w);
	for (size_t r = 0; r < t->nrows; r++) {
		if (strcmp(gp_table_get(t, r, "status"), "ok") || strcmp(gp_table_get(t, r, "op"), "ffma") ||
		    gp_table_get_double(t, r, "warps", &w) || w != wmax || gp_table_get_double(t, r, "reuse", &reuse) ||
		    reuse || gp_table_get_double(t, r, "cycles_per_insn", &c))
			continue;
		if (!strcmp(gp_table_get(t, r, "combo"), "000"))
			same = c;
		best = fmin(best, c);
	}
	if (!isnan(same) && isfinite(best))
		gp_profile_add(prof, "ffma_same_bank_penalty_cycles", same - best, "cycles/insn/SMSP",
			       "FFMA with Ra Rb Rc of one residue mod 8 minus the best combo, no reuse flags",
			       "regbank_ffma");
}

static void regbank_ffma_report(FILE *md, const struct gp_table *t, const struct gp_table *ref);

GP_EXP_IMPL(regbank_ffma, regbank_ffma_params, regbank_cols, regbank_ffma_measure);
GP_ANALYSIS(regbank_ffma, regbank_ffma_derive, regbank_ffma_report);

/* ---------------------------------------------------------------- E104 regbank_map */

static const struct gp_param regbank_map_params[] = {
	{ "form", GP_PARAM_NAME, 0, 0, "pair triple", "pair triple",
	  "pair: FFMA Rd, RA, RB, RZ; triple: FFMA Rd, RA, RB, RC with RC of RA's residue" },
	{ "rb_offset", GP_PARAM_INT, 0, 31, NULL, "0:15:1",
	  "RB's residue mod 32 relative to RA (0: another register of RA's residue)" },
	{ "warps", GP_PARAM_INT, 1, 8, NULL, "4", "warps per scheduler (SMSP)" },
	{ "iters", GP_PARAM_INT, 1, 100000, NULL, "1024", "loop trips of the 240-FFMA stream (1 warp: >= 100 us for the clock sample)" },
};

static const char *const regbank_map_cols[] = {
	"form", "rb_offset", "warps", "ra", "rb", "rc", "insn", "stream_len", "cycles_per_insn",
	"cycles_per_insn_min", "cycles_per_insn_max", "clock_MHz", "reps", "status",
};

static int regbank_map_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	const char *form = gp_point_str(pt, "form");
	const long k = gp_point_int(pt, "rb_offset");
	struct bank_point bp = { .kernel = "bank_ffma", .op = gp_insn_classes[GP_I_FFMA_RRR].opcode, .n = 1, .reuse = 0,
				 .warps = (int)gp_point_int(pt, "warps"), .iters = (int)gp_point_int(pt, "iters") };
	struct bank_res res = { -1, NAN, NAN, NAN, NAN };
	uint8_t free_[256], taken[256] = { 0 };
	char status[256] = "ok", text[96] = "–";
	struct gp_cubin c;
	int rc, *src = bp.src[0];

	src[0] = src[1] = src[2] = -1;
	if (!(rc = open_template(run->dev, "regbank", &c, status, sizeof status)) &&
	    !(rc = bank_free(&c, bp.kernel, free_, status, sizeof status))) {
		src[0] = sp_pick_reg(free_, taken, 0, 32);
		src[2] = strcmp(form, "triple") ? GP_REG_RZ : sp_pick_reg(free_, taken, 0, 32);
		src[1] = sp_pick_reg(free_, taken, (unsigned)k, 32);
		if (src[0] < 0 || src[1] < 0 || src[2] < 0) {
			/* Not a failed measurement: this point cannot be built from the template (the
			 * triple form needs a second register of RA's residue). */
			say(status, sizeof status, "n/a: no free register of residue %ld mod 32 below REGCOUNT", k);
			rc = 0;
		} else {
			insn_text(text, sizeof text, "FFMA", 3, src);
			rc = bank_run(run, &c, &bp, &res, status, sizeof status);
		}
	}
	gp_cubin_close(&c);
	if (rc && rc != GP_EVALID)
		say(status, sizeof status, "%s", gp_last_error());
	gp_row_begin(t);
	gp_row_str(t, "form", form);
	gp_row_int(t, "rb_offset", k);
	gp_row_int(t, "warps", bp.warps);
	row_regs(t, src);
	gp_row_str(t, "insn", text);
	gp_row_int(t, "stream_len", res.stream);
	gp_row_num(t, "cycles_per_insn", res.cpi);
	gp_row_num(t, "cycles_per_insn_min", res.cpi_min);
	gp_row_num(t, "cycles_per_insn_max", res.cpi_max);
	gp_row_num(t, "clock_MHz", res.mhz);
	gp_row_int(t, "reps", run->reps);
	return end_row(t, "regbank_map", status, rc);
}

static void regbank_map_derive(struct gp_profile *prof, const struct gp_table *t)
{
	double penalty;
	int banks = sp_bank_count(t, &penalty);

	if (banks > 0) {
		gp_profile_add(prof, "register_banks", banks, "banks",
			       "FFMA source pairs/triples: conflicting register offsets are the multiples of this",
			       "regbank_map");
		gp_profile_add(prof, "bank_conflict_penalty_cycles", penalty, "cycles/insn/SMSP",
			       "conflicting minus conflict-free FFMA stream, no reuse flags", "regbank_map");
	}
}

static void regbank_map_report(FILE *md, const struct gp_table *t, const struct gp_table *ref);

GP_EXP_IMPL(regbank_map, regbank_map_params, regbank_map_cols, regbank_map_measure);
GP_ANALYSIS(regbank_map, regbank_map_derive, regbank_map_report);

/* ---------------------------------------------------------------- regbank_reuse */

static const struct gp_param regbank_reuse_params[] = {
	{ "slot", GP_PARAM_NAME, 0, 0, "a b c", "a b c", "operand slot whose register cycles" },
	{ "distinct", GP_PARAM_INT, 1, 8, NULL, "1 2 3 4", "distinct registers cycling through the slot" },
	{ "reuse", GP_PARAM_INT, 0, 1, NULL, "0 1", "reuse flag on the cycling slot" },
	{ "warps", GP_PARAM_INT, 1, 8, NULL, "4", "warps per scheduler (SMSP)" },
	{ "iters", GP_PARAM_INT, 1, 100000, NULL, "1024", "loop trips of the 240-FFMA stream (1 warp: >= 100 us for the clock sample)" },
};

static const char *const regbank_reuse_cols[] = {
	"slot", "distinct", "reuse", "warps", "regs", "stream_len", "cycles_per_insn", "cycles_per_insn_min",
	"cycles_per_insn_max", "clock_MHz", "reps", "status",
};

/* Instruction i: the slot under test reads X[i % distinct] (reuse flag as asked), the other two
 * slots read F1, F2 of the same residue mod 8 without reuse, so a miss in the cache is a
 * three-way same-bank read and a hit a two-way one. */
static int reuse_pattern(const uint8_t free_[256], int slot, int distinct, struct bank_point *bp, char *regs,
			 size_t n)
{
	uint8_t taken[256] = { 0 };
	int f1 = sp_pick_reg(free_, taken, 0, 8), f2 = sp_pick_reg(free_, taken, 0, 8), len;

	len = snprintf(regs, n, "F=R%d,R%d X=", f1, f2);
	for (int j = 0; j < distinct; j++) {
		int x = sp_pick_reg(free_, taken, 0, 8), other = 0;
		if (x < 0 || f1 < 0 || f2 < 0)
			return -1;
		for (int s = 0; s < 3; s++)
			bp->src[j][s] = s == slot ? x : other++ ? f2 : f1;
		if (len > 0 && (size_t)len < n)
			len += snprintf(regs + len, n - len, "%sR%d", j ? ";" : "", x);
	}
	bp->n = (size_t)distinct;
	return 0;
}

static int regbank_reuse_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	const char *slotname = gp_point_str(pt, "slot");
	const int slot = slotname[0] - 'a', distinct = (int)gp_point_int(pt, "distinct");
	const int reuse = (int)gp_point_int(pt, "reuse");
	struct bank_point bp = { .kernel = "bank_ffma", .op = gp_insn_classes[GP_I_FFMA_RRR].opcode,
				 .reuse = reuse ? 1u << slot : 0, .warps = (int)gp_point_int(pt, "warps"),
				 .iters = (int)gp_point_int(pt, "iters") };
	struct bank_res res = { -1, NAN, NAN, NAN, NAN };
	uint8_t free_[256];
	char status[256] = "ok", regs[160] = "–";
	struct gp_cubin c;
	int rc;

	if (!(rc = open_template(run->dev, "regbank", &c, status, sizeof status)) &&
	    !(rc = bank_free(&c, bp.kernel, free_, status, sizeof status))) {
		if (reuse_pattern(free_, slot, distinct, &bp, regs, sizeof regs) < 0) {
			/* A point the template cannot build, not a failed measurement (as in regbank_map). */
			say(status, sizeof status, "n/a: not enough free registers of one residue mod 8 below REGCOUNT");
			rc = 0;
		} else {
			rc = bank_run(run, &c, &bp, &res, status, sizeof status);
		}
	}
	gp_cubin_close(&c);
	if (rc && rc != GP_EVALID)
		say(status, sizeof status, "%s", gp_last_error());
	gp_row_begin(t);
	gp_row_str(t, "slot", slotname);
	gp_row_int(t, "distinct", distinct);
	gp_row_int(t, "reuse", reuse);
	gp_row_int(t, "warps", bp.warps);
	gp_row_str(t, "regs", regs);
	gp_row_int(t, "stream_len", res.stream);
	gp_row_num(t, "cycles_per_insn", res.cpi);
	gp_row_num(t, "cycles_per_insn_min", res.cpi_min);
	gp_row_num(t, "cycles_per_insn_max", res.cpi_max);
	gp_row_num(t, "clock_MHz", res.mhz);
	gp_row_int(t, "reps", run->reps);
	return end_row(t, "regbank_reuse", status, rc);
}

static void regbank_reuse_derive(struct gp_profile *prof, const struct gp_table *t)
{
	static const char *const slots[] = { "a", "b", "c" };

	for (size_t s = 0; s < GP_ARRAY_SIZE(slots); s++) {
		int n = sp_reuse_entries(t, slots[s]);
		char key[64];
		if (n < 1)
			continue;
		snprintf(key, sizeof key, "reuse_cache_entries_slot_%s", slots[s]);
		gp_profile_add(prof, key, n, "values",
			       "most distinct registers cycling through one slot with reuse set that still avoid the bank conflict",
			       "regbank_reuse");
	}
}

static void regbank_reuse_report(FILE *md, const struct gp_table *t, const struct gp_table *ref);

GP_EXP_IMPL(regbank_reuse, regbank_reuse_params, regbank_reuse_cols, regbank_reuse_measure);
GP_ANALYSIS(regbank_reuse, regbank_reuse_derive, regbank_reuse_report);

/* ---------------------------------------------------------------- report sections */

static const char *ref_or_dash(const struct gp_table *ref, const char *exp, const char *key)
{
	const char *v = gp_reference(ref, exp, key, NULL, NULL);

	return v ? v : "–";
}

/* The first row whose columns match every (name, value) pair given; -1 if none. */
static long find_row(const struct gp_table *t, int npairs, ...)
{
	for (size_t r = 0; r < t->nrows; r++) {
		va_list ap;
		int match = 1;

		va_start(ap, npairs);
		for (int i = 0; i < npairs && match; i++) {
			const char *col = va_arg(ap, const char *), *val = va_arg(ap, const char *);
			const char *cell = gp_table_get(t, r, col);
			match = cell && !strcmp(cell, val);
		}
		va_end(ap);
		if (match)
			return (long)r;
	}
	return -1;
}

static const char *cell_or_dash(const struct gp_table *t, long r, const char *col)
{
	const char *v = r >= 0 ? gp_table_get(t, (size_t)r, col) : NULL;

	return v && *v ? v : "–";
}

/* "4.02 ✓", "1.00 ✗ (wrong)", "fault: …" for one stall point. */
static void stall_cell(FILE *md, const struct gp_table *t, const char *chain, const char *stall, const char *yield)
{
	long r = find_row(t, 3, "chain", chain, "stall", stall, "yield", yield);
	const char *st = cell_or_dash(t, r, "status");

	if (r < 0)
		fprintf(md, " – |");
	else if (strcmp(st, "ok"))
		fprintf(md, " %.40s |", st);
	else
		fprintf(md, " %s %s |", cell_or_dash(t, r, "cycles_per_insn"),
			!strcmp(cell_or_dash(t, r, "correct"), "1") ? "ok" : "**wrong**");
}

/* Seed 001 Figure 2 as a table: stall count down, the dependent and independent chains with
 * both yield bits across; Kepler's control code 0x2n suspended the warp n cycles. */
static void stall_ffma_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	int safe = sp_min_safe_stall(t);
	char safe_s[16] = "–";

	fprintf(md, "Seed 001 Figure 2 on Volta-family control bits: cycles per FFMA (one warp) and whether the "
		    "chain's result still equals the host's, for every stall count patched into every timed FFMA. "
		    "Kepler had one control byte per instruction (0x2n: wait n cycles); here the stall count is "
		    "bits 105-108 and the yield bit 109 of each instruction.\n\n");
	fprintf(md, "| stall | dep, yield 1 | dep, yield 0 | ind, yield 1 | ind, yield 0 | paper K20m: code 0x2n waits |\n"
		    "|---|---|---|---|---|---|\n");
	for (int s = 0; s <= 15; s++) {
		char sv[8], key[32];
		snprintf(sv, sizeof sv, "%d", s);
		if (find_row(t, 1, "stall", sv) < 0)
			continue;
		fprintf(md, "| %d |", s);
		stall_cell(md, t, "dep", sv, "1");
		stall_cell(md, t, "dep", sv, "0");
		stall_cell(md, t, "ind", sv, "1");
		stall_cell(md, t, "ind", sv, "0");
		snprintf(key, sizeof key, "wait_cycles@%d", s);
		fprintf(md, " %s |\n", ref_or_dash(ref, "stall_ffma", key));
	}
	if (safe > 0)
		snprintf(safe_s, sizeof safe_s, "%d", safe);
	fprintf(md, "\n| derived | here | published (Volta and later) |\n|---|---|---|\n");
	fprintf(md, "| smallest stall keeping the dependent chain correct (= fixed FFMA latency, no interlock) | %s | %s |\n\n",
		safe_s,
		ref_or_dash(ref, "stall_ffma", "published_ffma_latency"));
}

static void stall_wait_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const mems[] = { "ldg", "lds" }, *const waits[] = { "keep", "clear" };

	(void)ref;
	fprintf(md, "Seed 001 Observation 2 (memory dependency barriers) on Volta-family scoreboards: a pointer chase "
		    "whose consumer's wait bit on the load's scoreboard is kept or cleared. Cleared, the consumer "
		    "reads the register before the load has written it.\n\n"
		    "| load | wait bit | consumers patched | cycles per step | result |\n|---|---|---|---|---|\n");
	for (size_t m = 0; m < GP_ARRAY_SIZE(mems); m++)
		for (size_t w = 0; w < GP_ARRAY_SIZE(waits); w++) {
			long r = find_row(t, 2, "mem", mems[m], "wait", waits[w]);
			const char *st = cell_or_dash(t, r, "status");
			if (r < 0)
				continue;
			fprintf(md, "| %s | %s | %s | %s | %s |\n", mems[m], waits[w], cell_or_dash(t, r, "consumers_patched"),
				cell_or_dash(t, r, "cycles_per_step"),
				strcmp(st, "ok") ? st : !strcmp(cell_or_dash(t, r, "correct"), "1") ? "correct" : "**stale / wrong**");
		}
	fputc('\n', md);
}

/* Seed 001 Table 2's layout: instruction, throughput per SM, efficiency, conflict; Kepler's eight
 * rows under ours. Th/SM here is lanes per clock per SM: 4 SMSPs x 32 lanes / cycles per insn. */
static void regbank_ffma_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const kepler[] = {
		"FFMA R5, R4, R1, R0", "FFMA R2, R4, R1, R0", "FFMA R5, R2, R1, R0", "FFMA R3, R2, R1, R0",
		"FFMA R5, R9, R3, R1", "FFMA R11, R9, R3, R1", "FMUL R4, R1, R0", "FMUL R4, R2, R0",
	};
	double wmax = 0, w;

	/* The most warps measured: rows that did not run (n/a, a fault) have nothing to show. */
	for (size_t r = 0; r < t->nrows; r++)
		if (!strcmp(gp_table_get(t, r, "status"), "ok") && !gp_table_get_double(t, r, "warps", &w))
			wmax = fmax(wmax, w);
	fprintf(md, "Seed 001 Table 2 layout: throughput of an instruction stream whose source registers were patched "
		    "into each combination (residues mod 8 of Ra Rb Rc; Rd is the template's). Th/SM = 128 / cycles per "
		    "instruction per SMSP; Eff = Th/SM / 128 lanes. Rows at %g warps per SMSP.\n\n"
		    "| Inst (here) | combo | reuse | cycles/insn/SMSP | Th/SM | Eff | status |\n|---|---|---|---|---|---|---|\n", wmax);
	for (size_t r = 0; r < t->nrows; r++) {
		double cpi = NAN;
		if (gp_table_get_double(t, r, "warps", &w) || w != wmax)
			continue;
		gp_table_get_double(t, r, "cycles_per_insn", &cpi);
		fprintf(md, "| %s | %s | %s | %s | %.2f | %.2f %% | %s |\n", gp_table_get(t, r, "insn"),
			gp_table_get(t, r, "combo"), gp_table_get(t, r, "reuse"), gp_table_get(t, r, "cycles_per_insn"),
			128.0 / cpi, 100.0 / cpi, gp_table_get(t, r, "status"));
	}
	fprintf(md, "\n| Inst (paper, K20m, single issue) | Th/SM | Eff | Conf |\n|---|---|---|---|\n");
	for (size_t i = 0; i < GP_ARRAY_SIZE(kepler); i++) {
		char k1[64], k2[64], k3[64];
		snprintf(k1, sizeof k1, "th@%s", kepler[i]);
		snprintf(k2, sizeof k2, "eff@%s", kepler[i]);
		snprintf(k3, sizeof k3, "conf@%s", kepler[i]);
		fprintf(md, "| %s | %s | %s %% | %s-way |\n", kepler[i], ref_or_dash(ref, "regbank_ffma", k1),
			ref_or_dash(ref, "regbank_ffma", k2), ref_or_dash(ref, "regbank_ffma", k3));
	}
	fputc('\n', md);
}

/* Seed 001 Table 3's layout: banks down, registers across — ours inferred from the measured
 * conflicts (bank = r mod banks), Kepler's from the paper. */
static void regbank_map_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	double penalty;
	int banks = sp_bank_count(t, &penalty);

	fprintf(md, "Seed 001 Table 3 layout, by measurement: FFMA streams reading RA and RB (pair: Rc = RZ; triple: "
		    "Rc of RA's residue), RB's residue mod 32 relative to RA swept; a conflicting offset costs "
		    "cycles.\n\n| form | offset | instruction | cycles/insn/SMSP | status |\n|---|---|---|---|---|\n");
	for (size_t r = 0; r < t->nrows; r++)
		fprintf(md, "| %s | %s | %s | %s | %s |\n", gp_table_get(t, r, "form"), gp_table_get(t, r, "rb_offset"),
			gp_table_get(t, r, "insn"), gp_table_get(t, r, "cycles_per_insn"), gp_table_get(t, r, "status"));
	fprintf(md, "\n| | here (inferred: %d banks, penalty %.2f cycles) | paper K20m |\n|---|---|---|\n", banks, penalty);
	for (int b = 0; b < 4; b++) {
		char key[16];
		fprintf(md, "| Bank%d | ", b);
		for (int reg = 0; banks > b && reg < 32; reg++)
			if (reg % banks == b)
				fprintf(md, "R%d ", reg);
		snprintf(key, sizeof key, "bank%d", b);
		fprintf(md, "| %s |\n", ref_or_dash(ref, "regbank_map", key));
	}
	fputc('\n', md);
}

static void regbank_reuse_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const slots[] = { "a", "b", "c" };

	(void)ref;
	fprintf(md, "Operand reuse cache (no Kepler counterpart): one slot cycles through N registers of one residue "
		    "mod 8, the other two read fixed registers of that residue without reuse; cycles per instruction "
		    "per SMSP with the reuse flag off / on. Entries per slot = the largest N that still avoids the "
		    "conflict.\n\n| slot | N | reuse off | reuse on |\n|---|---|---|---|\n");
	for (size_t s = 0; s < GP_ARRAY_SIZE(slots); s++)
		for (int n = 1; n <= 8; n++) {
			char nv[4];
			long off, on;
			snprintf(nv, sizeof nv, "%d", n);
			off = find_row(t, 3, "slot", slots[s], "distinct", nv, "reuse", "0");
			on = find_row(t, 3, "slot", slots[s], "distinct", nv, "reuse", "1");
			if (off < 0 && on < 0)
				continue;
			fprintf(md, "| %s | %d | %s | %s |\n", slots[s], n, cell_or_dash(t, off, "cycles_per_insn"),
				cell_or_dash(t, on, "cycles_per_insn"));
		}
	fprintf(md, "\n| slot | entries (here) |\n|---|---|\n");
	for (size_t s = 0; s < GP_ARRAY_SIZE(slots); s++)
		fprintf(md, "| %s | %d |\n", slots[s], sp_reuse_entries(t, slots[s]));
	fputc('\n', md);
}
