/* test_badinput.c — bad input never crashes: malformed and cut cubins for `sass`, huge values and
 * odd CSV in suites, a reference table without its columns; the binary as a child
 * (child_test.h). Each is refused with its exit code and exactly one line "gpuprobe: ..." naming
 * what is wrong, quickly, and nothing is written. The seed cubins come from fuzz/corpus/cubin
 * (no nvcc needed); the binary is $GPUPROBE, else bin/gpuprobe. */
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
#include "table.h"

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
	one_line_error(&r, GP_EIO, "not a regular file");
	result_free(&r);

	/* refused before a byte is read: a device that never ends, and a file no cubin comes near
	 * (sparse: 300 MiB on disk in name only; it used to be read whole) */
	r = RUN("sass", "dump", "/dev/zero");
	one_line_error(&r, GP_EIO, "not a regular file");
	result_free(&r);
	snprintf(out, sizeof out, "%s/huge.cubin", (char *)*state);
	{
		FILE *f = fopen(out, "w");
		assert_non_null(f);
		fclose(f);
		assert_int_equal(truncate(out, 300l << 20), 0);
	}
	r = RUN("sass", "dump", out);
	one_line_error(&r, GP_EINPUT, "larger than any cubin");
	result_free(&r);
	unlink(out);

	snprintf(out, sizeof out, "%s/patched.cubin", (char *)*state);
	/* another opcode is another instruction: only with --force */
	r = RUN("sass", "patch", SEED_CUBIN, "--kernel", "seed_ffma", "--index", "0", "--field", "opcode",
		"--value", "0", "-o", out);
	one_line_error(&r, GP_EUSAGE, "opcode");
	result_free(&r);
	assert_false(exists(out));
	/* plan names the file it cannot read */
	r = RUN("plan", "/nonexistent-run");
	one_line_error(&r, GP_ECONFIG, "/nonexistent-run/profile.csv");
	result_free(&r);

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
	if (child_cpu_seconds > 5) {
		show(&r);
		fail_msg("refusing the suite took %.1f s of CPU", child_cpu_seconds);
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

#define T(f) cmocka_unit_test_setup_teardown(f, tmp_setup, tmp_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_sass_bad_cubins),
		T(test_sass_section_past_end),
		T(test_sass_other_failures),
		T(test_suite_huge_values),
		T(test_suite_malformed_csv),
		T(test_suite_is_a_directory),
		T(test_report_bad_reference),
	};

	return cmocka_run_group_tests_name("badinput", tests, child_group_setup, NULL);
}
