/* sassprobe.c — the stall probes of E105 (seed 001 Figure 2 and Observation 2): control bits
 * patched into the SASS of a template kernel (probes/patch/stall.cu) and timed with clock64; the
 * register-bank probes are in sassbank.c, the plans in sassplan.c, the reports in
 * sassprobe_report.c. Each point patches its own copy of the device's template cubin and loads it
 * as a module of its own. Pitfall: a dependent chain run with too short a stall does not slow
 * down, it computes something else; so every point checks the arithmetic against the host, and
 * "correct" is a result column, not a validity condition of the row. A cleared wait bit may make
 * the kernel fault: stall_wait declares those points (expect_fault), the fault is their result. */
#include "gp.h"
#include "experiment.h"
#include "measure.h"
#include "templates.h"
#include "sassprobe.h"
#include "sassprobe_shape.h"
#include "sass/patch.h"

#include <math.h>
#include <string.h>

#define STALL_THREADS 32 /* one warp: nothing but the patched stall separates two FFMAs */

/* b slightly below 1, c so that values stay normal and keep changing for millions of steps: a
 * skipped or stale FFMA shows in the final bits. */
static const float chain_bc[2] = { 1.0f - 0x1p-20f, 0x1p-19f };

int sp_patched_kernel(struct gp_meas *m, const char *file, const char *kernel, sp_plan_fn plan, long *count)
{
	const int sm = m->dev->cc_major * 10 + m->dev->cc_minor;
	const struct gp_template_cubin *tc = gp_template_find(file, sm);
	struct gp_cubin c;
	int rc = 0;

	if (!tc) {
		char built[160] = "";
		for (size_t i = 0; i < gp_ntemplate_cubins; i++)
			if (!strcmp(gp_template_cubins[i].name, file))
				snprintf(built + strlen(built), sizeof built - strlen(built), " sm_%d", gp_template_cubins[i].sm);
		gp_meas_fail(m, "no %s template cubin for sm_%d: this binary holds it for%s (make SM=%d builds it)", file,
			     sm, *built ? built : " no sm", sm);
		return 0;
	}
	if (gp_cubin_open(&c, tc->start, (size_t)(tc->end - tc->start)) < 0)
		gp_meas_fail(m, "template %s: %s", file, gp_cubin_error(&c));
	else if ((*count = plan(m, &c, kernel)) < 0)
		gp_meas_fail(m, "patch: %s", gp_cubin_error(&c)); /* unless the plan's own status stands */
	else
		rc = gp_meas_kernel_image(m, c.image, kernel);
	gp_cubin_close(&c);
	return rc;
}

/* What the stall kernels share: (out, cycles, an input uploaded once, iters, clock sample) in
 * one warp, checked against the host's results thread by thread (wrong_threads counts the
 * threads that differ), the slowest thread's cycles per step sampled as `metric`. The first
 * member of every stall probe's context. */
struct stall_run {
	CUdeviceptr out, cyc, in;
	const void *h_out;
	const unsigned long long *h_cyc;
	int iters, correct, wrong;
	int (*wrong_threads)(const void *ctx);
	const char *metric;
	double steps;
};

static int stall_launch(struct gp_meas *m, struct stall_run *s, size_t out_bytes, int poison, const void *in,
			size_t in_bytes)
{
	const size_t cyc_bytes = STALL_THREADS * sizeof *s->h_cyc;
	int rc;

	if ((rc = gp_meas_buf(m, &s->out, out_bytes, poison)) ||
	    (rc = gp_meas_buf(m, &s->cyc, cyc_bytes, GP_NO_POISON)) ||
	    (rc = gp_meas_input(m, &s->in, in, in_bytes)))
		return rc;
	s->h_out = gp_meas_readback(m, s->out, out_bytes, GP_EVERY_REP);
	s->h_cyc = gp_meas_readback(m, s->cyc, cyc_bytes, GP_EVERY_REP);
	s->correct = 1;
	gp_meas_launch(m, 1, STALL_THREADS, 0);
	gp_meas_args(m, &s->out, &s->cyc, &s->in, &s->iters, gp_meas_clock(m));
	return 0;
}

/* A timed repetition: the threads that differ from the host (correct means none did in any
 * repetition, wrong_threads is the last one's), the slowest thread's cycles per step. */
static void stall_sample(struct gp_meas *m)
{
	struct stall_run *s = m->ctx;
	double worst = 0;

	if (m->rep < 0)
		return;
	for (int i = 0; i < STALL_THREADS; i++)
		worst = fmax(worst, (double)s->h_cyc[i]);
	s->wrong = s->wrong_threads(m->ctx);
	s->correct &= s->wrong == 0;
	gp_sample(m, s->metric, worst / s->steps);
}

/* -1: not measured (the point failed before it ran). */
static void stall_cells(struct gp_meas *m, const struct stall_run *s)
{
	const int ran = s && gp_meas_ok(m);

	gp_meas_int(m, "correct", ran ? s->correct : -1);
	gp_meas_int(m, "wrong_threads", ran ? s->wrong : -1);
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

struct stall_ffma {
	struct stall_run run;
	float ref[7 * SP_STALL_ILP]; /* [start value tid % 7][chain] */
	int chains;
	long per_thread;
};

static long stall_plan(struct gp_meas *m, struct gp_cubin *c, const char *kernel)
{
	return sp_plan_stall(c, kernel, (unsigned)gp_meas_param(m, "stall"), (unsigned)gp_meas_param(m, "yield"));
}

static void stall_reference(struct stall_ffma *c)
{
	for (unsigned k = 0; k < 7; k++)
		for (int a = 0; a < c->chains; a++) {
			float x = SP_START_VALUE(k) + 0.0625f * (float)a;
			for (long i = 0; i < c->per_thread / c->chains; i++)
				x = fmaf(x, chain_bc[0], chain_bc[1]);
			c->ref[k * SP_STALL_ILP + a] = x;
		}
}

/* A thread is wrong if any of its chains differs from the host's. */
static int stall_ffma_wrong(const void *ctx)
{
	const struct stall_ffma *c = ctx;
	const float *out = c->run.h_out;
	int wrong = 0;

	for (int tid = 0; tid < STALL_THREADS; tid++) {
		const float *ref = &c->ref[(tid % 7) * SP_STALL_ILP];
		wrong += memcmp(&out[tid * c->chains], ref, (size_t)c->chains * sizeof(float)) != 0;
	}
	return wrong;
}

static int stall_ffma_setup(struct gp_meas *m)
{
	struct stall_ffma *c = m->ctx;
	const int dep = !strcmp(gp_meas_param_str(m, "chain"), "dep");
	long patched = 0;
	int rc;

	c->chains = dep ? 1 : SP_STALL_ILP;
	c->run.iters = (int)gp_meas_param(m, "iters");
	gp_meas_int(m, "valid_encoding", gp_sass_stall_yield_valid((unsigned)gp_meas_param(m, "stall"),
								  (unsigned)gp_meas_param(m, "yield")));
	stall_cells(m, NULL);
	rc = sp_patched_kernel(m, "stall", dep ? "stall_dep" : "stall_ind", stall_plan, &patched);
	c->per_thread = patched > 0 ? patched * c->run.iters : 0;
	gp_meas_int(m, "patched_insns", patched);
	gp_meas_int(m, "ffma_per_thread", c->per_thread);
	if (rc || !gp_meas_ok(m))
		return rc;
	stall_reference(c);
	c->run.wrong_threads = stall_ffma_wrong;
	c->run.metric = "cycles_per_insn";
	c->run.steps = (double)c->per_thread;
	return stall_launch(m, &c->run, STALL_THREADS * (size_t)c->chains * sizeof(float), GP_POISON_NAN, chain_bc,
			    sizeof chain_bc);
}

/* Floor: one warp issues at most one instruction per clock. */
static void stall_ffma_finish(struct gp_meas *m)
{
	const struct stall_ffma *c = m->ctx;

	stall_cells(m, &c->run);
	gp_meas_floor(m, "one warp", gp_meas_stat(m, "cycles_per_insn", GP_MEDIAN), 1.0, 0.02,
		      "cycles per FFMA");
}

static const struct gp_probe stall_ffma_probe = {
	.runner = GP_RUN_SYNC, .setup = stall_ffma_setup, .sample = stall_sample,
	.finish = stall_ffma_finish, .primary = "cycles_per_insn", .ctx_size = sizeof(struct stall_ffma),
};

GP_EXP_PROBE(stall_ffma, stall_ffma_params, stall_ffma_cols, &stall_ffma_probe);

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

struct stall_wait {
	struct stall_run run;
	unsigned ref[STALL_THREADS];
	long steps;
};

static long wait_plan(struct gp_meas *m, struct gp_cubin *c, const char *kernel)
{
	return sp_plan_wait(c, kernel, strcmp(kernel, "stall_lds") ? SP_OP_LDG : SP_OP_LDS,
			    !strcmp(gp_meas_param_str(m, "wait"), "clear"));
}

/* Ring word i holds the byte offset of word i + step; thread tid starts at word tid % ring. */
static void wait_reference(struct stall_wait *c, unsigned *tab)
{
	for (unsigned i = 0; i < SP_WAIT_WORDS; i++)
		tab[i] = i < SP_WAIT_RING ? 4u * ((i + SP_WAIT_STEP) % SP_WAIT_RING) : 0u;
	for (unsigned tid = 0; tid < STALL_THREADS; tid++) {
		unsigned idx = 4u * (tid % SP_WAIT_RING);
		for (long s = 0; s < c->steps; s++)
			idx = tab[idx / 4] & 0xfcu;
		c->ref[tid] = idx;
	}
}

static int stall_wait_wrong(const void *ctx)
{
	const struct stall_wait *c = ctx;
	const unsigned *out = c->run.h_out;
	int wrong = 0;

	for (int i = 0; i < STALL_THREADS; i++)
		wrong += out[i] != c->ref[i];
	return wrong;
}

static int stall_wait_setup(struct gp_meas *m)
{
	struct stall_wait *c = m->ctx;
	const int lds = !strcmp(gp_meas_param_str(m, "mem"), "lds");
	unsigned tab[SP_WAIT_WORDS];
	long patched = -1;
	int rc;

	c->run.iters = (int)gp_meas_param(m, "iters");
	c->steps = (long)c->run.iters * SP_WAIT_UNROLL;
	gp_meas_int(m, "steps_per_thread", c->steps);
	stall_cells(m, NULL);
	rc = sp_patched_kernel(m, "stall", lds ? "stall_lds" : "stall_ldg", wait_plan, &patched);
	gp_meas_int(m, "consumers_patched", patched);
	if (rc || !gp_meas_ok(m))
		return rc;
	wait_reference(c, tab);
	c->run.wrong_threads = stall_wait_wrong;
	c->run.metric = "cycles_per_step";
	c->run.steps = (double)c->steps;
	return stall_launch(m, &c->run, sizeof c->ref, GP_NO_POISON, tab, sizeof tab);
}

static void stall_wait_finish(struct gp_meas *m)
{
	stall_cells(m, &((const struct stall_wait *)m->ctx)->run);
}

/* A consumer that no longer waits reads its load's register before the load has written it, and
 * the late load may overwrite a register already holding the next address (the LDG form has been
 * seen to fault so): a fault is then the point's result, not a broken run. */
static const char *stall_wait_expect_fault(const struct gp_point *pt)
{
	return strcmp(gp_point_str(pt, "wait"), "clear") ? NULL : "the loads' consumers no longer wait for them";
}

static const struct gp_probe stall_wait_probe = {
	.runner = GP_RUN_SYNC, .setup = stall_wait_setup, .sample = stall_sample,
	.finish = stall_wait_finish, .expect_fault = stall_wait_expect_fault, .primary = "cycles_per_step",
	.ctx_size = sizeof(struct stall_wait),
};

GP_EXP_PROBE(stall_wait, stall_wait_params, stall_wait_cols, &stall_wait_probe);
