/* sgemm_report.c — what the GEMM benches make of their tables (no device code): sgemm's profile
 * keys and the REPORT.md sections of sgemm, sgemm_shapes, sgemm_occupancy, sgemm_lda and dgemm in
 * the seeds' layouts (seed 000 Tables 4, 6, 7, 11, 12 and Figures 42-49; seed 001 Figures 8, 9;
 * seed 002's size; seed 003 Tables 3, 4), the papers' numbers from configs/reference.csv beside
 * ours. Rows follow bench/sgemm.list's order. Pitfall: only ok rows count; a point the sweep
 * could not form (n/a) or that failed its check has no numbers to show. */
#include "gp.h"
#include "analysis.h"
#include "sgemm.h"
#include "sgemm_patch.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- table queries */

/* The ok row of a kernel at (m, n, k) (n, k < 0: any) and, with xcol, that column = x; or -1. */
static long find_row(const struct gp_table *t, const char *kernel, double m, double n, double k, const char *xcol,
		     double x)
{
	for (size_t r = 0; r < t->nrows; r++)
		if (gp_table_row_ok(t, r) && !strcmp(gp_table_get(t, r, "kernel"), kernel) &&
		    gp_table_num(t, r, "m") == m && (n < 0 || gp_table_num(t, r, "n") == n) &&
		    (k < 0 || gp_table_num(t, r, "k") == k) && (!xcol || gp_table_num(t, r, xcol) == x))
			return (long)r;
	return -1;
}

static long find_square(const struct gp_table *t, const char *kernel, double n)
{
	return find_row(t, kernel, n, n, n, NULL, 0);
}

/* A cell of row r (r < 0: none). */
static void cell(FILE *md, const struct gp_table *t, long r, const char *col)
{
	gp_md_cell(md, r >= 0 ? gp_table_get(t, (size_t)r, col) : NULL);
}

static double num(const struct gp_table *t, long r, const char *col)
{
	return r >= 0 ? gp_table_num(t, (size_t)r, col) : NAN;
}

/* Distinct values of a numeric column over ok rows, ascending (at most max). */
static size_t distinct(const struct gp_table *t, const char *col, double *out, size_t max)
{
	size_t n = 0;

	for (size_t r = 0; r < t->nrows; r++) {
		const double v = gp_table_num(t, r, col);
		size_t i;
		if (!gp_table_row_ok(t, r) || isnan(v))
			continue;
		for (i = 0; i < n && out[i] != v; i++)
			;
		if (i < n || n == max)
			continue;
		out[n++] = v;
	}
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && out[j - 1] > out[j]; j--) {
			const double x = out[j];
			out[j] = out[j - 1];
			out[j - 1] = x;
		}
	return n;
}

/* The largest square size at which cuBLAS ran, or 0. */
static double largest_square(const struct gp_table *t)
{
	double sizes[64], big = 0;
	const size_t ns = distinct(t, "m", sizes, GP_ARRAY_SIZE(sizes));

	for (size_t i = 0; i < ns; i++)
		if (find_square(t, "cublas", sizes[i]) >= 0)
			big = sizes[i];
	return big;
}

/* A paper's number of key@x (absent by design for most x). */
static void ref_at(FILE *md, const struct gp_table *ref, const char *exp, const char *key, double x)
{
	char k[64];

	snprintf(k, sizeof k, "%s@%.0f", key, x);
	gp_md_cell(md, gp_reference_opt(ref, exp, k));
}

/* ---------------------------------------------------------------- derive */

/* The best ladder kernel at the largest square size measured, against cuBLAS there: overall,
 * and the best FFMA kernel alone (the 3xTF32 kernels use the tensor cores). */
static void patch_derive(struct gp_profile *prof, const struct gp_table *t, double big);

static void sgemm_derive(struct gp_profile *prof, const struct gp_table *t)
{
	double big = 0, best = 0, best_ff = 0;
	long rb = -1, rf = -1, rblas = -1;
	char method[160];

	for (size_t r = 0; r < t->nrows; r++)
		if (gp_table_row_ok(t, r) && gp_table_num(t, r, "m") == gp_table_num(t, r, "n") &&
		    gp_table_num(t, r, "m") == gp_table_num(t, r, "k"))
			big = fmax(big, gp_table_num(t, r, "m"));
	for (size_t r = 0; r < t->nrows; r++) {
		const double gf = gp_table_num(t, r, "gflops");
		const char *pipe = gp_table_get(t, r, "pipe");
		if (!gp_table_row_ok(t, r) || gp_table_num(t, r, "m") != big || gp_table_num(t, r, "n") != big ||
		    gp_table_num(t, r, "k") != big)
			continue;
		if (!strcmp(gp_table_get(t, r, "kernel"), "cublas"))
			rblas = (long)r;
		else if (gf > best)
			best = gf, rb = (long)r;
		if (strcmp(gp_table_get(t, r, "kernel"), "cublas") && (!pipe || strcmp(pipe, "3xtf32 mma")) && gf > best_ff)
			best_ff = gf, rf = (long)r;
	}
	if (rb < 0)
		return;
	snprintf(method, sizeof method, "best ladder kernel (%s), %.0f^3", gp_table_get(t, (size_t)rb, "kernel"), big);
	gp_profile_add(prof, "sgemm_best_gflops", best, "GFLOP/s", method, "sgemm");
	if (!isnan(num(t, rb, "ratio_to_cublas")))
		gp_profile_add(prof, "sgemm_best_ratio_to_cublas", num(t, rb, "ratio_to_cublas"), "x", method, "sgemm");
	if (rf >= 0 && rf != rb) {
		snprintf(method, sizeof method, "best FP32 FFMA kernel (%s), %.0f^3", gp_table_get(t, (size_t)rf, "kernel"),
			 big);
		gp_profile_add(prof, "sgemm_best_ffma_gflops", best_ff, "GFLOP/s", method, "sgemm");
		if (!isnan(num(t, rf, "ratio_to_cublas")))
			gp_profile_add(prof, "sgemm_best_ffma_ratio_to_cublas", num(t, rf, "ratio_to_cublas"), "x", method,
				       "sgemm");
	}
	patch_derive(prof, t, big);
	if (!isnan(num(t, rblas, "gflops"))) {
		snprintf(method, sizeof method, "%s, largest square size", gp_table_get(t, (size_t)rblas, "math_mode"));
		gp_profile_add(prof, "cublas_sgemm_gflops", num(t, rblas, "gflops"), "GFLOP/s", method, "sgemm");
	}
}

/* ---------------------------------------------------------------- the SASS-patched FFMA pair */

/* The patched variants of sgemm.list (SG_PATCHED) and the base each patches. */
#define SG_PATCH_none(n, b)
#define SG_PATCH_sgemm_volkov(n, b)
#define SG_PATCH_sgemm_regblock(n, b)
#define SG_PATCH_sgemm_warp(n, b)
#define SG_PATCH_sgemm_tc3(n, b)
#define SG_PATCH_sgemm_wgmma_90a(n, b)
#define SG_PATCH_sgemm_tmaffma_90a(n, b)
#define SG_PATCH_dgemm(n, b)
#define SG_PATCH_ffma_patch(n, b) { #n, #b },
#define SG_VARIANT(name, T, image, call, ...) SG_PATCH_##image(name, call)
static const struct sg_patch {
	const char *name, *base;
} sg_patched[] = {
#include "sgemm.list"
};
#undef SG_VARIANT

const char *sg_patch_base(const struct sg_variant *v)
{
	const struct sg_patch *p = GP_FIND_NAME(sg_patched, GP_ARRAY_SIZE(sg_patched), v->name);

	return p ? p->base : NULL;
}


/* Each patched kernel beside its base at every square size: GFLOP/s and the SASS statistics of
 * the same run's rows (issue 20 item 2). */
static void patch_report(FILE *md, const struct gp_table *t)
{
	static const char *const head[] = { "kernel", "N", "GFLOP/s", "× cuBLAS", "conflicts / FFMA",
					    "FFMAs with reuse", "FFMA share of loop", "status" };
	static const char *const cols[] = { "gflops", "ratio_to_cublas", "sass_conflicts_per_ffma",
					    "sass_reuse_share", "sass_ffma_share", "status" };
	double ns[16];
	const size_t nn = distinct(t, "m", ns, GP_ARRAY_SIZE(ns));

	for (size_t p = 0; nn && p < GP_ARRAY_SIZE(sg_patched); p++) {
		const char *pair[2] = { sg_patched[p].base, sg_patched[p].name };

		if (find_square(t, pair[1], ns[nn - 1]) < 0)
			continue;
		fprintf(md, "\n`%s` is `%s`'s cubin patched in place by `gpuprobe sass ffma` (reuse flags, FFMA "
			    "registers renamed against the measured register banks); the same run's rows:\n\n",
			pair[1], pair[0]);
		gp_md_head(md, head, GP_ARRAY_SIZE(head));
		for (size_t i = 0; i < nn; i++)
			for (int k = 0; k < 2; k++) {
				const long r = find_square(t, pair[k], ns[i]);
				char n[24];

				if (r < 0)
					continue;
				snprintf(n, sizeof n, "%g", ns[i]);
				gp_md_str(md, pair[k]);
				gp_md_str(md, n);
				for (size_t c = 0; c < GP_ARRAY_SIZE(cols); c++)
					cell(md, t, r, cols[c]);
				gp_md_end(md);
			}
	}
}

/* The best patched kernel's (by ratio to cuBLAS) ratio to cuBLAS and to its base at the largest
 * square size. */
static void patch_derive(struct gp_profile *prof, const struct gp_table *t, double big)
{
	long best = -1, rb = -1;
	size_t bp = 0;
	char method[200];

	for (size_t p = 0; p < GP_ARRAY_SIZE(sg_patched); p++) {
		const long rp = find_square(t, sg_patched[p].name, big);

		if (rp < 0 || !gp_table_row_ok(t, (size_t)rp) || isnan(num(t, rp, "ratio_to_cublas")))
			continue;
		if (best < 0 || num(t, rp, "ratio_to_cublas") > num(t, best, "ratio_to_cublas"))
			best = rp, bp = p;
	}
	if (best < 0)
		return;
	rb = find_square(t, sg_patched[bp].base, big);
	snprintf(method, sizeof method, "%s (%s patched by gpuprobe sass ffma), %.0f^3", sg_patched[bp].name,
		 sg_patched[bp].base, big);
	gp_profile_add(prof, "sgemm_patched_ffma_ratio_to_cublas", num(t, best, "ratio_to_cublas"), "x", method, "sgemm");
	if (rb >= 0 && gp_table_row_ok(t, (size_t)rb) && num(t, rb, "gflops") > 0)
		gp_profile_add(prof, "sgemm_patched_ffma_speedup", num(t, best, "gflops") / num(t, rb, "gflops"), "x",
			       method, "sgemm");
}

/* ---------------------------------------------------------------- sgemm */

/* Seed 000 Table 4 / Figure 18: cuBLAS against Volkov over N, R = time(Volkov) / time(cuBLAS). */
static void table4(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	double sizes[64];
	const size_t ns = distinct(t, "m", sizes, GP_ARRAY_SIZE(sizes));
	const char *gpu = NULL, *mode = NULL;

	gp_reference(ref, "sgemm", "R@4096", &gpu, NULL);
	for (size_t r = 0; r < t->nrows && !mode; r++)
		mode = !strcmp(gp_table_get(t, r, "kernel"), "cublas") ? gp_table_get(t, r, "math_mode") : NULL;
	fprintf(md, "Seed 000 Table 4 layout (Figure 18): GFLOP/s, R = time(Volkov) / time(cuBLAS); cuBLAS in %s; "
		    "paper: %s.\n\n", mode ? mode : "–", gpu ? gpu : "–");
	gp_md_header(md, "N", "cuBLAS (here)", "volkov (here)", "R (here)", "CUBLAS 2.3 (paper)", "Volkov (paper)",
		     "R (paper)");
	for (size_t i = 0; i < ns; i++) {
		const long rb = find_square(t, "cublas", sizes[i]), rv = find_square(t, "sgemm_04_volkov", sizes[i]);
		if (rb < 0 && rv < 0)
			continue;
		gp_md_num(md, sizes[i]);
		cell(md, t, rb, "gflops");
		cell(md, t, rv, "gflops");
		gp_md_num(md, 1.0 / num(t, rv, "ratio_to_cublas"));
		ref_at(md, ref, "sgemm", "cublas_gflops", sizes[i]);
		ref_at(md, ref, "sgemm", "volkov_gflops", sizes[i]);
		ref_at(md, ref, "sgemm", "R", sizes[i]);
		gp_md_end(md);
	}
}

/* The ladder at n^3 with seed 000 Table 12's resources beside it. */
static void ladder(FILE *md, const struct gp_table *t, const struct gp_table *ref, double n)
{
	static const char *const who[] = { "volkov", "method1", "method2", "method3", "method4" };
	const char *gpu = NULL;
	char key[32];

	fprintf(md, "\nThe ladder at %.0f³ (seed 000 Table 12 resources beside it; %% of the FP32 peak at the measured "
		    "clock; ratio to cuBLAS in the same run).\n\n", n);
	gp_md_header(md, "kernel", "re-implements", "pipe", "GFLOP/s", "% of FP32 peak", "× cuBLAS",
		     "error vs exact / cuBLAS's", "threads/block", "registers", "shared B (static+dyn)",
		     "spill (local) B", "active threads/SM");
	for (size_t v = 0; v < sg_nvariants; v++) {
		static const char *const cols[] = { "pipe", "gflops", "pct_of_peak", "ratio_to_cublas" };
		const long r = find_square(t, sg_variants[v].name, n);
		if (r < 0)
			continue;
		gp_md_str(md, sg_variants[v].name);
		gp_md_str(md, sg_variants[v].seed);
		for (size_t c = 0; c < GP_ARRAY_SIZE(cols); c++)
			cell(md, t, r, cols[c]);
		gp_md_num(md, num(t, r, "ref_err") > 0 ? num(t, r, "fp64_err") / num(t, r, "ref_err") : NAN);
		cell(md, t, r, "threads_per_block");
		cell(md, t, r, "regs_per_thread");
		gp_md_num(md, num(t, r, "static_smem_bytes") + num(t, r, "dyn_smem_bytes"));
		cell(md, t, r, "local_bytes");
		cell(md, t, r, "active_threads_per_sm");
		gp_md_end(md);
	}
	/* The variants the sweep left out at this size: their tile does not divide it. */
	size_t left_out = 0;
	for (size_t v = 0; v < sg_nvariants; v++) {
		char why[128];
		if (sg_variants[v].elem != 4 || find_square(t, sg_variants[v].name, n) >= 0 ||
		    !sg_supports(&sg_variants[v], (int)n, (int)n, (int)n, (int)n, (int)n, (int)n, why, sizeof why))
			continue;
		fprintf(md, "%s`%s` (%s)", left_out++ ? ", " : "\nNot run at this size (the tile does not divide it): ",
			sg_variants[v].name, why);
	}
	if (left_out)
		fputs(".\n", md);
	gp_reference(ref, "sgemm", "regs@volkov", &gpu, NULL);
	fprintf(md, "\nPaper (seed 000 Table 12, %s):\n\n", gpu ? gpu : "–");
	gp_md_header(md, "paper", "volkov", "method1", "method2", "method3", "method4");
	for (int row = 0; row < 2; row++) {
		gp_md_str(md, row ? "active threads/SM" : "registers");
		for (size_t i = 0; i < GP_ARRAY_SIZE(who); i++) {
			snprintf(key, sizeof key, "%s@%s", row ? "threads" : "regs", who[i]);
			gp_md_str(md, gp_ref_or_dash(ref, "sgemm", key));
		}
		gp_md_end(md);
	}
}

/* Seed 001 Figure 9: the incremental steps as speedup over the baseline, the paper's gains beside
 * (its +Reg and +Dual steps have no counterpart in this ladder). */
static void figure9(FILE *md, const struct gp_table *t, const struct gp_table *ref, double n)
{
	static const struct {
		const char *kernel, *paper_key, *label;
	} steps[] = {
		{ "sgemm_24_k1_12x12_base", NULL, "baseline" }, { "sgemm_25_k1_12x12_ld128", "fig9_ld128_gain", "+LD128: " },
		{ "sgemm_26_k1_12x12", "fig9_ldg128_gain", "+LDG128: " }, { "sgemm_27_k1_12x12_lds128", NULL, "(LDS.128 step)" },
		{ "sgemm_28_k1_12x12_nordb", NULL, "(ablation)" },
	};
	const long base = find_square(t, steps[0].kernel, n);
	const char *gpu = NULL;
	char paper[64];

	if (base < 0)
		return;
	gp_reference(ref, "sgemm", "fig9_reg_gain", &gpu, NULL);
	fprintf(md, "\nSeed 001 Figure 9 layout at %.0f³: speedup over the baseline (paper, %s: +Reg %s %%, +Dual %s %% "
		    "have no counterpart here).\n\n", n, gpu ? gpu : "–", gp_ref_or_dash(ref, "sgemm", "fig9_reg_gain"),
		gp_ref_or_dash(ref, "sgemm", "fig9_dual_gain"));
	gp_md_header(md, "step", "kernel", "GFLOP/s", "speedup", "paper");
	for (size_t i = 0; i < GP_ARRAY_SIZE(steps); i++) {
		const long r = find_square(t, steps[i].kernel, n);
		snprintf(paper, sizeof paper, "%s%s%s", steps[i].label,
			 steps[i].paper_key ? gp_ref_or_dash(ref, "sgemm", steps[i].paper_key) : "",
			 steps[i].paper_key ? " %" : "");
		gp_md_num(md, (double)i);
		gp_md_str(md, steps[i].kernel);
		cell(md, t, r, "gflops");
		gp_md_num(md, num(t, r, "gflops") / num(t, base, "gflops"));
		gp_md_str(md, paper);
		gp_md_end(md);
	}
}

/* Every variant's row at one problem: GFLOP/s, % of peak, x cuBLAS. */
static void at_problem(FILE *md, const struct gp_table *t, double m, double n, double k)
{
	gp_md_header(md, "kernel", "GFLOP/s", "% of peak", "× cuBLAS");
	for (size_t v = 0; v < sg_nvariants; v++) {
		const long r = find_row(t, sg_variants[v].name, m, n, k, NULL, 0);
		if (r < 0)
			continue;
		gp_md_str(md, sg_variants[v].name);
		cell(md, t, r, "gflops");
		cell(md, t, r, "pct_of_peak");
		cell(md, t, r, "ratio_to_cublas");
		gp_md_end(md);
	}
}

static void sgemm_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	const double big = largest_square(t);
	const char *gpu = NULL;

	table4(md, t, ref);
	if (big > 0) {
		ladder(md, t, ref, big);
		patch_report(md, t);
		figure9(md, t, ref, big);
		gp_reference(ref, "sgemm", "published_cublas_tflops", &gpu, NULL);
		fprintf(md, "\nPublished anchors (%s): cuBLAS FP32 without TF32 %s TFLOP/s; best public SIMT kernel "
			    "(SGEMM_CUDA warptiling) %s TFLOP/s.\n", gpu ? gpu : "–",
			gp_ref_or_dash(ref, "sgemm", "published_cublas_tflops"),
			gp_ref_or_dash(ref, "sgemm", "published_simt_best_tflops"));
	}
	if (find_row(t, "cublas", 2560, 2560, 1024, NULL, 0) >= 0) {
		gp_reference(ref, "sgemm", "p4_colsplit_pct", &gpu, NULL);
		fprintf(md, "\nSeed 002 size 2560×2560×1024 (paper, %s: K2-2 row split %s %% → column split %s %% of peak).\n\n",
			gpu ? gpu : "–", gp_ref_or_dash(ref, "sgemm", "p4_rowsplit_pct"),
			gp_ref_or_dash(ref, "sgemm", "p4_colsplit_pct"));
		at_problem(md, t, 2560, 2560, 1024);
	}
	fputc('\n', md);
}

/* ---------------------------------------------------------------- sgemm_shapes */

/* The kernels of the ladder (bench/sgemm.list order) that have an ok row in t with element size elem. */
static size_t kernels_in(const struct gp_table *t, int elem, const char **out, size_t max)
{
	size_t n = 0;

	for (size_t v = 0; v < sg_nvariants && n < max; v++)
		if (sg_variants[v].elem == elem && gp_table_find(t, 0, "kernel", sg_variants[v].name, NULL) >= 0)
			out[n++] = sg_variants[v].name;
	return n;
}

/* Seed 001 Figure 8: × cuBLAS per shape and W (rows) and kernel (columns), cuBLAS's GFLOP/s beside:
 * one row per size instead of one per kernel and size (it was the report's largest table). */
static void shapes_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const shapes[] = { "www", "w2w4w", "w4ww", "4ww4w", "4w2ww", "seed002" };
	const char *head[40] = { "shape", "W", "cuBLAS GFLOP/s" }, *ks[37];
	double ws[64];
	const size_t nw = distinct(t, "w", ws, GP_ARRAY_SIZE(ws));
	size_t nk = kernels_in(t, 4, ks, GP_ARRAY_SIZE(ks));
	const char *gpu = NULL;

	if (nk && !strcmp(ks[nk - 1], "cublas")) /* its ratio is 1 by definition: its GFLOP/s is shown */
		nk--;

	gp_reference(ref, "sgemm_shapes", "k1_12x12_tflops@12288", &gpu, NULL);
	fprintf(md, "Seed 001 Figure 8 layout: each kernel's GFLOP/s over cuBLAS's per shape [M,K,N] and W (GFLOP/s "
		    "in the CSV). Paper (%s): 12288² %s vs cuBLAS %s TFLOP/s.\n\n", gpu ? gpu : "–",
		gp_ref_or_dash(ref, "sgemm_shapes", "k1_12x12_tflops@12288"),
		gp_ref_or_dash(ref, "sgemm_shapes", "cublas_tflops@12288"));
	memcpy(head + 3, ks, nk * sizeof *ks);
	gp_md_head(md, head, nk + 3);
	for (size_t s = 0; s < GP_ARRAY_SIZE(shapes); s++)
		for (size_t i = 0; i < nw; i++) {
			char w[32];
			long r;
			snprintf(w, sizeof w, "%g", ws[i]);
			if (gp_table_find(t, 0, "shape", shapes[s], "w", w, NULL) < 0)
				continue;
			gp_md_str(md, shapes[s]);
			gp_md_num(md, ws[i]);
			r = gp_table_find(t, 0, "shape", shapes[s], "w", w, "status", "ok", NULL);
			cell(md, t, r, "cublas_gflops");
			for (size_t k = 0; k < nk; k++)
				cell(md, t, gp_table_find(t, 0, "shape", shapes[s], "w", w, "kernel", ks[k], "status", "ok", NULL),
				     "ratio_to_cublas");
			gp_md_end(md);
		}
	fputc('\n', md);
}

/* ---------------------------------------------------------------- sgemm_occupancy, sgemm_lda */

/* GFLOP/s per kernel and N (rows) against the values of xcol (columns), head "<prefix>x". */
static void by_kernel_and_n(FILE *md, const struct gp_table *t, const char *xcol, const char *prefix)
{
	double xs[32], ms[32];
	const size_t nx = distinct(t, xcol, xs, GP_ARRAY_SIZE(xs)), nm = distinct(t, "m", ms, GP_ARRAY_SIZE(ms));
	const char *head[34];
	char labels[32][32];

	head[0] = "kernel";
	head[1] = "N";
	for (size_t i = 0; i < nx; i++) {
		snprintf(labels[i], sizeof labels[i], "%s%.0f", prefix, xs[i]);
		head[i + 2] = labels[i];
	}
	gp_md_head(md, head, nx + 2);
	for (size_t v = 0; v < sg_nvariants; v++)
		for (size_t j = 0; j < nm; j++) {
			int any = 0;
			for (size_t i = 0; i < nx; i++)
				any |= find_row(t, sg_variants[v].name, ms[j], -1, -1, xcol, xs[i]) >= 0;
			if (!any)
				continue;
			gp_md_str(md, sg_variants[v].name);
			gp_md_num(md, ms[j]);
			for (size_t i = 0; i < nx; i++)
				cell(md, t, find_row(t, sg_variants[v].name, ms[j], -1, -1, xcol, xs[i]), "gflops");
			gp_md_end(md);
		}
	fputc('\n', md);
}

/* Seed 000 Tables 6, 7, 11: GFLOP/s per N and active threads per SM. */
static void occupancy_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	const char *gpu = NULL;

	gp_reference(ref, "sgemm_occupancy", "volkov@4096@512", &gpu, NULL);
	fprintf(md, "Seed 000 Tables 6 / 7 / 11 layout: GFLOP/s against active threads per SM (capped by reserving "
		    "shared memory; the count is the occupancy API's). Paper (%s, N = 4096): volkov %s at 512 threads, "
		    "%s at 256; method1_variant %s at 320.\n\n", gpu ? gpu : "–",
		gp_ref_or_dash(ref, "sgemm_occupancy", "volkov@4096@512"), gp_ref_or_dash(ref, "sgemm_occupancy", "volkov@4096@256"),
		gp_ref_or_dash(ref, "sgemm_occupancy", "method1_variant@4096@320"));
	by_kernel_and_n(md, t, "active_threads_per_sm", "");
}

/* Seed 000 Figures 42-49: GFLOP/s per padding unit. */
static void lda_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	const char *gpu = NULL;

	gp_reference(ref, "sgemm_lda", "gain@8", &gpu, NULL);
	fprintf(md, "Seed 000 Figures 42–49 layout: GFLOP/s with lda = ldb = ldc rounded up to a multiple of the unit. "
		    "Paper (%s): unit 8 gives %s, unit 16 %s over unpadded for N > 1500.\n\n", gpu ? gpu : "–",
		gp_ref_or_dash(ref, "sgemm_lda", "gain@8"), gp_ref_or_dash(ref, "sgemm_lda", "gain@16"));
	by_kernel_and_n(md, t, "pad_unit", "unit ");
}

/* ---------------------------------------------------------------- dgemm */

/* Seed 003 Tables 3, 4: GFLOP/s per kernel (rows) and N (columns), the paper's two tile
 * kernels as the last rows; % of peak and × cuBLAS are in the CSV. */
static void dgemm_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const paper[] = { "16x8", "16x16" };
	double ns[30];
	const size_t nn = distinct(t, "m", ns, GP_ARRAY_SIZE(ns));
	const char *head[32] = { "kernel" }, *ks[64];
	const size_t nk = kernels_in(t, 8, ks, GP_ARRAY_SIZE(ks));
	char labels[30][24];
	const char *gpu = NULL;

	gp_reference(ref, "dgemm", "16x16@1024", &gpu, NULL);
	fprintf(md, "Seed 003 Tables 3 / 4 layout (double): GFLOP/s per N; %% of the FP64 FMA peak and × cuBLAS in the "
		    "CSV; cuBLAS DGEMM may run on the FP64 tensor cores (check its SASS for DMMA). Paper: %s.\n\n",
		gpu ? gpu : "–");
	for (size_t i = 0; i < nn; i++) {
		snprintf(labels[i], sizeof labels[i], "N=%g", ns[i]);
		head[i + 1] = labels[i];
	}
	gp_md_head(md, head, nn + 1);
	for (size_t k = 0; k < nk; k++) {
		gp_md_str(md, ks[k]);
		for (size_t i = 0; i < nn; i++)
			cell(md, t, find_row(t, ks[k], ns[i], -1, -1, NULL, 0), "gflops");
		gp_md_end(md);
	}
	for (size_t p = 0; p < GP_ARRAY_SIZE(paper); p++) {
		char name[48];
		snprintf(name, sizeof name, "paper %s (%s)", paper[p], gpu ? gpu : "–");
		gp_md_str(md, name);
		for (size_t i = 0; i < nn; i++)
			ref_at(md, ref, "dgemm", paper[p], ns[i]);
		gp_md_end(md);
	}
	fputc('\n', md);
}

GP_ANALYSIS(sgemm, sgemm_derive, sgemm_report);
GP_ANALYSIS(sgemm_shapes, NULL, shapes_report);
GP_ANALYSIS(sgemm_occupancy, NULL, occupancy_report);
GP_ANALYSIS(sgemm_lda, NULL, lda_report);
GP_ANALYSIS(dgemm, NULL, dgemm_report);
