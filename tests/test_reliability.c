/* test_reliability.c — what a failed or interrupted command leaves: unwritable and full disks,
 * interruption; the binary as a child (child_test.h).
 *
 * What is held (README "Errors"): each failure class has its exit code and exactly one line
 * "gpuprobe: ..." on stderr, and a failed command leaves nothing behind: no partial file, no
 * *.tmp.* file, every earlier file byte for byte as it was (compared by snapshots of the whole
 * tree). Root ignores permission bits: the chmod tests then say they are skipped and the
 * root-proof variants (a path under a regular file, a directory in the way of a rename) still
 * run. A real run, interrupted or refused its results directory, goes through the stub driver
 * where make test provides it (stub_test.h), and through the GPU where there is one. The binary
 * is $GPUPROBE, else bin/gpuprobe. Bad input (malformed cubins, suites and CSVs) is
 * test_badinput.c's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gp.h"
#include "cli_test.h"
#include "child_test.h"
#include "experiment.h"
#include "stub_test.h"
#include "table.h"

/* ---------------------------------------------------------------- (a) unwritable results */

/* A run directory the user cannot write: report fails with exit 6 before creating anything. */
static void test_report_unwritable_dir(void **state)
{
	char run[PATH_MAX], *before;
	struct result r;

	if (is_root) {
		print_message("skipped: running as root, which ignores the read-only mode of the run "
			      "directory (test_output_under_a_file and test_report_rename_blocked are "
			      "the root-proof variants)\n");
		skip();
	}
	snprintf(run, sizeof run, "%s/run", (char *)*state);
	assert_int_equal(mkdir(run, 0700), 0);
	make_run_dir(run, 4, "# an earlier report\n");
	assert_int_equal(chmod(run, 0555), 0);
	before = snapshot(*state);
	r = RUN_WITH(&quiet_charts, "-q", "report", run);
	one_line_error(&r, GP_EIO, "REPORT.md");
	assert_unchanged(*state, before, &r);
	result_free(&r);
	free(before);
}

/* Outputs whose parent is a regular file: mkdir/open fail with ENOTDIR for root too. */
static void test_output_under_a_file(void **state)
{
	char file[PATH_MAX], out[PATH_MAX + 32], *before;
	struct result r;

	snprintf(file, sizeof file, "%s/plain-file", (char *)*state);
	write_file(file, "not a directory\n");
	before = snapshot(*state);

	snprintf(out, sizeof out, "%s/patched.cubin", file);
	r = RUN("-q", "sass", "patch", SEED_CUBIN, "--kernel", "seed_ffma", "--index", "0", "--field",
		"reuse", "--value", "0", "--force", "-o", out);
	one_line_error(&r, GP_EIO, "plain-file");
	assert_unchanged(*state, before, &r);
	result_free(&r);

	/* run --out: the results root is made only after the GPU was found, so without one the
	 * refusal is "no GPU" (4); through the stub driver, or on a GPU, it is the I/O error (6);
	 * either way nothing may appear. */
	snprintf(out, sizeof out, "%s/results", file);
	r = RUN("-q", "run", "--out", out, "--reps", "1", "lat_ffma");
	if (no_gpu) {
		print_message("no GPU: run --out under a file is refused as 'no GPU' here\n");
		one_line_error(&r, GP_ENOGPU, NULL);
	} else {
		one_line_error(&r, GP_EIO, "plain-file");
	}
	assert_unchanged(*state, before, &r);
	result_free(&r);
	if (stub_ld_path[0]) {
		const char *const env[] = { stub_ld_path, NULL };
		r = RUN_WITH(&((struct spawn){ env, -1, 0 }), "-q", "run", "--out", out, "--reps", "1", "lat_ffma");
		one_line_error(&r, GP_EIO, "plain-file");
		assert_unchanged(*state, before, &r);
		result_free(&r);
	} else {
		print_message("%s: run --out under a file not tried through the stub driver\n", no_stub_why);
	}
	free(before);
}

/* sass patch into a read-only directory (not root): exit 6, no temporary file left. */
static void test_patch_into_readonly_dir(void **state)
{
	char ro[PATH_MAX], out[PATH_MAX + 32], *before;
	struct result r;

	if (is_root) {
		print_message("skipped: running as root, which ignores the read-only mode\n");
		skip();
	}
	snprintf(ro, sizeof ro, "%s/ro", (char *)*state);
	assert_int_equal(mkdir(ro, 0555), 0);
	before = snapshot(*state);
	snprintf(out, sizeof out, "%s/patched.cubin", ro);
	r = RUN("-q", "sass", "patch", SEED_CUBIN, "--kernel", "seed_ffma", "--index", "0", "--field",
		"reuse", "--value", "0", "--force", "-o", out);
	one_line_error(&r, GP_EIO, NULL);
	assert_unchanged(*state, before, &r);
	result_free(&r);
	free(before);
}

/* REPORT.md cannot replace what is there (a directory in the way of the rename): exit 6, the
 * temporary report removed, the directory as it was. Holds for root too. */
static void test_report_rename_blocked(void **state)
{
	char run[PATH_MAX], path[PATH_MAX + 32], *before;
	struct result r;

	snprintf(run, sizeof run, "%s/run", (char *)*state);
	assert_int_equal(mkdir(run, 0700), 0);
	make_run_dir(run, 4, NULL);
	snprintf(path, sizeof path, "%s/REPORT.md", run);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/REPORT.md/keep", run);
	write_file(path, "x\n");
	before = snapshot(*state);
	r = RUN_WITH(&quiet_charts, "-q", "report", run);
	one_line_error(&r, GP_EIO, "REPORT.md");
	assert_unchanged(*state, before, &r);
	result_free(&r);
	free(before);
}

/* ---------------------------------------------------------------- (b) full disk */

/* REPORT.md written into a file-size limit at several points of its writing: every attempt
 * fails with exit 6 and one line, and the run directory is exactly as before: the earlier
 * REPORT.md intact, no partial one, no temporary file. The limit is set from the size of the
 * full report (measured first), so it cuts at the start, at and around a stdio
 * buffer's size, in the middle and one byte short of the end. */
static void test_report_full_disk(void **state)
{
	char run[PATH_MAX], path[PATH_MAX + 32], *before, *md;
	size_t full;
	struct result r;

	/* The full report first, in the same directory (its path is part of the report). */
	snprintf(run, sizeof run, "%s/run", (char *)*state);
	assert_int_equal(mkdir(run, 0700), 0);
	make_run_dir(run, 3000, NULL);
	r = RUN_WITH(&quiet_charts, "-q", "report", run);
	if (r.status)
		show(&r);
	assert_int_equal(r.status, 0);
	result_free(&r);
	snprintf(path, sizeof path, "%s/REPORT.md", run);
	md = gp_read_file(path, &full);
	assert_non_null(md);
	free(md);
	assert_true(full > 4098); /* so that every cut below falls inside the report */
	write_file(path, "# an earlier report\n");
	before = snapshot(run);
	const long limits[] = { 0, 1, 4095, 4096, 4097, (long)full / 2, (long)full - 1 };
	for (size_t i = 0; i < GP_ARRAY_SIZE(limits); i++) {
		struct spawn o = { no_charts, limits[i], 0 };
		r = RUN_WITH(&o, "-q", "report", run);
		if (r.status != GP_EIO)
			print_error("with a file-size limit of %ld bytes (full report %zu bytes):\n",
				    limits[i], full);
		one_line_error(&r, GP_EIO, "REPORT.md");
		assert_unchanged(run, before, &r);
		result_free(&r);
	}
	free(before);
}

/* ---------------------------------------------------------------- (e) interruption */

static int find_file(const char *dir, const char *name, char *found, size_t len, int depth)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort), hit = 0;

	for (int i = 0; i < n; i++) {
		char p[PATH_MAX];
		struct stat st;

		snprintf(p, sizeof p, "%s/%s", dir, ents[i]->d_name);
		if (!hit && ents[i]->d_name[0] != '.' && !lstat(p, &st)) {
			if (!strncmp(ents[i]->d_name, name, strlen(name))) {
				snprintf(found, len, "%s", p);
				hit = 1;
			} else if (S_ISDIR(st.st_mode) && depth > 0) {
				hit = find_file(p, name, found, len, depth - 1);
			}
		}
		free(ents[i]);
	}
	free(ents);
	return hit;
}

/* SIGINT to `gpuprobe report` while it writes REPORT.md (a large run, so the temporary report
 * is open for a while): it may finish (0, a complete report) or stop, but it must not leave a
 * temporary file or a partial REPORT.md, and the earlier REPORT.md stays as it was. */
static void test_report_interrupted(void **state)
{
	static const char earlier[] = "# an earlier report\n";
	char run[PATH_MAX], path[PATH_MAX + 32], tmp[PATH_MAX], *md;
	int seen = 0;
	struct result r;

	snprintf(run, sizeof run, "%s/run", (char *)*state);
	assert_int_equal(mkdir(run, 0700), 0);
	make_run_dir(run, 100000, earlier);
	double t0 = now();
	struct proc p = start(&quiet_charts, (const char *const[]){ "-q", "report", run, NULL });
	while (now() - t0 < 30 && !(seen = find_file(run, "REPORT.md.tmp", tmp, sizeof tmp, 0)))
		usleep(2000);
	kill(p.pid, SIGINT);
	r = finish(p, t0);
	if (!seen)
		print_message("the temporary report never appeared before the signal (exit %d)\n", r.status);
	snprintf(path, sizeof path, "%s/REPORT.md", run);
	md = gp_read_file(path, NULL);
	assert_non_null(md);
	if (r.status == 0) {
		if (!strstr(md, "## Tuning profile")) {
			show(&r);
			fail_msg("report exited 0 after SIGINT but REPORT.md is incomplete");
		}
	} else if (strcmp(md, earlier)) {
		show(&r);
		fail_msg("report interrupted (status %d) but REPORT.md changed", r.status);
	}
	if (find_file(run, "REPORT.md.tmp", tmp, sizeof tmp, 0)) {
		show(&r);
		fail_msg("SIGINT (status %d, %s) left the temporary report %s", r.status,
			 r.status > 128 ? strsignal(r.status - 128) : "exit", tmp);
	}
	free(md);
	result_free(&r);
}

/* The run directory root/<gpu>/<stamp> that is not `except`, or 0. */
static int new_run_dir(const char *root, const char *except, char *found, size_t len)
{
	struct dirent **gpus;
	int n = scandir(root, &gpus, NULL, alphasort), hit = 0;

	for (int i = 0; i < n; i++) {
		char gdir[PATH_MAX];
		struct dirent **runs;
		int m;

		snprintf(gdir, sizeof gdir, "%s/%s", root, gpus[i]->d_name);
		m = gpus[i]->d_name[0] == '.' ? -1 : scandir(gdir, &runs, NULL, alphasort);
		for (int k = 0; k < m; k++) {
			char p[PATH_MAX];
			snprintf(p, sizeof p, "%s/%s", gdir, runs[k]->d_name);
			if (!hit && runs[k]->d_name[0] == '2' && strcmp(p, except)) {
				snprintf(found, len, "%s", p);
				hit = 1;
			}
			free(runs[k]);
		}
		if (m >= 0)
			free(runs);
		free(gpus[i]);
	}
	if (n >= 0)
		free(gpus);
	return hit;
}

/* How a run to interrupt is made: through a GPU, long points (about 2 s each on an H100: 256M
 * dependent FFMAs per launch, 4 launches); through the stub driver, short work whose every launch
 * takes 150 ms (0.6 s a point). Either way the signal lands while a point is in flight and many
 * are still to come. */
struct interrupt_how {
	const char *const *env; /* extra environment of the run */
	const char *iters;      /* lat_ffma's chain length */
	unsigned delay_us;      /* from the run's meta.csv to the signal */
	const char *what;
};

static const char *const stub_env[] = { stub_ld_path, "GPUPROBE_STUB_KERNEL_MS=150", NULL };
static const struct interrupt_how on_gpu = { NULL, "1000000", 1500000, "GPU" };
static const struct interrupt_how on_stub = { stub_env, "1024", 300000, "stub driver" };

/* A real run interrupted: SIGTERM to gpuprobe alone, SIGINT to its process group as a terminal's
 * Ctrl-C sends it. Expect exit 9, the run directory on stdout, meta.csv saying "interrupted",
 * every CSV readable, no temporary file and the earlier run untouched. */
static void interrupt_run(const char *dir, int sig, int group, const struct interrupt_how *how)
{
	char root[PATH_MAX], run[PATH_MAX], path[PATH_MAX + 32], earlier[PATH_MAX + 32], err[256];
	char *before;
	struct gp_table *t;
	struct result r;
	int found = 0;

	snprintf(root, sizeof root, "%s/results-%d%s", dir, sig, how->env ? "-stub" : "");
	snprintf(earlier, sizeof earlier, "%s/earlier-gpu", root);
	assert_int_equal(mkdir(root, 0700), 0);
	assert_int_equal(mkdir(earlier, 0700), 0);
	strcat(earlier, "/20250101-000000");
	assert_int_equal(mkdir(earlier, 0700), 0);
	make_run_dir(earlier, 4, "# an earlier report\n");
	before = snapshot(earlier);

	snprintf(path, sizeof path, "%s/long.csv", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "experiment,parameter,values\nlat_ffma,iters,%s\n"
		   "lat_ffma,threads,32 64 128 256 512 1024 32 64 128 256 512 1024\n", how->iters);
	assert_int_equal(fclose(f), 0);
	double t0 = now();
	struct spawn o = { how->env, -1, group };
	struct proc p = start(&o, (const char *const[]){ "-q", "run", "--suite", path, "--out", root,
							 "--reps", "3", NULL });
	/* Wait for the run's meta.csv ("running"), then for the first point to be under way. */
	while (now() - t0 < 60 && !found) {
		if (new_run_dir(root, earlier, run, sizeof run) &&
		    (snprintf(path, sizeof path, "%s/meta.csv", run), exists(path)))
			found = 1;
		else
			usleep(20000);
	}
	if (found)
		usleep(how->delay_us);
	kill(group ? -p.pid : p.pid, sig);
	r = finish(p, t0);
	if (!found) {
		show(&r);
		fail_msg("no run directory appeared within 60 s (%s)", how->what);
	}
	if (r.status != GP_EINTR) {
		show(&r);
		fail_msg("%s%s (%s): expected exit %d", strsignal(sig), group ? " to the group" : "", how->what,
			 GP_EINTR);
	}
	snprintf(path, sizeof path, "%s/meta.csv", run);
	t = gp_table_load(path, err, sizeof err);
	if (!t)
		fail_msg("%s: %s", path, err);
	for (size_t i = 0; i < t->nrows; i++)
		if (!strcmp(gp_table_get(t, i, "key"), "status"))
			assert_string_equal(gp_table_get(t, i, "value"), "interrupted");
	gp_table_free(t);
	if (!strstr(r.out, run)) {
		show(&r);
		fail_msg("stdout does not name the run directory %s", run);
	}
	snprintf(path, sizeof path, "%s/lat_ffma.csv", run);
	if (exists(path)) {
		t = gp_table_load(path, err, sizeof err);
		if (!t)
			fail_msg("%s: %s", path, err);
		gp_table_free(t);
	}
	assert_no_tmp(root);
	assert_unchanged(earlier, before, &r);
	free(before);
	result_free(&r);
}

/* Through the stub driver wherever make test provides it, and through the GPU where there is
 * one; skipped only where neither is. */
static void test_interrupt_run(void **state)
{
	if (!stub_ld_path[0] && no_gpu) {
		print_message("skipped: %s, and libcuda.so.1 does not load here (the report path is "
			      "test_report_interrupted)\n", no_stub_why);
		skip();
	}
	if (stub_ld_path[0]) {
		interrupt_run(*state, SIGTERM, 0, &on_stub);
		interrupt_run(*state, SIGINT, 1, &on_stub);
	}
	if (!no_gpu) {
		interrupt_run(*state, SIGTERM, 0, &on_gpu);
		interrupt_run(*state, SIGINT, 1, &on_gpu);
	}
}

static int group_setup(void **state)
{
	return child_group_setup(state) || stub_init();
}

#define T(f) cmocka_unit_test_setup_teardown(f, tmp_setup, tmp_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_report_unwritable_dir),
		T(test_output_under_a_file),
		T(test_patch_into_readonly_dir),
		T(test_report_rename_blocked),
		T(test_report_full_disk),
		T(test_report_interrupted),
		T(test_interrupt_run),
	};

	return cmocka_run_group_tests_name("reliability", tests, group_setup, NULL);
}
