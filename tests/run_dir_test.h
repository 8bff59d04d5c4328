/* run_dir_test.h — a made-up run directory (meta.csv and a two-row lat_ffma.csv with the
 * registry's real columns) for the command-line tests that need one without a GPU
 * (test_cli.c, test_cli_report.c). Include after cli_test.h. */
#ifndef GP_RUN_DIR_TEST_H
#define GP_RUN_DIR_TEST_H

#include "experiment.h"
#include "table.h"

static __attribute__((unused)) void make_run_dir(const char *dir)
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
		assert_int_equal(gp_row_str(t, "operand", "reg"), 0);
		assert_int_equal(gp_row_int(t, "threads", row ? 1024 : 1), 0);
		assert_int_equal(gp_row_num(t, "cycles_per_ffma_min", 4.125), 0);
		assert_int_equal(gp_row_str(t, "status", "ok"), 0);
		assert_int_equal(gp_row_end(t, err, sizeof err), 0);
	}
	snprintf(path, sizeof path, "%s/lat_ffma.csv", dir);
	assert_int_equal(gp_table_save(t, path), 0);
	gp_table_free(t);
}

#endif
