/* test_md.c — the shared pieces report sections and derived tables are written with: a table's
 * rows as Markdown cells (gp_md_rows, gp_md_cells: numbers rounded, empty and non-finite cells as
 * "–"), a derived table saved into a run directory (gp_table_save_in, its error naming the path),
 * and GP_FIND_NAME with a key whose variable is not called name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gp.h"
#include "md.h"
#include "table.h"

static const char csv[] = "kernel,gflops,status\n"
			  "a,1234.5678,ok\n"
			  "b,nan,failed: x\n";

static struct gp_table *table(void)
{
	char err[128];
	struct gp_table *t = gp_table_parse(csv, strlen(csv), err, sizeof err);

	if (!t)
		fail_msg("parse: %s", err);
	return t;
}

/* What f wrote, as a string the caller frees. */
static char *written(FILE *f, char **buf)
{
	fclose(f);
	return *buf;
}

static void test_rows_and_cells(void **state)
{
	static const char *const cols[] = { "kernel", "gflops", "status" };
	static const char *const two[] = { "status", "kernel" };
	struct gp_table *t = table();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	gp_md_rows(f, t, cols, GP_ARRAY_SIZE(cols));
	assert_string_equal(written(f, &buf), "| a | 1235 | ok |\n| b | – | failed: x |\n");
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	gp_md_cells(f, t, 1, two, GP_ARRAY_SIZE(two));
	gp_md_str(f, "end");
	gp_md_end(f);
	assert_string_equal(written(f, &buf), "| failed: x | b | end |\n");
	free(buf);
	gp_table_free(t);
}

static void test_save_in(void **state)
{
	char dir[] = "/tmp/gp-test-md-XXXXXX", path[256], err[512], missing[300];
	struct gp_table *t = table(), *back;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(gp_table_save_in(t, dir, "x.csv", err, sizeof err), 0);
	snprintf(path, sizeof path, "%s/x.csv", dir);
	back = gp_table_load(path, err, sizeof err);
	assert_non_null(back);
	assert_int_equal(back->nrows, 2);
	assert_string_equal(gp_table_get(back, 1, "status"), "failed: x");
	gp_table_free(back);
	/* A directory that is not there: -1, and the error names the path and why. */
	snprintf(missing, sizeof missing, "%s/none", dir);
	assert_int_equal(gp_table_save_in(t, missing, "x.csv", err, sizeof err), -1);
	assert_non_null(strstr(err, "/none/x.csv: "));
	assert_non_null(strstr(err, strerror(ENOENT)));
	unlink(path);
	rmdir(dir);
	gp_table_free(t);
}

struct named {
	const char *name;
	int v;
};

static void test_find_name_key(void **state)
{
	static const struct named tab[] = { { "x", 1 }, { "y", 2 } };
	const char *wanted = "y";
	const struct named *e = GP_FIND_NAME(tab, GP_ARRAY_SIZE(tab), wanted);

	(void)state;
	assert_non_null(e);
	assert_int_equal(e->v, 2);
	assert_null(GP_FIND_NAME(tab, GP_ARRAY_SIZE(tab), "z"));
	assert_null(GP_FIND_NAME(tab, GP_ARRAY_SIZE(tab), (const char *)NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_and_cells),
		cmocka_unit_test(test_save_in),
		cmocka_unit_test(test_find_name_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
