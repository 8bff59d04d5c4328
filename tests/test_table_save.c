/* test_table_save.c — gp_table_save: a save either replaces the whole file or leaves the old one
 * alone, with no temporary file left behind, whether the directory is missing, unwritable or the
 * final rename fails; what was saved loads back as it was. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gp.h"
#include "table.h"
#include "table_test.h"

/* ---------------------------------------------------------------- helpers */

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static char *read_file(const char *path)
{
	char *s = gp_read_file(path, NULL);

	assert_non_null(s);
	return s;
}

/* Names in dir, sorted and joined by '/', e.g. "a.csv/b.csv" (caller frees). */
static char *listing(const char *dir)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort);
	char *out = calloc(1, 4096);

	assert_true(n >= 0);
	assert_non_null(out);
	for (int i = 0; i < n; i++) {
		if (strcmp(ents[i]->d_name, ".") && strcmp(ents[i]->d_name, "..")) {
			if (*out)
				strcat(out, "/");
			strncat(out, ents[i]->d_name, 4096 - strlen(out) - 2);
		}
		free(ents[i]);
	}
	free(ents);
	return out;
}

/* ---------------------------------------------------------------- atomic save */

static void test_save_writes_exactly_and_leaves_no_tmp(void **state)
{
	char *dir = make_tmpdir(), path[512], *text, *want, *names;
	struct gp_table *t = kv_table(5, "a, \"b\"\nc");

	snprintf(path, sizeof path, "%s/out.csv", dir);
	assert_int_equal(gp_table_save(t, path), 0);
	text = read_file(path);
	want = to_text(t);
	assert_string_equal(text, want);
	names = listing(dir);
	assert_string_equal(names, "out.csv");
	free(names);
	free(text);
	free(want);
	gp_table_free(t);
	remove_tree(dir);
}

static void test_save_replaces_whole_file(void **state)
{
	char *dir = make_tmpdir(), path[512], *text, *want, *names, old[64] = "";
	struct gp_table *big = kv_table(1000, "a long value that makes the file large");
	struct gp_table *small = kv_table(1, "s");
	int fd;

	snprintf(path, sizeof path, "%s/r.csv", dir);
	assert_int_equal(gp_table_save(big, path), 0);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(gp_table_save(small, path), 0);
	/* The new file holds the small table and nothing of the large one after it. */
	text = read_file(path);
	want = to_text(small);
	assert_string_equal(text, want);
	/* Replaced by rename, not rewritten in place: a reader holding the old file still sees
	 * the old, complete content. */
	assert_int_equal(read(fd, old, sizeof old - 1), sizeof old - 1);
	assert_int_equal(strncmp(old, "key,value\nk0,a long value", 25), 0);
	close(fd);
	names = listing(dir);
	assert_string_equal(names, "r.csv");
	free(names);
	free(text);
	free(want);
	gp_table_free(big);
	gp_table_free(small);
	remove_tree(dir);
}

/* Save must fail (-1, errno set), keep the existing file byte for byte and leave nothing new
 * (no tmp file) in its directory. */
static void check_save_fails_keeps(const char *dir, const char *path)
{
	struct gp_table *t = kv_table(2, "new");
	char *before = read_file(path), *names_before = listing(dir), *after, *names;

	errno = 0;
	assert_int_equal(gp_table_save(t, path), -1);
	assert_int_not_equal(errno, 0);
	after = read_file(path);
	assert_string_equal(after, before);
	names = listing(dir);
	assert_string_equal(names, names_before);
	free(before);
	free(names_before);
	free(after);
	free(names);
	gp_table_free(t);
}

static void test_save_unwritable_dir(void **state)
{
	char *dir = make_tmpdir(), sub[512], path[600];

	snprintf(sub, sizeof sub, "%s/ro", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(path, sizeof path, "%s/keep.csv", sub);
	write_file(path, "key,value\nold,1\n");
	if (geteuid() != 0) {
		assert_int_equal(chmod(sub, 0555), 0);
		check_save_fails_keeps(sub, path);
		chmod(sub, 0700);
	} else {
		/* Permissions do not stop root: make the temporary name uncreatable instead (a
		 * directory sits where the file would go), the same failure seen from save. */
		char block[700];
		print_message("running as root: directory permissions cannot be tested, "
			      "blocking the temporary name instead\n");
		snprintf(block, sizeof block, "%s.tmp.%ld", path, (long)getpid());
		assert_int_equal(mkdir(block, 0700), 0);
		check_save_fails_keeps(sub, path);
		rmdir(block);
	}
	remove_tree(dir);
}

static void test_save_missing_dir(void **state)
{
	char *dir = make_tmpdir(), path[512], *names;
	struct gp_table *t = kv_table(1, "v");

	snprintf(path, sizeof path, "%s/no/such/dir/x.csv", dir);
	errno = 0;
	assert_int_equal(gp_table_save(t, path), -1);
	assert_int_equal(errno, ENOENT);
	names = listing(dir);
	assert_string_equal(names, "");
	free(names);
	gp_table_free(t);
	remove_tree(dir);
}

static void test_save_rename_fails_cleans_tmp(void **state)
{
	char *dir = make_tmpdir(), path[512], inner[600], *names;
	struct gp_table *t = kv_table(1, "v");

	/* The target is a non-empty directory: the rename fails after the tmp file was written. */
	snprintf(path, sizeof path, "%s/target.csv", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(inner, sizeof inner, "%s/inside", path);
	write_file(inner, "x");
	errno = 0;
	assert_int_equal(gp_table_save(t, path), -1);
	assert_int_not_equal(errno, 0);
	names = listing(dir);
	assert_string_equal(names, "target.csv");
	free(names);
	names = listing(path);
	assert_string_equal(names, "inside");
	free(names);
	gp_table_free(t);
	remove_tree(dir);
}

static void test_save_then_load(void **state)
{
	char *dir = make_tmpdir(), path[512], err[256];
	struct gp_table *t = kv_table(3, "x,\"y\"\nz "), *back;

	snprintf(path, sizeof path, "%s/t.csv", dir);
	assert_int_equal(gp_table_save(t, path), 0);
	back = gp_table_load(path, err, sizeof err);
	assert_non_null(back);
	assert_int_equal(back->nrows, 3);
	assert_string_equal(gp_table_get(back, 2, "key"), "k2");
	assert_string_equal(gp_table_get(back, 2, "value"), "x,\"y\"\nz ");
	gp_table_free(back);
	gp_table_free(t);
	remove_tree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_save_writes_exactly_and_leaves_no_tmp),
		cmocka_unit_test(test_save_replaces_whole_file),
		cmocka_unit_test(test_save_unwritable_dir),
		cmocka_unit_test(test_save_missing_dir),
		cmocka_unit_test(test_save_rename_fails_cleans_tmp),
		cmocka_unit_test(test_save_then_load),
	};

	return cmocka_run_group_tests_name("table_save", tests, NULL, NULL);
}

