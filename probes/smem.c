/* smem.c — host side of the on-chip memory probes: shared-memory latency (lat_smem), constant
 * cache latency (lat_const), shared-memory bandwidth by width (bw_smem, E107 / seed 001
 * Figure 4) and bank conflicts (bank_smem).
 *
 * Chases are single-thread and checked to come back to their start; bandwidth is bytes per
 * clock per SM from clock64 around the loop in each block (one block per SM), held against the
 * 32 banks x 4 bytes = 128 B/clk/SM ceiling (broadcast: 32 lanes x width per clock); bank
 * conflicts print the bank model's wavefronts next to the measured cycles per access. */
#include "gp.h"
#include "changepoint.h"
#include "experiment.h"
#include "analysis.h"
#include "measure.h"
#include "mem_common.h"
#include "mem_model.h"
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CCHAIN_BYTES 65536

/* ------------------------------------------------------------------ lat_smem, lat_const */

static const struct gp_param lat_smem_params[] = {
	{ "footprint_bytes", GP_PARAM_INT, 8, 1L << 20, NULL, "1024 16384 49152", "shared bytes the chain spans" },
	{ "stride_bytes", GP_PARAM_INT, 4, 4096, NULL, "4 128", "slot spacing (multiple of 4)" },
	{ "loads", GP_PARAM_INT, 1024, 100000000, NULL, "262144", "timed loads (at least)" },
};

static const struct gp_param lat_const_params[] = {
	{ "footprint_bytes", GP_PARAM_INT, 8, CCHAIN_BYTES, NULL, "256 1024 2048 4096 8192 16384 32768 65536",
	  "constant bytes the chain spans" },
	{ "stride_bytes", GP_PARAM_INT, 4, 4096, NULL, "64", "slot spacing (multiple of 4)" },
	{ "loads", GP_PARAM_INT, 1024, 100000000, NULL, "262144", "timed loads (at least)" },
};

static const char *const lat_onchip_cols[] = {
	"pattern", "footprint_bytes", "stride_bytes", "slots", "loads", "cycles_per_load",
	"cycles_per_load_min", "cycles_per_load_max", "spread", "latency_ns", "timer_overhead_cycles",
	"clock_MHz", "status",
};

/* Both chases: one launch per repetition, out = {end, cycles, overhead}; end must be `home`. */
static int onchip_chase(struct gp_run *run, const struct gp_point *pt, struct gp_table *t, int cnst)
{
	const long long fp = gp_point_int(pt, "footprint_bytes"), stride = gp_point_int(pt, "stride_bytes");
	const long long loads = gp_point_int(pt, "loads");
	const int slots = (int)(fp / stride), nrep = run->reps;
	long long steps = (loads + slots - 1) / (slots ? slots : 1) * slots, warm = slots;
	int islots = slots, istride = (int)stride;
	unsigned cstart = 0;
	unsigned long long out[3], home = 0, caddr[2];
	double *cyc = calloc((size_t)nrep, sizeof *cyc), *clk = calloc((size_t)nrep, sizeof *clk);
	double *ov = calloc((size_t)nrep, sizeof *ov);
	uint32_t *img = NULL;
	struct gp_stats sc, sclk, sov;
	struct gp_clock_sample cs;
	CUdeviceptr d_out = 0, d_cs = 0;
	CUfunction fn, fa;
	char status[256] = "ok", err[128];
	int rc = GP_EFAIL;
	void *sargs[] = { &islots, &istride, &steps, &d_out, &d_cs };
	void *cargs[] = { &cstart, &warm, &steps, &d_out, &d_cs };
	void *aargs[] = { &d_out };

	memset(&sc, 0, sizeof sc);
	sclk = sov = sc;
	if (!cyc || !clk || !ov)
		goto done;
	rc = 0;
	if (stride % 4 || slots < 2 || (!cnst && fp > run->dev->smem_per_block_optin)) {
		mem_fail(status, sizeof status, "refused: need a multiple-of-4 stride, two slots and a footprint that fits");
		goto row;
	}
	if ((rc = gp_alloc(&d_out, sizeof out)) || (rc = gp_alloc(&d_cs, sizeof cs)) ||
	    (rc = gp_kernel(run->dev, gp_image_probes_smem, cnst ? "lat_const" : "lat_smem", &fn)))
		goto done;
	if (cnst) {
		/* Where gp_cchain lives: its global backing (to write) and its constant address (to chase). */
		if ((rc = gp_kernel(run->dev, gp_image_probes_smem, "lat_const_addr", &fa)) ||
		    (rc = gp_launch(fa, 1, 1, 0, aargs, NULL)) || (rc = gp_download(caddr, d_out, 2 * sizeof *caddr)))
			goto done;
		img = calloc(CCHAIN_BYTES / 4, sizeof *img);
		if (!img) {
			rc = GP_EFAIL;
			goto done;
		}
		for (int i = 0; i < slots; i++)
			img[(size_t)i * stride / 4] = (uint32_t)(caddr[1] + (unsigned long long)((i + 1) % slots) * stride);
		if ((rc = gp_upload(caddr[0], img, CCHAIN_BYTES)))
			goto done;
		cstart = (unsigned)caddr[1];
		home = caddr[1];
	}
	for (int r = -run->warmup; r < nrep; r++) {
		if ((rc = gp_launch(fn, 1, 1, cnst ? 0 : (unsigned)fp, cnst ? cargs : sargs, NULL)) ||
		    (rc = gp_download(out, d_out, sizeof out)) || (rc = gp_download(&cs, d_cs, sizeof cs)))
			goto done;
		if (out[0] != home)
			mem_fail(status, sizeof status, "chain ended at 0x%llx, not at its start 0x%llx: loads skipped or stale",
				 out[0], home);
		if (r < 0)
			continue;
		cyc[r] = ((double)out[1] - (double)out[2]) / (double)steps;
		ov[r] = (double)out[2];
		clk[r] = mem_clock(run, &cs);
	}
	gp_stats(cyc, (size_t)nrep, &sc);
	gp_stats(clk, (size_t)nrep, &sclk);
	gp_stats(ov, (size_t)nrep, &sov);
	if (sclk.median <= 0)
		mem_fail(status, sizeof status, "clock sample too short to measure the SM clock");
	if (sc.median < 2)
		mem_fail(status, sizeof status, "%.2f cycles per dependent load: broken probe", sc.median);
row:
	gp_row_begin(t);
	gp_row_str(t, "pattern", "sequential");
	gp_row_int(t, "footprint_bytes", fp);
	gp_row_int(t, "stride_bytes", stride);
	gp_row_int(t, "slots", slots);
	gp_row_int(t, "loads", steps);
	gp_row_num(t, "cycles_per_load", sc.median);
	gp_row_num(t, "cycles_per_load_min", sc.min);
	gp_row_num(t, "cycles_per_load_max", sc.max);
	gp_row_num(t, "spread", sc.spread);
	gp_row_num(t, "latency_ns", sclk.median > 0 ? sc.median / sclk.median * 1e3 : NAN);
	gp_row_num(t, "timer_overhead_cycles", sov.median);
	gp_row_num(t, "clock_MHz", sclk.median);
	gp_row_str(t, "status", status);
	if (gp_row_end(t, err, sizeof err)) {
		gp_err("internal: %s row: %s", cnst ? "lat_const" : "lat_smem", err);
		rc = GP_EFAIL;
		goto done;
	}
	if (!rc)
		rc = gp_status_rc(status);
done:
	gp_free(d_out);
	gp_free(d_cs);
	free(cyc);
	free(clk);
	free(ov);
	free(img);
	return rc;
}

static int lat_smem_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	return onchip_chase(run, pt, t, 0);
}

static int lat_const_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	return onchip_chase(run, pt, t, 1);
}

/* Smallest-footprint latency (every chase fits the nearest level); for the constant chase also
 * the levels of its curve. */
static void onchip_derive(struct gp_profile *prof, const struct gp_table *t, const char *exp, const char *key)
{
	double fp[64], lat[64], best_fp = INFINITY, best = NAN, v, f;
	size_t n = 0;
	struct gp_cp_result cp;

	for (size_t r = 0; r < t->nrows; r++) {
		if (strcmp(gp_table_get(t, r, "status"), "ok") || gp_table_get_double(t, r, "footprint_bytes", &f) ||
		    gp_table_get_double(t, r, "cycles_per_load", &v))
			continue;
		if (f < best_fp) {
			best_fp = f;
			best = v;
		}
		if (n < 64 && (!n || f > fp[n - 1])) {
			fp[n] = f;
			lat[n++] = v;
		}
	}
	if (isnan(best))
		return;
	gp_profile_add(prof, key, best, "cycles", "single-thread dependent chase, smallest footprint", exp);
	if (!strcmp(exp, "lat_const") && n >= 3 && !gp_changepoint(fp, lat, n, &cp))
		for (size_t k = 0; k + 1 < cp.nlevels && k < 2; k++) {
			char kk[64];
			snprintf(kk, sizeof kk, "const_cache_l%zu_capacity_bytes", k + 1);
			gp_profile_add(prof, kk, cp.level[k].footprint_last, "bytes", "constant chase, change-point levels", exp);
			snprintf(kk, sizeof kk, "const_cache_l%zu_miss_latency_cycles", k + 1);
			gp_profile_add(prof, kk, cp.level[k + 1].latency, "cycles", "constant chase, change-point levels", exp);
		}
}

static void lat_smem_derive(struct gp_profile *prof, const struct gp_table *t)
{
	onchip_derive(prof, t, "lat_smem", "lds_latency_cycles");
}

static void lat_const_derive(struct gp_profile *prof, const struct gp_table *t)
{
	onchip_derive(prof, t, "lat_const", "const_latency_cycles");
}

static void onchip_report(FILE *md, const struct gp_table *t, const char *what)
{
	fprintf(md, "%s: single-thread dependent chase.\n\n| footprint | stride | cycles per load | ns |\n|---|---|---|---|\n", what);
	for (size_t r = 0; r < t->nrows; r++)
		fprintf(md, "| %s | %s | %s | %s |\n", gp_table_get(t, r, "footprint_bytes"), gp_table_get(t, r, "stride_bytes"),
			gp_table_get(t, r, "cycles_per_load"), gp_table_get(t, r, "latency_ns"));
	fputc('\n', md);
}

static void lat_smem_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	onchip_report(md, t, "Shared memory (ld.shared)");
}

static void lat_const_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	onchip_report(md, t, "Constant cache (ld.const, register address)");
}

GP_EXP_IMPL(lat_smem, lat_smem_params, lat_onchip_cols, lat_smem_measure);
GP_ANALYSIS(lat_smem, lat_smem_derive, lat_smem_report);

GP_EXP_IMPL(lat_const, lat_const_params, lat_onchip_cols, lat_const_measure);
GP_ANALYSIS(lat_const, lat_const_derive, lat_const_report);

/* ------------------------------------------------------------------ E107 bw_smem */

static const struct gp_param bw_smem_params[] = {
	{ "op", GP_PARAM_NAME, 0, 0, "lds sts", "lds sts", "shared load or store" },
	{ "width", GP_PARAM_INT, 32, 128, NULL, "32 64 128", "bits per access: 32, 64, 128" },
	{ "pattern", GP_PARAM_NAME, 0, 0, "conflict_free broadcast", "conflict_free broadcast",
	  "lane l at l x width, or every lane the same address" },
	{ "threads", GP_PARAM_INT, 32, 1024, NULL, "1024", "threads of the one block per SM" },
	{ "iters", GP_PARAM_INT, 1, 1000000, NULL, "16 64 256 1024 4096", "trips of 8 accesses (data volume)" },
};

static const char *const bw_smem_cols[] = {
	"op", "width_bits", "pattern", "threads", "warps_per_sm", "iters", "footprint_bytes", "stride_bytes",
	"bytes_per_sm", "cycles", "cycles_min", "cycles_max", "bytes_per_clk_per_sm", "ceiling_bytes_per_clk",
	"pct_of_128B", "GBps_per_sm", "GBps_total", "clock_MHz", "status",
};

static int bw_smem_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	const char *op = gp_point_str(pt, "op"), *pat = gp_point_str(pt, "pattern");
	const int width = (int)gp_point_int(pt, "width"), threads = (int)gp_point_int(pt, "threads");
	int iters = (int)gp_point_int(pt, "iters");
	const int wb = width / 8, bc = !strcmp(pat, "broadcast");
	const struct gp_device *dev = run->dev;
	const unsigned smem = (unsigned)(threads / 32 * 256 * wb);
	const double bytes = (double)threads * iters * 8 * wb;
	const double ceiling = bc ? 32.0 * wb : 128.0;
	double *cyc = calloc((size_t)run->reps, sizeof *cyc), clkv = 0, bpc = NAN;
	unsigned long long *bc_cyc = calloc((size_t)dev->sms, sizeof *bc_cyc);
	double *per = calloc((size_t)dev->sms, sizeof *per);
	struct gp_stats sc, sb;
	struct gp_clock_sample cs;
	CUdeviceptr d_cyc = 0, d_sink = 0, d_cs = 0;
	CUfunction fn;
	char kname[48], status[256] = "ok", err[128];
	int rc = GP_EFAIL;
	void *args[] = { &iters, &d_cyc, &d_sink, &d_cs };

	memset(&sc, 0, sizeof sc);
	if (!cyc || !bc_cyc || !per)
		goto done;
	rc = 0;
	if ((width != 32 && width != 64 && width != 128) || threads % 32 || smem > (unsigned)dev->smem_per_block_optin) {
		mem_fail(status, sizeof status, "refused: width 32/64/128, whole warps, %u bytes of shared memory", smem);
		goto row;
	}
	snprintf(kname, sizeof kname, "bw_%s%d_%s", op, width, bc ? "bc" : "cf");
	if ((rc = gp_kernel(run->dev, gp_image_probes_smem, kname, &fn)) ||
	    (rc = gp_alloc(&d_cyc, (size_t)dev->sms * sizeof *bc_cyc)) || (rc = gp_alloc(&d_sink, (size_t)dev->sms * 4)) ||
	    (rc = gp_alloc(&d_cs, sizeof cs)))
		goto done;
	for (int r = -run->warmup; r < run->reps; r++) {
		if ((rc = gp_launch(fn, (unsigned)dev->sms, (unsigned)threads, smem, args, NULL)) ||
		    (rc = gp_download(bc_cyc, d_cyc, (size_t)dev->sms * sizeof *bc_cyc)) ||
		    (rc = gp_download(&cs, d_cs, sizeof cs)))
			goto done;
		if (r < 0)
			continue;
		for (int b = 0; b < dev->sms; b++)
			per[b] = (double)bc_cyc[b];
		gp_stats(per, (size_t)dev->sms, &sb);
		cyc[r] = sb.median;
		if (r == run->reps - 1)
			clkv = mem_clock(run, &cs);
	}
	gp_stats(cyc, (size_t)run->reps, &sc);
	bpc = bytes / sc.median;
	if (bpc > 1.02 * ceiling)
		mem_fail(status, sizeof status, "%.1f B/clk/SM is above the %.0f B/clk ceiling: broken probe", bpc, ceiling);
	if (clkv <= 0)
		mem_fail(status, sizeof status, "clock sample too short to measure the SM clock");
row:
	gp_row_begin(t);
	gp_row_str(t, "op", op);
	gp_row_int(t, "width_bits", width);
	gp_row_str(t, "pattern", pat);
	gp_row_int(t, "threads", threads);
	gp_row_int(t, "warps_per_sm", threads / 32);
	gp_row_int(t, "iters", iters);
	gp_row_int(t, "footprint_bytes", smem);
	gp_row_int(t, "stride_bytes", bc ? 0 : wb);
	gp_row_num(t, "bytes_per_sm", bytes);
	gp_row_num(t, "cycles", sc.median);
	gp_row_num(t, "cycles_min", sc.min);
	gp_row_num(t, "cycles_max", sc.max);
	gp_row_num(t, "bytes_per_clk_per_sm", bpc);
	gp_row_num(t, "ceiling_bytes_per_clk", ceiling);
	gp_row_num(t, "pct_of_128B", 100.0 * bpc / 128.0);
	gp_row_num(t, "GBps_per_sm", bpc * clkv * 1e6 / 1e9);
	gp_row_num(t, "GBps_total", bpc * clkv * 1e6 / 1e9 * dev->sms);
	gp_row_num(t, "clock_MHz", clkv);
	gp_row_str(t, "status", status);
	if (gp_row_end(t, err, sizeof err)) {
		gp_err("internal: bw_smem row: %s", err);
		rc = GP_EFAIL;
		goto done;
	}
	if (!rc)
		rc = gp_status_rc(status);
done:
	gp_free(d_cyc);
	gp_free(d_sink);
	gp_free(d_cs);
	free(cyc);
	free(bc_cyc);
	free(per);
	return rc;
}

static void bw_smem_derive(struct gp_profile *prof, const struct gp_table *t)
{
	for (int w = 32; w <= 128; w *= 2) {
		double best = -1, v, wd;
		char key[64];
		for (size_t r = 0; r < t->nrows; r++)
			if (!strcmp(gp_table_get(t, r, "status"), "ok") && !strcmp(gp_table_get(t, r, "op"), "lds") &&
			    !strcmp(gp_table_get(t, r, "pattern"), "conflict_free") &&
			    !gp_table_get_double(t, r, "width_bits", &wd) && (int)wd == w &&
			    !gp_table_get_double(t, r, "bytes_per_clk_per_sm", &v) && v > best)
				best = v;
		if (best < 0)
			continue;
		snprintf(key, sizeof key, "lds%d_bytes_per_clk_per_sm", w);
		gp_profile_add(prof, key, best, "B/clk/SM", "conflict-free LDS, 1 block/SM, largest volume", "bw_smem");
	}
}

/* Seed 001 Figure 4 as a table: B/clk/SM at the largest volume, per width and pattern. */
static void bw_smem_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const ops[] = { "lds", "sts" };
	static const char *const pats[] = { "conflict_free", "broadcast" };
	const char *p64 = gp_reference(ref, "bw_smem", "paper_lds64_pct", NULL, NULL);

	fprintf(md, "E107: shared-memory bytes per clock per SM at the largest data volume (ceiling 128 B/clk "
		    "conflict-free). Paper (K20m): LDS.64 best at %s %% of peak.\n\n"
		    "| op | pattern | 32-bit | 64-bit | 128-bit |\n|---|---|---|---|---|\n", p64 ? p64 : "–");
	for (size_t o = 0; o < 2; o++)
		for (size_t p = 0; p < 2; p++) {
			fprintf(md, "| %s | %s |", ops[o], pats[p]);
			for (int w = 32; w <= 128; w *= 2) {
				double best_it = -1, it, wd;
				const char *v = "–";
				for (size_t r = 0; r < t->nrows; r++)
					if (!strcmp(gp_table_get(t, r, "op"), ops[o]) && !strcmp(gp_table_get(t, r, "pattern"), pats[p]) &&
					    !gp_table_get_double(t, r, "width_bits", &wd) && (int)wd == w &&
					    !gp_table_get_double(t, r, "iters", &it) && it > best_it) {
						best_it = it;
						v = gp_table_get(t, r, "bytes_per_clk_per_sm");
					}
				fprintf(md, " %s |", v);
			}
			fputc('\n', md);
		}
	fputc('\n', md);
}

GP_EXP_IMPL(bw_smem, bw_smem_params, bw_smem_cols, bw_smem_measure);
GP_ANALYSIS(bw_smem, bw_smem_derive, bw_smem_report);

/* ------------------------------------------------------------------ bank_smem */

static const struct gp_param bank_smem_params[] = {
	{ "width", GP_PARAM_INT, 32, 128, NULL, "32 64 128", "bits per access: 32, 64, 128" },
	{ "pad", GP_PARAM_INT, 0, 1, NULL, "0 1", "padding elements per row of 32 ([.][32 + pad])" },
	{ "stride", GP_PARAM_INT, 0, 32, NULL, "1:32:1", "elements between neighbouring lanes" },
	{ "warps", GP_PARAM_INT, 1, 32, NULL, "4", "warps in the one block" },
	{ "iters", GP_PARAM_INT, 1, 1000000, NULL, "2048", "trips of 8 accesses per warp" },
};

static const char *const bank_smem_cols[] = {
	"width_bits", "pad", "stride", "pattern", "stride_bytes", "footprint_bytes", "warps", "cycles_per_access",
	"cycles_per_access_min", "cycles_per_access_max", "baseline_cycles_per_access", "conflict_degree_measured",
	"wavefronts_model", "conflict_degree_model", "clock_MHz", "status",
};

static int bank_time(struct gp_run *run, CUfunction fn, const unsigned *offs, int warps, int iters,
		     CUdeviceptr d_offs, CUdeviceptr d_cyc, CUdeviceptr d_sink, CUdeviceptr d_cs, struct gp_stats *st,
		     double *clkv)
{
	double *c = calloc((size_t)run->reps, sizeof *c);
	unsigned long long cyc;
	struct gp_clock_sample cs;
	int rc = GP_EFAIL;
	void *args[] = { &d_offs, &iters, &d_cyc, &d_sink, &d_cs };

	if (!c)
		return rc;
	if ((rc = gp_upload(d_offs, offs, 32 * sizeof *offs)))
		goto done;
	for (int r = -run->warmup; r < run->reps; r++) {
		if ((rc = gp_launch(fn, 1, (unsigned)warps * 32, 16384, args, NULL)) ||
		    (rc = gp_download(&cyc, d_cyc, sizeof cyc)) || (rc = gp_download(&cs, d_cs, sizeof cs)))
			goto done;
		if (r >= 0)
			c[r] = (double)cyc / ((double)iters * 8 * warps);
		if (clkv && r == run->reps - 1)
			*clkv = mem_clock(run, &cs);
	}
	gp_stats(c, (size_t)run->reps, st);
done:
	free(c);
	return rc;
}

static void bank_offsets(unsigned *offs, int wb, int stride, int pad)
{
	for (int l = 0; l < 32; l++) {
		const long e = (long)l * stride;
		offs[l] = (unsigned)((e + e / 32 * pad) * wb);
	}
}

static int bank_smem_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	const int width = (int)gp_point_int(pt, "width"), pad = (int)gp_point_int(pt, "pad");
	const int stride = (int)gp_point_int(pt, "stride"), warps = (int)gp_point_int(pt, "warps");
	const int iters = (int)gp_point_int(pt, "iters"), wb = width / 8;
	const int wave = mem_bank_wavefronts(wb, stride, pad), minw = mem_bank_min_wavefronts(wb);
	unsigned offs[32], base[32];
	struct gp_stats st, sb;
	double clkv = 0;
	CUdeviceptr d_offs = 0, d_cyc = 0, d_sink = 0, d_cs = 0;
	CUfunction fn;
	char kname[32], status[256] = "ok", err[128];
	int rc = 0;

	memset(&st, 0, sizeof st);
	sb = st;
	if (width != 32 && width != 64 && width != 128) {
		mem_fail(status, sizeof status, "refused: width must be 32, 64 or 128");
		goto row;
	}
	snprintf(kname, sizeof kname, "bank_lds%d", width);
	bank_offsets(offs, wb, stride, pad);
	bank_offsets(base, wb, 1, 0);
	if ((rc = gp_kernel(run->dev, gp_image_probes_smem, kname, &fn)) || (rc = gp_alloc(&d_offs, sizeof offs)) ||
	    (rc = gp_alloc(&d_cyc, 8)) || (rc = gp_alloc(&d_sink, 32 * 32 * 4)) ||
	    (rc = gp_alloc(&d_cs, sizeof(struct gp_clock_sample))) ||
	    (rc = bank_time(run, fn, base, warps, iters, d_offs, d_cyc, d_sink, d_cs, &sb, NULL)) ||
	    (rc = bank_time(run, fn, offs, warps, iters, d_offs, d_cyc, d_sink, d_cs, &st, &clkv)))
		goto done;
	/* The banks deliver at most 128 distinct bytes per clock: an access needing `minw`
	 * wavefronts cannot take fewer clocks (broadcast words are delivered once). */
	if (wave >= minw && st.median < 0.98 * minw)
		mem_fail(status, sizeof status, "%.2f cycles per access beats the bank limit of %d wavefronts: broken probe",
			 st.median, minw);
	if (clkv <= 0)
		mem_fail(status, sizeof status, "clock sample too short to measure the SM clock");
row:
	gp_row_begin(t);
	gp_row_int(t, "width_bits", width);
	gp_row_int(t, "pad", pad);
	gp_row_int(t, "stride", stride);
	gp_row_str(t, "pattern", pad ? "padded_rows" : "plain_rows");
	gp_row_int(t, "stride_bytes", (long long)stride * wb);
	gp_row_int(t, "footprint_bytes", 16384);
	gp_row_int(t, "warps", warps);
	gp_row_num(t, "cycles_per_access", st.median);
	gp_row_num(t, "cycles_per_access_min", st.min);
	gp_row_num(t, "cycles_per_access_max", st.max);
	gp_row_num(t, "baseline_cycles_per_access", sb.median);
	gp_row_num(t, "conflict_degree_measured", sb.median > 0 ? st.median / sb.median : NAN);
	gp_row_int(t, "wavefronts_model", wave);
	gp_row_num(t, "conflict_degree_model", (double)wave / minw);
	gp_row_num(t, "clock_MHz", clkv);
	gp_row_str(t, "status", status);
	if (gp_row_end(t, err, sizeof err)) {
		gp_err("internal: bank_smem row: %s", err);
		rc = GP_EFAIL;
		goto done;
	}
	if (!rc)
		rc = gp_status_rc(status);
done:
	gp_free(d_offs);
	gp_free(d_cyc);
	gp_free(d_sink);
	gp_free(d_cs);
	return rc;
}

static void bank_smem_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	fprintf(md, "Bank conflicts: cycles per warp access against stride (elements), measured degree = cycles / "
		    "stride-1 cycles, model = wavefronts / conflict-free wavefronts.\n\n"
		    "| width | pad | stride | cycles/access | degree measured | degree model |\n|---|---|---|---|---|---|\n");
	for (size_t r = 0; r < t->nrows; r++)
		fprintf(md, "| %s | %s | %s | %s | %s | %s |\n", gp_table_get(t, r, "width_bits"), gp_table_get(t, r, "pad"),
			gp_table_get(t, r, "stride"), gp_table_get(t, r, "cycles_per_access"),
			gp_table_get(t, r, "conflict_degree_measured"), gp_table_get(t, r, "conflict_degree_model"));
	fputc('\n', md);
}

GP_EXP_IMPL(bank_smem, bank_smem_params, bank_smem_cols, bank_smem_measure);
GP_ANALYSIS(bank_smem, NULL, bank_smem_report);
