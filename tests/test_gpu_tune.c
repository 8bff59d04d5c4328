/* test_gpu_tune.c — `gpuprobe tune sgemm` measuring on a GPU.
 *
 * The ranking of the committed H100 run, the top 4 candidates that run at 512^3 (the 12x12 tiles,
 * 192-multiples, rank high there and must be skipped) and cuBLAS measured through the sgemm
 * experiment's probe: every candidate correct with a positive rate, cuBLAS's ratio to itself
 * 1, and the pick the fastest correct tile, found again here from the rows. Then the whole command
 * in this process (its CSV on stdout redirected to a file) and a --device past the last GPU,
 * which is an error where a GPU exists. Without a GPU or cuBLAS each test says so and skips. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gp.h"
#include "blas.h"
#include "models.h"
#include "table.h"
#include "tune.h"

#include "gpu_test.h"

#define RUN "results/h100-80gb-hbm3/20261124-100211"
#define SIZE 512

static void test_measure_and_pick(void **state)
{
	struct gp_run run = { .dev = &dev, .reps = GP_TUNE_REPS, .warmup = GP_TUNE_WARMUP };
	struct gp_tune tu;
	long pick, best = -1;
	size_t skipped = 0, nskipped = 0, last = 0;
	int top = 0;

	NEED_GPU();
	assert_int_equal(gp_tune_load(RUN, &tu), 0);
	/* Enough candidates to reach one tile past the first one n/a at SIZE (the 12x12 tiles need
	 * 192-multiples), at least 4: the measurement must step over it. */
	gp_tune_select(&tu, SIZE, (int)gp_nkernels);
	for (size_t i = 0; i + 1 < tu.n && !skipped; i++) {
		if (gp_status_na(tu.rows[i].status))
			skipped = 1;
		else
			top++;
	}
	assert_true(skipped);
	top = top + 1 > 4 ? top + 1 : 4;
	assert_int_equal(gp_tune_select(&tu, SIZE, top), top);
	assert_int_equal(gp_tune_measure(&tu, &run), 0);
	for (size_t i = 0; i + 1 < tu.n; i++)
		if (tu.rows[i].candidate)
			last = i;
	for (size_t i = 0; i < last; i++)
		nskipped += gp_status_na(tu.rows[i].status);
	assert_true(nskipped >= 1);
	for (size_t i = 0; i < tu.n; i++) {
		const struct gp_tune_row *r = &tu.rows[i];
		if (!r->candidate) {
			assert_false(r->measured);
			assert_true(isnan(r->gflops));
			continue;
		}
		print_message("%-32s predicted %8.0f  measured %8.0f GFLOP/s  %s\n", r->kernel, r->predicted, r->gflops,
			      r->status);
		assert_true(r->measured);
		if (strcmp(r->status, "ok"))
			fail_msg("%s at %d^3: %s", r->kernel, SIZE, r->status);
		assert_true(r->gflops > 0);
		assert_true(r->rel_err >= 0);
		assert_true(r->ratio_to_cublas > 0);
		if (r->rank_row >= 0 && (best < 0 || r->gflops > tu.rows[best].gflops))
			best = (long)i;
	}
	assert_true(fabs(tu.rows[tu.n - 1].ratio_to_cublas - 1) < 1e-9);
	pick = gp_tune_pick(&tu);
	assert_int_equal(pick, best);
	assert_true(tu.rows[pick].pick);
	gp_tune_free(&tu);
}

static void test_command_end_to_end(void **state)
{
	char path[] = "/tmp/gp_tune_out.XXXXXX", size[16];
	char *argv[] = { "tune", "sgemm", RUN, "--size", size, "--top", "2", NULL };
	struct gp_table *t;
	char *text, err[256];
	double best = -1, picked = -1;
	int fd = mkstemp(path), saved, rc;
	size_t picks = 0, measured = 0;

	NEED_GPU();
	assert_true(fd >= 0);
	snprintf(size, sizeof size, "%d", SIZE);
	fflush(stdout);
	saved = dup(1);
	assert_true(saved >= 0 && dup2(fd, 1) == 1);
	rc = gp_tune_main((int)GP_ARRAY_SIZE(argv) - 1, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(fd);
	text = gp_read_file(path, NULL);
	unlink(path);
	assert_non_null(text);
	assert_int_equal(rc, 0);
	t = gp_table_parse(text, strlen(text), err, sizeof err);
	if (!t)
		fail_msg("tune's CSV does not parse: %s", err);
	assert_int_equal(t->nrows, gp_nkernels + 1);
	for (size_t r = 0; r < t->nrows; r++) {
		const char *st = gp_table_get(t, r, "status"), *k = gp_table_get(t, r, "kernel");
		double g;
		if (strcmp(st, "ok"))
			continue;
		measured++;
		assert_int_equal(gp_table_get_double(t, r, "gflops_measured_now", &g), 0);
		assert_true(g > 0);
		if (strcmp(k, "cublas") && g > best)
			best = g;
		if (!strcmp(gp_table_get(t, r, "pick"), "1")) {
			picks++;
			picked = g;
		}
	}
	assert_int_equal(measured, 3);   /* --top 2 and cuBLAS */
	assert_int_equal(picks, 1);
	assert_true(picked == best);
	gp_table_free(t);
	free(text);
}

static void test_device_past_the_last(void **state)
{
	char *argv[] = { "tune", "sgemm", RUN, "--device", "63", NULL };

	NEED_GPU();
	/* A GPU exists, so a wrong --device is the user's mistake, not "no GPU here". */
	assert_int_equal(gp_tune_main((int)GP_ARRAY_SIZE(argv) - 1, argv), GP_ENOGPU);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_measure_and_pick),
		cmocka_unit_test(test_command_end_to_end),
		cmocka_unit_test(test_device_past_the_last),
	};

	return cmocka_run_group_tests_name("gpu_tune", tests, gpu_blas_setup, gpu_blas_teardown);
}
