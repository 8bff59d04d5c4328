/* arith.c — host side of the FP32 pipeline probes: E002 (lat_ffma) and E106 (tput_fp32).
 *
 * lat_ffma times one dependent FFMA chain per thread in a single block and reports, as seed 000
 * Table 3 does, the per-thread cycles per FFMA (min / average / max over threads), plus the
 * block-wide time from the first start to the last end, which is the honest "cycles per warp"
 * once warps outnumber the latency. tput_fp32 fills every SM and turns event time and the
 * measured SM clock into operations per clock per SM against the architectural FP32 rate.
 * Both check the arithmetic bit for bit against the host and refuse numbers above the issue
 * ceiling: that would mean the compiler removed work. */
#include "gp.h"
#include "experiment.h"
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

extern const unsigned char gp_image_probes_arith[];

#define LAT_UNROLL 256
#define TPUT_UNROLL 16
#define TPUT_ILP 8

/* Operands of every chain: b slightly below 1 and c chosen so values stay normal and keep
 * changing for millions of steps (fixed point c / (1 - b) = 2), making a skipped or repeated
 * operation visible in the final bits. */
static const float chain_bc[2] = { 1.0f - 0x1p-20f, 0x1p-19f };

static float start_value(unsigned tid)
{
	return 1.0f + (float)(tid % 7) * 0.125f;
}

enum fp_op { OP_FFMA, OP_FMUL, OP_FADD };

static float chain(enum fp_op op, float x, long n)
{
	const float b = chain_bc[0], c = chain_bc[1];

	for (long i = 0; i < n; i++) {
		switch (op) {
		case OP_FFMA: x = fmaf(x, b, c); break;
		case OP_FMUL: x = x * b; break;
		case OP_FADD: x = x + c; break;
		}
	}
	return x;
}

static void lat_ffma_report(FILE *md, const struct gp_table *t, const struct gp_table *ref);
static void tput_fp32_report(FILE *md, const struct gp_table *t, const struct gp_table *ref);

/* ---------------------------------------------------------------- E002 lat_ffma */

static const struct gp_param lat_ffma_params[] = {
	{ "threads", GP_PARAM_INT, 1, 1024, NULL,
	  "1 32 64 128 192 224 256 288 320 384 512 640 768 896 1024", "threads in the one block" },
	{ "iters", GP_PARAM_INT, 1, 1000000, NULL, "4096", "loop trips of 256 dependent FFMAs" },
};

static const char *const lat_ffma_cols[] = {
	"threads", "warps", "ffma_per_thread", "cycles_per_ffma_min", "cycles_per_ffma_avg",
	"cycles_per_ffma_max", "block_cycles_per_ffma", "block_cycles_per_ffma_min",
	"block_cycles_per_ffma_max", "spread", "cycles_per_warp", "latency_ns", "clock_MHz",
	"timer_overhead_cycles", "reps", "status",
};

static int lat_ffma_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	const int threads = (int)gp_point_int(pt, "threads");
	int iters = (int)gp_point_int(pt, "iters");
	const long n = (long)iters * LAT_UNROLL;
	const int warps = (threads + 31) / 32;
	const int lanes = gp_fp32_lanes_per_sm(run->dev->cc_major, run->dev->cc_minor);
	const int nrep = run->reps;
	unsigned long long *t0 = NULL, *t1 = NULL, *ovh = NULL;
	float *out = NULL, ref[7];
	double *rmin = NULL, *ravg = NULL, *rmax = NULL, *rblk = NULL, *rclk = NULL, *rovh = NULL;
	struct gp_stats smin, savg, smax, sblk, sclk, sovh;
	CUdeviceptr d_out = 0, d_t0 = 0, d_t1 = 0, d_ovh = 0, d_bc = 0, d_cs = 0;
	struct gp_clock_sample cs;
	CUfunction fn;
	char status[256] = "ok", err[128];
	int rc;
	void *args[] = { &d_out, &d_t0, &d_t1, &d_ovh, &d_bc, &iters, &d_cs };

	t0 = malloc(threads * sizeof *t0);
	t1 = malloc(threads * sizeof *t1);
	ovh = malloc(threads * sizeof *ovh);
	out = malloc(threads * sizeof *out);
	rmin = malloc(nrep * sizeof *rmin);
	ravg = malloc(nrep * sizeof *ravg);
	rmax = malloc(nrep * sizeof *rmax);
	rblk = malloc(nrep * sizeof *rblk);
	rclk = malloc(nrep * sizeof *rclk);
	rovh = malloc(nrep * sizeof *rovh);
	rc = GP_EFAIL;
	if (!t0 || !t1 || !ovh || !out || !rmin || !ravg || !rmax || !rblk || !rclk || !rovh)
		goto done;
	if ((rc = gp_kernel(run->dev, gp_image_probes_arith, "lat_ffma", &fn)) ||
	    (rc = gp_alloc(&d_out, threads * sizeof(float))) ||
	    (rc = gp_alloc(&d_t0, threads * sizeof *t0)) || (rc = gp_alloc(&d_t1, threads * sizeof *t1)) ||
	    (rc = gp_alloc(&d_ovh, threads * sizeof *ovh)) || (rc = gp_alloc(&d_bc, sizeof chain_bc)) ||
	    (rc = gp_alloc(&d_cs, sizeof cs)) || (rc = gp_upload(d_bc, chain_bc, sizeof chain_bc)))
		goto done;
	for (int k = 0; k < 7; k++)
		ref[k] = chain(OP_FFMA, start_value((unsigned)k), n);

	for (int r = -run->warmup; r < nrep; r++) {
		unsigned long long first = ~0ull, last = 0;
		double sum = 0, mn = INFINITY, mx = 0, ov = 0;

		gp_cu.cuMemsetD8(d_out, 0xff, threads * sizeof(float)); /* poison: NaN */
		if ((rc = gp_launch(fn, 1, (unsigned)threads, 0, args, NULL)) ||
		    (rc = gp_download(t0, d_t0, threads * sizeof *t0)) ||
		    (rc = gp_download(t1, d_t1, threads * sizeof *t1)) ||
		    (rc = gp_download(ovh, d_ovh, threads * sizeof *ovh)) ||
		    (rc = gp_download(out, d_out, threads * sizeof *out)) ||
		    (rc = gp_download(&cs, d_cs, sizeof cs)))
			goto done;
		if (r < 0)
			continue;
		for (int i = 0; i < threads; i++) {
			double c = ((double)(t1[i] - t0[i]) - (double)ovh[i]) / (double)n;
			if (memcmp(&out[i], &ref[i % 7], sizeof(float)) && !strcmp(status, "ok"))
				snprintf(status, sizeof status,
					 "thread %d: chain result %.9g, host %.9g: FFMAs skipped or reordered", i,
					 out[i], ref[i % 7]);
			sum += c;
			mn = fmin(mn, c);
			mx = fmax(mx, c);
			ov += (double)ovh[i];
			first = t0[i] < first ? t0[i] : first;
			last = t1[i] > last ? t1[i] : last;
		}
		rmin[r] = mn;
		ravg[r] = sum / threads;
		rmax[r] = mx;
		rovh[r] = ov / threads;
		rblk[r] = ((double)(last - first) - rovh[r]) / (double)n;
		rclk[r] = gp_clock_mhz(&cs);
	}
	gp_stats(rmin, nrep, &smin);
	gp_stats(ravg, nrep, &savg);
	gp_stats(rmax, nrep, &smax);
	gp_stats(rblk, nrep, &sblk);
	gp_stats(rclk, nrep, &sclk);
	gp_stats(rovh, nrep, &sovh);
	/* Ceiling: an SM issues at most `lanes` FFMA lanes per clock, so a block of W warps cannot
	 * finish an FFMA per thread in fewer than W * 32 / lanes cycles. */
	if (!strcmp(status, "ok") && lanes && sblk.median < 0.98 * warps * 32.0 / lanes)
		snprintf(status, sizeof status, "%.3f cycles per FFMA for %d warps beats the issue limit %.3f",
			 sblk.median, warps, warps * 32.0 / lanes);
	if (!strcmp(status, "ok") && sclk.median <= 0)
		snprintf(status, sizeof status, "clock sample too short to measure the SM clock");

	gp_row_begin(t);
	gp_row_int(t, "threads", threads);
	gp_row_int(t, "warps", warps);
	gp_row_int(t, "ffma_per_thread", n);
	gp_row_num(t, "cycles_per_ffma_min", smin.median);
	gp_row_num(t, "cycles_per_ffma_avg", savg.median);
	gp_row_num(t, "cycles_per_ffma_max", smax.median);
	gp_row_num(t, "block_cycles_per_ffma", sblk.median);
	gp_row_num(t, "block_cycles_per_ffma_min", sblk.min);
	gp_row_num(t, "block_cycles_per_ffma_max", sblk.max);
	gp_row_num(t, "spread", sblk.spread);
	gp_row_num(t, "cycles_per_warp", sblk.median / warps);
	gp_row_num(t, "latency_ns", sclk.median > 0 ? smin.median / sclk.median * 1e3 : NAN);
	gp_row_num(t, "clock_MHz", sclk.median);
	gp_row_num(t, "timer_overhead_cycles", sovh.median);
	gp_row_int(t, "reps", nrep);
	gp_row_str(t, "status", status);
	if (gp_row_end(t, err, sizeof err)) {
		gp_err("internal: lat_ffma row: %s", err);
		rc = GP_EFAIL;
		goto done;
	}
	rc = strcmp(status, "ok") ? GP_EVALID : 0;
done:
	gp_free(d_out);
	gp_free(d_t0);
	gp_free(d_t1);
	gp_free(d_ovh);
	gp_free(d_bc);
	gp_free(d_cs);
	free(t0);
	free(t1);
	free(ovh);
	free(out);
	free(rmin);
	free(ravg);
	free(rmax);
	free(rblk);
	free(rclk);
	free(rovh);
	return rc;
}

/* Latency: the per-thread time of the smallest block (one warp at most: nothing to overlap).
 * Throughput: block time per warp at the largest block. Warps needed to hide the latency:
 * latency / (cycles per warp at saturation), the seed's M003. */
static void lat_ffma_derive(struct gp_run *run, const struct gp_table *t)
{
	double lat = NAN, ns = NAN, cpw = NAN, thr, best_thr = 1e9, max_thr = 0;

	for (size_t r = 0; r < t->nrows; r++) {
		if (strcmp(gp_table_get(t, r, "status"), "ok") ||
		    gp_table_get_double(t, r, "threads", &thr))
			continue;
		if (thr <= 32 && thr < best_thr) {
			best_thr = thr;
			gp_table_get_double(t, r, "cycles_per_ffma_min", &lat);
			gp_table_get_double(t, r, "latency_ns", &ns);
		}
		if (thr > max_thr) {
			max_thr = thr;
			gp_table_get_double(t, r, "cycles_per_warp", &cpw);
		}
	}
	if (isnan(lat))
		return;
	gp_profile_add(run, "ffma_latency", lat, "cycles", "dependent FFMA chain, 1 warp, clock64", "lat_ffma");
	gp_profile_add(run, "ffma_latency_ns", ns, "ns", "ffma_latency / measured SM clock", "lat_ffma");
	if (max_thr > 256 && !isnan(cpw)) {
		gp_profile_add(run, "ffma_cycles_per_warp", cpw, "cycles/warp/SM",
			       "block time per FFMA / warps at the largest block", "lat_ffma");
		gp_profile_add(run, "ffma_warps_to_hide_latency", lat / cpw, "warps/SM",
			       "latency / cycles per warp (seed 000 M003)", "lat_ffma");
	}
}

const struct gp_exp_impl lat_ffma_impl = {
	.params = lat_ffma_params,
	.nparams = GP_ARRAY_SIZE(lat_ffma_params),
	.columns = lat_ffma_cols,
	.ncolumns = GP_ARRAY_SIZE(lat_ffma_cols),
	.measure = lat_ffma_measure,
	.derive = lat_ffma_derive,
	.report = lat_ffma_report,
};

/* ---------------------------------------------------------------- E106 tput_fp32 */

static const struct gp_param tput_fp32_params[] = {
	{ "op", GP_PARAM_NAME, 0, 0, "ffma fmul fadd", "ffma fmul fadd", "FP32 instruction" },
	{ "blocks_per_sm", GP_PARAM_INT, 1, 32, NULL, "8", "resident blocks per SM" },
	{ "threads", GP_PARAM_INT, 32, 1024, NULL, "256", "threads per block" },
	{ "iters", GP_PARAM_INT, 1, 1000000, NULL, "4096", "loop trips of 16 x 8 independent ops" },
};

static const char *const tput_fp32_cols[] = {
	"op", "blocks", "threads_per_block", "warps_per_sm", "ops_per_thread", "time_ms_min",
	"time_ms", "time_ms_max", "spread", "clock_MHz", "ops_per_clk_per_sm",
	"peak_ops_per_clk_per_sm", "pct_of_peak", "tflops", "status",
};

static int tput_fp32_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	const char *opname = gp_point_str(pt, "op");
	const enum fp_op op = !strcmp(opname, "ffma") ? OP_FFMA : !strcmp(opname, "fmul") ? OP_FMUL : OP_FADD;
	const int threads = (int)gp_point_int(pt, "threads");
	const int bps = (int)gp_point_int(pt, "blocks_per_sm");
	int iters = (int)gp_point_int(pt, "iters");
	const struct gp_device *dev = run->dev;
	const unsigned blocks = (unsigned)(bps * dev->sms);
	const size_t nthr = (size_t)blocks * threads;
	const long per_chain = (long)iters * TPUT_UNROLL;
	const double ops_per_thread = (double)per_chain * TPUT_ILP;
	const int lanes = gp_fp32_lanes_per_sm(dev->cc_major, dev->cc_minor);
	const int nrep = run->reps;
	char kname[32], status[256] = "ok", err[128];
	double *ms = NULL, *clk = NULL, ops_clk, peak_pct;
	float *out = NULL, ref[7];
	struct gp_stats sms, sclk;
	struct gp_clock_sample cs;
	CUdeviceptr d_out = 0, d_bc = 0, d_cs = 0;
	CUfunction fn;
	int rc = GP_EFAIL, resident = 0;
	void *args[] = { &d_out, &d_bc, &iters, &d_cs };

	snprintf(kname, sizeof kname, "tput_%s", opname);
	ms = malloc(nrep * sizeof *ms);
	clk = malloc(nrep * sizeof *clk);
	out = malloc(nthr * sizeof *out);
	if (!ms || !clk || !out)
		goto done;
	if ((rc = gp_kernel(run->dev, gp_image_probes_arith, kname, &fn)) ||
	    (rc = gp_alloc(&d_out, nthr * sizeof *out)) || (rc = gp_alloc(&d_bc, sizeof chain_bc)) ||
	    (rc = gp_alloc(&d_cs, sizeof cs)) || (rc = gp_upload(d_bc, chain_bc, sizeof chain_bc)))
		goto done;
	gp_cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(&resident, fn, threads, 0);
	if (resident < bps)
		snprintf(status, sizeof status, "only %d blocks of %d threads fit per SM, asked for %d",
			 resident, threads, bps);
	for (int k = 0; k < 7; k++) {
		float s = 0;
		const float x0 = start_value((unsigned)k);
		for (int a = 0; a < TPUT_ILP; a++) {
			float v = chain(op, x0 + 0.0625f * (float)a, per_chain);
			s = a ? s + v : v;
		}
		ref[k] = s;
	}
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
	for (size_t i = 0; i < nthr && !strcmp(status, "ok"); i++)
		if (memcmp(&out[i], &ref[i % 7], sizeof(float)))
			snprintf(status, sizeof status, "thread %zu: result %.9g, host %.9g: ops skipped", i,
				 out[i], ref[i % 7]);
	gp_stats(ms, nrep, &sms);
	gp_stats(clk, nrep, &sclk);
	ops_clk = ops_per_thread * (double)nthr / (sms.median * 1e-3 * sclk.median * 1e6 * dev->sms);
	peak_pct = lanes ? 100.0 * ops_clk / lanes : NAN;
	if (!strcmp(status, "ok") && sclk.median <= 0)
		snprintf(status, sizeof status, "clock sample too short to measure the SM clock");
	if (!strcmp(status, "ok") && lanes && ops_clk > 1.01 * lanes)
		snprintf(status, sizeof status, "%.1f ops/clk/SM is above the %d-lane ceiling: broken probe",
			 ops_clk, lanes);

	gp_row_begin(t);
	gp_row_str(t, "op", opname);
	gp_row_int(t, "blocks", blocks);
	gp_row_int(t, "threads_per_block", threads);
	gp_row_int(t, "warps_per_sm", (long long)bps * threads / 32);
	gp_row_num(t, "ops_per_thread", ops_per_thread);
	gp_row_num(t, "time_ms_min", sms.min);
	gp_row_num(t, "time_ms", sms.median);
	gp_row_num(t, "time_ms_max", sms.max);
	gp_row_num(t, "spread", sms.spread);
	gp_row_num(t, "clock_MHz", sclk.median);
	gp_row_num(t, "ops_per_clk_per_sm", ops_clk);
	gp_row_int(t, "peak_ops_per_clk_per_sm", lanes);
	gp_row_num(t, "pct_of_peak", peak_pct);
	gp_row_num(t, "tflops", (op == OP_FFMA ? 2.0 : 1.0) * ops_per_thread * nthr / (sms.median * 1e-3) / 1e12);
	gp_row_str(t, "status", status);
	if (gp_row_end(t, err, sizeof err)) {
		gp_err("internal: tput_fp32 row: %s", err);
		rc = GP_EFAIL;
		goto done;
	}
	rc = strcmp(status, "ok") ? GP_EVALID : 0;
done:
	gp_free(d_out);
	gp_free(d_bc);
	gp_free(d_cs);
	free(ms);
	free(clk);
	free(out);
	return rc;
}

static void tput_fp32_derive(struct gp_run *run, const struct gp_table *t)
{
	for (size_t r = 0; r < t->nrows; r++) {
		const char *op = gp_table_get(t, r, "op");
		double v;
		char key[64];

		if (strcmp(gp_table_get(t, r, "status"), "ok") ||
		    gp_table_get_double(t, r, "ops_per_clk_per_sm", &v))
			continue;
		snprintf(key, sizeof key, "%s_ops_per_clk_per_sm", op);
		gp_profile_add(run, key, v, "ops/clk/SM", "8 independent chains/thread, all SMs, events",
			       "tput_fp32");
		if (!strcmp(op, "ffma") && !gp_table_get_double(t, r, "tflops", &v))
			gp_profile_add(run, "fp32_tflops_achieved", v, "TFLOP/s", "FFMA throughput probe",
				       "tput_fp32");
	}
}

const struct gp_exp_impl tput_fp32_impl = {
	.params = tput_fp32_params,
	.nparams = GP_ARRAY_SIZE(tput_fp32_params),
	.columns = tput_fp32_cols,
	.ncolumns = GP_ARRAY_SIZE(tput_fp32_cols),
	.measure = tput_fp32_measure,
	.derive = tput_fp32_derive,
	.report = tput_fp32_report,
};

/* ---------------------------------------------------------------- report sections */

static const char *ref_or_dash(const struct gp_table *ref, const char *exp, const char *key)
{
	const char *v = gp_reference(ref, exp, key, NULL, NULL);

	return v ? v : "–";
}

static long row_of_threads(const struct gp_table *t, long threads)
{
	double v;

	for (size_t r = 0; r < t->nrows; r++)
		if (!gp_table_get_double(t, r, "threads", &v) && (long)v == threads)
			return (long)r;
	return -1;
}

/* Seed 000 Table 3's layout: NUM_THREADS across, minimum and maximum per-thread cycles per FFMA
 * down, GT200's numbers under ours. */
static void lat_ffma_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const long seed_threads[] = { 1, 64, 128, 192, 224, 256, 320, 384, 512, 768, 1024 };
	static const struct {
		const char *label, *col, *refkey;
	} rows[] = {
		{ "Minimum (here)", "cycles_per_ffma_min", NULL },
		{ "Maximum (here)", "cycles_per_ffma_max", NULL },
		{ "Block time / FFMA (here)", "block_cycles_per_ffma", NULL },
		{ "Block time / #warps (here)", "cycles_per_warp", NULL },
		{ "Minimum (paper, GT200)", NULL, "min" },
		{ "Maximum (paper, GT200)", NULL, "max" },
	};
	const char *gpu = NULL, *src = NULL;
	double lat = NAN, cpw = NAN;

	fprintf(md, "Seed 000 Table 3 layout: cycles per `a = a * b + c` (FFMA, all operands in registers) "
		    "per thread.\n\n| NUM_THREADS |");
	for (size_t i = 0; i < GP_ARRAY_SIZE(seed_threads); i++)
		fprintf(md, " %ld |", seed_threads[i]);
	fprintf(md, "\n|---|");
	for (size_t i = 0; i < GP_ARRAY_SIZE(seed_threads); i++)
		fprintf(md, "---|");
	fputc('\n', md);
	for (size_t k = 0; k < GP_ARRAY_SIZE(rows); k++) {
		fprintf(md, "| %s |", rows[k].label);
		for (size_t i = 0; i < GP_ARRAY_SIZE(seed_threads); i++) {
			long r = row_of_threads(t, seed_threads[i]);
			char key[32];
			if (rows[k].col) {
				const char *v = r >= 0 ? gp_table_get(t, (size_t)r, rows[k].col) : NULL;
				fprintf(md, " %s |", v ? v : "–");
			} else {
				snprintf(key, sizeof key, "%s@%ld", rows[k].refkey, seed_threads[i]);
				fprintf(md, " %s |", ref_or_dash(ref, "lat_ffma", key));
			}
		}
		fputc('\n', md);
	}
	for (size_t r = 0; r < t->nrows; r++) {
		double th;
		if (gp_table_get_double(t, r, "threads", &th))
			continue;
		if (th <= 32 && isnan(lat))
			gp_table_get_double(t, r, "cycles_per_ffma_min", &lat);
		gp_table_get_double(t, r, "cycles_per_warp", &cpw); /* the last row: the largest block */
	}
	gp_reference(ref, "lat_ffma", "published_latency", &gpu, &src);
	fprintf(md, "\n| derived | here | paper (GT200) | published (this GPU class) |\n|---|---|---|---|\n");
	fprintf(md, "| FFMA latency, cycles | %.2f | %s | %s (%s) |\n", lat, ref_or_dash(ref, "lat_ffma", "latency"),
		ref_or_dash(ref, "lat_ffma", "published_latency"), src ? src : "–");
	gp_reference(ref, "lat_ffma", "published_cycles_per_warp", &gpu, &src);
	fprintf(md, "| cycles per warp per SM at the largest block | %.3f | %s | %s (%s) |\n", cpw,
		ref_or_dash(ref, "lat_ffma", "cycles_per_warp"),
		ref_or_dash(ref, "lat_ffma", "published_cycles_per_warp"), src ? src : "–");
	double plat = NAN, pcpw = NAN;
	gp_parse_double(gp_reference(ref, "lat_ffma", "latency", NULL, NULL), &plat);
	gp_parse_double(gp_reference(ref, "lat_ffma", "cycles_per_warp", NULL, NULL), &pcpw);
	fprintf(md, "| warps per SM to hide the latency (latency / cycles per warp) | %.1f | %.1f | – |\n\n",
		lat / cpw, plat / pcpw);
}

/* Seed 001 Table 4's layout: instruction, operation, ops/clk/SM; Kepler's single- and dual-issue
 * columns beside ours (Hopper has no dual issue: one column). */
static void tput_fp32_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const struct {
		const char *op, *inst, *what;
	} ops[] = { { "ffma", "FFMA", "c = a * b + c" }, { "fmul", "FMUL", "c = a * b" }, { "fadd", "FADD", "c = a + b" } };

	fprintf(md, "Seed 001 Table 4 layout: operations per clock per SM (largest warps/SM measured). "
		    "Peak here: %s per SM; Kepler's: %s.\n\n", ref_or_dash(ref, "tput_fp32", "published_peak"),
		ref_or_dash(ref, "tput_fp32", "paper_peak"));
	fprintf(md, "| Inst | operation | here: ops/clk/SM | here: %% of peak | here: TFLOP/s | clock MHz | "
		    "paper K20m single-issue | paper K20m dual-issue |\n|---|---|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < GP_ARRAY_SIZE(ops); i++) {
		long best = -1;
		double w, bw = -1;
		char k1[32], k2[32];
		for (size_t r = 0; r < t->nrows; r++)
			if (!strcmp(gp_table_get(t, r, "op"), ops[i].op) &&
			    !gp_table_get_double(t, r, "warps_per_sm", &w) && w > bw) {
				bw = w;
				best = (long)r;
			}
		snprintf(k1, sizeof k1, "%s_single", ops[i].op);
		snprintf(k2, sizeof k2, "%s_dual", ops[i].op);
		if (best < 0) {
			fprintf(md, "| %s | %s | – | – | – | – | %s | %s |\n", ops[i].inst, ops[i].what,
				ref_or_dash(ref, "tput_fp32", k1), ref_or_dash(ref, "tput_fp32", k2));
			continue;
		}
		fprintf(md, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", ops[i].inst, ops[i].what,
			gp_table_get(t, (size_t)best, "ops_per_clk_per_sm"), gp_table_get(t, (size_t)best, "pct_of_peak"),
			gp_table_get(t, (size_t)best, "tflops"), gp_table_get(t, (size_t)best, "clock_MHz"),
			ref_or_dash(ref, "tput_fp32", k1), ref_or_dash(ref, "tput_fp32", k2));
	}
	fputc('\n', md);
}
