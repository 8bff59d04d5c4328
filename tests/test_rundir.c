/* test_rundir.c — where a run's results go: gp_make_run_dir and gp_slugify.
 *
 * A run must never write into an earlier run's directory, even two runs started in the same
 * second, and a root that cannot be created is an I/O error, not a crash or a stray directory
 * elsewhere. The slug is the per-GPU directory name, so it must be stable, lower-case, free of
 * the vendor prefix and of anything a shell or a file system would trip over. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <ftw.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gp.h"
#include "device.h"
#include "run.h"

/* ---------------------------------------------------------------- helpers */

static int rm_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	return remove(path);
}

static char *make_tmpdir(void)
{
	char tmpl[] = "/tmp/gp_test_rundir.XXXXXX";
	char *d = mkdtemp(tmpl);

	assert_non_null(d);
	return gp_strdup(d);
}

static void remove_tree(char *dir)
{
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(dir);
}

static int is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void stamp_at(time_t t, char *buf, size_t len)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y%m%d-%H%M%S", &tm);
}

static void touch(const char *dir, const char *name)
{
	char p[PATH_MAX];
	FILE *f;

	snprintf(p, sizeof p, "%s/%s", dir, name);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs("earlier run\n", f);
	fclose(f);
}

static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* ---------------------------------------------------------------- run directories */

static void test_creates_root_slug_stamp(void **state)
{
	char *tmp = make_tmpdir(), root[PATH_MAX], dir[PATH_MAX], prefix[PATH_MAX + 32];
	regex_t re;

	/* a root that does not exist yet, two levels deep, is created */
	snprintf(root, sizeof root, "%s/results/nested", tmp);
	assert_int_equal(gp_make_run_dir(root, "h100-80gb-hbm3", dir, sizeof dir), 0);
	snprintf(prefix, sizeof prefix, "%s/h100-80gb-hbm3/", root);
	assert_int_equal(strncmp(dir, prefix, strlen(prefix)), 0);
	assert_int_equal(regcomp(&re, "^[0-9]{8}-[0-9]{6}$", REG_EXTENDED | REG_NOSUB), 0);
	if (regexec(&re, dir + strlen(prefix), 0, NULL, 0))
		fail_msg("run id '%s' is not yyyymmdd-hhmmss", dir + strlen(prefix));
	regfree(&re);
	assert_true(is_dir(dir));
	assert_int_equal(entries(dir), 0);
	/* the stamp is the current UTC time */
	{
		char now[32], before[32];
		time_t t = time(NULL);
		stamp_at(t, now, sizeof now);
		stamp_at(t - 2, before, sizeof before);
		assert_true(strcmp(base(dir), before) >= 0 && strcmp(base(dir), now) <= 0);
	}
	remove_tree(tmp);
}

static void test_same_second_gets_suffix(void **state)
{
	char *tmp = make_tmpdir(), d1[PATH_MAX], d2[PATH_MAX], d3[PATH_MAX], want[PATH_MAX + 8];
	int tries;

	/* Retry if a second boundary falls between the calls (rare). */
	for (tries = 0; tries < 5; tries++) {
		char root[PATH_MAX];
		snprintf(root, sizeof root, "%s/r%d", tmp, tries);
		assert_int_equal(gp_make_run_dir(root, "gpu", d1, sizeof d1), 0);
		touch(d1, "meta.csv");
		assert_int_equal(gp_make_run_dir(root, "gpu", d2, sizeof d2), 0);
		assert_int_equal(gp_make_run_dir(root, "gpu", d3, sizeof d3), 0);
		assert_string_not_equal(d1, d2);
		assert_string_not_equal(d2, d3);
		assert_string_not_equal(d1, d3);
		if (strncmp(base(d1), base(d3), 15))
			continue;
		snprintf(want, sizeof want, "%s-2", d1);
		assert_string_equal(d2, want);
		snprintf(want, sizeof want, "%s-3", d1);
		assert_string_equal(d3, want);
		/* the first run's file is where it was, the new directories are empty */
		assert_int_equal(entries(d1), 1);
		assert_int_equal(entries(d2), 0);
		break;
	}
	assert_true(tries < 5);
	remove_tree(tmp);
}

/* Directories already there for this second (and the next two) are never reused. */
static void test_never_reuses_existing(void **state)
{
	char *tmp = make_tmpdir(), slugdir[PATH_MAX], p[PATH_MAX + 64], dir[PATH_MAX], st[32];
	time_t now = time(NULL);

	snprintf(slugdir, sizeof slugdir, "%s/gpu", tmp);
	assert_int_equal(mkdir(slugdir, 0700), 0);
	for (int s = 0; s < 3; s++) {
		stamp_at(now + s, st, sizeof st);
		snprintf(p, sizeof p, "%s/%s", slugdir, st);
		assert_int_equal(mkdir(p, 0700), 0);
		touch(p, "old.csv");
		snprintf(p, sizeof p, "%s/%s-2", slugdir, st);
		assert_int_equal(mkdir(p, 0700), 0);
		touch(p, "old.csv");
	}
	assert_int_equal(gp_make_run_dir(tmp, "gpu", dir, sizeof dir), 0);
	assert_true(is_dir(dir));
	assert_int_equal(entries(dir), 0);
	if (time(NULL) <= now + 2) {
		snprintf(p, sizeof p, "-3");
		assert_string_equal(dir + strlen(dir) - 2, p);
	}
	/* all six earlier directories still hold their file */
	for (int s = 0; s < 3; s++) {
		stamp_at(now + s, st, sizeof st);
		snprintf(p, sizeof p, "%s/%s", slugdir, st);
		assert_int_equal(entries(p), 1);
		snprintf(p, sizeof p, "%s/%s-2", slugdir, st);
		assert_int_equal(entries(p), 1);
	}
	remove_tree(tmp);
}

/* When every name for this second is taken, fail rather than reuse one. */
static void test_exhausted_names_fail(void **state)
{
	char *tmp = make_tmpdir(), slugdir[PATH_MAX], p[PATH_MAX + 64], dir[PATH_MAX] = "", st[32];
	time_t now = time(NULL);
	int rc;

	snprintf(slugdir, sizeof slugdir, "%s/gpu", tmp);
	assert_int_equal(mkdir(slugdir, 0700), 0);
	for (int s = 0; s < 3; s++) {
		stamp_at(now + s, st, sizeof st);
		snprintf(p, sizeof p, "%s/%s", slugdir, st);
		assert_int_equal(mkdir(p, 0700), 0);
		for (int k = 2; k <= 100; k++) {
			snprintf(p, sizeof p, "%s/%s-%d", slugdir, st, k);
			assert_int_equal(mkdir(p, 0700), 0);
		}
	}
	rc = gp_make_run_dir(tmp, "gpu", dir, sizeof dir);
	if (time(NULL) > now + 2) {
		/* the machine stalled past the prepared seconds: nothing to conclude */
		remove_tree(tmp);
		skip();
	}
	assert_int_equal(rc, GP_EIO);
	assert_int_equal(entries(slugdir), 3 * 100);
	remove_tree(tmp);
}

static void test_unwritable_root(void **state)
{
	char *tmp = make_tmpdir(), file[PATH_MAX], root[PATH_MAX + 16], dir[PATH_MAX];

	snprintf(file, sizeof file, "%s/plain-file", tmp);
	touch(tmp, "plain-file");
	snprintf(root, sizeof root, "%s/results", file);
	assert_int_equal(gp_make_run_dir(root, "gpu", dir, sizeof dir), GP_EIO);
	assert_int_equal(gp_make_run_dir(file, "gpu", dir, sizeof dir), GP_EIO);
	assert_int_equal(entries(tmp), 1);
	remove_tree(tmp);
}

static void test_path_too_long(void **state)
{
	char *tmp = make_tmpdir(), dir[16];

	/* the run directory's name does not fit the buffer: an error, never a truncated path */
	assert_int_not_equal(gp_make_run_dir(tmp, "gpu", dir, sizeof dir), 0);
	remove_tree(tmp);
}

/* ---------------------------------------------------------------- slugs */

static void slug_is(const char *name, const char *want)
{
	char out[128];

	memset(out, 'X', sizeof out);
	gp_slugify(name, out, sizeof out);
	if (strcmp(out, want))
		print_error("slug of '%s' is '%s', expected '%s'\n", name, out, want);
	assert_string_equal(out, want);
}

static void test_slug_real_names(void **state)
{
	slug_is("NVIDIA H100 80GB HBM3", "h100-80gb-hbm3");
	slug_is("NVIDIA GeForce RTX 4090", "geforce-rtx-4090");
	slug_is("NVIDIA H200", "h200");
	slug_is("NVIDIA A100-SXM4-80GB", "a100-sxm4-80gb");
	slug_is("Tesla V100-SXM2-16GB", "tesla-v100-sxm2-16gb");
	slug_is("NVIDIA RTX 6000 Ada Generation", "rtx-6000-ada-generation");
	slug_is("nvidia h100 pcie", "h100-pcie");
}

static void test_slug_odd_characters(void **state)
{
	slug_is("NVIDIA  H100 (80GB) / HBM3!! ", "h100-80gb-hbm3");
	slug_is("GPU_0:../../etc", "gpu-0-etc");
	slug_is("a\tb\nc", "a-b-c");
	slug_is("Ünïcode GPU™", "n-code-gpu");
	slug_is("NVIDIA", "nvidia");
	slug_is("NVIDIAH100", "nvidiah100");
	slug_is("---", "gpu");
	slug_is("NVIDIA ", "gpu");
}

static void test_slug_empty(void **state)
{
	slug_is("", "gpu");
}

static void test_slug_small_buffers(void **state)
{
	const char *name = "NVIDIA H100 80GB HBM3";

	/* Every prefix length: NUL-terminated, within the buffer, never ending in a dash. */
	for (size_t len = 1; len <= 20; len++) {
		char out[32];
		size_t n;

		memset(out, 'X', sizeof out);
		gp_slugify(name, out, len);
		n = strnlen(out, sizeof out);
		assert_true(n < len);
		assert_int_equal(out[len], 'X');
		assert_int_equal(strncmp(out, "h100-80gb-hbm3", n), 0);
		if (n && out[n - 1] == '-')
			fail_msg("slug '%s' (buffer %zu) ends in a dash", out, len);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_creates_root_slug_stamp),
		cmocka_unit_test(test_same_second_gets_suffix),
		cmocka_unit_test(test_never_reuses_existing),
		cmocka_unit_test(test_exhausted_names_fail),
		cmocka_unit_test(test_unwritable_root),
		cmocka_unit_test(test_path_too_long),
		cmocka_unit_test(test_slug_real_names),
		cmocka_unit_test(test_slug_odd_characters),
		cmocka_unit_test(test_slug_empty),
		cmocka_unit_test(test_slug_small_buffers),
	};

	return cmocka_run_group_tests_name("rundir", tests, NULL, NULL);
}
