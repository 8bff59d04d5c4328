/* test_table.c — tables in memory and their CSV form (libcsv), the format of every result file.
 *
 * What matters to a user: a row is never published with a hole; any string survives a write and
 * a read back unchanged (commas, quotes, newlines, edge spaces, empty fields); numbers are
 * written bare so gnuplot reads them as numbers; a malformed file is refused with the line
 * named instead of being read as something else. Saving is test_table_save.c's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gp.h"
#include "profile.h"
#include "table.h"
#include "table_test.h"

/* ---------------------------------------------------------------- helpers */

static struct gp_table *parse_ok(const char *text)
{
	char err[256] = "";
	struct gp_table *t = gp_table_parse(text, strlen(text), err, sizeof err);

	if (!t)
		print_error("unexpected parse error: %s\n", err);
	assert_non_null(t);
	return t;
}

/* Parsing must fail and the message must contain want. */
static void parse_fails(const char *text, size_t len, const char *want)
{
	char err[256] = "";
	struct gp_table *t = gp_table_parse(text, len, err, sizeof err);

	if (t)
		gp_table_free(t);
	assert_null(t);
	if (!strstr(err, want))
		print_error("error '%s' does not contain '%s'\n", err, want);
	assert_non_null(strstr(err, want));
}

/* ---------------------------------------------------------------- building rows */

/* The distinct values of a column in first-appearance order, and a column's maximum over the ok
 * rows only (the report sections' sweeps and their largest point). */
static void test_distinct_and_max_ok(void **state)
{
	static const char *const cols[] = { "mode", "m", "status" };
	static const char *const rows[][3] = { { "tf32", "4096", "ok" }, { "pedantic", "8192", "ok" },
					       { "tf32", "16384", "n/a: too big" }, { "", "2048", "ok" },
					       { "bf16x9", "1024", "ok" } };
	struct gp_table *t = gp_table_new(cols, 3);
	const char *out[4];
	char err[128];

	(void)state;
	assert_non_null(t);
	for (size_t i = 0; i < GP_ARRAY_SIZE(rows); i++) {
		assert_int_equal(gp_row_begin(t), 0);
		for (size_t c = 0; c < 3; c++)
			assert_int_equal(gp_row_str(t, cols[c], rows[i][c]), 0);
		assert_int_equal(gp_row_end(t, err, sizeof err), 0);
	}
	assert_int_equal(gp_table_distinct(t, "mode", out, 4), 3);
	assert_string_equal(out[0], "tf32");
	assert_string_equal(out[1], "pedantic");
	assert_string_equal(out[2], "bf16x9");
	assert_int_equal(gp_table_distinct(t, "mode", out, 2), 2); /* at most max */
	assert_true(gp_table_max_ok(t, "m") == 8192);               /* the n/a row's 16384 is not ok */
	assert_true(gp_table_max_ok(t, "nope") == 0);
	gp_table_free(t);
}

/* A table of n rows, each with clock_MHz c and the status given. */
static struct gp_table *clock_table(size_t n, const char *c, const char *status)
{
	static const char *const cols[] = { "clock_MHz", "status" };
	struct gp_table *t = gp_table_new(cols, 2);
	char err[128];

	assert_non_null(t);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(gp_row_begin(t), 0);
		assert_int_equal(gp_row_str(t, "clock_MHz", c), 0);
		assert_int_equal(gp_row_str(t, "status", status), 0);
		assert_int_equal(gp_row_end(t, err, sizeof err), 0);
	}
	return t;
}

/* The run's clock is the median of its experiments' clocks, not of their rows: one experiment of
 * 1000 rows under one sample (lat_l2_map's 16896 in a default run) does not outvote the others;
 * tables without a clock, failed rows and NULL tables are left out. */
static void test_tables_clock_median(void **state)
{
	struct gp_table *t[6] = { clock_table(1000, "2086", "ok"), clock_table(3, "1980", "ok"),
				  clock_table(2, "1979", "ok"), clock_table(4, "", "ok"),
				  clock_table(5, "1500", "failed: x"), NULL };

	(void)state;
	assert_true(gp_tables_clock_median(t, 6) == 1980);
	assert_true(gp_tables_clock_median(t, 1) == 2086);
	assert_true(isnan(gp_tables_clock_median(t + 3, 3)));
	assert_true(isnan(gp_tables_clock_median(t, 0)));
	for (size_t i = 0; i < 5; i++)
		gp_table_free(t[i]);
}

/* A row by its cells: the first match from a row on, and the first ok match (a failed row with the
 * same cells first is passed over); a missing column or value never matches. */
static void test_find_rows(void **state)
{
	static const char *const cols[] = { "side", "sms", "status" };
	static const char *const rows[][3] = { { "near", "all", "failed: x" }, { "far", "all", "ok" },
					       { "near", "all", "ok" }, { "near", "one", "ok" } };
	struct gp_table *t = gp_table_new(cols, 3);
	char err[128];

	(void)state;
	assert_non_null(t);
	for (size_t i = 0; i < GP_ARRAY_SIZE(rows); i++) {
		assert_int_equal(gp_row_begin(t), 0);
		for (size_t c = 0; c < 3; c++)
			assert_int_equal(gp_row_str(t, cols[c], rows[i][c]), 0);
		assert_int_equal(gp_row_end(t, err, sizeof err), 0);
	}
	assert_int_equal(gp_table_find(t, 0, "side", "near", "sms", "all", NULL), 0);
	assert_int_equal(gp_table_find(t, 1, "side", "near", "sms", "all", NULL), 2);
	assert_int_equal(gp_table_find_ok(t, "side", "near", "sms", "all", NULL), 2);
	assert_int_equal(gp_table_find_ok(t, "side", "near", "sms", "one", NULL), 3);
	assert_int_equal(gp_table_find_ok(t, "side", "far", "sms", "one", NULL), -1);
	assert_int_equal(gp_table_find_ok(t, "nope", "near", NULL), -1);
	assert_int_equal(gp_table_find_ok(t, NULL), 1); /* no pairs: the first ok row */
	gp_table_free(t);
}

static void test_build_rows(void **state)
{
	static const char *const cols[] = { "name", "ms", "count" };
	struct gp_table *t = gp_table_new(cols, 3);
	char err[128];

	assert_non_null(t);
	assert_int_equal(t->ncols, 3);
	assert_int_equal(gp_table_col(t, "ms"), 1);
	assert_int_equal(gp_table_col(t, "nope"), -1);
	assert_int_equal(gp_row_begin(t), 0);
	assert_int_equal(gp_row_num(t, "ms", 0.125), 0);
	assert_int_equal(gp_row_str(t, "name", "ffma"), 0);
	assert_int_equal(gp_row_int(t, "count", -9000000000LL), 0);
	assert_int_equal(gp_row_end(t, err, sizeof err), 0);
	assert_int_equal(gp_row_begin(t), 0);
	assert_int_equal(gp_row_str(t, "name", "first"), 0);
	assert_int_equal(gp_row_str(t, "name", "fadd"), 0); /* the last setting wins */
	assert_int_equal(gp_row_num(t, "ms", 123456789.0), 0);
	assert_int_equal(gp_row_num(t, "count", 1e-7), 0);
	assert_int_equal(gp_row_end(t, err, sizeof err), 0);

	assert_int_equal(t->nrows, 2);
	assert_string_equal(gp_table_get(t, 0, "name"), "ffma");
	assert_string_equal(gp_table_get(t, 0, "ms"), "0.125");
	assert_string_equal(gp_table_get(t, 0, "count"), "-9000000000");
	assert_string_equal(gp_table_get(t, 1, "name"), "fadd");
	assert_string_equal(gp_table_get(t, 1, "ms"), "1.23457e+08"); /* %.6g */
	assert_string_equal(gp_table_get(t, 1, "count"), "1e-07");
	assert_null(gp_table_get(t, 2, "name"));
	assert_null(gp_table_get(t, 0, "nope"));
	gp_table_free(t);
}

static void test_row_protocol(void **state)
{
	struct gp_table *t = kv_table(0, "");
	char err[128] = "";

	/* end without begin, begin twice, append while a row is open: all refused */
	assert_int_equal(gp_row_end(t, err, sizeof err), -1);
	assert_int_equal(gp_row_begin(t), 0);
	assert_int_equal(gp_row_begin(t), -1);
	assert_int_equal(gp_table_append(t, (char *const[]){ "a", "b" }), -1);
	assert_int_equal(t->nrows, 0);
	assert_int_equal(gp_row_str(t, "key", "k"), 0);
	assert_int_equal(gp_row_str(t, "value", "v"), 0);
	assert_int_equal(gp_row_end(t, err, sizeof err), 0);
	assert_int_equal(t->nrows, 1);
	/* set without begin */
	assert_int_equal(gp_row_str(t, "key", "x"), -1);
	assert_int_equal(t->nrows, 1);
	gp_table_free(t);
}

static void test_row_with_unset_column_refused(void **state)
{
	static const char *const cols[] = { "a", "b", "c" };
	struct gp_table *t = gp_table_new(cols, 3);
	char err[128] = "", *text;

	assert_non_null(t);
	assert_int_equal(gp_row_begin(t), 0);
	assert_int_equal(gp_row_str(t, "a", "1"), 0);
	assert_int_equal(gp_row_str(t, "c", "3"), 0);
	assert_int_equal(gp_row_end(t, err, sizeof err), -1);
	assert_non_null(strstr(err, "'b'"));
	assert_int_equal(t->nrows, 0);

	/* The table stays usable: the next row starts clean (nothing of the refused one leaks in). */
	assert_int_equal(gp_row_begin(t), 0);
	assert_int_equal(gp_row_str(t, "b", "y"), 0);
	assert_int_equal(gp_row_end(t, err, sizeof err), -1);
	assert_int_equal(t->nrows, 0);
	assert_int_equal(gp_row_begin(t), 0);
	assert_int_equal(gp_row_str(t, "a", "x"), 0);
	assert_int_equal(gp_row_str(t, "b", "y"), 0);
	assert_int_equal(gp_row_str(t, "c", "z"), 0);
	assert_int_equal(gp_row_end(t, err, sizeof err), 0);
	assert_int_equal(t->nrows, 1);
	text = to_text(t);
	assert_string_equal(text, "a,b,c\nx,y,z\n");
	free(text);
	gp_table_free(t);
}

static void test_unknown_column_refused(void **state)
{
	struct gp_table *t = kv_table(0, "");
	char err[128], *text;

	assert_int_equal(gp_row_begin(t), 0);
	assert_int_equal(gp_row_str(t, "nope", "x"), -1);
	assert_int_equal(gp_row_num(t, "nope", 1.5), -1);
	assert_int_equal(gp_row_int(t, "nope", 7), -1);
	assert_int_equal(gp_row_str(t, "key", "k"), 0);
	assert_int_equal(gp_row_str(t, "value", "v"), 0);
	assert_int_equal(gp_row_end(t, err, sizeof err), 0);
	assert_int_equal(t->ncols, 2);
	text = to_text(t);
	assert_string_equal(text, "key,value\nk,v\n");
	free(text);
	gp_table_free(t);
}

/* A table abandoned with a row open must free cleanly (run under valgrind/ASan to see it). */
static void test_free_with_open_row(void **state)
{
	struct gp_table *t = kv_table(3, "v");

	assert_int_equal(gp_row_begin(t), 0);
	assert_int_equal(gp_row_str(t, "key", "open"), 0);
	assert_int_equal(t->nrows, 3);
	gp_table_free(t);
}

/* ---------------------------------------------------------------- CSV round trip */

static const char *const tricky[] = {
	"plain",
	"has,comma",
	"has \"double\" quotes",
	"\"",
	"\"\"",
	",",
	"line1\nline2",
	"crlf\r\nin the middle",
	"\n",
	" leading space",
	"trailing space ",
	"  both  ",
	" ",
	"",
	"a,\"b\"\n, c ",
	"comma at end,",
	"'single'",
	"semi;colon|pipe",
	"unicode: µs ±5%",
};

static void test_round_trip_tricky_fields(void **state)
{
	static const char *const cols[] = { "id", "text", "after" };
	struct gp_table *t = gp_table_new(cols, 3), *back;
	char err[128], *text;

	assert_non_null(t);
	for (size_t i = 0; i < GP_ARRAY_SIZE(tricky); i++) {
		assert_int_equal(gp_row_begin(t), 0);
		assert_int_equal(gp_row_int(t, "id", (long long)i), 0);
		assert_int_equal(gp_row_str(t, "text", tricky[i]), 0);
		assert_int_equal(gp_row_str(t, "after", i % 2 ? "" : tricky[i]), 0);
		assert_int_equal(gp_row_end(t, err, sizeof err), 0);
	}
	text = to_text(t);
	back = parse_ok(text);
	assert_int_equal(back->ncols, 3);
	assert_int_equal(back->nrows, GP_ARRAY_SIZE(tricky));
	for (size_t i = 0; i < GP_ARRAY_SIZE(tricky); i++) {
		char id[16];
		snprintf(id, sizeof id, "%zu", i);
		assert_string_equal(gp_table_get(back, i, "id"), id);
		assert_string_equal(gp_table_get(back, i, "text"), tricky[i]);
		assert_string_equal(gp_table_get(back, i, "after"), i % 2 ? "" : tricky[i]);
	}
	free(text);
	gp_table_free(back);
	gp_table_free(t);
}

static void test_round_trip_tricky_header(void **state)
{
	static const char *const cols[] = { "time, ms", "say \"hi\"", " padded " };
	struct gp_table *t = gp_table_new(cols, 3), *back;
	char *text;

	assert_non_null(t);
	text = to_text(t);
	back = parse_ok(text);
	assert_int_equal(back->ncols, 3);
	assert_int_equal(back->nrows, 0);
	for (size_t c = 0; c < 3; c++)
		assert_string_equal(back->cols[c], cols[c]);
	free(text);
	gp_table_free(back);
	gp_table_free(t);
}

/* A row whose only field is empty writes an empty line; it must still come back as a row. */
static void test_round_trip_single_empty_column(void **state)
{
	static const char *const cols[] = { "note" };
	struct gp_table *t = gp_table_new(cols, 1), *back;
	char err[128], *text;

	assert_non_null(t);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(gp_row_begin(t), 0);
		assert_int_equal(gp_row_str(t, "note", i == 1 ? "x" : ""), 0);
		assert_int_equal(gp_row_end(t, err, sizeof err), 0);
	}
	text = to_text(t);
	back = parse_ok(text);
	assert_int_equal(back->nrows, 3);
	assert_string_equal(gp_table_get(back, 0, "note"), "");
	assert_string_equal(gp_table_get(back, 1, "note"), "x");
	free(text);
	gp_table_free(back);
	gp_table_free(t);
}

static void test_tab_edges_round_trip(void **state)
{
	static const char *const cols[] = { "a", "b" };
	static const char *const vals[] = { "\tlead tab", "trail tab\t" };
	struct gp_table *t = gp_table_new(cols, 2), *back;
	char err[128], *text;

	assert_non_null(t);
	assert_int_equal(gp_row_begin(t), 0);
	assert_int_equal(gp_row_str(t, "a", vals[0]), 0);
	assert_int_equal(gp_row_str(t, "b", vals[1]), 0);
	assert_int_equal(gp_row_end(t, err, sizeof err), 0);
	text = to_text(t);
	back = parse_ok(text);
	assert_string_equal(gp_table_get(back, 0, "a"), vals[0]);
	assert_string_equal(gp_table_get(back, 0, "b"), vals[1]);
	free(text);
	gp_table_free(back);
	gp_table_free(t);
}

static void test_numbers_written_bare(void **state)
{
	static const char *const cols[] = { "op", "ms", "n", "neg", "tiny", "big" };
	struct gp_table *t = gp_table_new(cols, GP_ARRAY_SIZE(cols));
	char err[128], *text;

	assert_non_null(t);
	assert_int_equal(gp_row_begin(t), 0);
	assert_int_equal(gp_row_str(t, "op", "ffma"), 0);
	assert_int_equal(gp_row_num(t, "ms", 3.25), 0);
	assert_int_equal(gp_row_int(t, "n", 42), 0);
	assert_int_equal(gp_row_num(t, "neg", -0.5), 0);
	assert_int_equal(gp_row_num(t, "tiny", 1.5e-9), 0);
	assert_int_equal(gp_row_num(t, "big", 2.5e12), 0);
	assert_int_equal(gp_row_end(t, err, sizeof err), 0);
	text = to_text(t);
	/* Exactly this: no quotes, no padding, one line per row. */
	assert_string_equal(text, "op,ms,n,neg,tiny,big\nffma,3.25,42,-0.5,1.5e-09,2.5e+12\n");
	free(text);
	gp_table_free(t);
}

static void test_parse_plain_variants(void **state)
{
	struct gp_table *t;

	/* CRLF line ends, no final newline, quoted numbers */
	t = parse_ok("a,b\r\n1,2\r\n\"3\",4");
	assert_int_equal(t->nrows, 2);
	assert_string_equal(gp_table_get(t, 0, "b"), "2");
	assert_string_equal(gp_table_get(t, 1, "a"), "3");
	assert_string_equal(gp_table_get(t, 1, "b"), "4");
	gp_table_free(t);
	t = parse_ok("only,a,header\n");
	assert_int_equal(t->ncols, 3);
	assert_int_equal(t->nrows, 0);
	gp_table_free(t);
}

/* ---------------------------------------------------------------- parse errors */

static void test_parse_rejects_too_few_fields(void **state)
{
	static const char text[] = "a,b,c\n1,2,3\n4,5\n6,7,8\n";

	parse_fails(text, strlen(text), "line 3");
}

static void test_parse_rejects_too_many_fields(void **state)
{
	static const char text[] = "a,b\n1,2\n3,4\n5,6,7\n";

	parse_fails(text, strlen(text), "line 4");
}

/* The line named is the line in the file, as an editor shows it: blank lines and newlines
 * inside quoted fields count. */
static void test_parse_error_names_physical_line(void **state)
{
	static const char blank[] = "a,b\n1,2\n\n3,4\n5\n";
	static const char embedded[] = "a,b\n\"x\ny\",2\n5\n";

	parse_fails(blank, strlen(blank), "line 5");
	parse_fails(embedded, strlen(embedded), "line 4");
}

static void test_parse_rejects_duplicate_header(void **state)
{
	static const char text[] = "x,y,x\n1,2,3\n";

	parse_fails(text, strlen(text), "line 1");
	parse_fails(text, strlen(text), "'x'");
}

static void test_parse_rejects_empty_header_name(void **state)
{
	static const char text[] = "x,,z\n1,2,3\n";
	static const char quoted[] = "x,\"\",z\n1,2,3\n";

	parse_fails(text, strlen(text), "line 1");
	parse_fails(quoted, strlen(quoted), "line 1");
}

static void test_parse_rejects_unterminated_quote(void **state)
{
	static const char text[] = "a,b\n1,\"never closed\n2,3\n";

	parse_fails(text, strlen(text), "line");
}

static void test_parse_rejects_stray_quote(void **state)
{
	/* strict mode: a quote inside an unquoted field is malformed, not data */
	static const char text[] = "a,b\n1,ab\"c\"d\n";

	parse_fails(text, strlen(text), "line 2");
}

static void test_parse_rejects_empty_file(void **state)
{
	parse_fails("", 0, "empty");
	parse_fails("\n\n", 2, "empty");
}

static void test_parse_rejects_nul_byte(void **state)
{
	static const char text[] = "a,b\n1,x\0y\n";

	parse_fails(text, sizeof text - 1, "line 2");
}

static void test_load_missing_file(void **state)
{
	char *dir = make_tmpdir(), path[512], err[256] = "";

	snprintf(path, sizeof path, "%s/none.csv", dir);
	assert_null(gp_table_load(path, err, sizeof err));
	assert_true(strlen(err) > 0);
	remove_tree(dir);
}

/* ---------------------------------------------------------------- numbers out of cells */

static void test_get_double(void **state)
{
	static const char *const bad[] = { "abc", "", "12abc", "1.5.2", "nan", "inf", "-inf", "1e999", "0x", "ok" };
	static const char *const cols[] = { "v" };
	struct gp_table *t = gp_table_new(cols, 1);
	char err[128];
	double x = 0;

	assert_non_null(t);
	for (size_t i = 0; i < GP_ARRAY_SIZE(bad); i++) {
		assert_int_equal(gp_row_begin(t), 0);
		assert_int_equal(gp_row_str(t, "v", bad[i]), 0);
		assert_int_equal(gp_row_end(t, err, sizeof err), 0);
	}
	for (size_t i = 0; i < GP_ARRAY_SIZE(bad); i++) {
		x = 12345;
		if (gp_table_get_double(t, i, "v", &x) == 0)
			print_error("'%s' read as %g\n", bad[i], x);
		assert_int_equal(gp_table_get_double(t, i, "v", &x), -1);
		assert_true(x == 12345); /* untouched on failure */
	}
	assert_int_equal(gp_row_begin(t), 0);
	assert_int_equal(gp_row_str(t, "v", "-2.5e3"), 0);
	assert_int_equal(gp_row_end(t, err, sizeof err), 0);
	assert_int_equal(gp_table_get_double(t, t->nrows - 1, "v", &x), 0);
	assert_true(x == -2500);
	/* unknown column and a row past the end fail too, without crashing */
	assert_int_equal(gp_table_get_double(t, 0, "w", &x), -1);
	assert_int_equal(gp_table_get_double(t, t->nrows, "v", &x), -1);
	gp_table_free(t);
}

/* Numbers are checked when a result table is read back: "abc", "1,5", a 400-digit number or
 * "Infinity" in a numeric column is an error naming the line and column (they were printed into
 * the report); empty, "n/a: …" and the writer's nan/inf are values; a name column whose labels
 * look like numbers ("012" beside "same") is left alone when named as text. */
static void test_check_numbers(void **state)
{
	static const char good[] = "combo,v,status\n012,1.5,ok\nsame,nan,ok\n000,,n/a: x\n111,inf,ok\n222,n/a: y,ok\n";
	static const char *const text[] = { "combo", NULL };
	static const char *const bad[][2] = {
		{ "a,v\nx,1\ny,abc\n", "line 3, column 2 (v): 'abc'" },
		{ "a,v\nx,1\ny,\"1,5\"\n", "line 3, column 2 (v): '1,5'" },
		{ "a,v\nx,1\ny,Infinity\n", "'Infinity'" },
		{ "a,v\nx,1e999\ny,2\n", "line 2, column 2 (v)" },
	};
	char err[256], big[600];
	struct gp_table *t;

	(void)state;
	assert_non_null(t = gp_table_parse(good, strlen(good), err, sizeof err));
	assert_int_equal(gp_table_check_numbers(t, text, err, sizeof err), 0);
	assert_int_equal(gp_table_check_numbers(t, NULL, err, sizeof err), -1); /* "same" is not a number */
	assert_non_null(strstr(err, "column 1 (combo)"));
	gp_table_free(t);
	for (size_t i = 0; i < GP_ARRAY_SIZE(bad); i++) {
		assert_non_null(t = gp_table_parse(bad[i][0], strlen(bad[i][0]), err, sizeof err));
		assert_int_equal(gp_table_check_numbers(t, NULL, err, sizeof err), -1);
		if (!strstr(err, bad[i][1]))
			fail_msg("'%s': got '%s'", bad[i][1], err);
		gp_table_free(t);
	}
	/* a label column with a few number-like labels (a TMA box "256" beside "32x8") is text */
	{
		static const char labels[] = "box,v\n256,1\n32x8,2\n32x8x2,3\n";
		assert_non_null(t = gp_table_parse(labels, strlen(labels), err, sizeof err));
		assert_int_equal(gp_table_check_numbers(t, NULL, err, sizeof err), 0);
		gp_table_free(t);
	}
	/* 400 digits parse as a finite double but are no number our writer wrote */
	strcpy(big, "a,v\nx,1\ny,");
	memset(big + strlen(big), '7', 400);
	strcpy(big + 10 + 400, "\n");
	assert_non_null(t = gp_table_parse(big, strlen(big), err, sizeof err));
	assert_int_equal(gp_table_check_numbers(t, NULL, err, sizeof err), -1);
	assert_non_null(strstr(err, "line 3, column 2 (v)"));
	gp_table_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_rows),
		cmocka_unit_test(test_distinct_and_max_ok),
		cmocka_unit_test(test_tables_clock_median),
		cmocka_unit_test(test_find_rows),
		cmocka_unit_test(test_row_protocol),
		cmocka_unit_test(test_row_with_unset_column_refused),
		cmocka_unit_test(test_unknown_column_refused),
		cmocka_unit_test(test_free_with_open_row),
		cmocka_unit_test(test_round_trip_tricky_fields),
		cmocka_unit_test(test_round_trip_tricky_header),
		cmocka_unit_test(test_round_trip_single_empty_column),
		cmocka_unit_test(test_tab_edges_round_trip),
		cmocka_unit_test(test_numbers_written_bare),
		cmocka_unit_test(test_parse_plain_variants),
		cmocka_unit_test(test_parse_rejects_too_few_fields),
		cmocka_unit_test(test_parse_rejects_too_many_fields),
		cmocka_unit_test(test_parse_error_names_physical_line),
		cmocka_unit_test(test_parse_rejects_duplicate_header),
		cmocka_unit_test(test_parse_rejects_empty_header_name),
		cmocka_unit_test(test_parse_rejects_unterminated_quote),
		cmocka_unit_test(test_parse_rejects_stray_quote),
		cmocka_unit_test(test_parse_rejects_empty_file),
		cmocka_unit_test(test_parse_rejects_nul_byte),
		cmocka_unit_test(test_load_missing_file),
		cmocka_unit_test(test_get_double),
		cmocka_unit_test(test_check_numbers),
	};

	return cmocka_run_group_tests_name("table", tests, NULL, NULL);
}

