/* test_tune.c — `gpuprobe tune sgemm` on the host: argument parsing, the choice of candidates
 * (tiles the sgemm experiment cannot run at the size are skipped for the next in rank order),
 * the pick on a synthetic measured table, the CSV columns on the committed H100 run, and the
 * command as a user meets it (exit codes, the ranking when nothing is measured; bad input is
 * tests/test_tune_rank.c's). The measurement itself is tests/test_gpu_tune.c's. Runs from the repository root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gp.h"
#include "models.h"
#include "sgemm.h"
#include "table.h"
#include "tune.h"
#include "tune_rank.h"
#include "cli_test.h"

#define RUN "results/h100-80gb-hbm3/20261124-100211"

static const char *const want_cols[] = { "rank", "kernel", "rx", "ry", "bm", "bn", "bk", "threads_per_sm",
	"gflops_predicted", "gflops_measured", "pipe", "bound", "gflops_next_limit", "measured_over_predicted",
	"rank_measured", "size", "gflops_measured_now", "measured_now_over_predicted",
	"ratio_to_cublas", "rel_err", "status", "pick" };
#define RANK_COLS 15 /* gp_tune_rank's columns (the first ten those before measuring existed) */

/* ---------------------------------------------------------------- helpers */

static int parse(struct gp_tune_opts *o, const char *const *args)
{
	char *argv[16];
	int argc = 0;

	while (args[argc]) {
		assert_true(argc < 15);
		argv[argc] = (char *)args[argc];
		argc++;
	}
	argv[argc] = NULL;
	return gp_tune_parse(argc, argv, o);
}

#define PARSE(o, ...) parse((o), (const char *const[]){ "tune", __VA_ARGS__, NULL })

static struct gp_table *table_of(char *text)
{
	char err[256];
	struct gp_table *t = gp_table_parse(text, strlen(text), err, sizeof err);

	if (!t)
		fail_msg("the CSV does not parse: %s", err);
	return t;
}

static struct gp_table *written(const struct gp_tune *tu)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct gp_table *t;

	assert_non_null(f);
	assert_int_equal(gp_tune_write(tu, f), 0);
	assert_int_equal(fclose(f), 0);
	t = table_of(text);
	free(text);
	return t;
}

static struct gp_table *ranking(void)
{
	char err[256];
	struct gp_table *t = gp_tune_rank(RUN, err, sizeof err);

	if (!t)
		fail_msg("%s", err);
	return t;
}

static void load(struct gp_tune *tu)
{
	assert_int_equal(gp_tune_load(RUN, tu), 0);
	assert_int_equal(tu->n, gp_nkernels + 1);
}

/* sg_supports at size^3 for a tile row, held independently of tune.c. */
static int supported(const char *kernel, int size)
{
	const struct sg_variant *v = sg_variant_find(kernel);
	char why[200];

	return v && !sg_supports(v, size, size, size, size, size, size, why, sizeof why);
}

/* ---------------------------------------------------------------- parsing */

static void test_parse_defaults_and_options(void **state)
{
	struct gp_tune_opts o;

	(void)state;
	assert_int_equal(PARSE(&o, "sgemm", RUN), 0);
	assert_string_equal(o.run_dir, RUN);
	assert_int_equal(o.top, GP_TUNE_TOP);
	assert_int_equal(o.size, GP_TUNE_SIZE);
	assert_int_equal(o.device, 0);
	assert_int_equal(o.measure, 1);
	/* Options before, between and after the operands. */
	assert_int_equal(PARSE(&o, "--top", "2", "sgemm", "--size", "768", RUN, "--device", "1", "--no-measure"), 0);
	assert_string_equal(o.run_dir, RUN);
	assert_int_equal(o.top, 2);
	assert_int_equal(o.size, 768);
	assert_int_equal(o.device, 1);
	assert_int_equal(o.measure, 0);
	/* A second scan starts afresh (getopt state reset), with defaults again. */
	assert_int_equal(PARSE(&o, "sgemm", "x"), 0);
	assert_int_equal(o.top, GP_TUNE_TOP);
	assert_int_equal(o.measure, 1);
	assert_string_equal(o.run_dir, "x");
	/* The bounds themselves are accepted. */
	assert_int_equal(PARSE(&o, "sgemm", RUN, "--top", "1", "--size", "1"), 0);
	assert_int_equal(o.size, 1);
	assert_int_equal(PARSE(&o, "sgemm", RUN, "--size", "16384"), 0);
	assert_int_equal(o.size, 16384);
}

static void test_parse_errors(void **state)
{
	struct gp_tune_opts o;
	char top_max[16], top_over[16];

	(void)state;
	snprintf(top_max, sizeof top_max, "%zu", gp_nkernels);
	snprintf(top_over, sizeof top_over, "%zu", gp_nkernels + 1);
	assert_int_equal(PARSE(&o, "sgemm", RUN, "--top", top_max), 0);
	assert_int_equal(o.top, (int)gp_nkernels);
	assert_int_equal(PARSE(&o, "sgemm", RUN, "--top", top_over), GP_EUSAGE);
	assert_int_equal(PARSE(&o, "sgemm", RUN, "--top", "0"), GP_EUSAGE);
	assert_int_equal(PARSE(&o, "sgemm", RUN, "--top", "x"), GP_EUSAGE);
	assert_int_equal(PARSE(&o, "sgemm", RUN, "--size", "0"), GP_EUSAGE);
	assert_int_equal(PARSE(&o, "sgemm", RUN, "--size", "16385"), GP_EUSAGE);
	assert_int_equal(PARSE(&o, "sgemm", RUN, "--size", "4096x"), GP_EUSAGE);
	assert_int_equal(PARSE(&o, "sgemm", RUN, "--device", "-1"), GP_EUSAGE);
	assert_int_equal(PARSE(&o, "sgemm", RUN, "--bogus"), GP_EUSAGE);
	assert_int_equal(PARSE(&o, "sgemm", RUN, "--top"), GP_EUSAGE);
	assert_int_equal(PARSE(&o, "dgemm", RUN), GP_EUSAGE);
	assert_int_equal(PARSE(&o, "sgemm"), GP_EUSAGE);
	assert_int_equal(PARSE(&o, "sgemm", RUN, "extra"), GP_EUSAGE);
	assert_int_equal(parse(&o, (const char *const[]){ "tune", NULL }), GP_EUSAGE);
}

/* ---------------------------------------------------------------- load and select */

static void test_load_follows_the_ranking(void **state)
{
	struct gp_table *rk = ranking();
	struct gp_tune tu;

	(void)state;
	load(&tu);
	assert_int_equal(rk->nrows, gp_nkernels);
	for (size_t i = 0; i < rk->nrows; i++) {
		double p;
		assert_string_equal(tu.rows[i].kernel, gp_table_get(rk, i, "kernel"));
		assert_int_equal(tu.rows[i].rank_row, (long)i);
		assert_int_equal(gp_table_get_double(rk, i, "gflops_predicted", &p), 0);
		assert_true(tu.rows[i].predicted == p);
		if (i)
			assert_true(tu.rows[i].predicted <= tu.rows[i - 1].predicted);
	}
	assert_string_equal(tu.rows[tu.n - 1].kernel, "cublas");
	assert_true(tu.rows[tu.n - 1].rank_row < 0);
	assert_true(isnan(tu.rows[tu.n - 1].predicted));
	gp_tune_free(&tu);
	gp_table_free(rk);
}

/* The candidates are exactly the first `top` tiles that run at size, in rank order; every tile
 * that does not run is n/a; cuBLAS is always measured. Returns the rank index of the last one. */
static size_t check_selection(struct gp_tune *tu, int size, int top)
{
	const size_t got = gp_tune_select(tu, size, top);
	size_t want = 0, last = 0;

	for (size_t i = 0; i + 1 < tu->n; i++) {
		const struct gp_tune_row *r = &tu->rows[i];
		const int ok = supported(r->kernel, size);
		if (!ok) {
			if (strncmp(r->status, "n/a: ", 5))
				fail_msg("%s does not run at %d^3 but its status is '%s'", r->kernel, size, r->status);
			assert_false(r->candidate);
			continue;
		}
		assert_true(!gp_status_na(r->status));
		if (want < (size_t)top) {
			if (!r->candidate)
				fail_msg("%s (rank %zu) runs at %d^3 and is among the first %d: not a candidate", r->kernel,
					 i + 1, size, top);
			assert_string_equal(r->status, "not measured");
			want++;
			last = i;
		} else {
			assert_false(r->candidate);
			assert_non_null(strstr(r->status, "ranked below"));
		}
	}
	assert_int_equal(got, want);
	assert_true(tu->rows[tu->n - 1].candidate);
	return last;
}

/* The number of candidates that reaches just past the first tile n/a at size (its index in
 * *first): with that many, the selection must step over it. */
static int top_past_first_na(const struct gp_tune *tu, int size, size_t *first)
{
	int runnable = 0;

	for (size_t i = 0; i + 1 < tu->n; i++) {
		if (!supported(tu->rows[i].kernel, size)) {
			*first = i;
			return runnable + 1;
		}
		runnable++;
	}
	fail_msg("no tile of the ranking is n/a at %d^3", size);
	return 0;
}

static void test_select_skips_na_at_4096(void **state)
{
	struct gp_tune tu;
	size_t last, first = 0;
	int top;

	(void)state;
	load(&tu);
	/* The 12x12 tiles (192-multiples) cannot run at 4096^3; on the committed run they rank 2nd
	 * and 3rd, so 4 candidates already reach past them. Wherever they rank, take enough
	 * candidates to reach one past the first n/a tile. */
	top = top_past_first_na(&tu, 4096, &first);
	if (top < 4)
		top = 4;
	last = check_selection(&tu, 4096, top);
	assert_int_equal(gp_tune_select(&tu, 4096, top), top);
	assert_true(last > first);
	assert_false(tu.rows[first].candidate);
	assert_true(!strncmp(tu.rows[first].status, "n/a: needs m % ", 15));
	gp_tune_free(&tu);
}

static void test_select_other_sizes(void **state)
{
	struct gp_tune tu;

	(void)state;
	load(&tu);
	/* 768 is a multiple of every tile (64, 128, 192, 256 and every K step): the top 4 are the
	 * first 4 rows, and the 5th is below them. */
	assert_int_equal(check_selection(&tu, 768, 4), 3);
	for (size_t i = 0; i < 4; i++)
		assert_true(tu.rows[i].candidate);
	assert_false(tu.rows[4].candidate);
	/* A prime size: only the kernels that handle any size can run, fewer than asked for. */
	check_selection(&tu, 1009, 40);
	for (size_t i = 0; i + 1 < tu.n; i++)
		if (tu.rows[i].candidate)
			assert_true(sg_variant_find(tu.rows[i].kernel)->any);
	/* --top 1 measures only the best runnable tile. */
	assert_int_equal(gp_tune_select(&tu, 4096, 1), 1);
	check_selection(&tu, 4096, 1);
	gp_tune_free(&tu);
}

/* A candidate the device declares n/a gives its place to the next runnable tile in rank order. */
static void test_replace_na_candidate(void **state)
{
	struct gp_tune tu;
	size_t cand[5], nc = 0;
	long next;

	(void)state;
	load(&tu);
	gp_tune_select(&tu, 4096, 4);
	for (size_t i = 0; i + 1 < tu.n; i++)
		if (tu.rows[i].candidate)
			cand[nc++] = i;
	assert_int_equal(nc, 4);
	/* As the measurement leaves it: the row says n/a (e.g. no tensor cores on this GPU). */
	snprintf(tu.rows[cand[1]].status, sizeof tu.rows[0].status, "n/a: needs TF32 tensor cores (sm_80 or newer), this is sm_75");
	next = gp_tune_replace(&tu, cand[1]);
	assert_true(next > (long)cand[3]);
	assert_false(tu.rows[cand[1]].candidate);
	assert_true(tu.rows[next].candidate);
	assert_string_equal(tu.rows[next].status, "not measured");
	assert_true(supported(tu.rows[next].kernel, 4096));
	/* It is the first runnable row after the old last candidate: nothing runnable in between. */
	for (long i = (long)cand[3] + 1; i < next; i++)
		assert_false(supported(tu.rows[i].kernel, 4096));
	nc = 0;
	for (size_t i = 0; i + 1 < tu.n; i++)
		nc += tu.rows[i].candidate;
	assert_int_equal(nc, 4);
	/* With nothing left below, there is no replacement, and cuBLAS is never one. */
	for (size_t i = 0; i + 1 < tu.n; i++)
		if (!tu.rows[i].candidate && !gp_status_na(tu.rows[i].status))
			snprintf(tu.rows[i].status, sizeof tu.rows[i].status, "n/a: test");
	assert_int_equal(gp_tune_replace(&tu, (size_t)next), -1);
	assert_false(tu.rows[next].candidate);
	assert_true(tu.rows[tu.n - 1].candidate);
	gp_tune_free(&tu);
}

/* ---------------------------------------------------------------- the pick */

static struct gp_tune_row row(const char *k, long rank, int cand, int meas, double gf, const char *st)
{
	struct gp_tune_row r = { .kernel = k, .rank_row = rank, .predicted = 1000, .candidate = cand,
				 .measured = meas, .gflops = gf, .rel_err = 1e-7, .ratio_to_cublas = gf / 500 };

	snprintf(r.status, sizeof r.status, "%s", st);
	return r;
}

static void test_pick_synthetic(void **state)
{
	struct gp_tune_row rows[] = {
		row("a", 0, 1, 1, 100, "ok"),
		row("fast_but_wrong", 1, 1, 1, 300, "wrong result: relative error 0.5 above the bound 1e-05"),
		row("n_a", 2, 0, 0, NAN, "n/a: needs m % 192, n % 192, k % 4 == 0"),
		row("c", 3, 1, 1, 200, "ok"),
		row("hung", 4, 1, 0, NAN, "not measured: an earlier error ended the measurement"),
		row("not_candidate", 5, 0, 0, 900, "not measured: ranked below the 4 candidates"),
		row("cublas", -1, 1, 1, 500, "ok"),
	};
	struct gp_tune tu = { .rows = rows, .n = GP_ARRAY_SIZE(rows), .size = 4096, .top = 4 };

	(void)state;
	/* The fastest correct tile: not the faster wrong one, not cuBLAS, not an unmeasured row. */
	assert_int_equal(gp_tune_pick(&tu), 3);
	for (size_t i = 0; i < tu.n; i++)
		assert_int_equal(rows[i].pick, i == 3);
	/* c fails its check (e.g. above the peak): a is next; the old pick is cleared. */
	snprintf(rows[3].status, sizeof rows[3].status, "123 GFLOP/s above the 100 GFLOP/s peak at 1980 MHz: broken probe");
	assert_int_equal(gp_tune_pick(&tu), 0);
	for (size_t i = 0; i < tu.n; i++)
		assert_int_equal(rows[i].pick, i == 0);
	/* A tie goes to the better-ranked row. */
	snprintf(rows[3].status, sizeof rows[3].status, "ok");
	rows[3].gflops = 100;
	assert_int_equal(gp_tune_pick(&tu), 0);
	/* A zero or NaN rate is no measurement, even with status ok. */
	rows[0].gflops = NAN;
	rows[3].gflops = 0;
	assert_int_equal(gp_tune_pick(&tu), -1);
	/* Nothing correct: no pick at all. */
	rows[0].gflops = 100;
	snprintf(rows[0].status, sizeof rows[0].status, "CUDA error: an illegal memory access was encountered");
	assert_int_equal(gp_tune_pick(&tu), -1);
	for (size_t i = 0; i < tu.n; i++)
		assert_int_equal(rows[i].pick, 0);
}

/* ---------------------------------------------------------------- the CSV */

static void test_csv_columns_unmeasured(void **state)
{
	struct gp_table *rk = ranking(), *t;
	struct gp_tune tu;

	(void)state;
	load(&tu);
	gp_tune_select(&tu, 4096, 4);
	gp_tune_unmeasured(&tu, "--no-measure");
	assert_int_equal(gp_tune_pick(&tu), -1);
	t = written(&tu);
	assert_int_equal(t->ncols, GP_ARRAY_SIZE(want_cols));
	for (size_t c = 0; c < t->ncols; c++)
		assert_string_equal(t->cols[c], want_cols[c]);
	/* Today's columns, cell for cell, in today's row order; then the cuBLAS row. */
	assert_int_equal(t->nrows, rk->nrows + 1);
	for (size_t c = 0; c < RANK_COLS; c++)
		assert_string_equal(rk->cols[c], want_cols[c]);
	for (size_t r = 0; r < rk->nrows; r++)
		for (size_t c = 0; c < RANK_COLS; c++)
			assert_string_equal(gp_table_get(t, r, want_cols[c]), gp_table_get(rk, r, want_cols[c]));
	assert_string_equal(gp_table_get(t, rk->nrows, "kernel"), "cublas");
	assert_string_equal(gp_table_get(t, rk->nrows, "rank"), "");
	for (size_t r = 0; r < t->nrows; r++) {
		const char *st = gp_table_get(t, r, "status");
		assert_string_equal(gp_table_get(t, r, "size"), "4096");
		assert_string_equal(gp_table_get(t, r, "gflops_measured_now"), "nan");
		assert_string_equal(gp_table_get(t, r, "pick"), "0");
		assert_string_equal(st, tu.rows[r].status);
		if (tu.rows[r].candidate)
			assert_string_equal(st, "not measured: --no-measure");
		else
			assert_true(!strncmp(st, "n/a: ", 5) || strstr(st, "ranked below"));
	}
	gp_table_free(t);
	gp_table_free(rk);
	gp_tune_free(&tu);
}

static void test_csv_measured(void **state)
{
	struct gp_table *t;
	struct gp_tune tu;
	long pick;
	size_t k = 0, picks = 0;

	(void)state;
	load(&tu);
	gp_tune_select(&tu, 4096, 4);
	/* Synthetic measurements: candidate j gets 10000 (j + 1) GFLOP/s, so the last is fastest;
	 * the last is made wrong, so the one before it is the pick. */
	for (size_t i = 0; i < tu.n; i++) {
		struct gp_tune_row *r = &tu.rows[i];
		if (!r->candidate)
			continue;
		r->measured = 1;
		r->gflops = 10000.0 * (double)++k;
		r->rel_err = 1e-7;
		r->ratio_to_cublas = r->gflops / 45000;
		snprintf(r->status, sizeof r->status, "ok");
	}
	assert_int_equal(k, 5);   /* 4 tiles + cuBLAS */
	snprintf(tu.rows[tu.n - 1].status, sizeof tu.rows[0].status, "ok");   /* cuBLAS fastest: never picked */
	for (size_t i = tu.n - 1; i-- > 0;)
		if (tu.rows[i].candidate) {
			snprintf(tu.rows[i].status, sizeof tu.rows[i].status, "wrong result: relative error 1 above the bound 1e-05");
			break;
		}
	pick = gp_tune_pick(&tu);
	assert_true(pick >= 0);
	assert_true(tu.rows[pick].gflops == 30000);
	t = written(&tu);
	for (size_t r = 0; r < t->nrows; r++) {
		double now, ratio;
		if (!strcmp(gp_table_get(t, r, "pick"), "1")) {
			picks++;
			assert_int_equal((long)r, pick);
			assert_string_equal(gp_table_get(t, r, "gflops_measured_now"), "30000");
		}
		if (!tu.rows[r].candidate || r + 1 == t->nrows)
			continue;
		assert_int_equal(gp_table_get_double(t, r, "gflops_measured_now", &now), 0);
		assert_int_equal(gp_table_get_double(t, r, "measured_now_over_predicted", &ratio), 0);
		assert_true(fabs(ratio - now / tu.rows[r].predicted) <= 1e-5 * ratio);
	}
	assert_int_equal(picks, 1);
	gp_table_free(t);
	gp_tune_free(&tu);
}

/* ---------------------------------------------------------------- the command */

#define BIN(dir, ...) run_env((dir), NULL, (const char *const[]){ __VA_ARGS__, NULL })

static void test_cli_no_measure(void **state)
{
	struct result r = BIN(*state, "tune", "sgemm", RUN, "--no-measure");
	struct gp_table *t;

	if (r.status || strncmp(r.err, "gpuprobe: tune: the model against the run's sgemm.csv: Spearman rho ", 68) ||
	    strchr(r.err, '\n') != r.err + strlen(r.err) - 1)
		show(&r);
	assert_int_equal(r.status, 0);
	/* Nothing was measured now: the one line is the model against the run's own sgemm table. */
	assert_non_null(strstr(r.err, "Spearman rho"));
	assert_true(strchr(r.err, '\n') == r.err + strlen(r.err) - 1);
	t = table_of(r.out);
	assert_int_equal(t->nrows, gp_nkernels + 1);
	assert_string_equal(gp_table_get(t, 0, "rank"), "1");
	assert_string_equal(gp_table_get(t, gp_nkernels, "kernel"), "cublas");
	gp_table_free(t);
	result_free(&r);
}

static void test_cli_without_gpu(void **state)
{
	void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	struct result r;
	struct gp_table *t;

	if (h) {
		dlclose(h);
		print_message("skipped: libcuda.so.1 loads here, so a GPU may be present (test_gpu_tune measures)\n");
		skip();
	}
	r = BIN(*state, "tune", "sgemm", RUN);
	/* Exit 0, the ranking on stdout, one line saying nothing was measured, then the model against
	 * the run's own table: two lines. */
	if (r.status || !strstr(r.err, "nothing measured") || !strstr(r.err, "Spearman rho"))
		show(&r);
	assert_int_equal(r.status, 0);
	assert_true(!strncmp(r.err, "gpuprobe: tune: nothing measured", 32));
	{
		const char *nl = strchr(r.err, '\n');
		assert_non_null(nl);
		assert_true(!strncmp(nl + 1, "gpuprobe: tune: the model against", 33));
		assert_true(strchr(nl + 1, '\n') == r.err + strlen(r.err) - 1);
	}
	t = table_of(r.out);
	assert_int_equal(t->nrows, gp_nkernels + 1);
	for (size_t i = 0; i < t->nrows; i++) {
		const char *st = gp_table_get(t, i, "status");
		assert_string_equal(gp_table_get(t, i, "pick"), "0");
		assert_true(!strcmp(st, "not measured: no GPU") || !strncmp(st, "n/a: ", 5) || strstr(st, "ranked below"));
	}
	gp_table_free(t);
	result_free(&r);
}

#define T(f) cmocka_unit_test_setup_teardown(f, tmp_setup, tmp_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_defaults_and_options),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_load_follows_the_ranking),
		cmocka_unit_test(test_select_skips_na_at_4096),
		cmocka_unit_test(test_select_other_sizes),
		cmocka_unit_test(test_replace_na_candidate),
		cmocka_unit_test(test_pick_synthetic),
		cmocka_unit_test(test_csv_columns_unmeasured),
		cmocka_unit_test(test_csv_measured),
		T(test_cli_no_measure),
		T(test_cli_without_gpu),
	};

	if (access(binary(), X_OK)) {
		fprintf(stderr, "test_tune: %s is not an executable (set GPUPROBE or run from the repository "
				"root after make)\n", binary());
		return 1;
	}
	return cmocka_run_group_tests_name("tune", tests, NULL, NULL);
}
