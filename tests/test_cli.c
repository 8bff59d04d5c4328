/* test_cli.c — the gpuprobe command line as a user meets it, run as a child process.
 *
 * The binary is $GPUPROBE, else bin/gpuprobe (make test runs from the repository root). What is
 * held: the exit status says which class of failure happened (gp.h), a failure prints exactly
 * one "gpuprobe: ..." line on stderr, a bad suite is refused (exit 3) before a GPU is looked
 * for, `report` works without a GPU or gnuplot, and nothing a failed run does touches earlier
 * results. The no-GPU exit (4) is only asserted where libcuda.so.1 cannot be loaded; the GPU
 * paths are tested by test_gpu. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gp.h"
#include "cli_test.h"
#include "version.h"
#include "experiment.h"

#define RUN(dir, ...) run_env((dir), NULL, (const char *const[]){ __VA_ARGS__, NULL })

/* ---------------------------------------------------------------- helpers */


static int no_gpu;
static char no_gpu_why[256];





static int group_setup(void **state)
{
	void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);

	if (h) {
		dlclose(h);
		snprintf(no_gpu_why, sizeof no_gpu_why,
			 "libcuda.so.1 loads here, so a GPU may be present (the GPU paths are test_gpu's)");
	} else {
		no_gpu = 1;
	}
	if (access(binary(), X_OK)) {
		fprintf(stderr, "test_cli: %s is not an executable (set GPUPROBE or run from the "
				"repository root after make)\n", binary());
		return -1;
	}
	return 0;
}










/* ---------------------------------------------------------------- version, help, list */

static void test_version(void **state)
{
	static const char *const flags[] = { "--version", "-V" };
	const char *want = "gpuprobe " GP_VERSION " (git ";

	for (size_t i = 0; i < GP_ARRAY_SIZE(flags); i++) {
		struct result r = RUN(*state, flags[i]);
		if (r.status || strncmp(r.out, want, strlen(want)) || !strstr(r.out, ")\n") || *r.err) {
			show(&r);
			fail_msg("%s: expected exit 0 and '%s...)' on stdout only", flags[i], want);
		}
		result_free(&r);
	}
}

static void test_help(void **state)
{
	static const char *const flags[] = { "--help", "-h" };
	static const char *const words[] = { "usage: gpuprobe", "list", "info", "run", "report",
					     "--suite", "--filter", "--out", "--reps" };

	for (size_t i = 0; i < GP_ARRAY_SIZE(flags); i++) {
		struct result r = RUN(*state, flags[i]);
		if (r.status || *r.err)
			show(&r);
		assert_int_equal(r.status, 0);
		assert_string_equal(r.err, "");
		for (size_t w = 0; w < GP_ARRAY_SIZE(words); w++)
			if (!strstr(r.out, words[w]))
				fail_msg("%s does not mention %s", flags[i], words[w]);
		result_free(&r);
	}
}

static void test_list(void **state)
{
	struct result r = RUN(*state, "list");

	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	for (size_t i = 0; i < gp_nexperiments; i++) {
		const struct gp_experiment *e = gp_experiments[i];
		char line[128];
		snprintf(line, sizeof line, "\n%s ", e->name);
		if (!strstr(r.out, line))
			fail_msg("list does not show '%s' at the start of a line", e->name);
		if (!strstr(r.out, e->id))
			fail_msg("list does not show the id %s of %s", e->id, e->name);
		for (size_t k = 0; k < e->impl->nparams; k++)
			if (!strstr(r.out, e->impl->params[k].name))
				fail_msg("list does not show %s.%s", e->name, e->impl->params[k].name);
	}
	result_free(&r);
	r = RUN(*state, "list", "extra");
	one_line_error(&r, GP_EUSAGE, NULL);
	result_free(&r);
}

/* ---------------------------------------------------------------- usage errors: exit 2 */

static void test_unknown_command(void **state)
{
	struct result r = RUN(*state, "frobnicate");

	one_line_error(&r, GP_EUSAGE, "'frobnicate'");
	result_free(&r);
	r = run_env(*state, NULL, (const char *const[]){ NULL });
	one_line_error(&r, GP_EUSAGE, "command");
	result_free(&r);
}

static void test_unknown_experiment(void **state)
{
	struct result r = RUN(*state, "run", "lat_nope");

	one_line_error(&r, GP_EUSAGE, "'lat_nope'");
	result_free(&r);
	r = RUN(*state, "run", "--suite", "configs/quick.csv", "lat_ffma", "lat_nope");
	one_line_error(&r, GP_EUSAGE, "'lat_nope'");
	result_free(&r);
}

static void test_bad_numbers(void **state)
{
	static const char *const bad[][2] = {
		{ "--reps", "x" }, { "--reps", "0" }, { "--reps", "1001" }, { "--reps", "5x" },
		{ "--reps", "" }, { "--warmup", "-1" }, { "--device", "gpu0" },
		{ "--reps", "99999999999999999999" }, { "--timeout", "0" }, { "--reps-max", "0" },
		{ "--reps-max", "10001" }, { "--target-rsd", "x" }, { "--target-rsd", "0" }, { "--target-rsd", "51" },
		{ "--max-point-s", "0" },
	};

	for (size_t i = 0; i < GP_ARRAY_SIZE(bad); i++) {
		struct result r = RUN(*state, "run", bad[i][0], bad[i][1], "lat_ffma");
		one_line_error(&r, GP_EUSAGE, bad[i][0]);
		result_free(&r);
	}
}

static void test_bad_filter(void **state)
{
	struct result r = RUN(*state, "run", "--filter", "(");

	one_line_error(&r, GP_EUSAGE, "--filter");
	result_free(&r);
	/* a filter that selects nothing is a usage error too, not an empty run */
	r = RUN(*state, "run", "--suite", "configs/quick.csv", "--filter", "^zzz$");
	one_line_error(&r, GP_EUSAGE, NULL);
	result_free(&r);
}

/* Adaptive repetitions that cannot work: fewer than the fixed count, or a time budget per point
 * the watchdog would cut. */
static void test_bad_adaptive_reps(void **state)
{
	struct result r = RUN(*state, "run", "--reps", "5", "--reps-max", "3", "lat_ffma");

	one_line_error(&r, GP_EUSAGE, "--reps-max");
	result_free(&r);
	r = RUN(*state, "run", "--reps-max", "50", "--max-point-s", "60", "--timeout", "30", "lat_ffma");
	one_line_error(&r, GP_EUSAGE, "--max-point-s");
	result_free(&r);
}

/* getopt's own complaint must not add a second line to ours. */
static void test_unknown_option(void **state)
{
	static const char *const cmds[][2] = {
		{ "run", "--bogus" }, { "info", "--bogus" }, { "report", "--bogus" }, { "run", "--reps" },
		{ "fleet", "--bogus" }, { "run", "--reps-max" },
	};

	for (size_t i = 0; i < GP_ARRAY_SIZE(cmds); i++) {
		struct result r = RUN(*state, cmds[i][0], cmds[i][1]);
		one_line_error(&r, GP_EUSAGE, NULL);
		result_free(&r);
	}
}

/* ---------------------------------------------------------------- bad suites: exit 3, no GPU needed */

static void bad_suite(const char *dir, const char *text, const char *want1, const char *want2)
{
	char suite[PATH_MAX], out[PATH_MAX];
	struct result r;

	snprintf(suite, sizeof suite, "%s/suite.csv", dir);
	snprintf(out, sizeof out, "%s/results", dir);
	if (text)
		write_file(suite, text);
	r = RUN(dir, "run", "--suite", suite, "--out", out);
	one_line_error(&r, GP_ECONFIG, want1);
	if (want2 && !strstr(r.err, want2)) {
		show(&r);
		fail_msg("message does not name '%s'", want2);
	}
	/* refused before anything was created */
	assert_false(exists(out));
	result_free(&r);
	unlink(suite);
}

static void test_suite_ragged(void **state)
{
	bad_suite(*state, "experiment,parameter,values\nlat_ffma,iters,4\nlat_ffma,threads\n", "line 3",
		  "suite.csv");
}

static void test_suite_unknown_experiment(void **state)
{
	bad_suite(*state, "experiment,parameter,values\nlat_nope,,\n", "'lat_nope'", "line 2");
}

static void test_suite_out_of_range(void **state)
{
	bad_suite(*state, "experiment,parameter,values\nlat_ffma,threads,32 5000\n", "5000", "threads");
}

static void test_suite_empty_file(void **state)
{
	bad_suite(*state, "", "empty", "suite.csv");
}

static void test_suite_missing_file(void **state)
{
	bad_suite(*state, NULL, "suite.csv", NULL);
}

static void test_suite_too_many_points(void **state)
{
	bad_suite(*state,
		  "experiment,parameter,values\nlat_ffma,threads,1:1024:1\nlat_ffma,iters,1:1000:1\n",
		  "more than 100000", "lat_ffma");
}

/* ---------------------------------------------------------------- report: no GPU, no gnuplot */

static void test_report_not_a_run_dir(void **state)
{
	struct result r = RUN(*state, "report", *state);

	one_line_error(&r, GP_EUSAGE, "meta.csv");
	result_free(&r);
	r = RUN(*state, "report");
	one_line_error(&r, GP_EUSAGE, NULL);
	result_free(&r);
}

static void test_report_bad_meta(void **state)
{
	char path[PATH_MAX];
	struct result r;

	snprintf(path, sizeof path, "%s/meta.csv", (char *)*state);
	write_file(path, "name,thing\na,b\n");
	r = RUN(*state, "report", *state);
	one_line_error(&r, GP_ECONFIG, "meta.csv");
	snprintf(path, sizeof path, "%s/REPORT.md", (char *)*state);
	assert_false(exists(path));
	result_free(&r);
}

static void make_run_dir(const char *dir)
{
	const struct gp_experiment *e = gp_experiment_find("lat_ffma");
	struct gp_table *t;
	char path[PATH_MAX], err[128];

	assert_non_null(e);
	snprintf(path, sizeof path, "%s/meta.csv", dir);
	write_file(path, "key,value\n"
			 "gpuprobe_version,0.1.0\n"
			 "device_name,NVIDIA H100 80GB HBM3\n"
			 "compute_capability,9.0\n"
			 "sm_count,132\n"
			 "sm_clock_max_MHz,1980\n"
			 "status,complete\n"
			 "command_line,\"gpuprobe run --suite configs/quick.csv, then report\"\n");
	/* lat_ffma.csv with the registry's real columns */
	t = gp_table_new(e->impl->columns, e->impl->ncolumns);
	assert_non_null(t);
	for (int row = 0; row < 2; row++) {
		assert_int_equal(gp_row_begin(t), 0);
		for (size_t c = 0; c < e->impl->ncolumns; c++)
			assert_int_equal(gp_row_str(t, e->impl->columns[c], "1"), 0);
		assert_int_equal(gp_row_int(t, "threads", row ? 1024 : 32), 0);
		assert_int_equal(gp_row_num(t, "cycles_per_ffma_min", 4.125), 0);
		assert_int_equal(gp_row_str(t, "status", "ok"), 0);
		assert_int_equal(gp_row_end(t, err, sizeof err), 0);
	}
	snprintf(path, sizeof path, "%s/lat_ffma.csv", dir);
	assert_int_equal(gp_table_save(t, path), 0);
	gp_table_free(t);
}

static void test_report_writes_markdown(void **state)
{
	static const char *const env[] = { "GNUPLOT=/nonexistent/gnuplot", NULL };
	char run[PATH_MAX], path[PATH_MAX + 16], *md;
	struct dirent **ents;
	struct result r;
	int n;

	snprintf(run, sizeof run, "%s/h100-80gb-hbm3/20250101-000000", (char *)*state);
	snprintf(path, sizeof path, "%s/h100-80gb-hbm3", (char *)*state);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(mkdir(run, 0700), 0);
	make_run_dir(run);
	r = run_env(*state, env, (const char *const[]){ "report", run, NULL });
	if (r.status)
		show(&r);
	assert_int_equal(r.status, 0);
	snprintf(path, sizeof path, "%s/REPORT.md", run);
	md = slurp(path);
	if (!strstr(md, "NVIDIA H100 80GB HBM3") || !strstr(md, "4.125") || !strstr(md, "lat_ffma") ||
	    !strstr(md, "tput_fp32"))
		fail_msg("REPORT.md lacks the device name, the measured value or a section:\n%s", md);
	free(md);
	/* no temporary file left, inputs still there */
	n = scandir(run, &ents, NULL, alphasort);
	assert_true(n >= 0);
	for (int i = 0; i < n; i++) {
		if (strstr(ents[i]->d_name, ".tmp."))
			fail_msg("temporary file %s left in the run directory", ents[i]->d_name);
		free(ents[i]);
	}
	free(ents);
	snprintf(path, sizeof path, "%s/lat_ffma.csv", run);
	assert_true(exists(path));
	result_free(&r);
}

/* Copy the CSVs of a committed run (its measured tables, meta and profile; not the report's own
 * roofline/models outputs) into a fresh run directory DIR/h100-80gb-hbm3/<name of the run>,
 * which is written to run; returns how many. */
static int copy_committed_csvs(const char *committed, const char *dir, char *run, size_t runlen)
{
	char from[PATH_MAX + 64], to[PATH_MAX + 64];
	struct dirent **ents;
	int n, csvs = 0;

	if (access(committed, R_OK))
		fail_msg("%s not readable (make test runs from the repository root)", committed);
	snprintf(run, runlen, "%s/h100-80gb-hbm3", dir);
	if (mkdir(run, 0700) && errno != EEXIST)
		fail_msg("mkdir %s: %s", run, strerror(errno));
	snprintf(run, runlen, "%s/h100-80gb-hbm3/%s", dir, strrchr(committed, '/') + 1);
	assert_int_equal(mkdir(run, 0700), 0);
	n = scandir(committed, &ents, NULL, alphasort);
	assert_true(n > 0);
	for (int i = 0; i < n; i++) {
		const char *d = ents[i]->d_name;
		const size_t l = strlen(d);
		if (l > 4 && !strcmp(d + l - 4, ".csv") && strcmp(d, "roofline.csv") && strcmp(d, "models.csv")) {
			char *text;
			size_t len;
			snprintf(from, sizeof from, "%s/%s", committed, d);
			snprintf(to, sizeof to, "%s/%s", run, d);
			text = gp_read_file(from, &len);
			assert_non_null(text);
			write_bytes(to, text, len);
			free(text);
			csvs++;
		}
		free(ents[i]);
	}
	free(ents);
	return csvs;
}

/* A chart file exists, is not trivially small and, for SVG, holds the given text. */
static void assert_chart(const char *run, const char *name, const char *text)
{
	char path[PATH_MAX + 64];
	struct stat st;

	for (int k = 0; k < 2; k++) {
		snprintf(path, sizeof path, "%s/%s.%s", run, name, k ? "png" : "svg");
		if (stat(path, &st) || st.st_size < 1000)
			fail_msg("%s missing or empty", path);
	}
	if (text) {
		char *svg;
		snprintf(path, sizeof path, "%s/%s.svg", run, name);
		svg = slurp(path);
		if (!strstr(svg, text))
			fail_msg("%s does not show \"%s\"", path, text);
		free(svg);
	}
}

/* `gpuprobe report RUN` must succeed; returns its REPORT.md. */
static char *render_report(const char *dir, const char *run)
{
	char path[PATH_MAX + 16];
	struct result r = RUN(dir, "report", run);

	if (r.status)
		show(&r);
	assert_int_equal(r.status, 0);
	result_free(&r);
	snprintf(path, sizeof path, "%s/REPORT.md", run);
	return slurp(path);
}

static int have_gnuplot(void)
{
	return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

/* The committed H100 reference run (the default suite) re-rendered from its CSVs alone, as CI
 * does on a machine without a GPU: exit 0, a section in its paper's layout for every experiment
 * of the registry (measured or "did not run"), the models, the Table 5 planner and the profile,
 * the paper GPUs' numbers beside ours, and, where gnuplot is installed (CI installs it), both
 * chart files of every experiment that has a CSV and of the roofline. */
#define COMMITTED_RUN "results/h100-80gb-hbm3/20261123-155721"
static void test_report_committed_run(void **state)
{
	char run[PATH_MAX], path[PATH_MAX + 64], *md;
	const int gnuplot = have_gnuplot();

	assert_true(copy_committed_csvs(COMMITTED_RUN, *state, run, sizeof run) > 30);
	md = render_report(*state, run);
	for (size_t e = 0; e < gp_nexperiments; e++) {
		const char *name = gp_experiments[e]->name;
		char head[128], chart[160];
		snprintf(head, sizeof head, "## %s — ", name);
		if (!strstr(md, head))
			fail_msg("REPORT.md has no section for %s", name);
		snprintf(path, sizeof path, "%s/%s.csv", run, name);
		if (!gnuplot || !exists(path))
			continue;
		snprintf(chart, sizeof chart, "![%s](%s.svg)", name, name);
		if (!strstr(md, chart))
			fail_msg("REPORT.md does not show the %s chart", name);
		assert_chart(run, name, NULL);
	}
	if (!strstr(md, "## Models") || !strstr(md, "## Schedule planner (seed 001 Table 5") ||
	    !strstr(md, "## Tuning profile") || !strstr(md, "K20m") || !strstr(md, "C1060") || !strstr(md, "V100"))
		fail_msg("REPORT.md lacks the models, the planner, the profile or the paper GPUs' numbers");
	/* With the build's SGEMM cubin (make builds it) the planner shows what sgemm_29 achieves. */
	if (!access("build/cubins/sgemm.sm_90.cubin", R_OK) && !strstr(md, "Achieved by `sgemm_29_warptile`"))
		fail_msg("REPORT.md lacks the load-to-use distances sgemm_29 achieves");
	if (gnuplot) {
		snprintf(path, sizeof path, "%s/roofline.svg", run);
		assert_true(exists(path));
	} else {
		print_message("gnuplot not installed: charts not checked\n");
	}
	free(md);
}

/* A committed run, its report rendered again here: how many CSVs it has at least, strings its
 * REPORT.md must hold, and charts (name, a text their SVG must hold). */
struct committed_case {
	const char *run;
	int min_csvs;
	const char *md[4];
	const char *chart[4][2];
};

static void check_committed_run(void **state, const struct committed_case *c)
{
	char run[PATH_MAX], *md;

	assert_true(copy_committed_csvs(c->run, *state, run, sizeof run) >= c->min_csvs);
	md = render_report(*state, run);
	for (size_t i = 0; i < GP_ARRAY_SIZE(c->md) && c->md[i]; i++)
		if (!strstr(md, c->md[i]))
			fail_msg("%s: REPORT.md lacks \"%s\":\n%s", c->run, c->md[i], md);
	free(md);
	if (!have_gnuplot()) {
		print_message("gnuplot not installed: charts of %s not checked\n", c->run);
		return;
	}
	for (size_t i = 0; i < GP_ARRAY_SIZE(c->chart) && c->chart[i][0]; i++)
		assert_chart(run, c->chart[i][0], c->chart[i][1]);
}

/* The committed paper sweeps: seed 001's square sizes to 12288 give the report its Figure 9 table
 * (the 12x12 steps need sizes divisible by 192) and the SGEMM chart its third panel; the
 * occupancy chart has a panel per size, with cuBLAS; the shapes run at W = 384..3072 has every
 * fixed-tile kernel on every shape. */
static void test_report_paper_sgemm_runs(void **state)
{
	static const struct committed_case cases[] = {
		{ "results/h100-80gb-hbm3/20261123-170746", 3,
		  { "Seed 001 Figure 9 layout at 12288", "| 4 | sgemm_28_k1_12x12_nordb | 2", "| 12288 |" },
		  { { "sgemm", "Figure 9 steps at 12288" } } },
		{ "results/h100-80gb-hbm3/20261123-170650", 6,
		  { "| sgemm_07_method2 | 3072 |", "Seed 001 Figure 8 layout" },
		  { { "sgemm_occupancy", "m = n = k = 3072" },
		    { "sgemm_occupancy", "cuBLAS" },
		    { "sgemm_shapes", "4ww4w" } } },
		{ "results/h100-80gb-hbm3/20261123-183015", 3,
		  { "| w4ww | 3072 | sgemm_43_tc3xtf32_128x256 |", "| 4w2ww | 3072 | sgemm_29_warptile |",
		    "| www | 384 | sgemm_26_k1_12x12 |" },
		  { { "sgemm_shapes", "sgemm_43_tc3xtf32_128x256" } } },
	};

	for (size_t i = 0; i < GP_ARRAY_SIZE(cases); i++)
		check_committed_run(state, &cases[i]);
}

/* The paper suite's probe runs: a TLB sweep over two page strides gets a level table and a curve
 * per stride (the first stride alone hid the 32 MiB curve); a register-bank run whose 8-warp
 * points all faulted still gets its table and chart at the most warps that ran; TSM2R at two t3
 * per kernel and m (the chart keeps the best), interrupted by the call's limit, says so and still
 * has the ladder. */
static void test_report_paper_probe_runs(void **state)
{
	static const struct committed_case cases[] = {
		{ "results/h100-80gb-hbm3/20261123-185445", 4,
		  { "Page-stride chase, `cg` path, 2048 KiB stride:", "Page-stride chase, `cg` path, 32768 KiB stride:" },
		  { { "lat_mem_tlb", "cg path, 32 MiB stride" } } },
		{ "results/h100-80gb-hbm3/20261123-184557", 10,
		  { "Rows at 4 warps per SMSP." },
		  { { "regbank_ffma", "reuse on every source" } } },
		{ "results/h100-80gb-hbm3/20261123-190547", 3,
		  { "| v0 | single |", "| v3 | double |", "| status | interrupted |" },
		  { { "tsm2r", "double, n = 16: speedup" } } },
	};

	for (size_t i = 0; i < GP_ARRAY_SIZE(cases); i++)
		check_committed_run(state, &cases[i]);
}

/* gnuplot's messages are shown only when it fails: a series the run did not measure ("no valid
 * points") is normal and must not bury a real error, which must still reach stderr. */
static void test_report_gnuplot_messages(void **state)
{
	char run[PATH_MAX], fake[PATH_MAX], gp_env[PATH_MAX + 16];
	struct result r;

	snprintf(fake, sizeof fake, "%s/fake-gnuplot", (char *)*state);
	write_file(fake, "#!/bin/sh\n"
			 "echo '\"x.gp\" line 3: warning: Skipping data file with no valid points' >&2\n"
			 "echo 'fake gnuplot: the real problem' >&2\n"
			 "exit ${FAKE_GNUPLOT_RC:-0}\n");
	assert_int_equal(chmod(fake, 0700), 0);
	snprintf(gp_env, sizeof gp_env, "GNUPLOT=%s", fake);
	snprintf(run, sizeof run, "%s/h100-80gb-hbm3", (char *)*state);
	assert_int_equal(mkdir(run, 0700), 0);
	strcat(run, "/20250101-000000");
	assert_int_equal(mkdir(run, 0700), 0);
	make_run_dir(run);

	r = run_env(*state, (const char *const[]){ gp_env, "FAKE_GNUPLOT_RC=0", NULL },
		    (const char *const[]){ "report", run, NULL });
	if (r.status)
		show(&r);
	assert_int_equal(r.status, 0);
	if (strstr(r.err, "no valid points") || strstr(r.err, "real problem"))
		fail_msg("a successful gnuplot's messages reached stderr:\n%s", r.err);
	result_free(&r);

	r = run_env(*state, (const char *const[]){ gp_env, "FAKE_GNUPLOT_RC=1", NULL },
		    (const char *const[]){ "report", run, NULL });
	assert_int_not_equal(r.status, 0);
	if (!strstr(r.err, "fake gnuplot: the real problem") || !strstr(r.err, "gnuplot failed"))
		fail_msg("a failing gnuplot's error did not reach stderr:\n%s", r.err);
	if (strstr(r.err, "no valid points"))
		fail_msg("the harmless warning was shown with the error:\n%s", r.err);
	result_free(&r);
}

/* ---------------------------------------------------------------- earlier results untouched */

static void test_earlier_results_untouched(void **state)
{
	char root[PATH_MAX], run[PATH_MAX + 64], suite[PATH_MAX], *before, *after;
	struct result r;

	snprintf(root, sizeof root, "%s/results", (char *)*state);
	snprintf(run, sizeof run, "%s/h100-80gb-hbm3", root);
	assert_int_equal(mkdir(root, 0700), 0);
	assert_int_equal(mkdir(run, 0700), 0);
	strcat(run, "/20250101-000000");
	assert_int_equal(mkdir(run, 0700), 0);
	make_run_dir(run);
	snprintf(suite, sizeof suite, "%s/REPORT.md", run);
	write_file(suite, "# an earlier report\n");
	snprintf(suite, sizeof suite, "%s/bad.csv", (char *)*state);
	write_file(suite, "experiment,parameter,values\nlat_ffma,iters\n");
	before = snapshot(root);

	r = RUN(*state, "run", "--suite", suite, "--out", root);
	one_line_error(&r, GP_ECONFIG, NULL);
	result_free(&r);
	r = RUN(*state, "run", "--reps", "0", "--out", root);
	one_line_error(&r, GP_EUSAGE, NULL);
	result_free(&r);
	if (no_gpu) {
		r = RUN(*state, "run", "--suite", "configs/quick.csv", "--out", root);
		one_line_error(&r, GP_ENOGPU, NULL);
		result_free(&r);
		r = RUN(*state, "run", "--out", root, "lat_ffma");
		one_line_error(&r, GP_ENOGPU, NULL);
		result_free(&r);
	} else {
		print_message("not running 'run' without a GPU: %s\n", no_gpu_why);
	}
	after = snapshot(root);
	assert_string_equal(after, before);
	free(before);
	free(after);
}

/* ---------------------------------------------------------------- no GPU: exit 4 */

static void test_no_gpu(void **state)
{
	char out[PATH_MAX];
	struct result r;

	if (!no_gpu) {
		print_message("skipped: %s\n", no_gpu_why);
		skip();
	}
	snprintf(out, sizeof out, "%s/results", (char *)*state);
	r = RUN(*state, "run", "--suite", "configs/quick.csv", "--out", out);
	one_line_error(&r, GP_ENOGPU, NULL);
	assert_false(exists(out));
	result_free(&r);
	r = RUN(*state, "info");
	one_line_error(&r, GP_ENOGPU, NULL);
	result_free(&r);
	r = RUN(*state, "info", "--device", "3");
	one_line_error(&r, GP_ENOGPU, NULL);
	result_free(&r);
}

#define T(f) cmocka_unit_test_setup_teardown(f, tmp_setup, tmp_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_version),
		T(test_help),
		T(test_list),
		T(test_unknown_command),
		T(test_unknown_experiment),
		T(test_bad_numbers),
		T(test_bad_adaptive_reps),
		T(test_bad_filter),
		T(test_unknown_option),
		T(test_suite_ragged),
		T(test_suite_unknown_experiment),
		T(test_suite_out_of_range),
		T(test_suite_empty_file),
		T(test_suite_missing_file),
		T(test_suite_too_many_points),
		T(test_report_not_a_run_dir),
		T(test_report_bad_meta),
		T(test_report_writes_markdown),
		T(test_report_committed_run),
		T(test_report_paper_sgemm_runs),
		T(test_report_paper_probe_runs),
		T(test_report_gnuplot_messages),
		T(test_earlier_results_untouched),
		T(test_no_gpu),
	};

	return cmocka_run_group_tests_name("cli", tests, group_setup, NULL);
}
