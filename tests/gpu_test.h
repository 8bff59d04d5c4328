/* gpu_test.h — what every GPU test program shares: the device opened once per group, NEED_GPU()
 * (a test without a GPU says why and reports itself skipped, never passed), and measure(), which
 * runs an experiment's measurement (gp_measure) over a small sweep in this process and fails on any point that
 * does not come back 0, printing the row's status (and kernel, where the table has one);
 * gpu_blas_setup/teardown add cuBLAS for the GEMM programs.
 * Include after cmocka.h; define GPU_TEST_REPS first to change the repetitions (default 3). */
#ifndef GP_GPU_TEST_H
#define GP_GPU_TEST_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gp.h"
#include "blas.h"
#include "device.h"
#include "experiment.h"
#include "suite.h"

#ifndef GPU_TEST_REPS
#define GPU_TEST_REPS 3
#endif

static struct gp_device dev;
static int have_gpu;
static char no_gpu_why[512];

static int gpu_setup(void **state)
{
	have_gpu = gp_device_open(&dev, 0, no_gpu_why, sizeof no_gpu_why) == 0;
	return 0;
}

static int gpu_teardown(void **state)
{
	if (have_gpu)
		gp_device_close(&dev);
	return 0;
}

/* The same, with cuBLAS loaded for the programs whose experiments check against it: without it
 * they are skipped like a machine without a GPU. */
static __attribute__((unused)) int gpu_blas_setup(void **state)
{
	gpu_setup(state);
	if (have_gpu && gp_blas_load(no_gpu_why, sizeof no_gpu_why)) {
		gp_device_close(&dev);
		have_gpu = 0;
	}
	return 0;
}

static __attribute__((unused)) int gpu_blas_teardown(void **state)
{
	if (have_gpu)
		gp_blas_unload();
	return gpu_teardown(state);
}

#define NEED_GPU()                                                                                 \
	do {                                                                                       \
		if (!have_gpu) {                                                                   \
			print_message("skipped: %s\n", no_gpu_why);                                \
			skip();                                                                    \
		}                                                                                  \
	} while (0)

/* Run experiment `name` over "param", "values" pairs (n strings); every point must return 0
 * (must_pass), or each point's row is kept whatever its status (the caller judges them). */
static __attribute__((unused)) struct gp_table *measure_rows(const char *name, const char *const *settings,
							      size_t n, int must_pass)
{
	const struct gp_experiment *e = gp_experiment_find(name);
	struct gp_suite_item item = { .exp = e };
	struct gp_run run = { .dev = &dev, .reps = GPU_TEST_REPS, .warmup = 1 };
	struct gp_sweep sw;
	struct gp_table *t;
	char err[256];

	assert_non_null(e);
	for (size_t i = 0; i + 1 < n; i += 2)
		for (size_t k = 0; k < e->impl->nparams; k++)
			if (!strcmp(e->impl->params[k].name, settings[i]))
				item.values[k] = (char *)settings[i + 1];
	assert_int_equal(gp_sweep_init(&sw, &item, err, sizeof err), 0);
	t = gp_exp_table(e->impl);
	assert_non_null(t);
	for (size_t p = 0; p < sw.npoints; p++) {
		struct gp_point pt;
		int rc;
		gp_sweep_point(&sw, p, &pt);
		rc = gp_measure(&run, e->impl, &pt, t);
		if (!must_pass)
			continue;
		if (rc && t->nrows) {
			const char *k = gp_table_get(t, t->nrows - 1, "kernel");
			print_error("%s%s%s: status of the last row: %s\n", name, k ? " " : "", k ? k : "",
				    gp_table_get(t, t->nrows - 1, "status"));
		}
		assert_int_equal(rc, 0);
	}
	gp_sweep_free(&sw);
	return t;
}

static __attribute__((unused)) struct gp_table *measure(const char *name, const char *const *settings, size_t n)
{
	return measure_rows(name, settings, n, 1);
}

static __attribute__((unused)) double cell(const struct gp_table *t, size_t r, const char *col)
{
	double v = NAN;

	assert_int_equal(gp_table_get_double(t, r, col, &v), 0);
	return v;
}

#endif
