/* table_test.h — what the table tests share (test_table.c: rows, CSV text, parse errors, numbers;
 * test_table_save.c: the atomic save): a scratch directory per test, a table as CSV text, a
 * key/value table of n rows. Include after cmocka.h. */
#ifndef GP_TABLE_TEST_H
#define GP_TABLE_TEST_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gp.h"
#include "table.h"

static __attribute__((unused)) int rm_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	return remove(path);
}

static __attribute__((unused)) char *make_tmpdir(void)
{
	char tmpl[] = "/tmp/gp_test_table.XXXXXX";
	char *d = mkdtemp(tmpl);

	assert_non_null(d);
	return gp_strdup(d);
}

static __attribute__((unused)) void remove_tree(char *dir)
{
	chmod(dir, 0700);
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(dir);
}

/* The table as CSV text (caller frees). */
static __attribute__((unused)) char *to_text(const struct gp_table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(gp_table_write(t, f), 0);
	fclose(f);
	return buf;
}

static __attribute__((unused)) struct gp_table *kv_table(size_t rows, const char *value)
{
	static const char *const cols[] = { "key", "value" };
	struct gp_table *t = gp_table_new(cols, 2);
	char err[128], key[32];

	assert_non_null(t);
	for (size_t r = 0; r < rows; r++) {
		snprintf(key, sizeof key, "k%zu", r);
		assert_int_equal(gp_row_begin(t), 0);
		assert_int_equal(gp_row_str(t, "key", key), 0);
		assert_int_equal(gp_row_str(t, "value", value), 0);
		assert_int_equal(gp_row_end(t, err, sizeof err), 0);
	}
	return t;
}

#endif
