/* models.c — seed 000 / seed 001 SGEMM models against a run's own measurements.
 *
 * What: rooflines (M103-M105) with each ladder kernel placed by its tile's intensities, the
 * register limit and sAI (M101/M102), and two GFLOP/s predictions beside the measured ones.
 * Pattern: every machine number comes from profile.csv / meta.csv of the run; each kernel's
 * tile comes from its line in bench/sgemm.list (LDS widths confirmed by decoding the compiled
 * SASS in tests/test_planner.c). Pitfall: M104 counts bytes each thread asks for;
 * broadcast reads (Volkov's b[i][j], warp-tile fragments) cost the banks far less, so the
 * bound is judged on bank traffic (one 128-byte wavefront per warp LDS at least). */
#include "models.h"
#include "gp.h"
#include "sgemm_map.h"
#include "table.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The tiles of bench/sgemm.list's lines that have a model: name, rx, ry, A words, B words from
 * shared per k, LDS bytes, A/B lanes sharing a word, global reuse tile (gbm, gbn), then bk and
 * threads and the sizes it accepts from the line's launch shape. Volkov's family streams A from
 * global (0 words). A model is a parenthesised (1, fields...), none (0, ...): TILE_IF_1 keeps the
 * entry, TILE_IF_0 drops it. (Parenthesised so it passes through the list's forms as one
 * argument.) */
#define SG_MODEL(...) (1, __VA_ARGS__)
#define SG_NOMODEL (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
#define SG_TCMODEL(...) SG_NOMODEL /* tensor-core kernels: no FFMA tile (tune_rank.c models them) */
#define TILE_ARGS(...) __VA_ARGS__
#define TILE_IF(...) TILE_IF_(__VA_ARGS__)
#define TILE_IF_(has, ...) TILE_IF_##has(__VA_ARGS__)
#define TILE_IF_0(...)
#define TILE_IF_1(rx, ry, aw, bw, w, as, bs, gbm, gbn, name, bm, bn, bk, th, any, vec4)                  \
	{ #name, rx, ry, aw, bw, w, as, bs, gbm, gbn, bk, th, bm, bn, any, vec4 },
#define SG_VARIANT(name, T, image, call, minb, seed, kind, pipe, bm, bn, bk, bx, by, na, gap, any, vec4, dyn, \
		   model)                                                                               \
	TILE_IF(TILE_ARGS model, name, bm, bn, bk, (bx) * (by), any, vec4)
const struct gp_tile gp_tiles[] = {
#include "sgemm.list"
};
#undef SG_VARIANT
#undef TILE_IF_1
#undef TILE_IF_0
#undef TILE_IF_
#undef TILE_IF
#undef TILE_ARGS
#undef SG_TCMODEL
#undef SG_NOMODEL
#undef SG_MODEL
GP_TABLE_LOOKUP(struct gp_tile, gp_tiles, gp_ntiles, gp_tile_find)

/* ------------------------------------------------------------------ measured machine */

static double kv(const struct gp_table *t, const char *key)
{
	double v;

	if (!t)
		return NAN;
	for (size_t r = 0; r < t->nrows; r++) {
		const char *k = gp_table_get(t, r, "key");
		if (k && !strcmp(k, key) && !gp_table_get_double(t, r, "value", &v))
			return v;
	}
	return NAN;
}

static double first_of(double a, double b)
{
	return isnan(a) ? b : a;
}

/* Every profile key the models read. */
static const char *const model_keys[] = { "ffma_ops_per_clk_per_sm", "insn_ffma_ops_per_clk_per_sm",
	"lds32_bytes_per_clk_per_sm", "lds64_bytes_per_clk_per_sm", "lds128_bytes_per_clk_per_sm", "lds_latency_cycles",
	"insn_lds_latency", "ffma_latency", "insn_ffma_latency", "l2_near_latency_cycles", "l2_latency_cycles",
	"hbm_latency_cycles", "hbm_read_bw_GBps", "l2_read_bw_GBps", "mma_tf32_f32_m16n8k8_flops_per_clk_per_sm",
	"mma_f16_f32_m16n8k16_flops_per_clk_per_sm", "mma_tf32_f32_m16n8k8_tflops", "wgmma_tf32_n256_tflops",
	"wgmma_f16_n256_tflops" };

/* A key the models read whose value is neither a number nor the tools' "none detected" would
 * read as missing and move the predictions silently: -1 with its line and value in why. */
static int bad_value(const struct gp_table *p, char *why, size_t len)
{
	for (size_t r = 0; r < p->nrows; r++) {
		const char *k = gp_table_get(p, r, "key"), *v = gp_table_get(p, r, "value");
		double x;
		for (size_t i = 0; k && v && i < GP_ARRAY_SIZE(model_keys); i++)
			if (!strcmp(k, model_keys[i]) && *v && gp_parse_double(v, &x) && strcmp(v, "nan") &&
			    strcmp(v, "none detected")) {
				snprintf(why, len, "line %zu: %s is '%.40s', not a number", gp_table_line(p, r), k, v);
				return -1;
			}
	}
	return 0;
}

static void tensor_rates(const struct gp_table *p, struct gp_machine *m)
{
	const double tf32 = kv(p, "mma_tf32_f32_m16n8k8_flops_per_clk_per_sm");
	const double f16 = kv(p, "mma_f16_f32_m16n8k16_flops_per_clk_per_sm");

	m->tf32_mma_gflops = kv(p, "mma_tf32_f32_m16n8k8_tflops") * 1e3;
	m->tf32_wgmma_gflops = kv(p, "wgmma_tf32_n256_tflops") * 1e3;
	m->tf32_wgmma_derived = 0;
	if (isnan(m->tf32_wgmma_gflops)) {
		m->tf32_wgmma_gflops = kv(p, "wgmma_f16_n256_tflops") * 1e3 * tf32 / f16;
		m->tf32_wgmma_derived = !isnan(m->tf32_wgmma_gflops);
	}
}

int gp_machine_load(const char *run_dir, struct gp_machine *m, char *err, size_t errlen)
{
	char path[4096];
	struct gp_table *p, *meta;

	char why[512];

	snprintf(path, sizeof path, "%s/profile.csv", run_dir);
	p = gp_table_load(path, why, sizeof why);
	if (!p) {
		snprintf(err, errlen, "%s: %s", path, why); /* the file named: "plan /x" said only "cannot read" */
		return -1;
	}
	if (bad_value(p, why, sizeof why)) {
		snprintf(err, errlen, "%s: %s", path, why);
		gp_table_free(p);
		return -1;
	}
	snprintf(path, sizeof path, "%s/meta.csv", run_dir);
	meta = gp_table_load(path, why, sizeof why);
	if (!meta) {
		snprintf(err, errlen, "%s: %s", path, why);
		gp_table_free(p);
		return -1;
	}
	m->sms = kv(meta, "sm_count");
	m->mhz = first_of(kv(meta, "sm_clock_measured_MHz"), kv(meta, "sm_clock_max_MHz"));
	m->ffma_per_clk_sm = first_of(kv(p, "ffma_ops_per_clk_per_sm"), kv(p, "insn_ffma_ops_per_clk_per_sm"));
	m->lds_Bpc[0] = kv(p, "lds32_bytes_per_clk_per_sm");
	m->lds_Bpc[1] = kv(p, "lds64_bytes_per_clk_per_sm");
	m->lds_Bpc[2] = kv(p, "lds128_bytes_per_clk_per_sm");
	m->lds_latency = first_of(kv(p, "lds_latency_cycles"), kv(p, "insn_lds_latency"));
	m->ffma_latency = first_of(kv(p, "ffma_latency"), kv(p, "insn_ffma_latency"));
	m->l2_latency = first_of(kv(p, "l2_near_latency_cycles"), kv(p, "l2_latency_cycles"));
	m->hbm_latency = kv(p, "hbm_latency_cycles");
	m->hbm_GBps = kv(p, "hbm_read_bw_GBps");
	m->l2_GBps = kv(p, "l2_read_bw_GBps");
	m->fp32_gflops = m->ffma_per_clk_sm * 2.0 * m->sms * m->mhz / 1e3;
	tensor_rates(p, m);
	gp_table_free(p);
	gp_table_free(meta);
	if (isnan(m->fp32_gflops)) {
		snprintf(err, errlen, "%s: no FFMA rate (tput_fp32) or SM count/clock in meta.csv", run_dir);
		return -2;
	}
	return 0;
}

double gp_machine_lds_Bpc(const struct gp_machine *m, int lds_bytes)
{
	return lds_bytes >= 16 ? m->lds_Bpc[2] : lds_bytes == 8 ? m->lds_Bpc[1] : m->lds_Bpc[0];
}

/* ------------------------------------------------------------------ seed 001 M101-M104 */

double gp_sai(int rx, int ry)
{
	return 1.0 / (1.0 / rx + 1.0 / ry);
}

int gp_reg_need(int rx, int ry)
{
	return rx * ry + 2 * rx + 2 * ry;
}

double gp_intensity_global(int bm, int bn)
{
	/* 2 bm bn bk flops over 4 (bm + bn) bk bytes: bk cancels. */
	return 2.0 * bm * bn / (4.0 * (bm + bn));
}

double gp_intensity_shared(const struct gp_tile *t)
{
	const int words = t->a_words + t->b_words;

	return words ? 2.0 * t->rx * t->ry / (4.0 * words) : NAN;
}

/* Bank bytes per thread of one side: instructions x max(4, width / lanes sharing a word). */
static double bank_bytes(int words, int width, int share)
{
	const int per = width / 4;
	const double insns = ceil((double)words / per);
	const double b = (double)width / share;

	return words ? insns * (b < 4 ? 4 : b) : 0;
}

double gp_intensity_shared_bank(const struct gp_tile *t)
{
	double bytes;

	if (!t->lds_bytes)
		return NAN;
	bytes = bank_bytes(t->a_words, t->lds_bytes, t->a_share) + bank_bytes(t->b_words, t->lds_bytes, t->b_share);
	return 2.0 * t->rx * t->ry / bytes;
}

void gp_roofline(const struct gp_machine *m, const struct gp_tile *t, struct gp_roof *r)
{
	/* Shared bandwidth in GB/s: bytes/clk/SM x SMs x MHz / 1000. */
	const double smem = gp_machine_lds_Bpc(m, t->lds_bytes) * m->sms * m->mhz / 1e3;

	r->i_global = gp_intensity_global(t->gbm, t->gbn);
	r->i_shared = gp_intensity_shared(t);
	r->i_shared_bank = gp_intensity_shared_bank(t);
	r->roof_fp32 = m->fp32_gflops;
	r->roof_global = r->i_global * m->hbm_GBps;
	r->roof_shared = r->i_shared * smem;
	r->roof_shared_bank = r->i_shared_bank * smem;
	r->roof_l2 = r->i_global * m->l2_GBps;
	r->bound = "fp32";
	if (r->roof_global < r->roof_fp32)
		r->bound = "global";
	if (!isnan(r->roof_shared_bank) && r->roof_shared_bank < fmin(r->roof_fp32, r->roof_global))
		r->bound = "shared";
}

/* ------------------------------------------------------------------ predictions */

/* LDS bank time per FFMA in SM cycles per thread. */
static double lds_cycles_per_ffma(const struct gp_machine *m, const struct gp_tile *t)
{
	if (!t->lds_bytes)
		return 0;
	return 2.0 / gp_intensity_shared_bank(t) / gp_machine_lds_Bpc(m, t->lds_bytes);
}

double gp_predict_m001(const struct gp_machine *m, const struct gp_tile *t, double nt)
{
	/* Seed 000 Section 3.1 with Hopper's numbers: c is one instruction's share of the SM per
	 * thread (1/8 on GT200, 1/FFMA rate here); g_L the latency a tile load waits (L2: SGEMM
	 * panels live there); the smem-operand MAD became FFMA + its share of LDS bank time. */
	const double c = 1.0 / m->ffma_per_clk_sm;
	const double gl = m->l2_latency / nt;
	const double a = gl + c, b = gl + 2 * c, tm = c + lds_cycles_per_ffma(m, t);

	if (!(nt > 0))
		return NAN;
	return 2.0 * m->sms * m->mhz / 1e3 / (a / t->gbn + b / t->gbm + tm);
}

double gp_predict_bound_why(const struct gp_machine *m, const struct gp_tile *t, double nt, const char **why)
{
	const double f = (double)t->rx * t->ry;
	const double lds = t->lds_bytes ? ceil((double)t->a_words / (t->lds_bytes / 4)) + ceil((double)t->b_words / (t->lds_bytes / 4)) : 0;
	/* Global words per thread per k step (seed 001 Table 1), one LDG.128 per 4 and, when
	 * staged through shared memory, one store per 4; a barrier and ~4 integer ops per tile. */
	const double gw = f * (1.0 / t->gbm + 1.0 / t->gbn);
	const double other = gw / 4 * (t->lds_bytes ? 2 : 1) + 5.0 / t->bk;
	const double issue = m->fp32_gflops * f / (f + lds + other);
	/* Latency: per SMSP, warps x independent FFMAs must cover the LDS -> FFMA latency. */
	const double warps = nt / 32 / 4, cover = warps * f / (m->lds_latency + m->ffma_latency);
	double p = issue * (cover < 1 ? cover : 1);
	struct gp_roof r;

	*why = cover < 1 ? "latency" : "fp32 issue";
	if (!(nt > 0))
		return NAN;
	gp_roofline(m, t, &r);
	if (!isnan(r.roof_shared_bank) && r.roof_shared_bank < p) {
		p = r.roof_shared_bank;
		*why = "smem banks";
	}
	/* Tile re-reads come from L2 (the HBM roof is Figure 10's compulsory-traffic view). */
	if (r.roof_l2 < p) {
		p = r.roof_l2;
		*why = "L2 feed";
	}
	return p;
}

double gp_predict_bound(const struct gp_machine *m, const struct gp_tile *t, double nt)
{
	const char *why;

	return gp_predict_bound_why(m, t, nt, &why);
}

/* ------------------------------------------------------------------ writing */

long gp_sgemm_best_row(const struct gp_table *s, const char *kernel)
{
	long best = -1;
	double bv = -1;

	for (size_t r = 0; r < s->nrows; r++) {
		const char *k = gp_table_get(s, r, "kernel"), *st = gp_table_get(s, r, "status");
		double mm, nn, kk;
		if (!k || strcmp(k, kernel) || !st || strcmp(st, "ok"))
			continue;
		if (gp_table_get_double(s, r, "m", &mm) || gp_table_get_double(s, r, "n", &nn) ||
		    gp_table_get_double(s, r, "k", &kk))
			continue;
		if (mm * nn * kk > bv) {
			bv = mm * nn * kk;
			best = (long)r;
		}
	}
	return best;
}

static double cell(const struct gp_table *s, long r, const char *col)
{
	double v;

	return r >= 0 && !gp_table_get_double(s, (size_t)r, col, &v) ? v : NAN;
}

static const char *const roof_cols[] = { "kernel", "intensity_global", "intensity_shared", "gflops_measured",
	"roof_global", "roof_shared", "roof_fp32", "bound", "intensity_shared_bank", "roof_shared_bank", "lds_bytes", "roof_l2", "bw_hbm_GBps", "bw_l2_GBps",
	"bw_smem_GBps" };
static const char *const model_cols[] = { "kernel", "rx", "ry", "bm", "bn", "bk", "threads_per_sm", "sai",
	"regs_needed_m102", "regs_per_thread", "gflops_measured", "gflops_m001", "ratio_m001", "gflops_bound",
	"ratio_bound", "bound" };

/* The roofs' rates, the same on every row, so the chart draws the roofs from roofline.csv alone:
 * HBM and L2 read GB/s (bw_hbm) and shared memory at the widest LDS (bw_smem), all measured. */
static int roof_rates(const struct gp_machine *m, struct gp_table *rt)
{
	return gp_row_num(rt, "bw_hbm_GBps", m->hbm_GBps) || gp_row_num(rt, "bw_l2_GBps", m->l2_GBps) ||
	       gp_row_num(rt, "bw_smem_GBps", m->lds_Bpc[2] * m->sms * m->mhz / 1e3);
}

static int add_rows(const struct gp_machine *m, const struct gp_table *s, struct gp_table *rt,
		    struct gp_table *mt, char *err, size_t errlen)
{
	for (unsigned i = 0; i < gp_ntiles; i++) {
		const struct gp_tile *t = &gp_tiles[i];
		const long r = gp_sgemm_best_row(s, t->name);
		const double meas = cell(s, r, "gflops"), nt = cell(s, r, "active_threads_per_sm");
		const double p1 = gp_predict_m001(m, t, nt), p2 = gp_predict_bound(m, t, nt);
		struct gp_roof f;

		if (r < 0)
			continue;   /* not run, or not ok: no measured point to hold the model against */
		gp_roofline(m, t, &f);
		if (gp_row_begin(rt) || gp_row_str(rt, "kernel", t->name) || gp_row_num(rt, "intensity_global", f.i_global) ||
		    gp_row_num(rt, "intensity_shared", f.i_shared) || gp_row_num(rt, "gflops_measured", meas) ||
		    gp_row_num(rt, "roof_global", f.roof_global) || gp_row_num(rt, "roof_shared", f.roof_shared) ||
		    gp_row_num(rt, "roof_fp32", f.roof_fp32) || gp_row_str(rt, "bound", f.bound) ||
		    gp_row_num(rt, "intensity_shared_bank", f.i_shared_bank) ||
		    gp_row_num(rt, "roof_shared_bank", f.roof_shared_bank) || gp_row_int(rt, "lds_bytes", t->lds_bytes) ||
		    gp_row_num(rt, "roof_l2", f.roof_l2) || roof_rates(m, rt) || gp_row_end(rt, err, errlen))
			return -1;
		if (gp_row_begin(mt) || gp_row_str(mt, "kernel", t->name) || gp_row_int(mt, "rx", t->rx) ||
		    gp_row_int(mt, "ry", t->ry) || gp_row_int(mt, "bm", t->gbm) || gp_row_int(mt, "bn", t->gbn) ||
		    gp_row_int(mt, "bk", t->bk) || gp_row_num(mt, "threads_per_sm", nt) ||
		    gp_row_num(mt, "sai", gp_sai(t->rx, t->ry)) || gp_row_int(mt, "regs_needed_m102", gp_reg_need(t->rx, t->ry)) ||
		    gp_row_num(mt, "regs_per_thread", cell(s, r, "regs_per_thread")) ||
		    gp_row_num(mt, "gflops_measured", meas) || gp_row_num(mt, "gflops_m001", p1) ||
		    gp_row_num(mt, "ratio_m001", meas / p1) || gp_row_num(mt, "gflops_bound", p2) ||
		    gp_row_num(mt, "ratio_bound", meas / p2) || gp_row_str(mt, "bound", f.bound) ||
		    gp_row_end(mt, err, errlen))
			return -1;
	}
	return 0;
}

static void write_md(FILE *md, const struct gp_machine *m, const struct gp_table *rt, const struct gp_table *mt)
{
	fprintf(md, "\n## Models: rooflines and predicted SGEMM GFLOP/s (seed 001 M101-M105, Figure 10; seed 000 M001)\n\n");
	fprintf(md, "Roofs from this run: FP32 %.0f GFLOP/s (FFMA %.1f/clk/SM x %.0f SMs x %.0f MHz), HBM read %.0f GB/s, "
		"L2 read %.0f GB/s, shared %.1f B/clk/SM (LDS.128). `roof_shared` is M104 (bytes each thread requests); "
		"the bound is judged on bank traffic (`roof_shared_bank`: one 128-B wavefront per warp LDS at least, so "
		"broadcast reads are cheap). A kernel above the HBM roof and under the L2 roof (`roof_l2`) re-reads its "
		"tiles from L2. Files: `roofline.csv`, `models.csv`, chart `roofline.svg`.\n\n",
		m->fp32_gflops, m->ffma_per_clk_sm, m->sms, m->mhz, m->hbm_GBps, m->l2_GBps, m->lds_Bpc[2]);
	fprintf(md, "| kernel | I global (flop/B) | I shared M104 | I shared banks | measured GFLOP/s | roof global | roof shared (banks) | bound | M001 pred | ratio | bound-model pred | ratio |\n");
	fprintf(md, "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
	for (size_t r = 0; r < rt->nrows; r++)
		fprintf(md, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", gp_table_get(rt, r, "kernel"),
			gp_table_get(rt, r, "intensity_global"), gp_table_get(rt, r, "intensity_shared"),
			gp_table_get(rt, r, "intensity_shared_bank"), gp_table_get(rt, r, "gflops_measured"),
			gp_table_get(rt, r, "roof_global"), gp_table_get(rt, r, "roof_shared_bank"), gp_table_get(rt, r, "bound"),
			gp_table_get(mt, r, "gflops_m001"), gp_table_get(mt, r, "ratio_m001"),
			gp_table_get(mt, r, "gflops_bound"), gp_table_get(mt, r, "ratio_bound"));
	fprintf(md, "\nRatios are measured / predicted. M001 charges every tile load the L2 latency divided by the "
		"active threads (one load in flight per thread), as seed 000 did; kernels with many loads in flight "
		"beat it (ratio > 1), as Volkov's did on GT200 (343 vs 278.57).\n");
}

int gp_models_write(const char *run_dir, FILE *md)
{
	char err[512], path[4096];
	struct gp_machine m;
	struct gp_table *s = NULL, *rt = NULL, *mt = NULL;
	int rc = -1;

	const int ml = gp_machine_load(run_dir, &m, err, sizeof err);

	if (ml == -2) {
		/* A partial run without the FFMA rate (tput_fp32 did not run): nothing to model. */
		if (md)
			fprintf(md, "\n## Models: rooflines and predicted SGEMM GFLOP/s\n\nNot computed: this run did "
				    "not measure the FFMA rate (tput_fp32).\n");
		return 0;
	}
	if (ml < 0)
		goto out;
	snprintf(path, sizeof path, "%s/sgemm.csv", run_dir);
	if (access(path, F_OK) < 0) {
		/* A partial run: the section says so and nothing is written. */
		if (md)
			fprintf(md, "\n## Models: rooflines and predicted SGEMM GFLOP/s\n\nsgemm did not run in this run.\n");
		return 0;
	}
	s = gp_table_load(path, err, sizeof err);
	rt = gp_table_new(roof_cols, GP_ARRAY_SIZE(roof_cols));
	mt = gp_table_new(model_cols, GP_ARRAY_SIZE(model_cols));
	if (!s || !rt || !mt || add_rows(&m, s, rt, mt, err, sizeof err) < 0)
		goto out;
	if (gp_table_save_in(rt, run_dir, "roofline.csv", err, sizeof err) ||
	    gp_table_save_in(mt, run_dir, "models.csv", err, sizeof err))
		goto out;
	if (md)
		write_md(md, &m, rt, mt);
	rc = 0;
out:
	if (rc < 0)
		fprintf(stderr, "gpuprobe: models: %s\n", err);
	gp_table_free(s);
	gp_table_free(rt);
	gp_table_free(mt);
	return rc;
}
