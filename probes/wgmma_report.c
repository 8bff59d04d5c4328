/* wgmma_report.c — what lat_wgmma (H010) and tput_wgmma (H011) make of their tables (no device
 * code): the profile keys a kernel tuner needs (the N = 256 rate per type, the share of the dense
 * peak, the clock under tensor load, the latency of one instruction) and the REPORT.md sections,
 * with the published numbers of configs/reference.csv beside ours (NVIDIA's dense peaks, Luo et
 * al.'s H800 rates). A rate is quoted at the clock measured under its own load; the clock's drop
 * from the maximum is shown beside it, since a power-limited tensor load runs below the maximum. */
#include "gp.h"
#include "analysis.h"
#include "wgmma_shape.h"

#include <math.h>
#include <string.h>

#define WG_TYPE_NAME(T, ...) #T,
static const char *const wg_type_names[] = { WGMMA_TYPES(WG_TYPE_NAME) };
#undef WG_TYPE_NAME

/* The ok row of (type, n, sparse[, a_src]) with the most `col` (any a_src when src is NULL,
 * any warpgroup count); -1 if none. */
static long wg_best(const struct gp_table *t, const char *type, int n, int sparse, const char *src, const char *col)
{
	long best = -1;

	for (size_t r = 0; r < t->nrows; r++) {
		const char *ty = gp_table_get(t, r, "type"), *s = gp_table_get(t, r, "a_src");
		if (!gp_table_row_ok(t, r) || !ty || strcmp(ty, type) || gp_table_num(t, r, "n") != n ||
		    gp_table_num(t, r, "sparse") != sparse || (src && (!s || strcmp(s, src))))
			continue;
		if (best < 0 || gp_table_num(t, r, col) > gp_table_num(t, (size_t)best, col))
			best = (long)r;
	}
	return best;
}

/* "f16", "f16_sp": the profile and reference keys' stem of a type and form. */
static const char *wg_stem(char *buf, size_t len, const char *type, int sparse)
{
	snprintf(buf, len, "%s%s", type ? type : "", sparse ? "_sp" : "");
	return buf;
}

/* ---------------------------------------------------------------- H010 lat_wgmma */

/* wgmma_latency_cycles_n<N>: f16, A in shared memory, dense (the form GEMM mainloops use). */
static void lat_wgmma_derive(struct gp_profile *prof, const struct gp_table *t)
{
	for (int n = 8; n <= WGMMA_MAX_N; n *= 2) {
		const long r = wg_best(t, "f16", n, 0, "ss", "n");
		char key[64];
		if (r < 0)
			continue;
		snprintf(key, sizeof key, "wgmma_latency_cycles_n%d", n);
		gp_profile_add(prof, key, gp_table_num(t, (size_t)r, "cycles"), "cycles",
			       "f16 SS dense wgmma, fence -> mma -> commit -> wait 0, one warpgroup, clock64", "lat_wgmma");
	}
}

static void lat_wgmma_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	(void)ref;
	fprintf(md, "Cycles from one warpgroup's `wgmma.fence` to the end of `wgmma.wait_group 0` around one "
		    "`wgmma.mma_async` (m64nNk, f32 accumulator; s32 for s8), dependent through the "
		    "accumulator, %d per loop trip, clock64 of the slowest thread. FLOP/cycle in flight is "
		    "one instruction's FLOP over its latency: what a single dependent chain gets of the SM's "
		    "tensor rate.\n\n",
		WGMMA_LAT_UNROLL);
	gp_md_header(md, "type", "N", "A", "sparse", "K", "cycles", "min", "max", "ns", "FLOP/cycle in flight",
		     "status");
	for (size_t r = 0; r < t->nrows; r++) {
		static const char *const cols[] = { "type", "n", "a_src", "sparse", "k", "cycles", "cycles_min",
						    "cycles_max", "latency_ns" };
		gp_md_cells(md, t, r, cols, GP_ARRAY_SIZE(cols));
		gp_md_num(md, gp_table_num(t, r, "flop_per_mma") / gp_table_num(t, r, "cycles"));
		gp_md_str(md, gp_table_get(t, r, "status"));
		gp_md_end(md);
	}
	fputc('\n', md);
}

GP_ANALYSIS_BY_NAME(lat_wgmma);

/* ---------------------------------------------------------------- H011 tput_wgmma */

/* Per type and form the best N = 256 rate; f16 and bf16 also as % of the dense peak; the clock
 * the best dense f16 N = 256 row ran at (the power-limited case). */
static void tput_wgmma_derive(struct gp_profile *prof, const struct gp_table *t)
{
	for (size_t i = 0; i < GP_ARRAY_SIZE(wg_type_names); i++)
		for (int sp = 0; sp <= 1; sp++) {
			const long r = wg_best(t, wg_type_names[i], WGMMA_MAX_N, sp, NULL, "tflops");
			char key[64], stem[16];
			if (r < 0)
				continue;
			wg_stem(stem, sizeof stem, wg_type_names[i], sp);
			snprintf(key, sizeof key, "wgmma_%s_n256_tflops", stem);
			gp_profile_add(prof, key, gp_table_num(t, (size_t)r, "tflops"), "TFLOP/s",
				       "best m64n256 wgmma row, all SMs, event time", "tput_wgmma");
			if (!strcmp(stem, "f16") || !strcmp(stem, "bf16")) {
				snprintf(key, sizeof key, "wgmma_%s_n256_pct_of_dense", stem);
				gp_profile_add(prof, key, gp_table_num(t, (size_t)r, "pct_of_dense"), "%",
					       "of the dense tensor FLOP/clk/SM at the clock measured under the load",
					       "tput_wgmma");
			}
			if (!strcmp(stem, "f16"))
				gp_profile_add(prof, "wgmma_clock_under_load_MHz", gp_table_num(t, (size_t)r, "clock_MHz"),
					       "MHz", "SM clock (clock64 over %globaltimer) during the best f16 m64n256 row",
					       "tput_wgmma");
		}
}

/* NVIDIA's dense peak per type (whitepaper) and, for the N = 256 rows, Luo et al.'s H800. */
static void tput_wgmma_peaks(FILE *md, const struct gp_table *ref)
{
	gp_md_header(md, "type", "published dense peak (TFLOP/s)", "GPU", "source");
	for (size_t i = 0; i < GP_ARRAY_SIZE(wg_type_names); i++) {
		char key[64];
		const char *src = NULL, *gpu = NULL, *v;
		snprintf(key, sizeof key, "h100_sxm_dense_%s_tflops", wg_type_names[i]);
		v = gp_reference(ref, "tput_wgmma", key, &gpu, &src);
		gp_md_str(md, wg_type_names[i]);
		gp_md_str(md, v);
		gp_md_str(md, gpu); /* the GPU the published figure is for: configs/reference.csv */
		gp_md_str(md, src);
		gp_md_end(md);
	}
	fputc('\n', md);
}

/* The headline against the goal: the best dense f16/bf16 N = 256 row, at its clock. */
static void tput_wgmma_goal(FILE *md, const struct gp_table *t)
{
	static const char *const types[] = { "f16", "bf16" };

	for (size_t i = 0; i < GP_ARRAY_SIZE(types); i++) {
		const long r = wg_best(t, types[i], WGMMA_MAX_N, 0, NULL, "tflops");
		if (r < 0)
			continue;
		const char *thr = gp_table_get(t, (size_t)r, "throttle");
		const double bound = gp_table_num(t, (size_t)r, "smem_bound_flop_per_clk_per_sm"),
			     peak = gp_table_num(t, (size_t)r, "peak_flop_per_clk_per_sm");
		fprintf(md, "- %s m64n256 (%s): %.1f %% of the dense rate at the measured %.0f MHz (%.1f %% of the "
			    "maximum clock; NVML throttle: %s), %.4g TFLOP/s; its shared-memory operand reads allow "
			    "%.0f %% of the dense rate.\n",
			types[i], gp_table_get(t, (size_t)r, "a_src"), gp_table_num(t, (size_t)r, "pct_of_dense"),
			gp_table_num(t, (size_t)r, "clock_MHz"), gp_table_num(t, (size_t)r, "clock_pct_of_max"),
			thr ? thr : "–", gp_table_num(t, (size_t)r, "tflops"), 100.0 * bound / peak);
	}
	fputc('\n', md);
}

static void tput_wgmma_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	fprintf(md, "Every SM runs warpgroups issuing batches of %d `wgmma.mma_async` into one accumulator per "
		    "commit group (one batch left in flight), A and B holding 1.0 (every accumulator element is "
		    "checked). FLOP/clk/SM is at the SM clock measured during the same load (event time, launch "
		    "included); `in the loop` is from clock64 alone, over the slowest warpgroup's loop; the "
		    "shared-memory bound is what reading each instruction's operands from shared memory (B, "
		    "and A for `ss`) at %d bytes per clock allows; %% of "
		    "dense is against the type's dense tensor rate per SM per clock (sparse: twice it). Integer "
		    "(s8) rows count operations. Published: Luo et al.'s N = 256 rate on their GPU, where "
		    "configs/reference.csv has one.\n\n",
		WGMMA_TPUT_BATCH, WGMMA_SMEM_BYTES_PER_CLK);
	tput_wgmma_goal(md, t);
	gp_md_header(md, "type", "N", "A", "sparse", "warpgroups", "blocks/SM", "FLOP/clk/SM", "in the loop",
		     "shared-memory bound", "TFLOP/s", "% of dense", "clock MHz", "% of max clock", "published TFLOP/s",
		     "status");
	for (size_t r = 0; r < t->nrows; r++) {
		static const char *const cols[] = { "type", "n", "a_src", "sparse", "warpgroups", "blocks_per_sm",
						    "flop_per_clk_per_sm", "loop_flop_per_clk_per_sm",
						    "smem_bound_flop_per_clk_per_sm", "tflops", "pct_of_dense", "clock_MHz",
						    "clock_pct_of_max" };
		char key[64], stem[16];
		gp_md_cells(md, t, r, cols, GP_ARRAY_SIZE(cols));
		snprintf(key, sizeof key, "%s_n%s_tflops",
			 wg_stem(stem, sizeof stem, gp_table_get(t, r, "type"), gp_table_num(t, r, "sparse") == 1),
			 gp_table_get(t, r, "n"));
		gp_md_str(md, gp_reference_opt(ref, "tput_wgmma", key));
		gp_md_str(md, gp_table_get(t, r, "status"));
		gp_md_end(md);
	}
	fputc('\n', md);
	tput_wgmma_peaks(md, ref);
}

GP_ANALYSIS_BY_NAME(tput_wgmma);
