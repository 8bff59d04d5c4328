/* test_reliability.c — bad input, unwritable and full disks, interruption: the binary as a child.
 *
 * What is held (README "Errors"): each failure class has its exit code and exactly one line
 * "gpuprobe: ..." on stderr, and a failed command leaves nothing behind: no partial file, no
 * *.tmp.* file, every earlier file byte for byte as it was (compared by snapshots of the whole
 * tree). The child's stdout and stderr are pipes, not files, so a file-size limit set for it
 * (the full-disk simulation: RLIMIT_FSIZE with SIGXFSZ ignored, writes fail with EFBIG) limits
 * only what gpuprobe writes. Root ignores permission bits: the chmod tests then say they are
 * skipped and the root-proof variants (a path under a regular file, a directory in the way of a
 * rename) still run. Interrupting a real run needs a GPU and skips without one. The binary is
 * $GPUPROBE, else bin/gpuprobe; the seed cubins come from fuzz/corpus/cubin (no nvcc needed). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gp.h"
#include "cli_test.h"
#include "experiment.h"
#include "table.h"

#define SEED_CUBIN "fuzz/corpus/cubin/seed_sm90.cubin"
#define CHILD_LIMIT_S 120

/* ---------------------------------------------------------------- child processes */

struct spawn {
	const char *const *env; /* extra KEY=VALUE entries */
	long fsize;             /* RLIMIT_FSIZE in bytes for the child, < 0 for none */
	int own_group;          /* child leads its own process group (a terminal's Ctrl-C) */
};

struct proc {
	pid_t pid;
	int out, err;           /* read ends of the child's stdout / stderr */
};


static int no_gpu;
static int is_root;


static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static struct proc start(const struct spawn *o, const char *const *args)
{
	const char *argv[32] = { binary() };
	int po[2], pe[2];
	struct proc p;
	size_t n = 1;

	for (; args[n - 1]; n++) {
		assert_true(n < GP_ARRAY_SIZE(argv) - 1);
		argv[n] = args[n - 1];
	}
	argv[n] = NULL;
	assert_int_equal(pipe(po), 0);
	assert_int_equal(pipe(pe), 0);
	fflush(NULL);
	p.pid = fork();
	assert_true(p.pid >= 0);
	if (p.pid == 0) {
		int in = open("/dev/null", O_RDONLY);
		if (in < 0 || dup2(in, 0) < 0 || dup2(po[1], 1) < 0 || dup2(pe[1], 2) < 0)
			_exit(126);
		close(po[0]);
		close(pe[0]);
		/* A test started from a background shell inherits SIGINT ignored; the child must see
		 * the signals it is sent. */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		if (o && o->own_group)
			setpgid(0, 0);
		if (o && o->fsize >= 0) {
			struct rlimit rl = { (rlim_t)o->fsize, (rlim_t)o->fsize };
			signal(SIGXFSZ, SIG_IGN); /* writes past the limit fail with EFBIG instead */
			if (setrlimit(RLIMIT_FSIZE, &rl))
				_exit(126);
		}
		for (size_t i = 0; o && o->env && o->env[i]; i++)
			putenv((char *)o->env[i]);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (o && o->own_group)
		setpgid(p.pid, p.pid); /* both sides, so a signal to the group cannot race the child */
	close(po[1]);
	close(pe[1]);
	p.out = po[0];
	p.err = pe[0];
	return p;
}

static void append(char **buf, size_t *len, const char *data, size_t n)
{
	char *nb = realloc(*buf, *len + n + 1);

	assert_non_null(nb);
	memcpy(nb + *len, data, n);
	*len += n;
	nb[*len] = '\0';
	*buf = nb;
}

/* Read both pipes to their end, then reap the child; kill it if it outlives CHILD_LIMIT_S. */
static struct result finish(struct proc p, double t0)
{
	struct pollfd pf[2] = { { p.out, POLLIN, 0 }, { p.err, POLLIN, 0 } };
	struct result r = { 0 };
	size_t lo = 0, le = 0;
	int open_fds = 2, st;

	r.out = calloc(1, 1);
	r.err = calloc(1, 1);
	assert_true(r.out && r.err);
	while (open_fds) {
		char buf[4096];
		if (now() - t0 > CHILD_LIMIT_S) {
			kill(p.pid, SIGKILL);
			fail_msg("%s did not finish within %d s", binary(), CHILD_LIMIT_S);
		}
		if (poll(pf, 2, 1000) < 0 && errno != EINTR)
			fail_msg("poll: %s", strerror(errno));
		for (int i = 0; i < 2; i++) {
			if (pf[i].fd < 0 || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			ssize_t n = read(pf[i].fd, buf, sizeof buf);
			if (n > 0) {
				append(i ? &r.err : &r.out, i ? &le : &lo, buf, (size_t)n);
			} else {
				close(pf[i].fd);
				pf[i].fd = -1;
				open_fds--;
			}
		}
	}
	assert_int_equal(waitpid(p.pid, &st, 0), p.pid);
	r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	r.seconds = now() - t0;
	return r;
}

static struct result run_opts(const struct spawn *o, const char *const *args)
{
	double t0 = now();

	return finish(start(o, args), t0);
}

#define RUN(...) run_opts(NULL, (const char *const[]){ __VA_ARGS__, NULL })
#define RUN_WITH(o, ...) run_opts((o), (const char *const[]){ __VA_ARGS__, NULL })

/* gnuplot replaced by /bin/true: charts "succeed" without files, so stderr holds only errors. */
static const char *const no_charts[] = { "GNUPLOT=/bin/true", NULL };
static const struct spawn quiet_charts = { no_charts, -1, 0 };




/* ---------------------------------------------------------------- files */





static int group_setup(void **state)
{
	void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);

	if (h)
		dlclose(h);
	no_gpu = !h;
	is_root = geteuid() == 0;
	if (access(binary(), X_OK) || access(SEED_CUBIN, R_OK)) {
		fprintf(stderr, "test_reliability: needs %s and %s (set GPUPROBE, run from the "
				"repository root after make)\n", binary(), SEED_CUBIN);
		return -1;
	}
	return 0;
}






static void assert_unchanged(const char *dir, const char *before, const struct result *r)
{
	char *after = snapshot(dir);

	if (strcmp(before, after)) {
		show(r);
		fail_msg("the command changed %s:\n--- before:\n%.3000s\n--- after:\n%.3000s", dir, before,
			 after);
	}
	free(after);
}

/* No *.tmp.* (gp_table_save, report) or *.tmpXXXXXX (cubin save) anywhere under dir. */
static int tmp_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	const char *base = path + ftw->base;

	if (strstr(base, ".tmp"))
		fail_msg("temporary file %s left behind", path);
	return 0;
}

static void assert_no_tmp(const char *dir)
{
	nftw(dir, tmp_entry, 16, FTW_PHYS);
}

/* A run directory as `gpuprobe run` leaves it: meta.csv, lat_ffma.csv with the registry's
 * columns and nrows rows, optionally an earlier REPORT.md. Written with stdio, not gp_table,
 * so that hundreds of thousands of rows cost little. */
static void make_run_dir(const char *dir, size_t nrows, const char *earlier_report)
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

static char *read_cubin(size_t *len)
{
	char *c = gp_read_file(SEED_CUBIN, len);

	assert_non_null(c);
	assert_true(*len > 64);
	return c;
}

static void put32(char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (char)(v >> 8 * i);
}

static void put64(char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (char)(v >> 8 * i);
}

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
	 * refusal is "no GPU" (4); either way nothing may appear. */
	snprintf(out, sizeof out, "%s/results", file);
	r = RUN("-q", "run", "--out", out, "--reps", "1", "lat_ffma");
	if (no_gpu) {
		print_message("no GPU: run --out under a file can only be refused as 'no GPU' here\n");
		one_line_error(&r, GP_ENOGPU, NULL);
	} else {
		one_line_error(&r, GP_EIO, "plain-file");
	}
	assert_unchanged(*state, before, &r);
	result_free(&r);
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
	assert_true(full > 20000);
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

/* ---------------------------------------------------------------- (c) sass on bad cubins */

struct bad_cubin {
	const char *name;
	size_t cut;             /* keep this many bytes (0: all) */
	size_t at;              /* then write a value here (0: nothing) */
	int width;              /* 2, 4 or 8 bytes */
	uint64_t value;
	const char *want;       /* in the message */
};

static void test_sass_bad_cubins(void **state)
{
	static const struct bad_cubin cases[] = {
		{ "empty", 1, 0, 0, 0, "not a cubin" },
		{ "cut-in-header", 40, 0, 0, 0, "not a cubin" },
		{ "cut-after-header", 64, 0, 0, 0, "past the end" },
		{ "cut-in-half", 3000, 0, 0, 0, "past the end" },
		{ "cut-last-byte", (size_t)-1, 0, 0, 0, "past the end" },
		{ "x86-64-machine", 0, 18, 2, 62, "e_machine" },
		{ "32-bit-class", 0, 4, 1, 1, "class" },
		{ "sm_52", 0, 48, 4, 0x6003404, "sm_52" },
		{ "section-table-past-end", 0, 40, 8, 0x7fffffffffff0000ull, "past the end" },
		{ "section-table-offset-wraps", 0, 40, 8, 0xffffffffffffffc0ull, "past the end" },
		{ "bad-section-header-size", 0, 58, 2, 32, "section header size" },
		{ "name-table-index", 0, 62, 2, 0xfff0, "name table" },
	};
	char path[PATH_MAX], *img;
	size_t len;

	img = read_cubin(&len);
	for (size_t i = 0; i < GP_ARRAY_SIZE(cases); i++) {
		const struct bad_cubin *b = &cases[i];
		size_t n = b->cut == (size_t)-1 ? len - 1 : b->cut ? b->cut : len;
		char *copy = malloc(len);
		struct result r;

		assert_non_null(copy);
		memcpy(copy, img, len);
		if (!strcmp(b->name, "empty"))
			n = 0;
		if (b->width == 1)
			copy[b->at] = (char)b->value;
		else if (b->width == 2)
			copy[b->at] = (char)b->value, copy[b->at + 1] = (char)(b->value >> 8);
		else if (b->width == 4)
			put32(copy + b->at, (uint32_t)b->value);
		else if (b->width == 8)
			put64(copy + b->at, b->value);
		snprintf(path, sizeof path, "%s/%s.cubin", (char *)*state, b->name);
		write_bytes(path, copy, n);
		r = RUN("sass", "dump", path);
		if (r.status != GP_EINPUT || *r.out)
			print_error("case %s:\n", b->name);
		one_line_error(&r, GP_EINPUT, b->want);
		assert_string_equal(r.out, "");
		result_free(&r);
		free(copy);
	}
	free(img);
}

/* A section whose bytes lie past the end of the file (offset and size both checked). */
static void test_sass_section_past_end(void **state)
{
	char path[PATH_MAX], *img;
	size_t len;
	struct result r;

	img = read_cubin(&len);
	/* e_shoff at 40; section 1's header: offset at +24, size at +32 */
	uint64_t shoff = 0;
	for (int i = 7; i >= 0; i--)
		shoff = shoff << 8 | (unsigned char)img[40 + i];
	assert_true(shoff + 128 <= len);
	put64(img + shoff + 64 + 32, (uint64_t)len);
	snprintf(path, sizeof path, "%s/section.cubin", (char *)*state);
	write_bytes(path, img, len);
	r = RUN("sass", "dump", path);
	one_line_error(&r, GP_EINPUT, "past the end");
	result_free(&r);
	free(img);
}

/* What README and sass_cli.c say about the other sass failures: an unknown --kernel is a bad
 * command line (2, like an unknown experiment), an input that cannot be read is I/O (6), an
 * index past the kernel's end is refused (2) and nothing is written. */
static void test_sass_other_failures(void **state)
{
	char out[PATH_MAX], *before;
	struct result r;

	before = snapshot(*state);
	r = RUN("sass", "dump", SEED_CUBIN, "--kernel", "no_such_kernel");
	one_line_error(&r, GP_EUSAGE, "no_such_kernel");
	assert_string_equal(r.out, "");
	result_free(&r);

	snprintf(out, sizeof out, "%s/missing.cubin", (char *)*state);
	r = RUN("sass", "dump", out);
	one_line_error(&r, GP_EIO, "missing.cubin");
	result_free(&r);

	r = RUN("sass", "dump", (char *)*state); /* a directory */
	one_line_error(&r, GP_EIO, NULL);
	result_free(&r);

	snprintf(out, sizeof out, "%s/patched.cubin", (char *)*state);
	r = RUN("sass", "patch", SEED_CUBIN, "--kernel", "seed_ffma", "--index", "100000", "--field",
		"reuse", "--value", "0", "--force", "-o", out);
	one_line_error(&r, GP_EUSAGE, "past the end");
	result_free(&r);
	r = RUN("sass", "patch", SEED_CUBIN, "--kernel", "no_such_kernel", "--index", "0", "--field",
		"reuse", "--value", "0", "-o", out);
	one_line_error(&r, GP_EUSAGE, "no_such_kernel");
	assert_unchanged(*state, before, &r);
	result_free(&r);
	free(before);

	/* and the good path still works on the same seed */
	r = RUN("-q", "sass", "dump", SEED_CUBIN, "--kernel", "seed_exit");
	if (r.status || strncmp(r.out, "kernel,index,offset,", 20) || !strstr(r.out, "\nseed_exit,0,")) {
		show(&r);
		fail_msg("sass dump of the seed cubin failed");
	}
	result_free(&r);
}

/* ---------------------------------------------------------------- (d) huge values, odd CSV */

static void bad_suite(const char *dir, const void *text, size_t len, const char *want)
{
	char suite[PATH_MAX], out[PATH_MAX];
	struct result r;

	snprintf(suite, sizeof suite, "%s/suite.csv", dir);
	snprintf(out, sizeof out, "%s/results", dir);
	write_bytes(suite, text, len);
	r = RUN("run", "--suite", suite, "--out", out);
	if (r.status != GP_ECONFIG)
		print_error("suite:\n%.*s\n", (int)len, (const char *)text);
	one_line_error(&r, GP_ECONFIG, want);
	if (r.seconds > 5) {
		show(&r);
		fail_msg("refusing the suite took %.1f s", r.seconds);
	}
	assert_false(exists(out));
	result_free(&r);
	unlink(suite);
}

#define BAD_SUITE(dir, lit, want) bad_suite((dir), (lit), sizeof(lit) - 1, (want))
#define HDR "experiment,parameter,values\n"

static void test_suite_huge_values(void **state)
{
	char *d = *state;

	BAD_SUITE(d, HDR "lat_ffma,threads,99999999999999999999\n", "99999999999999999999");
	BAD_SUITE(d, HDR "lat_ffma,iters,9223372036854775808\n", "9223372036854775808");
	BAD_SUITE(d, HDR "lat_ffma,iters,-9223372036854775809\n", NULL);
	BAD_SUITE(d, HDR "tput_fp32,iters,1:1000000000:1\n", "1:1000000000:1");
	BAD_SUITE(d, HDR "lat_ffma,iters,1:1000000:1\n", "4096");
	BAD_SUITE(d, HDR "lat_ffma,threads,1:1024:1\nlat_ffma,iters,1:4096:1\n", "100000");
	BAD_SUITE(d, HDR "lat_ffma,iters,1:9223372036854775807:1\n", NULL);
	BAD_SUITE(d, HDR "lat_ffma,iters,1:4:0\n", NULL);
	BAD_SUITE(d, HDR "lat_ffma,iters,4:1:1\n", NULL);
	BAD_SUITE(d, HDR "lat_ffma,iters,1:4\n", "lo:hi:step");
	BAD_SUITE(d, HDR "lat_ffma,iters,1e3\n", "1e3");
	BAD_SUITE(d, HDR "lat_ffma,iters,0x10\n", "0x10");
	BAD_SUITE(d, HDR "lat_ffma,iters,"
		  "11111111111111111111111111111111111111111111111111111111111111111111111111111111111111111"
		  "11111111111111111111111111111111111111111111111111\n", NULL);
}

static void test_suite_malformed_csv(void **state)
{
	static const char nul[] = HDR "lat_ffma,iters,10\0" "24\n";
	char *d = *state;

	BAD_SUITE(d, HDR, "header only");
	BAD_SUITE(d, "experiment,parameter,values,extra\nlat_ffma,iters,1024,x\n", "extra");
	BAD_SUITE(d, "experiment,values\nlat_ffma,1024\n", "parameter");
	BAD_SUITE(d, "experiment,experiment,values\n", "duplicate");
	BAD_SUITE(d, HDR "lat_ffma,iters,\"1024\n", NULL);
	BAD_SUITE(d, HDR "lat_ffma,iters,10\"24\n", NULL);
	BAD_SUITE(d, HDR "lat_ffma,iters,1024,\n", "line 2");
	BAD_SUITE(d, HDR "lat_ffma,threads,thirty-two\n", "thirty-two");
	BAD_SUITE(d, HDR "lat_ffma,iters,1024\nlat_ffma,iters,2048\n", "twice");
	BAD_SUITE(d, HDR "lat_ffma,iters,\n", "empty");
	BAD_SUITE(d, HDR ",,\n", NULL);
	bad_suite(d, nul, sizeof nul - 1, NULL);
	BAD_SUITE(d, "\x7f" "ELF\x02\x01\x01\x00\xff\xfe\n\n", NULL);
	BAD_SUITE(d, "\n\n\n", "empty");
}

/* A suite given as a directory is refused as a suite (3), like a missing one. */
static void test_suite_is_a_directory(void **state)
{
	char out[PATH_MAX];
	struct result r;

	snprintf(out, sizeof out, "%s/results", (char *)*state);
	r = RUN("run", "--suite", (char *)*state, "--out", out);
	one_line_error(&r, GP_ECONFIG, NULL);
	assert_false(exists(out));
	result_free(&r);
}

/* configs/reference.csv is read by every report; one without the expected columns (edited,
 * truncated, from another version) must not crash it: a warning and a report without paper
 * numbers (0), or a config error (3), both in lines "gpuprobe: ...". */
static void test_report_bad_reference(void **state)
{
	static const char *const refs[] = {
		"a,b\n1,2\n",
		"experiment,key\nlat_ffma,latency\n",
		"experiment,key,value\nlat_ffma,latency,4\n",
	};
	char home[PATH_MAX], path[PATH_MAX + 32], env_home[PATH_MAX + 32], run[PATH_MAX];

	snprintf(home, sizeof home, "%s/home", (char *)*state);
	snprintf(path, sizeof path, "%s/configs", home);
	assert_int_equal(mkdir(home, 0700), 0);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(env_home, sizeof env_home, "GPUPROBE_HOME=%s", home);
	snprintf(run, sizeof run, "%s/run", (char *)*state);
	assert_int_equal(mkdir(run, 0700), 0);
	make_run_dir(run, 4, NULL);
	for (size_t i = 0; i < GP_ARRAY_SIZE(refs); i++) {
		const char *const env[] = { env_home, "GNUPLOT=/bin/true", NULL };
		struct result r;

		snprintf(path, sizeof path, "%s/configs/reference.csv", home);
		write_file(path, refs[i]);
		struct spawn o = { env, -1, 0 };
		r = RUN_WITH(&o, "-q", "report", run);
		if (r.status != 0 && r.status != GP_ECONFIG) {
			show(&r);
			fail_msg("report with reference.csv \"%s\" ended with %d (%s)", refs[i], r.status,
				 r.status > 128 ? strsignal(r.status - 128) : "exit");
		}
		for (const char *l = r.err; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l))
			if (strncmp(l, "gpuprobe: ", 10)) {
				show(&r);
				fail_msg("a stderr line is not 'gpuprobe: ...'");
			}
		assert_no_tmp(run);
		result_free(&r);
	}
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

/* A real run interrupted (GPU only): SIGTERM to gpuprobe alone, SIGINT to its process group as
 * a terminal's Ctrl-C sends it. Expect exit 9, the run directory on stdout, meta.csv saying
 * "interrupted", every CSV readable, no temporary file and the earlier run untouched. */
static void interrupt_run(const char *dir, int sig, int group)
{
	char root[PATH_MAX], run[PATH_MAX], path[PATH_MAX + 32], earlier[PATH_MAX + 32], err[256];
	char *before;
	struct gp_table *t;
	struct result r;
	int found = 0;

	snprintf(root, sizeof root, "%s/results-%d", dir, sig);
	snprintf(earlier, sizeof earlier, "%s/earlier-gpu", root);
	assert_int_equal(mkdir(root, 0700), 0);
	assert_int_equal(mkdir(earlier, 0700), 0);
	strcat(earlier, "/20250101-000000");
	assert_int_equal(mkdir(earlier, 0700), 0);
	make_run_dir(earlier, 4, "# an earlier report\n");
	before = snapshot(earlier);

	/* Long points (about 2 s each on an H100: 256M dependent FFMAs per launch, 4 launches), so
	 * the signal lands while one is in flight and many are still to come. */
	snprintf(path, sizeof path, "%s/long.csv", dir);
	write_file(path, "experiment,parameter,values\nlat_ffma,iters,1000000\n"
			 "lat_ffma,threads,32 64 128 256 512 1024 32 64 128 256 512 1024\n");
	double t0 = now();
	struct spawn o = { NULL, -1, group };
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
		usleep(1500000);
	kill(group ? -p.pid : p.pid, sig);
	r = finish(p, t0);
	if (!found) {
		show(&r);
		fail_msg("no run directory appeared within 60 s");
	}
	if (r.status != GP_EINTR) {
		show(&r);
		fail_msg("%s%s: expected exit %d", strsignal(sig), group ? " to the group" : "", GP_EINTR);
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

static void test_interrupt_run(void **state)
{
	if (no_gpu) {
		print_message("skipped: libcuda.so.1 does not load here: interrupting a run needs a GPU "
			      "(the report path is test_report_interrupted)\n");
		skip();
	}
	interrupt_run(*state, SIGTERM, 0);
	interrupt_run(*state, SIGINT, 1);
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
		T(test_sass_bad_cubins),
		T(test_sass_section_past_end),
		T(test_sass_other_failures),
		T(test_suite_huge_values),
		T(test_suite_malformed_csv),
		T(test_suite_is_a_directory),
		T(test_report_bad_reference),
		T(test_report_interrupted),
		T(test_interrupt_run),
	};

	return cmocka_run_group_tests_name("reliability", tests, group_setup, NULL);
}
