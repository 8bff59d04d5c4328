/* run_dir_test.h — a made-up run directory for the tests that need one without a GPU
 * (test_cli, test_cli_report, test_reliability, test_badinput). Include after cli_test.h. */
#ifndef GP_RUN_DIR_TEST_H
#define GP_RUN_DIR_TEST_H

#include "experiment.h"

/* A run directory as `gpuprobe run` leaves it: meta.csv, lat_ffma.csv with the registry's
 * columns and nrows rows, optionally an earlier REPORT.md. Written with stdio, not gp_table,
 * so that hundreds of thousands of rows cost little. */
static __attribute__((unused)) void make_run_dir(const char *dir, size_t nrows, const char *earlier_report)
{
	const struct gp_experiment *e = gp_experiment_find("lat_ffma");
	char path[PATH_MAX];
	FILE *f;

	assert_non_null(e);
	snprintf(path, sizeof path, "%s/meta.csv", dir);
	write_file(path, "key,value\n"
			 "gpuprobe_version,0.1.0\n"
			 "device_name,NVIDIA H100 80GB HBM3\n"
			 "compute_capability,9.0\n"
			 "sm_count,132\n"
			 "sm_clock_max_MHz,1980\n"
			 "status,complete\n");
	snprintf(path, sizeof path, "%s/lat_ffma.csv", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	for (size_t c = 0; c < e->impl->ncolumns; c++)
		fprintf(f, "%s%s", c ? "," : "", e->impl->columns[c]);
	fputc('\n', f);
	for (size_t r = 0; r < nrows; r++) {
		for (size_t c = 0; c < e->impl->ncolumns; c++) {
			const char *col = e->impl->columns[c];
			fputs(c ? "," : "", f);
			if (!strcmp(col, "status"))
				fputs("ok", f);
			else if (!strcmp(col, "operand"))
				fputs("reg", f);
			else if (!strcmp(col, "threads"))
				fprintf(f, "%zu", 1 + r % 1024);
			else
				fputs("4.125", f);
		}
		fputc('\n', f);
	}
	assert_int_equal(fclose(f), 0);
	if (earlier_report) {
		snprintf(path, sizeof path, "%s/REPORT.md", dir);
		write_file(path, earlier_report);
	}
}

#endif
