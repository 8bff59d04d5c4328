/* test_tune_rank.c — the tuner's model over every ladder kernel, GPU-free, on the committed runs.
 *
 * The kernel table is bench/sgemm.list's ladder (every float line but cuBLAS, each once, with its
 * block tile, and a model for each pipe); Spearman's rho against hand-computed cases; on the H100
 * and H200 reference runs the measured best kernel is in `tune`'s default top N and every tensor-
 * core kernel stays under its predicted tensor roof; the TF32 wgmma rate is the measured one when
 * the run has it, else f16's times the measured TF32 : f16 ratio; the REPORT.md section and
 * tune_rank.csv; and bad input (no run, a malformed profile or sgemm.csv) as one line and a
 * non-zero exit. Runs from the repository root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp.h"
#include "models.h"
#include "sgemm.h"
#include "table.h"
#include "tune_rank.h"
#include "cli_test.h"

static const char *const reference_runs[] = { "results/h100-80gb-hbm3/20261124-135729",
	"results/h200/20261124-140704" };

/* ---------------------------------------------------------------- the kernel table */

static void test_kernels_are_the_ladder(void **state)
{
	static const int sizes[] = { 1, 192, 512, 768, 1009, 4096 };
	unsigned n = 0, tc = 0;
	char why[200], why2[200];

	(void)state;
	for (size_t i = 0; i < sg_nvariants; i++) {
		const struct sg_variant *v = &sg_variants[i];
		const struct gp_kernel *k;
		if (v->elem != 4 || v->kind == SG_K_CUBLAS)
			continue;
		/* Each ladder line once, in the list's order, with its own block tile. */
		assert_true(n < gp_nkernels);
		k = &gp_kernels[n++];
		assert_string_equal(k->name, v->name);
		assert_ptr_equal(gp_kernel_find(v->name), k);
		assert_true(k->bm == v->bm && k->bn == v->bn && k->bk == v->bk && k->any == v->any && k->vec4 == v->vec4);
		assert_int_equal(k->threads, v->bx * v->by);
		assert_int_equal(k->pipe == GP_KP_TC, v->pipe == SG_TF32X3_MMA);
		/* An FFMA tile is models.c's; a tensor-core kernel has its SG_TCMODEL. */
		assert_int_equal(k->model == GP_KM_TILE, gp_tile_find(k->name) != NULL);
		if (k->pipe == GP_KP_TC) {
			tc++;
			assert_int_equal(k->model, GP_KM_TC);
			assert_int_equal(k->tc.passes, 3);
			assert_true(k->tc.wm > 0 && k->tc.wn > 0 && k->tc.a_reads > 0 && k->tc.b_reads > 0);
			assert_int_equal(k->tc.inst, v->kind == SG_K_TMA ? GP_TC_wgmma : GP_TC_mma_sync);
		}
		for (size_t s = 0; s < GP_ARRAY_SIZE(sizes); s++) {
			const int z = sizes[s];
			assert_int_equal(gp_kernel_fits(k, z, why, sizeof why), sg_supports(v, z, z, z, z, z, z, why2, sizeof why2));
		}
	}
	assert_int_equal(n, gp_nkernels);
	assert_true(tc >= 5);
	/* the launch bounds' blocks per SM, from the list's minb */
	assert_int_equal(gp_kernel_find("sgemm_29_warptile")->minb, 2);
	assert_int_equal(gp_kernel_find("sgemm_48_regstage_256x128_saddr")->minb, 1);
	assert_null(gp_kernel_find("cublas"));
	assert_null(gp_kernel_find("dgemm_01_naive"));
}

/* ---------------------------------------------------------------- Spearman */

static void test_spearman_hand_computed(void **state)
{
	static const double up[] = { 1, 2, 3, 4, 5 }, down[] = { 50, 40, 30, 20, 10 }, sq[] = { 1, 4, 9, 16, 25 };
	static const double tx[] = { 1, 2, 2, 3 }, ty[] = { 10, 20, 30, 40 }, flat[] = { 7, 7, 7, 7 };

	(void)state;
	assert_float_equal(gp_spearman(up, sq, 5), 1.0, 1e-12);   /* monotone, not linear: still 1 */
	assert_float_equal(gp_spearman(up, down, 5), -1.0, 1e-12);
	/* Ties share their mean rank: x ranks 1, 2.5, 2.5, 4 against 1..4: 4.5 / sqrt(4.5 x 5). */
	assert_float_equal(gp_spearman(tx, ty, 4), 4.5 / sqrt(4.5 * 5.0), 1e-12);
	assert_true(isnan(gp_spearman(tx, flat, 4)));   /* a constant side has no order */
	assert_true(isnan(gp_spearman(up, down, 1)));
	assert_true(isnan(gp_spearman(up, down, 0)));
}

/* ---------------------------------------------------------------- the reference runs */

static struct gp_table *ranking(const char *run)
{
	char err[512];
	struct gp_table *t = gp_tune_rank(run, err, sizeof err);

	if (!t)
		fail_msg("%s", err);
	return t;
}

/* The kernel the run's profile names as its best ("best ladder kernel (NAME), ..."). */
static void profile_best(const char *run, char *name, size_t len)
{
	char path[PATH_MAX], err[256];
	struct gp_table *p;
	long r;
	const char *m, *a, *b;

	snprintf(path, sizeof path, "%s/profile.csv", run);
	assert_non_null(p = gp_table_load(path, err, sizeof err));
	assert_true((r = gp_table_find(p, 0, "key", "sgemm_best_gflops", NULL)) >= 0);
	m = gp_table_get(p, (size_t)r, "method");
	assert_non_null(a = strchr(m, '('));
	assert_non_null(b = strchr(a, ')'));
	snprintf(name, len, "%.*s", (int)(b - a - 1), a + 1);
	gp_table_free(p);
}

static void check_reference_run(const char *run)
{
	struct gp_table *t = ranking(run);
	struct gp_tune_summary s;
	char best[128];
	size_t measured = 0, rank_sum = 0;
	double prev = INFINITY, prev_next = NAN;

	/* A row for every ladder kernel, each once, predictions never rising. */
	assert_int_equal(t->nrows, gp_nkernels);
	for (unsigned i = 0; i < gp_nkernels; i++)
		assert_true(gp_table_find(t, 0, "kernel", gp_kernels[i].name, NULL) >= 0);
	for (size_t r = 0; r < t->nrows; r++) {
		const char *k = gp_table_get(t, r, "kernel"), *rm = gp_table_get(t, r, "rank_measured");
		const double p = gp_table_num(t, r, "gflops_predicted"), v = gp_table_num(t, r, "gflops_measured");
		const double next = gp_table_num(t, r, "gflops_next_limit");
		if (!(p > 0) || p > prev)
			fail_msg("%s: %s predicted %g after %g", run, k, p, prev);
		/* Equal predictions: the further next limit first (none last). */
		if (p == prev && (isnan(prev_next) ? !isnan(next) : next > prev_next))
			fail_msg("%s: %s's next limit %g after %g at the same prediction", run, k, next, prev_next);
		assert_true(isnan(next) || next > p);
		prev = p;
		prev_next = next;
		assert_true(*gp_table_get(t, r, "bound"));
		if (isnan(v)) {
			assert_string_equal(rm, "");
			continue;
		}
		measured++;
		rank_sum += (size_t)atol(rm);
		assert_float_equal(gp_table_num(t, r, "measured_over_predicted"), v / p, 1e-5 * v / p);
		/* A tensor-core kernel above its tensor roof would be a broken probe or a wrong rate. */
		if (gp_kernel_find(k)->pipe == GP_KP_TC && v > p)
			fail_msg("%s: %s measured %g above its predicted tensor roof %g", run, k, v, p);
	}
	/* rank_measured is 1..n over the measured kernels. */
	assert_int_equal(rank_sum, measured * (measured + 1) / 2);
	gp_tune_summarize(t, &s);
	assert_int_equal(s.n, measured);
	assert_true(s.rho > -1 && s.rho <= 1);
	/* The fastest measured kernel is the one the run's profile names, and `tune` measures it by
	 * default. */
	profile_best(run, best, sizeof best);
	assert_non_null(s.best);
	assert_string_equal(s.best, best);
	if (s.best_rank < 1 || s.best_rank > GP_TUNE_TOP)
		fail_msg("%s: the measured best %s is predicted rank %ld, outside the default top %d", run, best,
			 s.best_rank, GP_TUNE_TOP);
	/* The 128 x 256 mma.sync tile feeds from L2 at a higher rate than the 128 x 128 ones at the same
	 * tensor rate: it ranks first of them. */
	assert_true(gp_table_find(t, 0, "kernel", "sgemm_43_tc3xtf32_128x256", NULL) <
		    gp_table_find(t, 0, "kernel", "sgemm_41_tc3xtf32", NULL));
	print_message("%s: rho %.3f over %zu kernels; %s predicted rank %ld\n", run, s.rho, s.n, s.best, s.best_rank);
	gp_table_free(t);
}

/* A profile key's value, which must be there. */
static double key(const char *run, const char *k)
{
	char path[PATH_MAX], err[256];
	struct gp_table *p;
	long r;
	double v;

	snprintf(path, sizeof path, "%s/profile.csv", run);
	assert_non_null(p = gp_table_load(path, err, sizeof err));
	if ((r = gp_table_find(p, 0, "key", k, NULL)) < 0)
		fail_msg("%s lacks %s", path, k);
	v = gp_table_num(p, (size_t)r, "value");
	gp_table_free(p);
	return v;
}

static void test_reference_runs(void **state)
{
	(void)state;
	for (size_t i = 0; i < GP_ARRAY_SIZE(reference_runs); i++) {
		const char *run = reference_runs[i];
		struct gp_table *t = ranking(run);
		const long r45 = gp_table_find(t, 0, "kernel", "sgemm_45_wgmma3xtf32_128x256", NULL);
		const long r43 = gp_table_find(t, 0, "kernel", "sgemm_43_tc3xtf32_128x256", NULL);
		/* Neither run measured wgmma in TF32: f16's rate x tput_mma's TF32 : f16 ratio, over 3. */
		const double wg = key(run, "wgmma_f16_n256_tflops") * 1e3 *
				  key(run, "mma_tf32_f32_m16n8k8_flops_per_clk_per_sm") /
				  key(run, "mma_f16_f32_m16n8k16_flops_per_clk_per_sm") / 3;
		const double mma = key(run, "mma_tf32_f32_m16n8k8_tflops") * 1e3 / 3;

		check_reference_run(run);
		assert_true(r45 >= 0 && r43 >= 0);
		assert_float_equal(gp_table_num(t, (size_t)r45, "gflops_predicted"), wg, 1e-5 * wg);
		assert_float_equal(gp_table_num(t, (size_t)r43, "gflops_predicted"), mma, 1e-5 * mma);
		gp_table_free(t);
	}
}

/* ---------------------------------------------------------------- the tensor rates */

static const char meta[] = "key,value\nsm_count,132\nsm_clock_measured_MHz,1980\n";
#define PROFILE_HEAD "key,value,unit,method,source\nffma_ops_per_clk_per_sm,128,ops/clk/SM,x,tput_fp32\n" \
	"lds128_bytes_per_clk_per_sm,128,B/clk/SM,x,bw_smem\nl2_read_bw_GBps,7000,GB/s,x,bw_hbm\n"
#define MMA_KEYS "mma_tf32_f32_m16n8k8_flops_per_clk_per_sm,1000,x,x,tput_mma\n" \
	"mma_f16_f32_m16n8k16_flops_per_clk_per_sm,2000,x,x,tput_mma\nmma_tf32_f32_m16n8k8_tflops,300,x,x,tput_mma\n"

static void make_run(const char *dir, const char *name, const char *profile, char *path, size_t len)
{
	char f[PATH_MAX + 32];

	snprintf(path, len, "%s/%s", dir, name);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(f, sizeof f, "%s/meta.csv", path);
	write_file(f, meta);
	snprintf(f, sizeof f, "%s/profile.csv", path);
	write_file(f, profile);
}

static void test_tensor_rates(void **state)
{
	char path[PATH_MAX], err[512];
	struct gp_machine m;
	struct gp_table *t;
	long r;

	make_run(*state, "derived", PROFILE_HEAD MMA_KEYS "wgmma_f16_n256_tflops,900,x,x,tput_wgmma\n", path, sizeof path);
	assert_int_equal(gp_machine_load(path, &m, err, sizeof err), 0);
	assert_float_equal(m.tf32_mma_gflops, 300e3, 1e-6);
	assert_float_equal(m.tf32_wgmma_gflops, 900e3 * 1000 / 2000, 1e-6);   /* f16 x the TF32 : f16 ratio */
	assert_true(m.tf32_wgmma_derived);
	make_run(*state, "measured", PROFILE_HEAD MMA_KEYS "wgmma_f16_n256_tflops,900,x,x,tput_wgmma\n"
				     "wgmma_tf32_n256_tflops,420,x,x,tput_wgmma\n", path, sizeof path);
	assert_int_equal(gp_machine_load(path, &m, err, sizeof err), 0);
	assert_float_equal(m.tf32_wgmma_gflops, 420e3, 1e-6);
	assert_false(m.tf32_wgmma_derived);
	/* The wgmma kernel: its tensor roof is the rate over 3 products. */
	t = ranking(path);
	assert_true((r = gp_table_find(t, 0, "kernel", "sgemm_45_wgmma3xtf32_128x256", NULL)) >= 0);
	assert_float_equal(gp_table_num(t, (size_t)r, "gflops_predicted"), 140e3, 1e-3);
	assert_string_equal(gp_table_get(t, (size_t)r, "bound"), "tensor rate");
	gp_table_free(t);
	/* No tensor rate and no sgemm.csv: the tensor-core kernels cannot be predicted and rank last. */
	make_run(*state, "fp32only", PROFILE_HEAD, path, sizeof path);
	t = ranking(path);
	for (size_t i = 0; i < t->nrows; i++) {
		const int is_tc = gp_kernel_find(gp_table_get(t, i, "kernel"))->pipe == GP_KP_TC;
		assert_int_equal(isnan(gp_table_num(t, i, "gflops_predicted")), is_tc);
		if (is_tc) {
			assert_true(i >= t->nrows - 5);
			assert_string_equal(gp_table_get(t, i, "bound"), "no tensor rate in this run");
		}
	}
	gp_table_free(t);
}

/* The models on a made-up machine, by hand: 100 SMs at 1000 MHz, FFMA 128/clk/SM (25600 GFLOP/s),
 * shared memory 128 B/clk/SM (12800 GB/s), L2 4000 GB/s; TF32 mma.sync 60000, wgmma 90000 GFLOP/s. */
static void test_models_by_hand(void **state)
{
	struct gp_machine m = { .sms = 100, .mhz = 1000, .ffma_per_clk_sm = 128, .lds_Bpc = { 128, 128, 128 },
				.lds_latency = 20, .ffma_latency = 4, .l2_latency = 256, .hbm_GBps = 1000,
				.l2_GBps = 4000, .fp32_gflops = 25600, .tf32_mma_gflops = 60000,
				.tf32_wgmma_gflops = 90000 };
	const struct gp_kernel mma = { "mma", GP_KP_TC, 128, 128, 32, 256, 0, 1, 1, GP_KM_TC,
				       { GP_TC_mma_sync, 3, 64, 32, 1, 1 } };
	const struct gp_kernel wg = { "wg", GP_KP_TC, 128, 256, 32, 384, 1, 1, 1, GP_KM_TC,
				      { GP_TC_wgmma, 3, 64, 256, 1, 3 } };
	const struct gp_kernel none = { "none", GP_KP_FFMA, 128, 128, 8, 256, 0, 1, 2, GP_KM_NONE, { 0 } };
	const char *why;
	double next;

	(void)state;
	/* mma.sync: 60000 / 3 = 20000 under L2 (32 flop/B x 4000 = 128000) and smem (64 x 32 warp tile:
	 * 2 x 64 x 32 / (4 x 96) = 10.67 flop/B x 12800 = 136533). */
	assert_float_equal(gp_kernel_predict(&m, &mma, 256, NAN, &why, &next), 20000, 1e-9);
	assert_string_equal(why, "tensor rate");
	assert_float_equal(next, 128000, 1e-6);
	/* A ceiling below the tensor rate lowers it; it is not the next limit of anything. */
	assert_float_equal(gp_kernel_predict(&m, &mma, 256, 15000, &why, &next), 15000, 1e-9);
	assert_string_equal(why, "ceiling");
	assert_float_equal(next, 128000, 1e-6);
	/* A slower L2 (500 GB/s: 16000) binds. */
	m.l2_GBps = 500;
	assert_float_equal(gp_kernel_predict(&m, &mma, 256, NAN, &why, &next), 16000, 1e-9);
	assert_string_equal(why, "L2 feed");
	assert_float_equal(next, 20000, 1e-9);
	m.l2_GBps = 4000;
	/* wgmma: B read 3 times: 2 x 64 x 256 / (4 x (64 + 768)) = 9.846 flop/B x 12800 = 126031, above
	 * 90000 / 3; with 16 B/clk/SM of shared memory (1600 GB/s: 15754) it binds. */
	assert_float_equal(gp_kernel_predict(&m, &wg, 384, NAN, &why, &next), 30000, 1e-9);
	m.lds_Bpc[2] = 16;
	assert_float_equal(gp_kernel_predict(&m, &wg, 384, NAN, &why, &next), 2.0 * 64 * 256 / (4.0 * 832) * 1600, 1e-6);
	assert_string_equal(why, "smem feed");
	/* No tensor rate and no ceiling: no prediction. */
	m.tf32_wgmma_gflops = NAN;
	assert_true(isnan(gp_kernel_predict(&m, &wg, 384, NAN, &why, &next)));
	assert_string_equal(why, "no tensor rate in this run");
	/* A kernel without a model: its pipe's roof, under the L2 feed of its tile. */
	assert_float_equal(gp_kernel_predict(&m, &none, 512, NAN, &why, &next), 25600, 1e-9);
	assert_string_equal(why, "roof (no model)");
	m.l2_GBps = 400;   /* 32 flop/B x 400 = 12800 */
	assert_float_equal(gp_kernel_predict(&m, &none, 512, NAN, &why, &next), 12800, 1e-9);
	assert_string_equal(why, "L2 feed");
}

/* ---------------------------------------------------------------- the report section */

static void copy_run(const char *from, const char *dir, char *path, size_t len)
{
	static const char *const files[] = { "meta.csv", "profile.csv", "sgemm.csv" };
	char f[PATH_MAX + 32];

	snprintf(path, len, "%s/copy", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	for (size_t i = 0; i < GP_ARRAY_SIZE(files); i++) {
		char *text;
		snprintf(f, sizeof f, "%s/%s", from, files[i]);
		text = slurp(f);
		snprintf(f, sizeof f, "%s/%s", path, files[i]);
		write_file(f, text);
		free(text);
	}
}

static void test_report_section(void **state)
{
	char path[PATH_MAX], f[PATH_MAX + 32], err[256], *text = NULL;
	size_t len = 0;
	struct gp_table *t;
	FILE *md;

	copy_run(reference_runs[0], *state, path, sizeof path);
	assert_non_null(md = open_memstream(&text, &len));
	assert_int_equal(gp_tune_report(path, md), 0);
	assert_int_equal(fclose(md), 0);
	assert_non_null(strstr(text, "## Tuner: predicted against measured"));
	assert_non_null(strstr(text, "Spearman's rank correlation over the 38 kernels with both"));
	assert_non_null(strstr(text, "| 1 | sgemm_45_wgmma3xtf32_128x256 | 3xtf32 tensor | tensor rate | "));
	assert_non_null(strstr(text, "| sgemm_29_warptile | fp32 ffma |"));
	snprintf(f, sizeof f, "%s/tune_rank.csv", path);
	assert_non_null(t = gp_table_load(f, err, sizeof err));
	assert_int_equal(t->nrows, gp_nkernels);
	gp_table_free(t);
	free(text);
	/* Without sgemm.csv: the section says so and writes no file. */
	unlink(f);
	snprintf(f, sizeof f, "%s/sgemm.csv", path);
	assert_int_equal(unlink(f), 0);
	text = NULL;
	assert_non_null(md = open_memstream(&text, &len));
	assert_int_equal(gp_tune_report(path, md), 0);
	assert_int_equal(fclose(md), 0);
	assert_non_null(strstr(text, "Not computed: sgemm did not run in this run."));
	snprintf(f, sizeof f, "%s/tune_rank.csv", path);
	assert_false(exists(f));
	free(text);
}

/* ---------------------------------------------------------------- bad input */

#define BIN(dir, ...) run_env((dir), NULL, (const char *const[]){ __VA_ARGS__, NULL })

static void test_bad_input(void **state)
{
	const char *dir = *state;
	char path[PATH_MAX], f[PATH_MAX + 32], *text, *p;
	struct result r;

	/* No run there, or a file where the run should be: a wrong argument (2). */
	r = BIN(dir, "tune", "sgemm", "/nonexistent/run", "--no-measure");
	one_line_error(&r, GP_EUSAGE, "not a directory");
	result_free(&r);
	snprintf(f, sizeof f, "%s/file", dir);
	write_file(f, "x\n");
	r = BIN(dir, "tune", "sgemm", f, "--no-measure");
	one_line_error(&r, GP_EUSAGE, "not a directory");
	result_free(&r);
	/* A tensor rate that is not a number: bad CSV (3), the file, line and key named. */
	make_run(dir, "badrate", PROFILE_HEAD "mma_tf32_f32_m16n8k8_tflops,3OO,x,x,tput_mma\n", path, sizeof path);
	r = BIN(dir, "tune", "sgemm", path, "--no-measure");
	one_line_error(&r, GP_ECONFIG, "profile.csv: line 5: mma_tf32_f32_m16n8k8_tflops is '3OO', not a number");
	assert_string_equal(r.out, "");
	result_free(&r);
	/* An sgemm.csv whose ceiling is no number: bad CSV naming file, line and column. */
	copy_run(reference_runs[0], dir, path, sizeof path);
	snprintf(f, sizeof f, "%s/sgemm.csv", path);
	text = slurp(f);
	assert_non_null(p = strstr(text, ",3xtf32 mma,"));
	memcpy(p + strlen(",3xtf32 mma,"), "x", 1);
	write_file(f, text);
	free(text);
	r = BIN(dir, "tune", "sgemm", path, "--no-measure");
	one_line_error(&r, GP_ECONFIG, "column 34 (ceiling_gflops)");
	assert_string_equal(r.out, "");
	result_free(&r);
}

/* The older H100 run tests/test_tune.c ranks (its sgemm.csv's rows say "single"). */
#define RUN "results/h100-80gb-hbm3/20261124-100211"

static void test_cli_errors(void **state)
{
	static const struct {
		const char *argv[6];
		const char *says;
	} usage[] = {
		{ { "tune" }, "usage" },
		{ { "tune", "dgemm", RUN }, "usage" },
		{ { "tune", "sgemm", RUN, "--top", "0" }, "--top" },
		{ { "tune", "sgemm", RUN, "--size", "99999" }, "--size" },
		{ { "tune", "sgemm", RUN, "--frob" }, "'--frob'" },
		{ { "tune", "sgemm", "/nonexistent/run" }, "not a directory" },
	};
	/* A run whose CSV is broken (ragged) or lacks what the model needs: bad CSV (3). */
	static const struct {
		const char *name, *profile, *says;
	} bad[] = {
		{ "ragged", "key,value,unit,method,source\nffma_ops_per_clk_per_sm,126\n", NULL },
		{ "noffma", "key,value,unit,method,source\nhbm_read_bw_GBps,3000,GB/s,x,bw_hbm\n", "FFMA" },
	};
	const char *dir = *state;
	char path[PATH_MAX];
	struct result r;

	for (size_t i = 0; i < GP_ARRAY_SIZE(usage); i++) {
		r = run_env(dir, NULL, usage[i].argv);
		one_line_error(&r, GP_EUSAGE, usage[i].says);
		result_free(&r);
	}
	/* A directory that is no run: a wrong argument (2), like `report`. */
	snprintf(path, sizeof path, "%s/empty", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	r = BIN(dir, "tune", "sgemm", path, "--no-measure");
	one_line_error(&r, GP_EUSAGE, "profile.csv");
	assert_string_equal(r.out, "");
	result_free(&r);
	for (size_t i = 0; i < GP_ARRAY_SIZE(bad); i++) {
		make_run(dir, bad[i].name, bad[i].profile, path, sizeof path);
		r = BIN(dir, "tune", "sgemm", path);
		one_line_error(&r, GP_ECONFIG, bad[i].says);
		assert_string_equal(r.out, "");
		result_free(&r);
	}
}

/* A run whose sgemm.csv does not read back (a number that is not one) is a bad CSV naming the
 * file, line and column (3), not a ranking on NaN. */
static void test_cli_corrupt_sgemm_csv(void **state)
{
	static const char *const files[] = { "meta.csv", "profile.csv", "sgemm.csv" };
	const char *dir = *state;
	char path[PATH_MAX], f[PATH_MAX + 32], *text, *p;
	struct result r;

	snprintf(path, sizeof path, "%s/corrupt", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	for (size_t i = 0; i < GP_ARRAY_SIZE(files); i++) {
		snprintf(f, sizeof f, "%s/%s", RUN, files[i]);
		assert_non_null(text = slurp(f));
		/* sgemm.csv: the first row's size m (",single,4096,") becomes "x096" */
		if (!strcmp(files[i], "sgemm.csv")) {
			assert_non_null(p = strstr(text, ",single,"));
			p[8] = 'x';
		}
		snprintf(f, sizeof f, "%s/%s", path, files[i]);
		write_file(f, text);
		free(text);
	}
	r = BIN(dir, "tune", "sgemm", path, "--no-measure");
	one_line_error(&r, GP_ECONFIG, "sgemm.csv: line 2, column 4 (m)");
	assert_string_equal(r.out, "");
	result_free(&r);
}

#define T(f) cmocka_unit_test_setup_teardown(f, tmp_setup, tmp_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernels_are_the_ladder),
		cmocka_unit_test(test_spearman_hand_computed),
		cmocka_unit_test(test_reference_runs),
		T(test_tensor_rates),
		cmocka_unit_test(test_models_by_hand),
		T(test_report_section),
		T(test_bad_input),
		T(test_cli_errors),
		T(test_cli_corrupt_sgemm_csv),
	};

	if (access(binary(), X_OK)) {
		fprintf(stderr, "test_tune_rank: %s is not an executable (run from the repository root after make)\n",
			binary());
		return 1;
	}
	return cmocka_run_group_tests_name("tune_rank", tests, NULL, NULL);
}
