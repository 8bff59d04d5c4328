/* arith_report.c — what lat_ffma and tput_fp32 make of their tables (no device code): profile
 * keys and the REPORT.md sections in seed 000 Table 2/3 and seed 001 Table 4 layout, with the
 * paper's GT200/K20m numbers and the published ones from configs/reference.csv beside ours. */
#include "gp.h"
#include "analysis.h"

#include <math.h>
#include <string.h>

/* Rows of one operand form ("reg" also matches tables without the column). */
static int is_operand(const struct gp_table *t, size_t r, const char *operand)
{
	const char *v = gp_table_get(t, r, "operand");

	return v ? !strcmp(v, operand) : !strcmp(operand, "reg");
}

/* Latency: the per-thread time of the smallest block (one warp at most: nothing to overlap).
 * Throughput: block time per warp at the largest block, the last row of the form. */
static double form_latency(const struct gp_table *t, const char *operand, int ok_only, double *ns, double *cpw,
			   double *max_thr)
{
	double lat = NAN, best_thr = 1e9;

	*ns = *cpw = NAN;
	*max_thr = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		const double thr = gp_table_num(t, r, "threads");
		if (!is_operand(t, r, operand) || (ok_only && !gp_table_row_ok(t, r)) || isnan(thr))
			continue;
		if (thr <= 32 && thr < best_thr) {
			best_thr = thr;
			lat = gp_table_num(t, r, "cycles_per_ffma_min");
			*ns = gp_table_num(t, r, "latency_ns");
		}
		if (thr >= *max_thr) {
			*max_thr = thr;
			*cpw = gp_table_num(t, r, "cycles_per_warp");
		}
	}
	return lat;
}

/* Warps needed to hide the latency: latency / (cycles per warp at saturation), seed 000's M003. */
static void lat_ffma_derive_one(struct gp_profile *prof, const struct gp_table *t, const char *operand,
				const char *prefix, const char *chain)
{
	double ns, cpw, max_thr;
	const double lat = form_latency(t, operand, 1, &ns, &cpw, &max_thr);
	/* ns: the row's, over its own point's clock sample; the key divides by the experiment's. */
	const double key_ns = lat / gp_table_clock_median(t) * 1e3;
	char key[64], method[160];

	if (isnan(lat))
		return;
	snprintf(key, sizeof key, "%s_latency", prefix);
	snprintf(method, sizeof method, "dependent %s chain, 1 warp, clock64", chain);
	gp_profile_add(prof, key, lat, "cycles", method, "lat_ffma");
	snprintf(key, sizeof key, "%s_latency_ns", prefix);
	if (!isnan(key_ns))
		gp_profile_add(prof, key, key_ns, "ns", "latency / the experiment's median SM clock", "lat_ffma");
	if (max_thr > 256 && !isnan(cpw)) {
		snprintf(key, sizeof key, "%s_cycles_per_warp", prefix);
		gp_profile_add(prof, key, cpw, "cycles/warp/SM", "block time per step / warps at the largest block",
			       "lat_ffma");
		snprintf(key, sizeof key, "%s_warps_to_hide_latency", prefix);
		gp_profile_add(prof, key, lat / cpw, "warps/SM", "latency / cycles per warp (seed 000 M003)", "lat_ffma");
	}
}

static void lat_ffma_derive(struct gp_profile *prof, const struct gp_table *t)
{
	lat_ffma_derive_one(prof, t, "reg", "ffma", "FFMA");
	lat_ffma_derive_one(prof, t, "smem", "lds_ffma", "LDS -> FFMA");
	lat_ffma_derive_one(prof, t, "const", "ffma_const", "FFMA constant-operand");
}

static int has_operand(const struct gp_table *t, const char *operand)
{
	for (size_t r = 0; r < t->nrows; r++)
		if (is_operand(t, r, operand))
			return 1;
	return 0;
}

/* One seed table: NUM_THREADS across, our per-thread min / max and block numbers down, the
 * seed's GT200 rows (reference keys <prefix>min@N, <prefix>max@N, <prefix>total@N) under them. */
static void seed_table(FILE *md, const struct gp_table *t, const struct gp_table *ref, const char *operand,
		       const char *refprefix, const long *thr, size_t nthr)
{
	static const struct {
		const char *label, *col, *refkey;
	} rows[] = {
		{ "Minimum (here)", "cycles_per_ffma_min", NULL },
		{ "Maximum (here)", "cycles_per_ffma_max", NULL },
		{ "Block time / step (here)", "block_cycles_per_ffma", NULL },
		{ "Block time / #warps (here)", "cycles_per_warp", NULL },
		{ "Minimum (paper, GT200)", NULL, "min" },
		{ "Maximum (paper, GT200)", NULL, "max" },
		{ "Total time of one op (paper, GT200)", NULL, "total" },
	};
	const char *head[16];
	char labels[16][24], key[48];

	head[0] = "NUM_THREADS";
	for (size_t i = 0; i < nthr && i + 1 < GP_ARRAY_SIZE(head); i++) {
		snprintf(labels[i], sizeof labels[i], "%ld", thr[i]);
		head[i + 1] = labels[i];
	}
	gp_md_head(md, head, nthr + 1);
	for (size_t k = 0; k < GP_ARRAY_SIZE(rows); k++) {
		int any = rows[k].col != NULL;
		for (size_t i = 0; i < nthr && !any; i++) {
			snprintf(key, sizeof key, "%s%s@%ld", refprefix, rows[k].refkey, thr[i]);
			any = gp_reference_opt(ref, "lat_ffma", key) != NULL;
		}
		if (!any)
			continue;
		gp_md_str(md, rows[k].label);
		for (size_t i = 0; i < nthr; i++) {
			snprintf(labels[0], sizeof labels[0], "%ld", thr[i]);
			if (rows[k].col) {
				const long r = gp_table_find(t, 0, "operand", operand, "threads", labels[0], NULL);
				gp_md_cell(md, r >= 0 ? gp_table_get(t, (size_t)r, rows[k].col) : NULL);
			} else {
				snprintf(key, sizeof key, "%s%s@%ld", refprefix, rows[k].refkey, thr[i]);
				gp_md_cell(md, gp_reference_opt(ref, "lat_ffma", key));
			}
		}
		gp_md_end(md);
	}
}

/* Seed 000 Table 3 (register FFMA) and Table 2 (the memory-operand forms) in the seed's layout,
 * GT200's numbers under ours, and the derived latency / cycles per warp / warps to hide. */
static void lat_ffma_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const long seed3[] = { 1, 64, 128, 192, 224, 256, 320, 384, 512, 768, 1024 };
	static const long seed2[] = { 1, 64, 128, 192, 224, 256, 288, 320, 384, 512, 768, 1024 };
	static const struct {
		const char *operand, *label, *refprefix, *intro, *published;
		const long *thr;
		size_t nthr;
	} forms[] = {
		{ "reg", "FFMA, all operands in registers (Table 3 `MAD dest, src1, src2, src3`)", "",
		  "Seed 000 Table 3 layout: cycles per `a = a * b + c` (FFMA, all operands in registers) per thread.",
		  "published_latency", seed3, GP_ARRAY_SIZE(seed3) },
		{ "smem", "LDS -> FFMA (Table 2 `MAD dest, [smem], src2, src3`)", "smem_",
		  "Seed 000 Table 2 layout, today's form: each FFMA's multiplicand is loaded from shared memory by "
		  "the LDS before it, and the FFMA's result is the next LDS address (a true LDS -> FFMA chain); "
		  "cycles per LDS + FFMA step per thread.",
		  "published_lds_latency", seed2, GP_ARRAY_SIZE(seed2) },
		{ "const", "FFMA with a constant-bank operand (the one memory-operand ALU form left)", "const_",
		  "FFMA whose multiplier is a kernel parameter (constant bank 0): the compiler may load it once into "
		  "a uniform register (see the SASS).",
		  NULL, seed3, GP_ARRAY_SIZE(seed3) },
	};
	char key[48];

	for (size_t f = 0; f < GP_ARRAY_SIZE(forms); f++) {
		if (!has_operand(t, forms[f].operand))
			continue;
		fprintf(md, "%s\n\n", forms[f].intro);
		seed_table(md, t, ref, forms[f].operand, forms[f].refprefix, forms[f].thr, forms[f].nthr);
		fputc('\n', md);
	}
	gp_md_header(md, "derived", "here", "paper (GT200)", "published (this GPU class)", "source");
	for (size_t f = 0; f < GP_ARRAY_SIZE(forms); f++) {
		const char *src = NULL, *pub = NULL;
		double ns, cpw, max_thr, plat = NAN, pcpw = NAN;
		const double lat = form_latency(t, forms[f].operand, 0, &ns, &cpw, &max_thr);
		if (!has_operand(t, forms[f].operand))
			continue;
		if (forms[f].published)
			pub = gp_reference(ref, "lat_ffma", forms[f].published, NULL, &src);
		snprintf(key, sizeof key, "%slatency", forms[f].refprefix);
		gp_parse_double(gp_reference_opt(ref, "lat_ffma", key), &plat);
		snprintf(key, sizeof key, "%scycles_per_warp", forms[f].refprefix);
		gp_parse_double(gp_reference_opt(ref, "lat_ffma", key), &pcpw);
		fprintf(md, "| %s: latency, cycles ", forms[f].label);
		gp_md_num(md, lat);
		gp_md_num(md, plat);
		gp_md_str(md, pub);
		gp_md_str(md, src);
		gp_md_end(md);
		fprintf(md, "| %s: cycles per warp per SM at the largest block ", forms[f].label);
		gp_md_num(md, cpw);
		gp_md_num(md, pcpw);
		gp_md_str(md, !strcmp(forms[f].operand, "reg") ? gp_reference(ref, "lat_ffma", "published_cycles_per_warp", NULL, NULL) : NULL);
		gp_md_str(md, NULL);
		gp_md_end(md);
		fprintf(md, "| %s: warps per SM to hide the latency (latency / cycles per warp) ", forms[f].label);
		gp_md_num(md, lat / cpw);
		gp_md_num(md, plat / pcpw);
		gp_md_str(md, NULL);
		gp_md_str(md, NULL);
		gp_md_end(md);
	}
	fputc('\n', md);
}

/* Seed 001 Table 4's layout: instruction, operation, ops/clk/SM; Kepler's single- and dual-issue
 * columns beside ours (at the largest warps/SM measured). */
static void tput_fp32_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const struct {
		const char *op, *inst, *what, *single, *dual;
	} ops[] = {
		{ "ffma", "FFMA", "c = a * b + c", "ffma_single", "ffma_dual" },
		{ "fmul", "FMUL", "c = a * b", "fmul_single", "fmul_dual" },
		{ "fadd", "FADD", "c = a + b", "fadd_single", "fadd_dual" },
	};

	fprintf(md, "Seed 001 Table 4 layout: operations per clock per SM (largest warps/SM measured). "
		    "Peak here: %s per SM; Kepler's: %s.\n\n", gp_ref_or_dash(ref, "tput_fp32", "published_peak"),
		gp_ref_or_dash(ref, "tput_fp32", "paper_peak"));
	gp_md_header(md, "Inst", "operation", "here: ops/clk/SM", "here: % of peak", "here: TFLOP/s", "clock MHz",
		     "paper K20m single-issue", "paper K20m dual-issue");
	for (size_t i = 0; i < GP_ARRAY_SIZE(ops); i++) {
		static const char *const cols[] = { "ops_per_clk_per_sm", "pct_of_peak", "tflops", "clock_MHz" };
		long best = -1;
		double bw = -1;
		for (size_t r = 0; r < t->nrows; r++) {
			const double w = gp_table_num(t, r, "warps_per_sm");
			if (!strcmp(gp_table_get(t, r, "op"), ops[i].op) && w > bw) {
				bw = w;
				best = (long)r;
			}
		}
		gp_md_str(md, ops[i].inst);
		gp_md_str(md, ops[i].what);
		for (size_t c = 0; c < GP_ARRAY_SIZE(cols); c++)
			gp_md_cell(md, best >= 0 ? gp_table_get(t, (size_t)best, cols[c]) : NULL);
		gp_md_str(md, gp_reference(ref, "tput_fp32", ops[i].single, NULL, NULL));
		gp_md_str(md, gp_reference(ref, "tput_fp32", ops[i].dual, NULL, NULL));
		gp_md_end(md);
	}
	fputc('\n', md);
}

static void tput_fp32_derive(struct gp_profile *prof, const struct gp_table *t)
{
	for (size_t r = 0; r < t->nrows; r++) {
		const char *op = gp_table_get(t, r, "op");
		const double v = gp_table_num(t, r, "ops_per_clk_per_sm");
		char key[64];

		if (!gp_table_row_ok(t, r) || isnan(v))
			continue;
		snprintf(key, sizeof key, "%s_ops_per_clk_per_sm", op);
		gp_profile_add(prof, key, v, "ops/clk/SM", "8 independent chains/thread, all SMs, events", "tput_fp32");
		if (!strcmp(op, "ffma") && !isnan(gp_table_num(t, r, "tflops")))
			gp_profile_add(prof, "fp32_tflops_achieved", gp_table_num(t, r, "tflops"), "TFLOP/s",
				       "FFMA throughput probe", "tput_fp32");
	}
}

GP_ANALYSIS_BY_NAME(lat_ffma);
GP_ANALYSIS_BY_NAME(tput_fp32);
