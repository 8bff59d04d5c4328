/* insn_report.c — what lat_insn, tput_insn, tput_lds_ffma and tput_occupancy make of their tables
 * (no device code): profile keys and REPORT.md sections in seed 000 Table 5, seed 001 Table 4,
 * seed 000 Figure 22 and E004 knee layouts, the paper's and published numbers beside ours.
 * lat_insn's table follows probes/insn.list, so an instruction the paper timed that has no chain
 * here (a store) keeps its paper row. */
#include "gp.h"
#include "analysis.h"
#include "insn.h"
#include "insn_shape.h"

#include <math.h>
#include <string.h>

/* A paper reference of an instruction: <exp>/<insn>_<what>, absent by design for most. */
static const char *insn_ref(const struct gp_table *ref, const char *exp, const char *insn, const char *what)
{
	char key[64];

	snprintf(key, sizeof key, "%s_%s", insn, what);
	return gp_reference_opt(ref, exp, key);
}

/* Per ok row: insn_<insn>_<suffix> from column `col`; `method` may name the row's SASS (%s). */
static void derive_per_insn(struct gp_profile *prof, const struct gp_table *t, const char *col, const char *suffix,
			    const char *unit, const char *method_fmt, const char *exp)
{
	for (size_t r = 0; r < t->nrows; r++) {
		const double v = gp_table_num(t, r, col);
		char key[64], method[160];

		if (!gp_table_row_ok(t, r) || isnan(v))
			continue;
		/* insn_ prefix: lat_ffma and tput_fp32 own ffma_latency and ffma_ops_per_clk_per_sm. */
		snprintf(key, sizeof key, "insn_%s_%s", gp_table_get(t, r, "insn"), suffix);
		snprintf(method, sizeof method, method_fmt, gp_table_get(t, r, "sass"));
		gp_profile_add(prof, key, v, unit, method, exp);
	}
}

/* ---------------------------------------------------------------- E006 lat_insn */

static void lat_insn_derive(struct gp_profile *prof, const struct gp_table *t)
{
	derive_per_insn(prof, t, "cycles_per_step", "latency", "cycles", "dependent %s chain, 1 warp, clock64",
			"lat_insn");
}

/* One row of the Table 5 layout: ours where measured, the paper's where it has one. */
static void lat_insn_row(FILE *md, const struct gp_table *t, long r, const struct gp_insn *d, const char *lat,
			 const char *cpw)
{
	static const char *const cols[] = { "cycles_per_step", "latency_ns", "arch_ops_per_clk_per_sm",
					    "warps_to_hide_at_arch_rate" };
	const size_t row = r >= 0 ? (size_t)r : 0;

	gp_md_str(md, d->name);
	gp_md_str(md, r >= 0 ? gp_table_get(t, row, "sass") : d->sass);
	gp_md_str(md, d->what);
	for (size_t i = 0; i < GP_ARRAY_SIZE(cols); i++)
		gp_md_cell(md, r >= 0 ? gp_table_get(t, row, cols[i]) : NULL);
	gp_md_cell(md, lat);
	gp_md_cell(md, cpw);
	gp_md_str(md, r >= 0 ? gp_table_get(t, row, "status") : d->lat ? "not measured" : "no dependent chain: see tput_insn");
	gp_md_end(md);
}

/* Seed 000 Table 5 layout, one row per instruction of the list, GT200's numbers where the seed
 * has them. */
static void lat_insn_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	const char *gpu = NULL, *src = NULL, *lds;

	fprintf(md, "Seed 000 Table 5 layout: dependent latency of one warp's chain (clock64, timer overhead "
		    "subtracted, %d steps per loop trip); throughput columns from the Programming Guide's rate for "
		    "this cc (measured rates: tput_insn). Warps to hide = latency / (32 / rate).\n\n",
		INSN_LAT_UNROLL);
	gp_md_header(md, "insn", "SASS", "step", "latency here (cycles)", "ns", "arch rate (ops/clk/SM)",
		     "warps to hide", "paper GT200 latency", "paper GT200 cycles/warp", "status");
	for (size_t i = 0; i < gp_ninsns; i++) {
		const struct gp_insn *d = &gp_insns[i];
		const long r = gp_table_find(t, 0, "insn", d->name, NULL);
		const char *lat = insn_ref(ref, "lat_insn", d->name, "latency");
		const char *cpw = insn_ref(ref, "lat_insn", d->name, "cycles_per_warp");

		if (r >= 0 || lat || cpw)
			lat_insn_row(md, t, r, d, lat, cpw);
	}
	lds = gp_reference(ref, "lat_insn", "lds_published_latency", &gpu, &src);
	fprintf(md, "\nPublished shared-load latency (pointer chase, %s): %s cycles (%s). A predicate chain opens and "
		    "closes each trip with one more instruction each (under 1 %%).\n\n",
		gpu ? gpu : "–", lds ? lds : "–", src ? src : "–");
}

/* ---------------------------------------------------------------- E106 tput_insn */

static void tput_insn_derive(struct gp_profile *prof, const struct gp_table *t)
{
	derive_per_insn(prof, t, "ops_per_clk_per_sm", "ops_per_clk_per_sm", "ops/clk/SM",
			"8 independent chains/thread, all SMs, events", "tput_insn");
}

/* Seed 001 Table 4 layout extended to the instruction list: ops/clk/SM, % of the Guide's rate. */
static void tput_insn_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const cols[] = { "sass", "warps_per_sm", "ops_per_clk_per_sm", "warp_insts_per_clk_per_sm",
					    "arch_ops_per_clk_per_sm", "pct_of_arch" };

	fprintf(md, "Seed 001 Table 4 layout, every instruction: operations (results) per clock per SM with %d "
		    "independent chains per thread, beside the CUDA Programming Guide's rate for this cc "
		    "(LDS/STS: 32 banks x 4 B per clock). Kepler K20m single/dual issue for FFMA/FMUL/FADD.\n\n",
		INSN_TPUT_ILP);
	gp_md_header(md, "insn", "SASS", "warps/SM", "ops/clk/SM", "warp-insts/clk/SM", "arch rate", "% of arch",
		     "paper K20m single", "paper K20m dual", "status");
	for (size_t r = 0; r < t->nrows; r++) {
		const char *n = gp_table_get(t, r, "insn");

		gp_md_str(md, n);
		gp_md_cells(md, t, r, cols, GP_ARRAY_SIZE(cols));
		gp_md_cell(md, insn_ref(ref, "tput_fp32", n, "single"));
		gp_md_cell(md, insn_ref(ref, "tput_fp32", n, "dual"));
		gp_md_str(md, gp_table_get(t, r, "status"));
		gp_md_end(md);
	}
	fputc('\n', md);
}

/* ---------------------------------------------------------------- E010 tput_lds_ffma */

static void mix_derive(struct gp_profile *prof, const struct gp_table *t)
{
	for (size_t r = 0; r < t->nrows; r++) {
		const double v = gp_table_num(t, r, "ffma_per_clk_per_sm"), R = gp_table_num(t, r, "ffma_per_lds");
		char key[64];

		if (!gp_table_row_ok(t, r) || isnan(v) || isnan(R))
			continue;
		snprintf(key, sizeof key, "ffma_per_clk_1lds_per_%d_%s", (int)R, gp_table_get(t, r, "addr"));
		gp_profile_add(prof, key, v, "ops/clk/SM", "8 accumulators, R FFMAs per volatile LDS, 64 warps/SM",
			       "tput_lds_ffma");
	}
}

static void mix_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const cols[] = { "ffma_per_lds", "addr", "ffma_per_clk_per_sm", "pct_of_fp32",
					    "lds_warp_insts_per_clk_per_sm", "model_ffma_per_clk_per_sm", "status" };

	fprintf(md, "E010 (seed 000 Figure 22): FFMA throughput when every R FFMAs take their multiplicand from one "
		    "shared load. Model: 32 x min(4 R/(R+1), 1 x R, lanes/32) — four warp-instructions issued per "
		    "clock per SM shared by LDS and FFMA, one conflict-free warp-LDS per clock. GT200 analogue: "
		    "%s cycles/warp for MAD with a shared operand vs %s with registers (seed 000 Table 5).\n\n",
		gp_ref_or_dash(ref, "lat_ffma", "smem_cycles_per_warp"), gp_ref_or_dash(ref, "lat_ffma", "cycles_per_warp"));
	gp_md_header(md, "FFMA per LDS", "addresses", "FFMA/clk/SM", "% of FP32", "warp-LDS/clk/SM", "model FFMA/clk/SM",
		     "status");
	gp_md_rows(md, t, cols, GP_ARRAY_SIZE(cols));
	fputc('\n', md);
}

/* ---------------------------------------------------------------- E004 style tput_occupancy */

static const char *const occ_chains[] = {
#define OCC_NAME(name, kernel, ilp) #name,
	INSN_OCC_CHAINS(OCC_NAME)
#undef OCC_NAME
};

/* The knee of one chain's ok rows; -1 with fewer than three points. */
static int occ_knee(const struct gp_table *t, const char *chain, struct gp_knee *k)
{
	double w[128], r[128];
	size_t n = 0;

	for (size_t i = 0; i < t->nrows && n < GP_ARRAY_SIZE(w); i++) {
		const char *c = gp_table_get(t, i, "chain");
		w[n] = gp_table_num(t, i, "warps_per_sm");
		r[n] = gp_table_num(t, i, "ops_per_clk_per_sm");
		if (c && !strcmp(c, chain) && gp_table_row_ok(t, i) && !isnan(w[n]) && !isnan(r[n]))
			n++;
	}
	return n < 3 ? -1 : gp_knee_find(w, r, n, 0.9, k);
}

/* Knee per chain: where the curve first reaches 90 % of its plateau, and where the straight
 * line through the fewest-warps point meets the plateau (latency / issue interval, seed 000's
 * M003). */
static void occ_derive(struct gp_profile *prof, const struct gp_table *t)
{
	for (size_t c = 0; c < GP_ARRAY_SIZE(occ_chains); c++) {
		struct gp_knee k;
		char key[64];

		if (occ_knee(t, occ_chains[c], &k))
			continue;
		snprintf(key, sizeof key, "%s_knee_warps_per_sm", occ_chains[c]);
		gp_profile_add(prof, key, k.knee_first, "warps/SM", "fewest warps reaching 90 % of the plateau",
			       "tput_occupancy");
		snprintf(key, sizeof key, "%s_knee_model_warps_per_sm", occ_chains[c]);
		gp_profile_add(prof, key, k.knee_model, "warps/SM", "plateau / (rate of the fewest-warps point per warp)",
			       "tput_occupancy");
		snprintf(key, sizeof key, "%s_plateau_ops_per_clk_per_sm", occ_chains[c]);
		gp_profile_add(prof, key, k.plateau, "ops/clk/SM", "largest FFMA rate over the warps sweep",
			       "tput_occupancy");
	}
}

static void occ_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	fprintf(md, "E004 style: FFMA operations per clock per SM as active warps per SM grow (one dependent chain "
		    "per thread, or 2 / 4 chains; LDS -> FFMA chain), per-SM clock64 windows, block placement "
		    "checked. The knee is where latency is hidden (seed 000 M003: %s warps on GT200).\n\n",
		gp_ref_or_dash(ref, "lat_ffma", "warps_to_hide"));
	gp_md_header(md, "chain", "knee: first warps >= 90 % of plateau", "knee: plateau / one-warp slope",
		     "plateau ops/clk/SM");
	for (size_t c = 0; c < GP_ARRAY_SIZE(occ_chains); c++) {
		struct gp_knee k;
		const int none = occ_knee(t, occ_chains[c], &k);

		gp_md_str(md, occ_chains[c]);
		gp_md_num(md, none ? NAN : k.knee_first);
		gp_md_num(md, none ? NAN : k.knee_model);
		gp_md_num(md, none ? NAN : k.plateau);
		gp_md_end(md);
	}
	fputc('\n', md);
}

GP_ANALYSIS_BY_NAME(lat_insn);
GP_ANALYSIS_BY_NAME(tput_insn);
GP_ANALYSIS(tput_lds_ffma, mix_derive, mix_report);
GP_ANALYSIS(tput_occupancy, occ_derive, occ_report);
