/* insn.c — host side of the instruction probes: lat_insn and tput_insn (E006 / E106 table),
 * tput_lds_ffma (E010 LDS:FFMA mix) and tput_occupancy (E004 style: throughput vs warps/SM).
 *
 * lat_insn runs one warp's dependent chain per instruction and reports cycles per step (clock64,
 * timer overhead subtracted, 256 steps per loop trip); tput_insn fills every SM with 8
 * independent chains per thread and turns event time and the measured SM clock into operations
 * per clock per SM beside the Programming Guide's rate. Every chain's result is checked against
 * the host: bit for bit where the arithmetic is exact, within a tolerance and "moves when one
 * step is added" for MUFU. Pitfall: ptxas optimises PTX too; the kernels are written so that
 * one step is one SASS instruction, and tests/test_gpu_insn.c checks that in the SASS. */
#include "gp.h"
#include "experiment.h"
#include "analysis.h"
#include "measure.h"
#include "insn.h"
#include "stats.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

extern const unsigned char gp_image_probes_insn[];

#define LAT_UNROLL 256
#define TPUT_STEPS 32 /* steps per chain per loop trip */
#define TPUT_ILP 8
#define RING_BYTES 8064 /* the chase ring: lane l visits words l + 32 j, j < 63 */

enum insn_type { T_F32, T_U32, T_F64, T_H2 };

struct insn_desc {
	const char *name, *sass, *klass, *what;
	enum insn_type type;
	int results;   /* results per lane per step (HFMA2: 2) */
	int has_lat;   /* STS has no dependent chain */
	int approx;    /* MUFU: checked within a tolerance */
	uint64_t a, b; /* operand bits */
	float pconst;  /* the constant-bank operand of ffma_const */
};

#define F(v) ((uint64_t)f2u(v))

static uint32_t f2u(float v)
{
	uint32_t u;
	memcpy(&u, &v, sizeof u);
	return u;
}

static float u2f(uint32_t u)
{
	float v;
	memcpy(&v, &u, sizeof v);
	return v;
}

static uint64_t d2u(double v)
{
	uint64_t u;
	memcpy(&u, &v, sizeof u);
	return u;
}

static double u2d(uint64_t u)
{
	double v;
	memcpy(&v, &u, sizeof v);
	return v;
}

/* The instruction list: name (the param value and kernel suffix), SASS mnemonic as cuobjdump
 * prints it, Programming Guide class, what one step does. */
static const struct insn_desc insns[] = {
	{ "ffma", "FFMA", "fp32", "x = x * a + b", T_F32, 1, 1, 0, 0x3f7ffff0, 0x36000000, 0 },
	{ "fmul", "FMUL", "fp32", "x = x * a", T_F32, 1, 1, 0, 0x3f7ffff0, 0, 0 },
	{ "fadd", "FADD", "fp32", "x = x + b", T_F32, 1, 1, 0, 0, 0x36000000, 0 },
	{ "ffma_const", "FFMA", "fp32", "x = x * c[param] + b (sm_90: ULDC, then a UR operand)", T_F32, 1, 1,
	  0, 0, 0x36000000, 0x1.fffffep-1f },
	{ "hfma2", "HFMA2", "fp16", "x.xy = x.xy * a.xy + b.xy (ptxas splits HFMA2 / HFMA2.MMA)", T_H2, 2, 1,
	  0, 0x3bff3bff, 0x1c001c00, 0 },
	{ "dfma", "DFMA", "fp64", "x = x * a + b (double)", T_F64, 1, 1, 0, 0, 0, 0 },
	{ "imad", "IMAD", "imad", "x = x * a + b (u32)", T_U32, 1, 1, 0, 1664525u, 1013904223u, 0 },
	{ "iadd3", "IADD3", "iadd", "x = x + a + b", T_U32, 1, 1, 0, 0x9e3779b9u, 12345u, 0 },
	{ "lop3", "LOP3", "logic", "x = (x & b) ^ a (LUT 0x6c)", T_U32, 1, 1, 0, 0x5a5a5a5au, 0x0ff00ff0u, 0 },
	{ "shf", "SHF", "shift", "x = funnel shift left of b:x by a", T_U32, 1, 1, 0, 13u, 0xdeadbeefu, 0 },
	{ "isetp", "ISETP", "compare", "p = (x != a) xor p (chained through the predicate)", T_U32, 1, 1, 0,
	  5u, 7u, 0 },
	{ "mufu_rcp", "MUFU.RCP", "mufu", "x = 1 / -x (negation is a source modifier)", T_F32, 1, 1, 1, 0, 0, 0 },
	{ "mufu_ex2", "MUFU.EX2", "mufu", "x = 2^-x", T_F32, 1, 1, 1, 0, 0, 0 },
	{ "mufu_sqrt", "MUFU.SQRT", "mufu", "x = sqrt(x)", T_F32, 1, 1, 1, 0, 0, 0 },
	{ "i2f", "I2F", "cvt", "x = bits(float(int x)) (sm_86+: I2FP.F32.S32)", T_U32, 1, 1, 0, 0, 0, 0 },
	{ "f2i", "F2I", "cvt", "x = int(trunc(float bits x))", T_U32, 1, 1, 0, 0, 0, 0 },
	{ "lds", "LDS", "lds", "x = shared[x] (32-bit, conflict-free; throughput: 8 chases/thread)", T_U32, 1,
	  1, 0, 0, 0, 0 },
	{ "sts", "STS", "lds", "shared[thread] = x (32-bit, conflict-free, a word per thread)", T_U32, 1, 0, 0, 0, 0, 0 },
};

#define INSN_NAMES                                                                                 \
	"ffma fmul fadd ffma_const hfma2 dfma imad iadd3 lop3 shf isetp mufu_rcp mufu_ex2 mufu_sqrt " \
	"i2f f2i lds sts"

static const struct insn_desc *insn_find(const char *name)
{
	for (size_t i = 0; i < GP_ARRAY_SIZE(insns); i++)
		if (!strcmp(insns[i].name, name))
			return &insns[i];
	return NULL;
}

/* Start value of chain k (class = thread index mod 7 in the kernels). */
static uint64_t start_bits(const struct insn_desc *d, unsigned k)
{
	if (!strcmp(d->name, "lds"))
		return 4u * k;
	if (!strcmp(d->name, "f2i"))
		return f2u(1234.5f + 1000.0f * (float)k);
	if (!strcmp(d->name, "i2f"))
		return 1000u * k + 7u;
	if (!strcmp(d->name, "mufu_sqrt"))
		return F(2.0f + (float)k);
	switch (d->type) {
	case T_F32: return F(1.5f + 0.25f * (float)k);
	case T_F64: return d2u(1.0 + 0.125 * k);
	case T_H2: return ((uint64_t)(0x4000u + 0x80u * k) << 16) | (0x3c00u + 0x80u * k);
	case T_U32: return 12345u * k + 1u;
	}
	return 0;
}

static uint64_t opnd_a(const struct insn_desc *d)
{
	return d->type == T_F64 ? d2u(1.0 - 0x1p-40) : d->a;
}

static uint64_t opnd_b(const struct insn_desc *d)
{
	return d->type == T_F64 ? d2u(0x1p-39) : d->b;
}

static uint32_t f2i_trunc(uint32_t x)
{
	const float f = u2f(x);

	if (isnan(f))
		return 0;
	if (f >= 2147483648.0f)
		return INT32_MAX;
	if (f < -2147483648.0f)
		return (uint32_t)INT32_MIN;
	return (uint32_t)(int32_t)truncf(f);
}

/* One step of the chain on the host; MUFU in double precision (an approximation of the GPU's). */
static uint64_t step(const struct insn_desc *d, uint64_t x, uint64_t a, uint64_t b)
{
	const uint32_t xu = (uint32_t)x, au = (uint32_t)a, bu = (uint32_t)b;
	const char *n = d->name;

	if (!strcmp(n, "ffma")) return f2u(fmaf(u2f(xu), u2f(au), u2f(bu)));
	if (!strcmp(n, "fmul")) return f2u(u2f(xu) * u2f(au));
	if (!strcmp(n, "fadd")) return f2u(u2f(xu) + u2f(bu));
	if (!strcmp(n, "ffma_const")) return f2u(fmaf(u2f(xu), d->pconst, u2f(bu)));
	if (!strcmp(n, "hfma2"))
		return (uint64_t)gp_half_fma((uint16_t)xu, (uint16_t)au, (uint16_t)bu) |
		       (uint64_t)gp_half_fma((uint16_t)(xu >> 16), (uint16_t)(au >> 16), (uint16_t)(bu >> 16)) << 16;
	if (!strcmp(n, "dfma")) return d2u(fma(u2d(x), u2d(a), u2d(b)));
	if (!strcmp(n, "imad")) return (uint32_t)(xu * au + bu);
	if (!strcmp(n, "iadd3")) return (uint32_t)(xu + au + bu);
	if (!strcmp(n, "lop3")) return (xu & bu) ^ au;
	if (!strcmp(n, "shf")) {
		const unsigned s = au & 31;
		return s ? (uint32_t)((xu << s) | (bu >> (32 - s))) : xu;
	}
	if (!strcmp(n, "mufu_rcp")) return f2u((float)(1.0 / -(double)u2f(xu)));
	if (!strcmp(n, "mufu_ex2")) return f2u((float)exp2(-(double)u2f(xu)));
	if (!strcmp(n, "mufu_sqrt")) return f2u((float)sqrt((double)u2f(xu)));
	if (!strcmp(n, "i2f")) return f2u((float)(int32_t)xu);
	if (!strcmp(n, "f2i")) return f2i_trunc(xu);
	if (!strcmp(n, "lds")) return (xu + 128u) % RING_BYTES;
	return x; /* sts: the register does not change */
}

/* `trips` loop trips of `steps` steps. ISETP's trip opens with p = (x != b) and closes with a
 * select (latency: x = p; throughput: x = p ? x : b), as the kernel's asm does. */
static uint64_t run_chain(const struct insn_desc *d, uint64_t x, long trips, long steps, int lat)
{
	const uint64_t a = opnd_a(d), b = opnd_b(d);

	for (long t = 0; t < trips; t++) {
		if (!strcmp(d->name, "isetp")) {
			int p = (uint32_t)x != (uint32_t)b;
			for (long s = 0; s < steps; s++)
				p ^= (uint32_t)x != (uint32_t)a;
			x = lat ? (uint64_t)p : p ? x : b;
			continue;
		}
		for (long s = 0; s < steps; s++)
			x = step(d, x, a, b);
	}
	return x;
}

static int results_match(const struct insn_desc *d, uint64_t got, uint64_t want)
{
	double g, w;

	if (!d->approx)
		return d->type == T_F64 ? got == want : (uint32_t)got == (uint32_t)want;
	g = u2f((uint32_t)got);
	w = u2f((uint32_t)want);
	return isfinite(g) && fabs(g - w) <= 1e-2 * fabs(w);
}

static void fill_opnd(const struct insn_desc *d, uint64_t opnd[9])
{
	opnd[0] = opnd_a(d);
	opnd[1] = opnd_b(d);
	for (unsigned k = 0; k < 7; k++)
		opnd[2 + k] = start_bits(d, k);
}

static int status_ok(const char *s)
{
	return !strcmp(s, "ok");
}

/* What the instruction compiles to on this device, and the class whose rate bounds it. On sm_86
 * and later ptxas turns int -> float into I2FP.F32.S32, which issues to the integer pipe (64 per
 * clock per SM on the H100: measured 63.3, latency 4), not the conversion unit's 16 that the
 * Programming Guide lists for I2F: bounding it by 16 would call a correct probe broken. */
static const char *insn_sass(const struct insn_desc *d, const struct gp_device *dev)
{
	if (!strcmp(d->name, "i2f") && dev->cc_major * 10 + dev->cc_minor >= 86)
		return "I2FP.F32.S32";
	return d->sass;
}

static const char *insn_klass(const struct insn_desc *d, const struct gp_device *dev)
{
	if (!strcmp(d->name, "i2f") && dev->cc_major * 10 + dev->cc_minor >= 86)
		return "i2fp";
	return d->klass;
}

static void row_head(struct gp_table *t, const struct insn_desc *d, const struct gp_device *dev)
{
	gp_row_begin(t);
	gp_row_str(t, "insn", d->name);
	gp_row_str(t, "sass", insn_sass(d, dev));
	gp_row_str(t, "klass", insn_klass(d, dev));
}

/* ---------------------------------------------------------------- E006 lat_insn */

static const struct gp_param lat_insn_params[] = {
	{ "insn", GP_PARAM_NAME, 0, 0, INSN_NAMES, INSN_NAMES, "instruction (sts has no chain: skipped)" },
	{ "iters", GP_PARAM_INT, 1, 100000, NULL, "1024", "loop trips of 256 dependent steps" },
};

static const char *const lat_insn_cols[] = {
	"insn", "sass", "klass", "steps_per_thread", "cycles_per_step", "cycles_per_step_min",
	"cycles_per_step_max", "spread", "latency_ns", "clock_MHz", "timer_overhead_cycles",
	"arch_ops_per_clk_per_sm", "warps_to_hide_at_arch_rate", "reps", "status",
};

/* The untimed tail (iters = 0): the result must move when one step is added (MUFU's check). */
static int lat_tail_check(CUfunction fn, void **args, int *iters, int *tail, CUdeviceptr d_out,
			  const struct insn_desc *d, char *status, size_t len)
{
	uint64_t r0, r1;
	int rc, it = *iters;

	*iters = 0;
	*tail = 0;
	if ((rc = gp_launch(fn, 1, 32, 0, args, NULL)) || (rc = gp_download(&r0, d_out, sizeof r0)))
		goto done;
	*tail = 1;
	if ((rc = gp_launch(fn, 1, 32, 0, args, NULL)) || (rc = gp_download(&r1, d_out, sizeof r1)))
		goto done;
	if (r0 == r1 || !results_match(d, r1, run_chain(d, start_bits(d, 0), 1, 1, 1)))
		snprintf(status, len, "%s: one more step left the result at %#llx (host %#llx)", d->name,
			 (unsigned long long)r1, (unsigned long long)run_chain(d, start_bits(d, 0), 1, 1, 1));
done:
	*iters = it;
	*tail = 0;
	return rc;
}

static int lat_insn_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	const struct insn_desc *d = insn_find(gp_point_str(pt, "insn"));
	int iters = (int)gp_point_int(pt, "iters"), tail = 0;
	const long steps = (long)iters * LAT_UNROLL;
	const int nrep = run->reps, rate = gp_arch_rate(insn_klass(d, run->dev), run->dev->cc_major, run->dev->cc_minor);
	uint64_t opnd[9], out[32], cyc[64], ref[7];
	double *rc_min = NULL, *rclk = NULL, *rovh = NULL;
	struct gp_stats sc, sclk, sovh;
	struct gp_clock_sample cs;
	CUdeviceptr d_out = 0, d_cyc = 0, d_opnd = 0, d_cs = 0;
	CUfunction fn;
	char kname[40], status[256] = "ok", err[128];
	float pconst = d->pconst;
	int rc = GP_EFAIL;
	void *args[] = { &d_out, &d_cyc, &d_opnd, &iters, &tail, &d_cs, &pconst };

	if (!d->has_lat) {
		row_head(t, d, run->dev);
		/* A store has no result to chain on: the row says so and stays out of the checks. */
		static const char *const nums[] = { "steps_per_thread", "cycles_per_step", "cycles_per_step_min",
			"cycles_per_step_max", "spread", "latency_ns", "clock_MHz", "timer_overhead_cycles",
			"warps_to_hide_at_arch_rate", "reps" };
		for (size_t i = 0; i < GP_ARRAY_SIZE(nums); i++)
			gp_row_str(t, nums[i], "");
		gp_row_int(t, "arch_ops_per_clk_per_sm", rate);
		gp_row_str(t, "status", "no dependent chain (a store): see tput_insn");
		return gp_row_end(t, err, sizeof err) ? GP_EFAIL : 0;
	}
	rc_min = malloc(nrep * sizeof *rc_min);
	rclk = malloc(nrep * sizeof *rclk);
	rovh = malloc(nrep * sizeof *rovh);
	if (!rc_min || !rclk || !rovh)
		goto done;
	fill_opnd(d, opnd);
	snprintf(kname, sizeof kname, "lat_%s", d->name);
	if ((rc = gp_kernel(run->dev, gp_image_probes_insn, kname, &fn)) ||
	    (rc = gp_alloc(&d_out, sizeof out)) || (rc = gp_alloc(&d_cyc, sizeof cyc)) ||
	    (rc = gp_alloc(&d_opnd, sizeof opnd)) || (rc = gp_alloc(&d_cs, sizeof cs)) ||
	    (rc = gp_upload(d_opnd, opnd, sizeof opnd)))
		goto done;
	for (unsigned k = 0; k < 7; k++)
		ref[k] = run_chain(d, start_bits(d, k), iters, LAT_UNROLL, 1);
	for (int r = -run->warmup; r < nrep; r++) {
		double mn = INFINITY, ov = 0;
		gp_cu.cuMemsetD8(d_out, 0xff, sizeof out);
		if ((rc = gp_launch(fn, 1, 32, 0, args, NULL)) || (rc = gp_download(out, d_out, sizeof out)) ||
		    (rc = gp_download(cyc, d_cyc, sizeof cyc)) || (rc = gp_download(&cs, d_cs, sizeof cs)))
			goto done;
		if (r < 0)
			continue;
		for (unsigned i = 0; i < 32; i++) {
			const double c = gp_chain_cycles_per_step((double)cyc[2 * i], (double)cyc[2 * i + 1], (double)steps);
			if (!results_match(d, out[i], ref[i % 7]) && status_ok(status))
				snprintf(status, sizeof status, "thread %u: result %#llx, host %#llx: steps skipped or "
					 "reordered", i, (unsigned long long)out[i], (unsigned long long)ref[i % 7]);
			mn = fmin(mn, c);
			ov += (double)cyc[2 * i + 1] / 32.0;
		}
		rc_min[r] = isnan(mn) ? 0 : mn;
		rovh[r] = ov;
		rclk[r] = gp_clock_mhz(&cs);
	}
	if (d->approx && status_ok(status) &&
	    (rc = lat_tail_check(fn, args, &iters, &tail, d_out, d, status, sizeof status)))
		goto done;
	gp_stats(rc_min, nrep, &sc);
	gp_stats(rclk, nrep, &sclk);
	gp_stats(rovh, nrep, &sovh);
	row_head(t, d, run->dev);
	if (status_ok(status) && !(sc.min >= 1.0))
		snprintf(status, sizeof status, "%.3f cycles per dependent step: below one issue slot, broken probe",
			 sc.min);
	/* Latency is in cycles from clock64; the SM clock only converts it to ns, so a sample too
	 * short to give the clock leaves latency_ns empty instead of failing the row. */
	gp_row_int(t, "steps_per_thread", steps);
	gp_row_num(t, "cycles_per_step", sc.median);
	gp_row_num(t, "cycles_per_step_min", sc.min);
	gp_row_num(t, "cycles_per_step_max", sc.max);
	gp_row_num(t, "spread", sc.spread);
	if (sclk.median > 0)
		gp_row_num(t, "latency_ns", sc.median / sclk.median * 1e3);
	else
		gp_row_str(t, "latency_ns", "");
	gp_row_num(t, "clock_MHz", sclk.median);
	gp_row_num(t, "timer_overhead_cycles", sovh.median);
	gp_row_int(t, "arch_ops_per_clk_per_sm", rate);
	if (rate > 0)
		gp_row_num(t, "warps_to_hide_at_arch_rate",
			   gp_warps_to_hide(sc.median, gp_cycles_per_warp_at_rate(rate / (double)d->results)));
	else
		gp_row_str(t, "warps_to_hide_at_arch_rate", "");
	gp_row_int(t, "reps", nrep);
	gp_row_str(t, "status", status);
	if (gp_row_end(t, err, sizeof err)) {
		gp_err("internal: lat_insn row: %s", err);
		rc = GP_EFAIL;
		goto done;
	}
	rc = status_ok(status) ? 0 : GP_EVALID;
done:
	gp_free(d_out);
	gp_free(d_cyc);
	gp_free(d_opnd);
	gp_free(d_cs);
	free(rc_min);
	free(rclk);
	free(rovh);
	return rc;
}

static void lat_insn_derive(struct gp_profile *prof, const struct gp_table *t)
{
	for (size_t r = 0; r < t->nrows; r++) {
		double v;
		char key[64], method[160];
		if (!status_ok(gp_table_get(t, r, "status")) || gp_table_get_double(t, r, "cycles_per_step", &v))
			continue;
		/* insn_ prefix: lat_ffma owns ffma_latency (its one-warp row of the block sweep). */
		snprintf(key, sizeof key, "insn_%s_latency", gp_table_get(t, r, "insn"));
		snprintf(method, sizeof method, "dependent %s chain, 1 warp, clock64", gp_table_get(t, r, "sass"));
		gp_profile_add(prof, key, v, "cycles", method, "lat_insn");
	}
}

static void lat_insn_report(FILE *md, const struct gp_table *t, const struct gp_table *ref);

GP_EXP_IMPL(lat_insn, lat_insn_params, lat_insn_cols, lat_insn_measure);
GP_ANALYSIS(lat_insn, lat_insn_derive, lat_insn_report);

/* ---------------------------------------------------------------- E106 tput_insn */

static const struct gp_param tput_insn_params[] = {
	{ "insn", GP_PARAM_NAME, 0, 0, INSN_NAMES, INSN_NAMES, "instruction" },
	{ "blocks_per_sm", GP_PARAM_INT, 1, 32, NULL, "8", "resident blocks per SM" },
	{ "threads", GP_PARAM_INT, 32, 1024, NULL, "256", "threads per block" },
	{ "iters", GP_PARAM_INT, 1, 100000, NULL, "1024", "loop trips of 32 x 8 independent steps" },
};

static const char *const tput_insn_cols[] = {
	"insn", "sass", "klass", "blocks", "threads_per_block", "warps_per_sm", "ops_per_thread",
	"time_ms_min", "time_ms", "time_ms_max", "spread", "clock_MHz", "ops_per_clk_per_sm",
	"warp_insts_per_clk_per_sm", "arch_ops_per_clk_per_sm", "pct_of_arch", "status",
};

/* Expected result of thread `tid`: the XOR of its eight chains (lds: chain k of lane l starts at
 * word l + 32 k; every other chain k starts at class (tid + k) mod 7). */
static uint64_t tput_expect(const struct insn_desc *d, unsigned tid, long trips)
{
	uint64_t x = 0;

	for (unsigned k = 0; k < TPUT_ILP; k++) {
		uint64_t s = !strcmp(d->name, "lds") ? 4u * (tid % 32u) + 128u * k : start_bits(d, (tid + k) % 7);
		uint64_t v = run_chain(d, s, trips, TPUT_STEPS, 0);
		x ^= d->type == T_F64 ? v : (uint32_t)v;
	}
	return x;
}

static int tput_insn_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	const struct insn_desc *d = insn_find(gp_point_str(pt, "insn"));
	const struct gp_device *dev = run->dev;
	const int threads = (int)gp_point_int(pt, "threads"), bps = (int)gp_point_int(pt, "blocks_per_sm");
	int iters = (int)gp_point_int(pt, "iters");
	const unsigned blocks = (unsigned)(bps * dev->sms);
	const size_t nthr = (size_t)blocks * threads;
	const double ops_thread = (double)iters * TPUT_STEPS * TPUT_ILP * d->results;
	const int rate = gp_arch_rate(insn_klass(d, dev), dev->cc_major, dev->cc_minor), nrep = run->reps;
	const unsigned period = !strcmp(d->name, "lds") ? 32 : 7;
	uint64_t opnd[9], *out = NULL, ref[32];
	double *ms = NULL, *clk = NULL, ops_clk;
	struct gp_stats sms, sclk;
	struct gp_clock_sample cs;
	CUdeviceptr d_out = 0, d_opnd = 0, d_cs = 0;
	CUfunction fn;
	char kname[40], status[256] = "ok", err[128];
	float pconst = d->pconst;
	int rc = GP_EFAIL, resident = 0;
	void *args[] = { &d_out, &d_opnd, &iters, &d_cs, &pconst };

	ms = malloc(nrep * sizeof *ms);
	clk = malloc(nrep * sizeof *clk);
	out = malloc(nthr * sizeof *out);
	if (!ms || !clk || !out)
		goto done;
	fill_opnd(d, opnd);
	snprintf(kname, sizeof kname, "tput_%s", d->name);
	if ((rc = gp_kernel(run->dev, gp_image_probes_insn, kname, &fn)) ||
	    (rc = gp_alloc(&d_out, nthr * sizeof *out)) || (rc = gp_alloc(&d_opnd, sizeof opnd)) ||
	    (rc = gp_alloc(&d_cs, sizeof cs)) || (rc = gp_upload(d_opnd, opnd, sizeof opnd)))
		goto done;
	gp_cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(&resident, fn, threads, 0);
	if (resident < bps)
		snprintf(status, sizeof status, "only %d blocks of %d threads fit per SM, asked for %d", resident,
			 threads, bps);
	for (unsigned c = 0; c < period; c++)
		ref[c] = tput_expect(d, c, iters);
	for (int r = -run->warmup; r < nrep; r++) {
		float m;
		gp_cu.cuMemsetD8(d_out, 0xff, nthr * sizeof *out);
		if ((rc = gp_launch(fn, blocks, (unsigned)threads, 0, args, &m)) ||
		    (rc = gp_download(&cs, d_cs, sizeof cs)))
			goto done;
		if (r < 0)
			continue;
		ms[r] = m;
		clk[r] = gp_clock_mhz(&cs);
	}
	if ((rc = gp_download(out, d_out, nthr * sizeof *out)))
		goto done;
	for (size_t i = 0; i < nthr && status_ok(status); i++) {
		/* i is the global thread index; lds chains follow the lane within the block */
		const uint64_t want = ref[period == 32 ? (i % (size_t)threads) % 32 : i % period];
		/* MUFU: the XOR of approximate values means nothing; check it is not the poison. */
		if (d->approx ? out[i] == ~0ull : (d->type == T_F64 ? out[i] != want : (uint32_t)out[i] != (uint32_t)want))
			snprintf(status, sizeof status, "thread %zu: result %#llx, host %#llx: steps skipped", i,
				 (unsigned long long)out[i], (unsigned long long)want);
	}
	gp_stats(ms, nrep, &sms);
	gp_stats(clk, nrep, &sclk);
	ops_clk = gp_ops_per_clk_per_sm(ops_thread * (double)nthr, sms.median, sclk.median, dev->sms);
	if (status_ok(status) && !(sclk.median > 0))
		snprintf(status, sizeof status, "clock sample too short to measure the SM clock");
	/* Ceilings: the Programming Guide's rate where known, and always the issue limit of four
	 * warp-instructions per clock per SM (128 thread-instructions). */
	if (status_ok(status) && rate > 0 && ops_clk > 1.02 * rate)
		snprintf(status, sizeof status, "%.1f ops/clk/SM is above the architectural %d: broken probe",
			 ops_clk, rate);
	if (status_ok(status) && ops_clk / d->results > 128 * 1.02)
		snprintf(status, sizeof status, "%.1f instructions/clk/SM is above the 4-scheduler issue limit: "
			 "broken probe", ops_clk / d->results);
	row_head(t, d, run->dev);
	gp_row_int(t, "blocks", blocks);
	gp_row_int(t, "threads_per_block", threads);
	gp_row_int(t, "warps_per_sm", (long long)bps * threads / 32);
	gp_row_num(t, "ops_per_thread", ops_thread);
	gp_row_num(t, "time_ms_min", sms.min);
	gp_row_num(t, "time_ms", sms.median);
	gp_row_num(t, "time_ms_max", sms.max);
	gp_row_num(t, "spread", sms.spread);
	gp_row_num(t, "clock_MHz", sclk.median);
	gp_row_num(t, "ops_per_clk_per_sm", isnan(ops_clk) ? 0 : ops_clk);
	gp_row_num(t, "warp_insts_per_clk_per_sm", isnan(ops_clk) ? 0 : ops_clk / d->results / 32.0);
	gp_row_int(t, "arch_ops_per_clk_per_sm", rate);
	if (rate > 0 && !isnan(ops_clk))
		gp_row_num(t, "pct_of_arch", gp_pct_of_rate(ops_clk, rate));
	else
		gp_row_str(t, "pct_of_arch", "");
	gp_row_str(t, "status", status);
	if (gp_row_end(t, err, sizeof err)) {
		gp_err("internal: tput_insn row: %s", err);
		rc = GP_EFAIL;
		goto done;
	}
	rc = status_ok(status) ? 0 : GP_EVALID;
done:
	gp_free(d_out);
	gp_free(d_opnd);
	gp_free(d_cs);
	free(ms);
	free(clk);
	free(out);
	return rc;
}

static void tput_insn_derive(struct gp_profile *prof, const struct gp_table *t)
{
	for (size_t r = 0; r < t->nrows; r++) {
		double v;
		char key[64];
		if (!status_ok(gp_table_get(t, r, "status")) || gp_table_get_double(t, r, "ops_per_clk_per_sm", &v))
			continue;
		snprintf(key, sizeof key, "insn_%s_ops_per_clk_per_sm", gp_table_get(t, r, "insn"));
		gp_profile_add(prof, key, v, "ops/clk/SM", "8 independent chains/thread, all SMs, events", "tput_insn");
	}
}

static void tput_insn_report(FILE *md, const struct gp_table *t, const struct gp_table *ref);

GP_EXP_IMPL(tput_insn, tput_insn_params, tput_insn_cols, tput_insn_measure);
GP_ANALYSIS(tput_insn, tput_insn_derive, tput_insn_report);

/* ---------------------------------------------------------------- E010 tput_lds_ffma */

static const float mix_opnd[3] = { 0x1p-10f, 0x1p-10f, 1.0f }; /* shared value, b, start */

static const struct gp_param mix_params[] = {
	{ "ffma_per_lds", GP_PARAM_INT, 1, 8, NULL, "1 2 4 8", "FFMAs consuming one shared load (1, 2, 4, 8)" },
	{ "addr", GP_PARAM_NAME, 0, 0, "distinct broadcast", "distinct broadcast",
	  "distinct: lane l reads word l; broadcast: every lane reads word 0" },
	{ "blocks_per_sm", GP_PARAM_INT, 1, 32, NULL, "8", "resident blocks per SM" },
	{ "threads", GP_PARAM_INT, 32, 1024, NULL, "256", "threads per block" },
	{ "iters", GP_PARAM_INT, 1, 100000, NULL, "256", "loop trips of 32 x 8 FFMAs" },
};

static const char *const mix_cols[] = {
	"ffma_per_lds", "addr", "warps_per_sm", "ffma_per_thread", "time_ms_min", "time_ms", "time_ms_max",
	"spread", "clock_MHz", "ffma_per_clk_per_sm", "pct_of_fp32", "lds_warp_insts_per_clk_per_sm",
	"model_ffma_per_clk_per_sm", "status",
};

static int mix_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	const struct gp_device *dev = run->dev;
	const int R = (int)gp_point_int(pt, "ffma_per_lds"), bps = (int)gp_point_int(pt, "blocks_per_sm");
	const int threads = (int)gp_point_int(pt, "threads"), nrep = run->reps;
	int iters = (int)gp_point_int(pt, "iters"), broadcast = !strcmp(gp_point_str(pt, "addr"), "broadcast");
	const unsigned blocks = (unsigned)(bps * dev->sms);
	const size_t nthr = (size_t)blocks * threads;
	const long per_chain = (long)iters * TPUT_STEPS;
	const double ffma_thread = (double)per_chain * TPUT_ILP;
	const int lanes = gp_fp32_lanes_per_sm(dev->cc_major, dev->cc_minor);
	double *ms = NULL, *clk = NULL, ops, lds;
	float *out = NULL, want = mix_opnd[2];
	struct gp_stats sms, sclk;
	struct gp_clock_sample cs;
	CUdeviceptr d_out = 0, d_opnd = 0, d_cs = 0;
	CUfunction fn;
	char kname[32], status[256] = "ok", err[128];
	int rc = GP_EFAIL, resident = 0;
	void *args[] = { &d_out, &d_opnd, &iters, &broadcast, &d_cs };

	ms = malloc(nrep * sizeof *ms);
	clk = malloc(nrep * sizeof *clk);
	out = malloc(nthr * sizeof *out);
	if (!ms || !clk || !out)
		goto done;
	if (R != 1 && R != 2 && R != 4 && R != 8) {
		gp_err("tput_lds_ffma: ffma_per_lds must be 1, 2, 4 or 8, not %d", R);
		rc = GP_ECONFIG;
		goto done;
	}
	snprintf(kname, sizeof kname, "mix_ffma%d", R);
	if ((rc = gp_kernel(run->dev, gp_image_probes_insn, kname, &fn)) ||
	    (rc = gp_alloc(&d_out, nthr * sizeof *out)) || (rc = gp_alloc(&d_opnd, sizeof mix_opnd)) ||
	    (rc = gp_alloc(&d_cs, sizeof cs)) || (rc = gp_upload(d_opnd, mix_opnd, sizeof mix_opnd)))
		goto done;
	gp_cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(&resident, fn, threads, 0);
	if (resident < bps)
		snprintf(status, sizeof status, "only %d blocks of %d threads fit per SM, asked for %d", resident,
			 threads, bps);
	for (long i = 0; i < per_chain; i++)
		want = fmaf(mix_opnd[0], mix_opnd[1], want);
	for (int r = -run->warmup; r < nrep; r++) {
		float m;
		gp_cu.cuMemsetD8(d_out, 0xff, nthr * sizeof *out);
		if ((rc = gp_launch(fn, blocks, (unsigned)threads, 0, args, &m)) ||
		    (rc = gp_download(&cs, d_cs, sizeof cs)))
			goto done;
		if (r < 0)
			continue;
		ms[r] = m;
		clk[r] = gp_clock_mhz(&cs);
	}
	if ((rc = gp_download(out, d_out, nthr * sizeof *out)))
		goto done;
	for (size_t i = 0; i < nthr && status_ok(status); i++)
		if (memcmp(&out[i], &want, sizeof want))
			snprintf(status, sizeof status, "thread %zu: accumulator %.9g, host %.9g: FFMAs or loads skipped",
				 i, out[i], want);
	gp_stats(ms, nrep, &sms);
	gp_stats(clk, nrep, &sclk);
	ops = gp_ops_per_clk_per_sm(ffma_thread * (double)nthr, sms.median, sclk.median, dev->sms);
	lds = isnan(ops) ? 0 : ops / R / 32.0;
	if (status_ok(status) && !(sclk.median > 0))
		snprintf(status, sizeof status, "clock sample too short to measure the SM clock");
	if (status_ok(status) && lanes && ops > 1.02 * lanes)
		snprintf(status, sizeof status, "%.1f FFMA/clk/SM above the %d lanes: broken probe", ops, lanes);
	/* 32 banks deliver one distinct word each per clock: one conflict-free warp-LDS per clock. */
	if (status_ok(status) && !broadcast && lds > 1.02)
		snprintf(status, sizeof status, "%.2f distinct-address warp-LDS/clk/SM above the 32-bank limit: "
			 "broken probe", lds);
	gp_row_begin(t);
	gp_row_int(t, "ffma_per_lds", R);
	gp_row_str(t, "addr", broadcast ? "broadcast" : "distinct");
	gp_row_int(t, "warps_per_sm", (long long)bps * threads / 32);
	gp_row_num(t, "ffma_per_thread", ffma_thread);
	gp_row_num(t, "time_ms_min", sms.min);
	gp_row_num(t, "time_ms", sms.median);
	gp_row_num(t, "time_ms_max", sms.max);
	gp_row_num(t, "spread", sms.spread);
	gp_row_num(t, "clock_MHz", sclk.median);
	gp_row_num(t, "ffma_per_clk_per_sm", isnan(ops) ? 0 : ops);
	gp_row_num(t, "pct_of_fp32", lanes && !isnan(ops) ? gp_pct_of_rate(ops, lanes) : 0);
	gp_row_num(t, "lds_warp_insts_per_clk_per_sm", lds);
	gp_row_num(t, "model_ffma_per_clk_per_sm", gp_mix_model(R, lanes ? lanes : 128, 1.0, 4.0));
	gp_row_str(t, "status", status);
	if (gp_row_end(t, err, sizeof err)) {
		gp_err("internal: tput_lds_ffma row: %s", err);
		rc = GP_EFAIL;
		goto done;
	}
	rc = status_ok(status) ? 0 : GP_EVALID;
done:
	gp_free(d_out);
	gp_free(d_opnd);
	gp_free(d_cs);
	free(ms);
	free(clk);
	free(out);
	return rc;
}

static void mix_derive(struct gp_profile *prof, const struct gp_table *t)
{
	for (size_t r = 0; r < t->nrows; r++) {
		double v, R;
		char key[64];
		if (!status_ok(gp_table_get(t, r, "status")) ||
		    gp_table_get_double(t, r, "ffma_per_clk_per_sm", &v) || gp_table_get_double(t, r, "ffma_per_lds", &R))
			continue;
		snprintf(key, sizeof key, "ffma_per_clk_1lds_per_%d_%s", (int)R, gp_table_get(t, r, "addr"));
		gp_profile_add(prof, key, v, "ops/clk/SM", "8 accumulators, R FFMAs per volatile LDS, 64 warps/SM",
			       "tput_lds_ffma");
	}
}

static void mix_report(FILE *md, const struct gp_table *t, const struct gp_table *ref);

GP_EXP_IMPL(tput_lds_ffma, mix_params, mix_cols, mix_measure);
GP_ANALYSIS(tput_lds_ffma, mix_derive, mix_report);

/* ---------------------------------------------------------------- E004 style tput_occupancy */

static const struct {
	const char *name, *kernel;
	int ilp;
} occ_chains[] = {
	{ "ffma", "occ_ffma", 1 },
	{ "ffma_ilp2", "occ_ffma", 2 },
	{ "ffma_ilp4", "occ_ffma", 4 },
	{ "lds_ffma", "occ_lds_ffma", 1 },
};

static const float occ_ffma_opnd[3] = { 0x1.fffffep-1f, 0x1p-19f, 1.0f }; /* a, b, start */
static const float occ_lds_opnd[3] = { 1.0f, 0.0f, 0.0f };                /* FFMA(v, 1, 0) = v */

static const struct gp_param occ_params[] = {
	{ "chain", GP_PARAM_NAME, 0, 0, "ffma ffma_ilp2 ffma_ilp4 lds_ffma", "ffma ffma_ilp2 ffma_ilp4 lds_ffma",
	  "dependent chain per thread: FFMA with 1, 2 or 4 chains, or LDS -> FFMA" },
	{ "warps", GP_PARAM_INT, 1, 64, NULL, "1 2 3 4 6 8 10 12 16 20 24 28 32 40 48 56 64",
	  "active warps per SM (above 32: two blocks, so an even number)" },
	{ "iters", GP_PARAM_INT, 1, 100000, NULL, "256", "loop trips of 256 FFMAs per thread" },
};

static const char *const occ_cols[] = {
	"chain", "ilp", "warps_per_sm", "blocks_per_sm", "threads_per_block", "dyn_smem_bytes",
	"ffma_per_thread", "ops_per_clk_per_sm", "ops_per_clk_per_sm_min", "ops_per_clk_per_sm_max",
	"spread", "cycles_per_step", "pct_of_fp32", "clock_MHz", "status",
};

/* Dynamic shared memory that lets exactly k blocks share an SM: more than 1/(k+1) of it each.
 * The occupancy query has the last word, and the block placement is checked afterwards. */
static int occ_setup(CUfunction fn, const struct gp_device *dev, int k, int threads, unsigned *smem,
		     char *status, size_t len)
{
	int fit = 0;

	*smem = (unsigned)(dev->smem_per_sm / (k + 1) + 1024);
	if (*smem > (unsigned)dev->smem_per_block_optin - 8192)
		*smem = (unsigned)dev->smem_per_block_optin - 8192;
	gp_cu.cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)*smem);
	gp_cu.cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 100);
	if (gp_cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(&fit, fn, threads, *smem) != CUDA_SUCCESS)
		return GP_ECUDA;
	if (fit != k)
		snprintf(status, len, "%d blocks of %d threads with %u B shared fit per SM, wanted exactly %d", fit,
			 threads, *smem, k);
	return 0;
}

/* FFMA ops per clock on each SM from its blocks' clock64 windows; median over SMs. Every SM
 * must hold exactly k blocks, or the warps-per-SM axis would be a lie. */
static double occ_rate(const unsigned long long *blk, unsigned blocks, int k, double ops_per_block,
		       char *status, size_t len)
{
	enum { MAX_SM = 1024 };
	static int count[MAX_SM];
	static unsigned long long lo[MAX_SM], hi[MAX_SM];
	double rates[MAX_SM], med;
	int nsm = 0;
	struct gp_stats s;

	memset(count, 0, sizeof count);
	for (unsigned b = 0; b < blocks; b++) {
		const unsigned sm = (unsigned)blk[3 * b];
		if (sm >= MAX_SM)
			continue;
		if (!count[sm]++ || blk[3 * b + 1] < lo[sm])
			lo[sm] = blk[3 * b + 1];
		if (count[sm] == 1 || blk[3 * b + 2] > hi[sm])
			hi[sm] = blk[3 * b + 2];
	}
	for (int sm = 0; sm < MAX_SM; sm++) {
		if (!count[sm])
			continue;
		if (count[sm] != k && status_ok(status))
			snprintf(status, len, "SM %d ran %d blocks, wanted %d: uneven placement", sm, count[sm], k);
		if (hi[sm] > lo[sm])
			rates[nsm++] = count[sm] * ops_per_block / (double)(hi[sm] - lo[sm]);
	}
	if (!nsm || gp_stats(rates, (size_t)nsm, &s))
		return NAN;
	med = s.median;
	return med;
}

/* FFMA chains: every thread and chain ends at the same value; LDS -> FFMA: lane l's offset. */
static void occ_check(const float *out, size_t nthr, int threads, int lds, long steps, int ilp,
		      const float *opnd, char *status, size_t len)
{
	uint32_t want = 0;

	if (!lds) {
		float v = opnd[2];
		for (long s = 0; s < steps / ilp; s++)
			v = fmaf(v, opnd[0], opnd[1]);
		want = f2u(v);
	}
	for (size_t i = 0; i < nthr && status_ok(status); i++) {
		if (lds)
			want = (uint32_t)((4u * ((i % (size_t)threads) % 32u) + 128u * (uint64_t)steps) % RING_BYTES);
		if (f2u(out[i]) != want)
			snprintf(status, len, "thread %zu: result %#x, host %#x: steps skipped", i, f2u(out[i]), want);
	}
}

static int occ_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	const struct gp_device *dev = run->dev;
	const char *chain = gp_point_str(pt, "chain");
	const int W = (int)gp_point_int(pt, "warps"), k = (W + 31) / 32, nrep = run->reps;
	const int threads = 32 * W / k, lanes = gp_fp32_lanes_per_sm(dev->cc_major, dev->cc_minor);
	const unsigned blocks = (unsigned)(k * dev->sms);
	const size_t nthr = (size_t)blocks * threads;
	int iters = (int)gp_point_int(pt, "iters"), ilp = 1;
	const long steps = (long)iters * LAT_UNROLL;
	const float *opnd = occ_ffma_opnd;
	const char *kernel = "occ_ffma";
	unsigned long long *blk = NULL;
	double *rate = NULL, *clk = NULL;
	float *out = NULL;
	struct gp_stats sr, sclk;
	struct gp_clock_sample cs;
	CUdeviceptr d_out = 0, d_blk = 0, d_opnd = 0, d_cs = 0;
	CUfunction fn;
	unsigned smem = 0;
	char status[256] = "ok", err[128];
	int rc = GP_EFAIL;
	void *args[] = { &d_out, &d_blk, &d_opnd, &iters, &ilp, &d_cs };

	for (size_t i = 0; i < GP_ARRAY_SIZE(occ_chains); i++)
		if (!strcmp(occ_chains[i].name, chain)) {
			kernel = occ_chains[i].kernel;
			ilp = occ_chains[i].ilp;
		}
	if (!strcmp(kernel, "occ_lds_ffma"))
		opnd = occ_lds_opnd;
	blk = malloc(3 * blocks * sizeof *blk);
	rate = malloc(nrep * sizeof *rate);
	clk = malloc(nrep * sizeof *clk);
	out = malloc(nthr * sizeof *out);
	if (!blk || !rate || !clk || !out)
		goto done;
	if (W % k)
		snprintf(status, sizeof status, "%d warps do not split into %d equal blocks", W, k);
	if ((rc = gp_kernel(run->dev, gp_image_probes_insn, kernel, &fn)) ||
	    (rc = gp_alloc(&d_out, nthr * sizeof *out)) || (rc = gp_alloc(&d_blk, 3 * blocks * sizeof *blk)) ||
	    (rc = gp_alloc(&d_opnd, 3 * sizeof(float))) || (rc = gp_alloc(&d_cs, sizeof cs)) ||
	    (rc = gp_upload(d_opnd, opnd, 3 * sizeof(float))) ||
	    (rc = occ_setup(fn, dev, k, threads, &smem, status, sizeof status)))
		goto done;
	for (int r = -run->warmup; r < nrep; r++) {
		gp_cu.cuMemsetD8(d_out, 0xff, nthr * sizeof *out);
		if ((rc = gp_launch(fn, blocks, (unsigned)threads, smem, args, NULL)) ||
		    (rc = gp_download(blk, d_blk, 3 * blocks * sizeof *blk)) || (rc = gp_download(&cs, d_cs, sizeof cs)))
			goto done;
		if (r < 0)
			continue;
		rate[r] = occ_rate(blk, blocks, k, (double)threads * steps, status, sizeof status);
		if (isnan(rate[r]))
			rate[r] = 0;
		clk[r] = gp_clock_mhz(&cs);
	}
	if ((rc = gp_download(out, d_out, nthr * sizeof *out)))
		goto done;
	occ_check(out, nthr, threads, opnd == occ_lds_opnd, steps, ilp, opnd, status, sizeof status);
	gp_stats(rate, nrep, &sr);
	gp_stats(clk, nrep, &sclk);
	if (status_ok(status) && lanes && sr.median > 1.02 * lanes)
		snprintf(status, sizeof status, "%.1f FFMA/clk/SM above the %d lanes: broken probe", sr.median, lanes);
	gp_row_begin(t);
	gp_row_str(t, "chain", chain);
	gp_row_int(t, "ilp", ilp);
	gp_row_int(t, "warps_per_sm", W);
	gp_row_int(t, "blocks_per_sm", k);
	gp_row_int(t, "threads_per_block", threads);
	gp_row_int(t, "dyn_smem_bytes", smem);
	gp_row_int(t, "ffma_per_thread", steps);
	gp_row_num(t, "ops_per_clk_per_sm", sr.median);
	gp_row_num(t, "ops_per_clk_per_sm_min", sr.min);
	gp_row_num(t, "ops_per_clk_per_sm_max", sr.max);
	gp_row_num(t, "spread", sr.spread);
	/* Cycles per chain step of one warp: W warps x 32 lanes x ILP chains share the rate. */
	gp_row_num(t, "cycles_per_step", sr.median > 0 ? 32.0 * W / sr.median * ilp : 0);
	gp_row_num(t, "pct_of_fp32", lanes ? gp_pct_of_rate(sr.median, lanes) : 0);
	gp_row_num(t, "clock_MHz", sclk.median);
	gp_row_str(t, "status", status);
	if (gp_row_end(t, err, sizeof err)) {
		gp_err("internal: tput_occupancy row: %s", err);
		rc = GP_EFAIL;
		goto done;
	}
	rc = status_ok(status) ? 0 : GP_EVALID;
done:
	gp_free(d_out);
	gp_free(d_blk);
	gp_free(d_opnd);
	gp_free(d_cs);
	free(blk);
	free(rate);
	free(clk);
	free(out);
	return rc;
}

/* Knee per chain: where the curve first reaches 90 % of its plateau, and where the straight
 * line through the one-warp point meets the plateau (latency / issue interval, seed 000's M003). */
static void occ_derive(struct gp_profile *prof, const struct gp_table *t)
{
	for (size_t c = 0; c < GP_ARRAY_SIZE(occ_chains); c++) {
		double w[128], r[128];
		size_t n = 0;
		struct gp_knee k;
		char key[64];
		for (size_t i = 0; i < t->nrows && n < 128; i++)
			if (!strcmp(gp_table_get(t, i, "chain"), occ_chains[c].name) &&
			    status_ok(gp_table_get(t, i, "status")) &&
			    !gp_table_get_double(t, i, "warps_per_sm", &w[n]) &&
			    !gp_table_get_double(t, i, "ops_per_clk_per_sm", &r[n]))
				n++;
		if (n < 3 || gp_knee_find(w, r, n, 0.9, &k))
			continue;
		snprintf(key, sizeof key, "%s_knee_warps_per_sm", occ_chains[c].name);
		gp_profile_add(prof, key, k.knee_first, "warps/SM", "fewest warps reaching 90 % of the plateau",
			       "tput_occupancy");
		snprintf(key, sizeof key, "%s_knee_model_warps_per_sm", occ_chains[c].name);
		gp_profile_add(prof, key, k.knee_model, "warps/SM", "plateau / (rate of the fewest-warps point per warp)",
			       "tput_occupancy");
		snprintf(key, sizeof key, "%s_plateau_ops_per_clk_per_sm", occ_chains[c].name);
		gp_profile_add(prof, key, k.plateau, "ops/clk/SM", "largest FFMA rate over the warps sweep",
			       "tput_occupancy");
	}
}

static void occ_report(FILE *md, const struct gp_table *t, const struct gp_table *ref);

GP_EXP_IMPL(tput_occupancy, occ_params, occ_cols, occ_measure);
GP_ANALYSIS(tput_occupancy, occ_derive, occ_report);

/* ---------------------------------------------------------------- report sections */

static const char *ref_or_dash(const struct gp_table *ref, const char *exp, const char *key)
{
	const char *v = gp_reference(ref, exp, key, NULL, NULL);

	return v ? v : "–";
}

static const char *cell_or_dash(const struct gp_table *t, size_t r, const char *col)
{
	const char *v = gp_table_get(t, r, col);

	return v && *v ? v : "–";
}

/* Seed 000 Table 5 layout, one row per instruction, GT200's numbers where the seed has them. */
static void lat_insn_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	fprintf(md, "Seed 000 Table 5 layout: dependent latency of one warp's chain (clock64, timer overhead "
		    "subtracted, 256 steps per loop trip); throughput columns from the Programming Guide's rate for "
		    "this cc (measured rates: tput_insn). Warps to hide = latency / (32 / rate).\n\n");
	fprintf(md, "| insn | SASS | step | latency here (cycles) | ns | arch rate (ops/clk/SM) | "
		    "warps to hide | paper GT200 latency | paper GT200 cycles/warp | status |\n"
		    "|---|---|---|---|---|---|---|---|---|---|\n");
	for (size_t r = 0; r < t->nrows; r++) {
		const char *n = gp_table_get(t, r, "insn");
		const struct insn_desc *d = insn_find(n);
		char k1[64], k2[64];
		snprintf(k1, sizeof k1, "%s_latency", n);
		snprintf(k2, sizeof k2, "%s_cycles_per_warp", n);
		fprintf(md, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", n, cell_or_dash(t, r, "sass"),
			d ? d->what : "–", cell_or_dash(t, r, "cycles_per_step"), cell_or_dash(t, r, "latency_ns"),
			cell_or_dash(t, r, "arch_ops_per_clk_per_sm"), cell_or_dash(t, r, "warps_to_hide_at_arch_rate"),
			ref_or_dash(ref, "lat_insn", k1), ref_or_dash(ref, "lat_insn", k2), cell_or_dash(t, r, "status"));
	}
	fprintf(md, "\nPublished for H100-class GPUs: shared load (pointer chase) %s cycles (%s). ISETP's chain "
		    "opens and closes each 256-step trip with one ISETP and one SEL (about 1 %% added); MUFU.RCP "
		    "runs on 1/(-x) because ptxas folds rcp(rcp(x)) away.\n\n",
		ref_or_dash(ref, "lat_insn", "lds_published_latency"), "REFERENCE.md 2");
}

/* Seed 001 Table 4 layout extended to the instruction list: ops/clk/SM, % of the Guide's rate. */
static void tput_insn_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	fprintf(md, "Seed 001 Table 4 layout, every instruction: operations (results) per clock per SM with 8 "
		    "independent chains per thread, beside the CUDA Programming Guide's rate for this cc "
		    "(LDS/STS: 32 banks x 4 B per clock). Kepler K20m single/dual issue for FFMA/FMUL/FADD.\n\n");
	fprintf(md, "| insn | SASS | warps/SM | ops/clk/SM | warp-insts/clk/SM | arch rate | %% of arch | "
		    "paper K20m single | paper K20m dual | status |\n|---|---|---|---|---|---|---|---|---|---|\n");
	for (size_t r = 0; r < t->nrows; r++) {
		const char *n = gp_table_get(t, r, "insn");
		char k1[64], k2[64];
		snprintf(k1, sizeof k1, "%s_single", n);
		snprintf(k2, sizeof k2, "%s_dual", n);
		fprintf(md, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", n, cell_or_dash(t, r, "sass"),
			cell_or_dash(t, r, "warps_per_sm"), cell_or_dash(t, r, "ops_per_clk_per_sm"),
			cell_or_dash(t, r, "warp_insts_per_clk_per_sm"), cell_or_dash(t, r, "arch_ops_per_clk_per_sm"),
			cell_or_dash(t, r, "pct_of_arch"), ref_or_dash(ref, "tput_fp32", k1),
			ref_or_dash(ref, "tput_fp32", k2), cell_or_dash(t, r, "status"));
	}
	fputc('\n', md);
}

static void mix_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	fprintf(md, "E010 (seed 000 Figure 22): FFMA throughput when every R FFMAs take their multiplicand from one "
		    "shared load. Model: 32 x min(4 R/(R+1), 1 x R, lanes/32) — four warp-instructions issued per "
		    "clock per SM shared by LDS and FFMA, one conflict-free warp-LDS per clock. GT200 analogue: "
		    "%s cycles/warp for MAD with a shared operand vs %s with registers (seed 000 Table 5).\n\n",
		ref_or_dash(ref, "lat_ffma", "smem_cycles_per_warp"), ref_or_dash(ref, "lat_ffma", "cycles_per_warp"));
	fprintf(md, "| FFMA per LDS | addresses | FFMA/clk/SM | %% of FP32 | warp-LDS/clk/SM | model FFMA/clk/SM | "
		    "status |\n|---|---|---|---|---|---|---|\n");
	for (size_t r = 0; r < t->nrows; r++)
		fprintf(md, "| %s | %s | %s | %s | %s | %s | %s |\n", cell_or_dash(t, r, "ffma_per_lds"),
			cell_or_dash(t, r, "addr"), cell_or_dash(t, r, "ffma_per_clk_per_sm"),
			cell_or_dash(t, r, "pct_of_fp32"), cell_or_dash(t, r, "lds_warp_insts_per_clk_per_sm"),
			cell_or_dash(t, r, "model_ffma_per_clk_per_sm"), cell_or_dash(t, r, "status"));
	fputc('\n', md);
}

static void occ_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	fprintf(md, "E004 style: FFMA operations per clock per SM as active warps per SM grow (one dependent chain "
		    "per thread, or 2 / 4 chains; LDS -> FFMA chain), per-SM clock64 windows, block placement "
		    "checked. The knee is where latency is hidden (seed 000 M003: %s warps on GT200).\n\n",
		ref_or_dash(ref, "lat_ffma", "warps_to_hide"));
	fprintf(md, "| chain | knee: first warps >= 90 %% of plateau | knee: plateau / one-warp slope | plateau "
		    "ops/clk/SM |\n|---|---|---|---|\n");
	for (size_t c = 0; c < GP_ARRAY_SIZE(occ_chains); c++) {
		double w[128], r[128];
		size_t n = 0;
		struct gp_knee k;
		for (size_t i = 0; i < t->nrows && n < 128; i++)
			if (!strcmp(gp_table_get(t, i, "chain"), occ_chains[c].name) &&
			    status_ok(gp_table_get(t, i, "status")) &&
			    !gp_table_get_double(t, i, "warps_per_sm", &w[n]) &&
			    !gp_table_get_double(t, i, "ops_per_clk_per_sm", &r[n]))
				n++;
		if (n < 3 || gp_knee_find(w, r, n, 0.9, &k))
			fprintf(md, "| %s | – | – | – |\n", occ_chains[c].name);
		else
			fprintf(md, "| %s | %.0f | %.1f | %.1f |\n", occ_chains[c].name, k.knee_first, k.knee_model,
				k.plateau);
	}
	fputc('\n', md);
}
