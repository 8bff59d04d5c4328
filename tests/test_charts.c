/* test_charts.c — every chart of the committed reference runs rendered again from their CSVs.
 *
 * Each run (the default suite, the quick suite and the paper sweeps) is copied to a temporary
 * directory, its measured CSVs only, and `gpuprobe report` renders it through a gnuplot wrapper
 * that keeps gnuplot's messages. Held: the report exits 0; every CSV with a plots/<name>.gp (the
 * roofline's included) has a PNG that is whole (signature to IEND) and an SVG that closes; and
 * gnuplot said nothing worse than a series without points ("no valid points" is normal: a run
 * measures a subset). A missing column, an undefined variable or any error fails: gnuplot goes on
 * after a bad column and draws a chart that silently lacks a series. Skipped without gnuplot. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gp.h"
#include "cli_test.h"

/* A committed run and the fewest charts it must give (a floor, so a run that lost its CSVs or
 * its scripts cannot pass by rendering nothing). */
struct run_case {
	const char *run, *what;
	int min_charts;
	const char *svg[3][2]; /* charts that must show a text: (chart, text) */
};

/* Since c608cbd the default suite leaves out the GEMM points a tile cannot form (the ladder names
 * them), so no current run has an n/a row at its largest square size: the default run's copy gets
 * the row a suite naming the 12x12 kernel there writes, and its bar row must say why it is empty. */
static const char *const sgemm_na_row[] = { "kernel", "sgemm_24_k1_12x12_base", "precision", "single", "m", "8192",
					     "n", "8192", "k", "8192", "status",
					     "n/a: needs m % 192, n % 192, k % 4 == 0", NULL };

static const struct run_case runs[] = {
	{ "results/h100-80gb-hbm3/20261124-100211", "default suite", 48, { { NULL } } },
	{ "results/h100-80gb-hbm3/20261124-100154", "quick suite", 29, { { NULL } } },
	{ "results/h100-80gb-hbm3/20261123-170746", "paper: sgemm", 1, { { "sgemm", "Figure 9 steps at 12288" } } },
	{ "results/h100-80gb-hbm3/20261123-170650", "paper: sgemm_shapes/occupancy/lda, dgemm", 4,
	  { { "sgemm_occupancy", "m = n = k = 3072" }, { "sgemm_occupancy", "cuBLAS" }, { "sgemm_shapes", "4ww4w" } } },
	{ "results/h100-80gb-hbm3/20261123-183015", "paper: sgemm_shapes", 1, { { "sgemm_shapes", "sgemm_43_tc3xtf32_128x256" } } },
	{ "results/h100-80gb-hbm3/20261125-031915", "paper suite (make paper, 540 s at 197bfe8)", 40,
	  { { "regbank_ffma", "reuse on every source" } } },
	{ "results/h100-80gb-hbm3/20261123-184704", "paper: memory latency and bandwidth", 6, { { NULL } } },
	{ "results/h100-80gb-hbm3/20261123-184839", "paper: lat_ffma", 1, { { NULL } } },
	{ "results/h100-80gb-hbm3/20261123-185445", "paper: register banks, TLB", 4, { { "lat_mem_tlb", "cg path, 32 MiB stride" } } },
	{ "results/h100-80gb-hbm3/20261123-190437", "paper: tsm2_search", 1, { { NULL } } },
	{ "results/h100-80gb-hbm3/20261123-190513", "paper: tsm2l", 1, { { NULL } } },
	{ "results/h100-80gb-hbm3/20261123-190547", "paper: tsm2r", 1, { { "tsm2r", "double, n = 16: speedup" } } },
	{ "results/h100-80gb-hbm3/20261125-094126", "default lat_launch over three processes", 1,
	  { { "lat_launch", "3 processes: a marker each" } } },
};

static int have_gnuplot(void)
{
	return system("command -v \"${GNUPLOT:-gnuplot}\" >/dev/null 2>&1") == 0;
}

static int ends_with(const char *s, const char *suffix)
{
	const size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* The run's measured CSVs into to (not roofline.csv or models.csv: the report writes those). */
static void copy_csvs(const char *from, const char *to)
{
	char src[PATH_MAX + 256], dst[PATH_MAX + 256];
	struct dirent **ents;
	int n;

	if (access(from, R_OK))
		fail_msg("%s not readable (make test runs from the repository root)", from);
	assert_int_equal(mkdir(to, 0700), 0);
	n = scandir(from, &ents, NULL, alphasort);
	assert_true(n > 0);
	for (int i = 0; i < n; i++) {
		const char *d = ents[i]->d_name;
		if (ends_with(d, ".csv") && strcmp(d, "roofline.csv") && strcmp(d, "models.csv")) {
			size_t len;
			char *text;
			snprintf(src, sizeof src, "%s/%s", from, d);
			snprintf(dst, sizeof dst, "%s/%s", to, d);
			text = gp_read_file(src, &len);
			assert_non_null(text);
			write_bytes(dst, text, len);
			free(text);
		}
		free(ents[i]);
	}
	free(ents);
}

/* A PNG a viewer can open: the signature, then chunks up to IEND within the file. */
static void assert_png(const char *path)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	size_t len, at = 8;
	unsigned char *p = (unsigned char *)gp_read_file(path, &len);

	if (!p)
		fail_msg("%s missing", path);
	if (len < 8 || memcmp(p, sig, 8))
		fail_msg("%s is not a PNG (%zu bytes)", path, len);
	while (at + 12 <= len) {
		const size_t n = (size_t)p[at] << 24 | (size_t)p[at + 1] << 16 | (size_t)p[at + 2] << 8 | p[at + 3];
		if (!memcmp(p + at + 4, "IEND", 4))
			break;
		at += 12 + n;
	}
	if (at + 12 > len)
		fail_msg("%s is cut short: no IEND chunk in %zu bytes", path, len);
	free(p);
}

/* An SVG that holds drawing and closes (a chart cut short by a gnuplot failure does not). */
static void assert_svg(const char *path)
{
	size_t len;
	char *s = gp_read_file(path, &len);

	if (!s)
		fail_msg("%s missing", path);
	if (len < 1000 || !strstr(s, "<svg") || !strstr(s, "</svg>") || !strstr(s, "<path"))
		fail_msg("%s is empty or not a whole SVG (%zu bytes)", path, len);
	free(s);
}

/* gnuplot's messages, case folded line by line: what a chart may and may not say. */
static void assert_quiet(const char *log, const char *run)
{
	static const char *const bad[] = { "error", "no column with header", "undefined", "cannot" };
	size_t len;
	char *text = gp_read_file(log, &len), *save = NULL;

	if (!text)
		return; /* nothing said */
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char low[512];
		size_t i;
		for (i = 0; line[i] && i + 1 < sizeof low; i++)
			low[i] = (char)tolower((unsigned char)line[i]);
		low[i] = 0;
		for (size_t b = 0; b < GP_ARRAY_SIZE(bad); b++)
			if (strstr(low, bad[b]))
				fail_msg("%s: gnuplot said: %s", run, line);
	}
	free(text);
}

static void default_run_chart_contents(const char *dir);

/* Every chart of one run: render it, then check each file and what gnuplot said (and, for the
 * default run, what the charts show: default_run_chart_contents). */
static void check_run(const char *tmp, const struct run_case *c)
{
	char dir[PATH_MAX], wrapper[PATH_MAX + 16], log[PATH_MAX + 16], env[PATH_MAX + 32], path[PATH_MAX + 256];
	const char *gp = getenv("GNUPLOT") && *getenv("GNUPLOT") ? getenv("GNUPLOT") : "gnuplot";
	const char *envp[] = { env, NULL };
	struct dirent **ents;
	struct result r;
	int n, charts = 0;
	char *md;

	snprintf(dir, sizeof dir, "%s/%s", tmp, strrchr(c->run, '/') + 1);
	copy_csvs(c->run, dir);
	if (c == &runs[0]) {
		snprintf(path, sizeof path, "%s/sgemm.csv", dir);
		append_row(path, sgemm_na_row);
	}
	/* The wrapper keeps gnuplot's messages (the report shows them only when gnuplot fails). */
	snprintf(log, sizeof log, "%s/gnuplot.log", tmp);
	snprintf(wrapper, sizeof wrapper, "%s/gnuplot.sh", tmp);
	snprintf(path, sizeof path, "#!/bin/sh\nexec '%s' \"$@\" 2>>'%s'\n", gp, log);
	write_file(wrapper, path);
	assert_int_equal(chmod(wrapper, 0700), 0);
	unlink(log);
	snprintf(env, sizeof env, "GNUPLOT=%s", wrapper);
	r = run_env(tmp, envp, (const char *const[]){ "report", dir, NULL });
	if (r.status)
		show(&r);
	assert_int_equal(r.status, 0);
	result_free(&r);
	assert_quiet(log, c->run);
	snprintf(path, sizeof path, "%s/REPORT.md", dir);
	md = slurp(path);
	assert_non_null(md);

	n = scandir(dir, &ents, NULL, alphasort);
	assert_true(n > 0);
	for (int i = 0; i < n; i++) {
		const char *d = ents[i]->d_name;
		char name[256];
		if (ends_with(d, ".csv") && strlen(d) < sizeof name) {
			snprintf(name, sizeof name, "%.*s", (int)(strlen(d) - 4), d);
			snprintf(path, sizeof path, "plots/%s.gp", name);
			if (!access(path, R_OK)) {
				snprintf(path, sizeof path, "%s/%s.png", dir, name);
				assert_png(path);
				snprintf(path, sizeof path, "%s/%s.svg", dir, name);
				assert_svg(path);
				snprintf(path, sizeof path, "![%s](%s.svg)", name, name);
				if (!strstr(md, path))
					fail_msg("%s: REPORT.md does not show the %s chart", c->run, name);
				charts++;
			}
		}
		free(ents[i]);
	}
	free(ents);
	for (size_t i = 0; i < GP_ARRAY_SIZE(c->svg) && c->svg[i][0]; i++) {
		char *svg;
		snprintf(path, sizeof path, "%s/%s.svg", dir, c->svg[i][0]);
		svg = slurp(path);
		if (!svg || !strstr(svg, c->svg[i][1]))
			fail_msg("%s: %s.svg does not show \"%s\"", c->run, c->svg[i][0], c->svg[i][1]);
		free(svg);
	}
	free(md);
	if (c == &runs[0])
		default_run_chart_contents(dir);
	if (charts < c->min_charts)
		fail_msg("%s (%s): %d charts, expected at least %d", c->run, c->what, charts, c->min_charts);
}

static void test_charts_committed_runs(void **state)
{
	if (!have_gnuplot()) {
		print_message("gnuplot not installed: the committed runs' charts are not rendered\n");
		skip();
	}
	for (size_t i = 0; i < GP_ARRAY_SIZE(runs); i++)
		check_run(*state, &runs[i]);
}

/* What the fixes of issue 22 put in the default run's charts, as text of their SVG: the roofline's
 * L2 and L1 roofs (and their rates in roofline.csv) and each kernel's name; every SGEMM kernel's
 * whole name and the reason a bar is missing; the latency ladders' detected levels; the bank
 * model in the key; the FP32 lanes from the run; a faulted point said to have no time (it was
 * labelled WRONG). */
static void default_run_chart_contents(const char *dir)
{
	static const char *const want[][2] = {
		{ "roofline", "HBM read" }, { "roofline", "L2 read" }, { "roofline", "L1 / shared" },
		{ "roofline", "29_warptile" }, { "roofline", "01_naive" },
		{ "sgemm", "sgemm_38_fragpipe_128x256_bk16" }, { "sgemm", "n/a: needs m % 192" },
		{ "lat_mem", "L1 " }, { "lat_mem", "L2 near " }, { "lat_mem", "HBM " },
		{ "lat_mem_tlb", "TLB hit " }, { "lat_mem_tlb", "TLB1 reach " },
		{ "bank_smem", "plain rows, model" }, { "bank_smem", "padded rows, model" },
		{ "tput_occupancy", "FP32 lanes per SM (128)" }, { "tput_lds_ffma", "FP32 lanes per SM (128)" },
		{ "stall_wait", "ldg clear (no time)" }, { "regbank_ffma", "fmul 000" },
	};
	char path[PATH_MAX + 32];
	char *csv;

	snprintf(path, sizeof path, "%s/roofline.csv", dir);
	csv = slurp(path);
	if (!strstr(csv, "bw_hbm_GBps") || !strstr(csv, "bw_l2_GBps") || !strstr(csv, "bw_smem_GBps") ||
	    !strstr(csv, "roof_l2"))
		fail_msg("roofline.csv lacks the roofs' rates:\n%.300s", csv);
	free(csv);
	for (size_t i = 0; i < GP_ARRAY_SIZE(want); i++) {
		char *svg;
		snprintf(path, sizeof path, "%s/%s.svg", dir, want[i][0]);
		svg = slurp(path);
		if (!strstr(svg, want[i][1]))
			fail_msg("%s.svg does not show \"%s\"", want[i][0], want[i][1]);
		free(svg);
	}
}

#define T(f) cmocka_unit_test_setup_teardown(f, tmp_setup, tmp_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_charts_committed_runs),
	};

	if (access(binary(), X_OK)) {
		fprintf(stderr, "test_charts: %s is not an executable (set GPUPROBE or run from the "
				"repository root after make)\n", binary());
		return 1;
	}
	return cmocka_run_group_tests_name("charts", tests, NULL, NULL);
}
