/* test_gpu.c — tests that need a GPU. Where there is none (no driver, no device) each test says
 * why and reports itself skipped; it is never counted as passed.
 *
 * They run the first two experiments through the harness on short sweeps and hold the results
 * against what the hardware allows: an FFMA latency of a few cycles, a throughput at or under
 * the FP32 lane count, a measured clock within the device's range, and every row validated;
 * and, through the command line as make run uses it, that a fault costs only its own point and
 * fails the run, unless it is one the experiment expects (stall_wait's cleared wait bits), also
 * in the middle of a suite that one measuring process otherwise serves whole. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gp.h"
#include "experiment.h"
#include "suite.h"

#include "gpu_test.h"

static void test_lat_ffma_latency_and_clock(void **state)
{
	static const char *const set[] = { "threads", "1 32 1024", "iters", "512" };
	struct gp_table *t;

	NEED_GPU();
	t = measure("lat_ffma", set, 4);
	assert_int_equal(t->nrows, 3);
	for (size_t r = 0; r < t->nrows; r++) {
		double clk = cell(t, r, "clock_MHz");
		assert_string_equal(gp_table_get(t, r, "status"), "ok");
		/* The measured clock lies between idle-ish and a bit over the advertised maximum. */
		assert_true(clk > 200 && clk < dev.clock_khz / 1000.0 * 1.10);
	}
	/* One warp: a dependent FFMA takes a few cycles on every GPU since Volta (4 on sm_70+). */
	assert_true(cell(t, 0, "cycles_per_ffma_min") >= 2 && cell(t, 0, "cycles_per_ffma_min") <= 40);
	/* 32 warps on one SM cannot beat the issue limit (checked in the probe) and must be slower
	 * per FFMA than one warp alone. */
	assert_true(cell(t, 2, "block_cycles_per_ffma") > cell(t, 0, "block_cycles_per_ffma"));
	gp_table_free(t);
}

static void test_tput_fp32_under_ceiling(void **state)
{
	static const char *const set[] = { "op", "ffma fmul fadd", "iters", "512" };
	const int lanes = gp_fp32_lanes_per_sm(dev.cc_major, dev.cc_minor);
	struct gp_table *t;

	NEED_GPU();
	t = measure("tput_fp32", set, 4);
	assert_int_equal(t->nrows, 3);
	for (size_t r = 0; r < t->nrows; r++) {
		double ops = cell(t, r, "ops_per_clk_per_sm");
		assert_string_equal(gp_table_get(t, r, "status"), "ok");
		assert_true(ops <= lanes * 1.01);
		assert_true(ops >= lanes * 0.5);
	}
	gp_table_free(t);
}

/* `gpuprobe -q run ARGS --out TMP`, as make run does it: its exit status, and the CSVs of the
 * experiments named (the run directory is removed). */
static void run_cli_tables(const char *args, const char *const *names, size_t n, struct gp_table **out,
			   int *exit_status)
{
	const char *bin = getenv("GPUPROBE") ? getenv("GPUPROBE") : "bin/gpuprobe";
	char root[] = "/tmp/gpuprobe-fault-XXXXXX", cmd[1024], dir[1024] = "", path[1200], err[256];
	FILE *p;
	int st;

	assert_non_null(mkdtemp(root));
	snprintf(cmd, sizeof cmd, "%s -q run %s --out %s", bin, args, root);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_non_null(fgets(dir, sizeof dir, p));
	st = pclose(p);
	dir[strcspn(dir, "\n")] = '\0';
	assert_true(WIFEXITED(st));
	*exit_status = WEXITSTATUS(st);
	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/%s.csv", dir, names[i]);
		out[i] = gp_table_load(path, err, sizeof err);
		if (!out[i])
			print_error("%s: %s\n", path, err);
		assert_non_null(out[i]);
	}
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

static struct gp_table *run_cli(const char *name, const char *args, int *exit_status)
{
	struct gp_table *t;

	run_cli_tables(args, &name, 1, &t, exit_status);
	return t;
}

/* The runner survives kernels that trap, fault on an illegal address or hang: each becomes a
 * row saying so, the run exits 7 (none of these faults is one the experiment expects), and
 * every `ok` point after a failure is measured normally. */
static void test_fault_isolation(void **state)
{
	static const char *const want[][2] = {
		{ "ok", "ok" }, { "trap", "fault:" }, { "ok", "ok" }, { "oob", "fault:" },
		{ "ok", "ok" }, { "hang", "hang:" }, { "ok", "ok" },
	};
	struct gp_table *t;
	int st;

	NEED_GPU();
	t = run_cli("selftest_fault", "selftest_fault --reps 1 --timeout 10", &st);
	assert_int_equal(st, GP_ECUDA);
	assert_int_equal(t->nrows, GP_ARRAY_SIZE(want));
	for (size_t r = 0; r < t->nrows; r++) {
		assert_string_equal(gp_table_get(t, r, "mode"), want[r][0]);
		assert_true(!strncmp(gp_table_get(t, r, "status"), want[r][1], strlen(want[r][1])));
	}
	gp_table_free(t);
}

/* Issue 21: stall_wait's cleared-wait points may fault on purpose (the LDG one does on the
 * H100); such a fault is the point's result, "expected-fault: …", and the run still exits 0.
 * The points after it are measured by a fresh process. */
static void test_expected_fault_passes(void **state)
{
	static const char *const want[][2] = {
		{ "ldg", "keep" }, { "ldg", "clear" }, { "lds", "keep" }, { "lds", "clear" },
	};
	struct gp_table *t;
	int st;

	NEED_GPU();
	t = run_cli("stall_wait", "stall_wait --reps 1", &st);
	assert_int_equal(st, 0);
	assert_int_equal(t->nrows, GP_ARRAY_SIZE(want));
	for (size_t r = 0; r < t->nrows; r++) {
		const char *status = gp_table_get(t, r, "status");
		assert_string_equal(gp_table_get(t, r, "mem"), want[r][0]);
		assert_string_equal(gp_table_get(t, r, "wait"), want[r][1]);
		print_message("%s %s: %s\n", want[r][0], want[r][1], status);
		if (!strcmp(want[r][1], "keep"))
			assert_string_equal(status, "ok");
		else if (strcmp(status, "ok") && !gp_status_expected_fault(status))
			fail_msg("%s clear: status '%s', want ok or expected-fault", want[r][0], status);
	}
	gp_table_free(t);
}

/* Issue 19: one measuring process serves the whole suite. A suite whose middle experiment
 * faults (an error in the middle, a death at its last point): the points after each failure, in
 * that experiment and in the next one, are measured by a fresh process and come back valid; the
 * experiment before is untouched; the run exits 7. */
static void test_suite_survives_middle_fault(void **state)
{
	static const char suite[] = "experiment,parameter,values\n"
				    "lat_ffma,threads,32\nlat_ffma,iters,512\n"
				    "selftest_fault,mode,ok trap ok oob\n"
				    "tput_fp32,op,ffma fmul\ntput_fp32,iters,512\n";
	static const char *const names[] = { "lat_ffma", "selftest_fault", "tput_fp32" };
	static const char *const want[][2] = { { "ok", "ok" }, { "trap", "fault:" }, { "ok", "ok" }, { "oob", "fault:" } };
	char path[] = "/tmp/gpuprobe-suite-XXXXXX", args[256];
	struct gp_table *t[3];
	int fd, st;

	NEED_GPU();
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(gp_write_fd(fd, suite, strlen(suite)), 0);
	close(fd);
	snprintf(args, sizeof args, "--suite %s --reps 1 --timeout 30", path);
	run_cli_tables(args, names, 3, t, &st);
	unlink(path);
	assert_int_equal(st, GP_ECUDA);
	assert_int_equal(t[0]->nrows, 1);
	assert_string_equal(gp_table_get(t[0], 0, "status"), "ok");
	assert_int_equal(t[1]->nrows, GP_ARRAY_SIZE(want));
	for (size_t r = 0; r < t[1]->nrows; r++) {
		assert_string_equal(gp_table_get(t[1], r, "mode"), want[r][0]);
		assert_true(!strncmp(gp_table_get(t[1], r, "status"), want[r][1], strlen(want[r][1])));
	}
	assert_int_equal(t[2]->nrows, 2);
	for (size_t r = 0; r < t[2]->nrows; r++) {
		assert_string_equal(gp_table_get(t[2], r, "status"), "ok");
		assert_true(cell(t[2], r, "ops_per_clk_per_sm") > 0);
	}
	for (size_t i = 0; i < 3; i++)
		gp_table_free(t[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lat_ffma_latency_and_clock),
		cmocka_unit_test(test_tput_fp32_under_ceiling),
		cmocka_unit_test(test_fault_isolation),
		cmocka_unit_test(test_expected_fault_passes),
		cmocka_unit_test(test_suite_survives_middle_fault),
	};

	return cmocka_run_group_tests_name("gpu", tests, gpu_setup, gpu_teardown);
}
