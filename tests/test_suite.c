/* test_suite.c — suites: the CSV a user writes to say what runs, and the sweep made from it.
 *
 * A suite mistake must be caught before any GPU time is spent, with the line named, and a
 * valid suite must expand to exactly the points the user wrote, in a fixed order (the first
 * parameter varies slowest), because result rows follow that order. Uses the registry's two
 * FP32 experiments: lat_ffma (threads 1..1024, iters) and tput_fp32 (op is a NAME parameter,
 * blocks_per_sm 1..32, threads 32..1024, iters). The committed configs must parse too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <glob.h>
#include <string.h>
#include <unistd.h>

#include "gp.h"
#include "suite.h"

#define HEADER "experiment,parameter,values\n"

/* ---------------------------------------------------------------- helpers */

static int parse_suite(const char *text, struct gp_suite *s, char *err, size_t errlen)
{
	char perr[256] = "";
	struct gp_table *t = gp_table_parse(text, strlen(text), perr, sizeof perr);
	int rc;

	if (!t)
		print_error("CSV itself did not parse: %s\n", perr);
	assert_non_null(t);
	rc = gp_suite_parse(t, s, err, errlen);
	gp_table_free(t);
	return rc;
}

static void parse_ok(const char *text, struct gp_suite *s)
{
	char err[512] = "";

	if (parse_suite(text, s, err, sizeof err))
		print_error("unexpected suite error: %s\n", err);
	assert_int_equal(err[0], '\0');
	assert_true(s->n > 0);
}

static void assert_contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		print_error("'%s' does not contain '%s'\n", hay, needle);
	assert_non_null(strstr(hay, needle));
}

/* The suite must be refused, left empty, and the message must hold each of want[]. */
static void parse_fails(const char *text, const char *want1, const char *want2)
{
	struct gp_suite s;
	char err[512] = "";

	memset(&s, 0x5a, sizeof s);
	assert_int_equal(parse_suite(text, &s, err, sizeof err), -1);
	assert_int_equal(s.n, 0);
	assert_null(s.items);
	assert_contains(err, want1);
	if (want2)
		assert_contains(err, want2);
}

static const struct gp_param *param(const char *exp, const char *name)
{
	const struct gp_experiment *e = gp_experiment_find(exp);

	assert_non_null(e);
	for (size_t i = 0; i < e->impl->nparams; i++)
		if (!strcmp(e->impl->params[i].name, name))
			return &e->impl->params[i];
	fail_msg("experiment %s has no parameter %s", exp, name);
	return NULL;
}

/* Expand a value list and compare with the expected numbers. */
static void expands_to(const char *exp, const char *name, const char *list, const long *want, size_t n)
{
	struct gp_values v;
	char err[256] = "";

	if (gp_param_values(param(exp, name), list, &v, err, sizeof err))
		print_error("'%s': %s\n", list, err);
	assert_int_equal(v.n, n);
	for (size_t i = 0; i < n; i++) {
		char s[32];
		snprintf(s, sizeof s, "%ld", want[i]);
		assert_int_equal(v.num[i], want[i]);
		assert_string_equal(v.str[i], s);
	}
	gp_values_free(&v);
}

static void values_fail(const char *exp, const char *name, const char *list, const char *want)
{
	struct gp_values v;
	char err[256] = "";

	memset(&v, 0, sizeof v);
	assert_int_equal(gp_param_values(param(exp, name), list, &v, err, sizeof err), -1);
	assert_int_equal(v.n, 0);
	assert_contains(err, want);
}

static const struct gp_suite_item *item(const struct gp_suite *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->items[i].exp->name, name))
			return &s->items[i];
	fail_msg("suite has no %s", name);
	return NULL;
}

static int rm_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	return remove(path);
}

static char *make_tmpdir(void)
{
	char tmpl[] = "/tmp/gp_test_suite.XXXXXX";
	char *d = mkdtemp(tmpl);

	assert_non_null(d);
	return gp_strdup(d);
}

static void remove_tree(char *dir)
{
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(dir);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* ---------------------------------------------------------------- value lists */

static void test_value_lists_and_ranges(void **state)
{
	static const long r1[] = { 1, 4, 7, 10 }, r2[] = { 1, 5, 9 }, r3[] = { 5 };
	static const long mixed[] = { 1, 2, 3, 4, 8 }, top[] = { 1000, 1010, 1020 };
	static const long edge[] = { 1020 }, list[] = { 64, 32, 64 };

	expands_to("lat_ffma", "threads", "1:10:3", r1, 4);
	expands_to("lat_ffma", "threads", "1:10:4", r2, 3);
	expands_to("lat_ffma", "threads", "5:5:1", r3, 1);
	expands_to("lat_ffma", "threads", "1 2:4:1  8", mixed, 5);
	expands_to("lat_ffma", "threads", "1000:1024:10", top, 3);
	expands_to("lat_ffma", "threads", "1020:1024:100", edge, 1);
	/* tabs separate too; a repeated value is the user's choice, kept in order */
	expands_to("lat_ffma", "threads", "64\t32 64", list, 3);
}

static void test_name_values(void **state)
{
	struct gp_values v;
	char err[256];

	assert_int_equal(gp_param_values(param("tput_fp32", "op"), "fadd ffma", &v, err, sizeof err), 0);
	assert_int_equal(v.n, 2);
	assert_string_equal(v.str[0], "fadd");
	assert_string_equal(v.str[1], "ffma");
	gp_values_free(&v);
	values_fail("tput_fp32", "op", "ffma fma", "'fma'");
	/* a prefix or an extension of a choice is not the choice */
	values_fail("tput_fp32", "op", "ff", "'ff'");
	values_fail("tput_fp32", "op", "ffmax", "'ffmax'");
}

static void test_value_errors(void **state)
{
	values_fail("lat_ffma", "threads", "0", "'0'");
	values_fail("lat_ffma", "threads", "1025", "'1025'");
	values_fail("lat_ffma", "threads", "-1", "'-1'");
	values_fail("lat_ffma", "threads", "abc", "'abc'");
	values_fail("lat_ffma", "threads", "1.5", "'1.5'");
	values_fail("lat_ffma", "threads", "4k", "'4k'");
	values_fail("lat_ffma", "threads", "64:32:1", "'64:32:1'");
	values_fail("lat_ffma", "threads", "1:64:0", "'1:64:0'");
	values_fail("lat_ffma", "threads", "1:64:-2", "'1:64:-2'");
	values_fail("lat_ffma", "threads", "1:64", "'1:64'");
	values_fail("lat_ffma", "threads", "1::2", "'1::2'");
	values_fail("lat_ffma", "threads", ":64:1", "':64:1'");
	values_fail("lat_ffma", "threads", "1:64:2:3", "'1:64:2:3'");
	values_fail("lat_ffma", "threads", "1:2000:1", "'1:2000:1'");
	values_fail("lat_ffma", "iters", "99999999999999999999", "'99999999999999999999'");
	values_fail("lat_ffma", "iters", "-99999999999999999999", "'-99999999999999999999'");
	values_fail("lat_ffma", "iters", "", "empty");
	values_fail("lat_ffma", "iters", "  ", "empty");
}

static void test_max_values(void **state)
{
	struct gp_values v;
	char err[256], *list, *p;

	assert_int_equal(gp_param_values(param("lat_ffma", "iters"), "1:4096:1", &v, err, sizeof err), 0);
	assert_int_equal(v.n, GP_MAX_VALUES);
	assert_int_equal(v.num[GP_MAX_VALUES - 1], 4096);
	gp_values_free(&v);
	values_fail("lat_ffma", "iters", "1:4097:1", "more than 4096");
	values_fail("lat_ffma", "iters", "1:4096:1 5", "more than 4096");
	/* the same limit for a plain list */
	list = malloc((GP_MAX_VALUES + 1) * 8);
	assert_non_null(list);
	p = list;
	for (int i = 0; i <= GP_MAX_VALUES; i++)
		p += sprintf(p, "%d ", i + 1);
	values_fail("lat_ffma", "iters", list, "more than 4096");
	free(list);
}

/* ---------------------------------------------------------------- a valid suite and its sweep */

static void test_valid_suite_and_sweep_order(void **state)
{
	static const char text[] = HEADER
		"tput_fp32,op,ffma fmul\n"
		"tput_fp32,blocks_per_sm,1:7:3\n"
		"tput_fp32,threads,64\n"
		"lat_ffma,,\n"
		"tput_fp32,iters,2 5\n";
	static const char *const ops[] = { "ffma", "fmul" };
	static const long blocks[] = { 1, 4, 7 }, iters[] = { 2, 5 };
	struct gp_suite s;
	const struct gp_suite_item *tp, *lat;
	struct gp_sweep sw;
	struct gp_point pt;
	char err[256];

	parse_ok(text, &s);
	assert_int_equal(s.n, 2);
	/* Experiments keep the order of their first row. */
	assert_string_equal(s.items[0].exp->name, "tput_fp32");
	assert_string_equal(s.items[1].exp->name, "lat_ffma");
	tp = item(&s, "tput_fp32");
	lat = item(&s, "lat_ffma");
	for (size_t k = 0; k < GP_MAX_PARAMS; k++)
		assert_null(lat->values[k]);
	assert_string_equal(tp->values[0], "ffma fmul");
	assert_string_equal(tp->values[1], "1:7:3");

	assert_int_equal(gp_sweep_init(&sw, tp, err, sizeof err), 0);
	assert_int_equal(sw.npoints, 2 * 3 * 1 * 2);
	for (size_t i = 0; i < sw.npoints; i++) {
		gp_sweep_point(&sw, i, &pt);
		assert_int_equal(pt.nparams, 4);
		/* op slowest, iters fastest */
		assert_string_equal(pt.str[0], ops[i / 6]);
		assert_string_equal(gp_point_str(&pt, "op"), ops[i / 6]);
		assert_int_equal(gp_point_int(&pt, "blocks_per_sm"), blocks[(i / 2) % 3]);
		assert_int_equal(gp_point_int(&pt, "threads"), 64);
		assert_int_equal(gp_point_int(&pt, "iters"), iters[i % 2]);
	}
	gp_sweep_point(&sw, 7, &pt);
	{
		char desc[128];
		gp_point_format(&pt, desc, sizeof desc);
		assert_string_equal(desc, "op=fmul blocks_per_sm=1 threads=64 iters=5");
	}
	gp_sweep_free(&sw);

	/* Parameters a suite leaves out take the registry's defaults. */
	{
		const struct gp_param *th = param("lat_ffma", "threads");
		struct gp_values dv;
		assert_int_equal(gp_param_values(th, th->defaults, &dv, err, sizeof err), 0);
		assert_int_equal(gp_sweep_init(&sw, lat, err, sizeof err), 0);
		assert_true(dv.n > 1);
		assert_int_equal(sw.npoints, dv.n * sw.vals[1].n);
		gp_sweep_point(&sw, sw.npoints - 1, &pt);
		assert_int_equal(gp_point_int(&pt, "threads"), dv.num[dv.n - 1]);
		gp_values_free(&dv);
		gp_sweep_free(&sw);
	}
	gp_suite_free(&s);
	assert_int_equal(s.n, 0);
}

static void test_suite_add_is_idempotent(void **state)
{
	struct gp_suite s;

	parse_ok(HEADER "lat_ffma,iters,7\n", &s);
	assert_int_equal(gp_suite_add(&s, gp_experiment_find("lat_ffma")), 0);
	assert_int_equal(s.n, 1);
	/* and the values set by the file are kept */
	assert_string_equal(item(&s, "lat_ffma")->values[1], "7");
	assert_int_equal(gp_suite_add(&s, gp_experiment_find("tput_fp32")), 0);
	assert_int_equal(s.n, 2);
	gp_suite_free(&s);
}

static void test_sweep_point_limit(void **state)
{
	struct gp_suite s;
	struct gp_sweep sw;
	char err[256] = "";

	/* exactly GP_MAX_POINTS is allowed */
	parse_ok(HEADER "lat_ffma,threads,1:1000:1\nlat_ffma,iters,1:100:1\n", &s);
	assert_int_equal(gp_sweep_init(&sw, &s.items[0], err, sizeof err), 0);
	assert_int_equal(sw.npoints, GP_MAX_POINTS);
	gp_sweep_point(&sw, GP_MAX_POINTS - 1, &(struct gp_point){ 0 });
	gp_sweep_free(&sw);
	gp_suite_free(&s);
	/* one list more is refused, by name, without allocating the product */
	parse_ok(HEADER "lat_ffma,threads,1:1024:1\nlat_ffma,iters,1:98:1\n", &s);
	assert_int_equal(gp_sweep_init(&sw, &s.items[0], err, sizeof err), -1);
	assert_contains(err, "more than 100000");
	gp_suite_free(&s);
	/* four lists whose product overflows nothing but the limit */
	parse_ok(HEADER "tput_fp32,blocks_per_sm,1:32:1\ntput_fp32,threads,32:1024:1\n"
			"tput_fp32,iters,1:4000:1\n", &s);
	assert_int_equal(gp_sweep_init(&sw, &s.items[0], err, sizeof err), -1);
	assert_contains(err, "more than 100000");
	gp_suite_free(&s);
}

/* A process parameter is the outermost loop: each value's points are one run of the sweep, and
 * the end of the run holding any point is where the next value begins; with one value (or no
 * process parameter) a process measures the whole sweep. */
static void test_sweep_process_end(void **state)
{
	static const size_t ends[][2] = { { 0, 8 }, { 7, 8 }, { 8, 16 }, { 15, 16 }, { 16, 24 }, { 23, 24 } };
	struct gp_suite s;
	struct gp_sweep sw;
	char err[256] = "";

	parse_ok(HEADER "lat_launch,process,1 2 3\n", &s); /* x 4 modes x 2 grids */
	assert_int_equal(gp_sweep_init(&sw, &s.items[0], err, sizeof err), 0);
	assert_int_equal(sw.npoints, 24);
	for (size_t i = 0; i < GP_ARRAY_SIZE(ends); i++) {
		struct gp_point a, b;
		assert_int_equal(gp_sweep_process_end(&sw, ends[i][0]), ends[i][1]);
		gp_sweep_point(&sw, ends[i][0], &a); /* the same process value up to the end */
		gp_sweep_point(&sw, ends[i][1] - 1, &b);
		assert_string_equal(gp_point_str(&a, "process"), gp_point_str(&b, "process"));
	}
	gp_sweep_free(&sw);
	gp_suite_free(&s);
	parse_ok(HEADER "lat_launch,process,2\n", &s);
	assert_int_equal(gp_sweep_init(&sw, &s.items[0], err, sizeof err), 0);
	assert_int_equal(gp_sweep_process_end(&sw, 3), sw.npoints);
	gp_sweep_free(&sw);
	gp_suite_free(&s);
	parse_ok(HEADER "lat_ffma,threads,32 64\n", &s);
	assert_int_equal(gp_sweep_init(&sw, &s.items[0], err, sizeof err), 0);
	assert_int_equal(gp_sweep_process_end(&sw, 0), sw.npoints);
	gp_sweep_free(&sw);
	gp_suite_free(&s);
}

/* ---------------------------------------------------------------- suite errors, line named */

static void test_unknown_experiment(void **state)
{
	parse_fails(HEADER "lat_ffma,iters,4\nlat_nope,,\n", "line 3", "'lat_nope'");
	parse_fails(HEADER ",,\n", "line 2", "unknown experiment");
}

static void test_unknown_parameter(void **state)
{
	parse_fails(HEADER "lat_ffma,warps,4\n", "line 2", "'warps'");
	/* a parameter of another experiment is still unknown here */
	parse_fails(HEADER "lat_ffma,iters,4\nlat_ffma,op,ffma\n", "line 3", "'op'");
}

static void test_value_out_of_range(void **state)
{
	parse_fails(HEADER "lat_ffma,threads,32 2048\n", "line 2", "'2048'");
	parse_fails(HEADER "tput_fp32,threads,16\n", "line 2", "threads");
}

static void test_non_numeric_value(void **state)
{
	parse_fails(HEADER "lat_ffma,iters,many\n", "line 2", "'many'");
	parse_fails(HEADER "lat_ffma,iters,1e3\n", "line 2", "'1e3'");
}

static void test_bad_ranges(void **state)
{
	parse_fails(HEADER "lat_ffma,threads,64:32:1\n", "line 2", "64:32:1");
	parse_fails(HEADER "lat_ffma,iters,4\nlat_ffma,threads,1:64:0\n", "line 3", "1:64:0");
	parse_fails(HEADER "lat_ffma,threads,1:64\n", "line 2", "1:64");
}

static void test_unknown_name_value(void **state)
{
	parse_fails(HEADER "tput_fp32,op,ffma dfma\n", "line 2", "'dfma'");
}

static void test_parameter_set_twice(void **state)
{
	parse_fails(HEADER "lat_ffma,iters,4\nlat_ffma,threads,32\nlat_ffma,iters,8\n", "line 4",
		    "iters");
}

static void test_unknown_column(void **state)
{
	parse_fails("experiment,parameter,values,comment\nlat_ffma,iters,4,why\n", "'comment'", NULL);
}

static void test_missing_column(void **state)
{
	parse_fails("experiment,values\nlat_ffma,4\n", "missing column", "'parameter'");
	parse_fails("parameter,values\niters,4\n", "missing column", "'experiment'");
}

static void test_header_only(void **state)
{
	parse_fails(HEADER, "header only", NULL);
}

static void test_values_without_parameter(void **state)
{
	parse_fails(HEADER "lat_ffma,,64\n", "line 2", "without a parameter");
}

static void test_empty_values_with_parameter(void **state)
{
	parse_fails(HEADER "lat_ffma,iters,\n", "line 2", "empty");
}

static void test_too_many_values(void **state)
{
	parse_fails(HEADER "lat_ffma,iters,1:5000:1\n", "line 2", "more than 4096");
}

static void test_huge_number(void **state)
{
	parse_fails(HEADER "lat_ffma,iters,99999999999999999999\n", "line 2", "99999999999999999999");
}

/* A suite edited by hand has blank lines between groups: the line named must still be the
 * line an editor shows. */
static void test_error_line_counts_blank_lines(void **state)
{
	parse_fails(HEADER "lat_ffma,iters,4\n\ntput_fp32,op,fma\n", "line 4", "'fma'");
}

/* ---------------------------------------------------------------- files */

static void test_load_from_files(void **state)
{
	char *dir = make_tmpdir(), path[512], err[512] = "";
	struct gp_suite s;

	snprintf(path, sizeof path, "%s/ok.csv", dir);
	write_file(path, HEADER "lat_ffma,threads,1 32\r\nlat_ffma,iters,16\r\n");
	assert_int_equal(gp_suite_load(path, &s, err, sizeof err), 0);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.items[0].values[0], "1 32");
	assert_string_equal(s.items[0].values[1], "16");
	gp_suite_free(&s);

	/* errors name the file and the line */
	snprintf(path, sizeof path, "%s/ragged.csv", dir);
	write_file(path, HEADER "lat_ffma,iters,4\nlat_ffma,threads\n");
	assert_int_equal(gp_suite_load(path, &s, err, sizeof err), -1);
	assert_contains(err, path);
	assert_contains(err, "line 3");
	assert_int_equal(s.n, 0);

	snprintf(path, sizeof path, "%s/range.csv", dir);
	write_file(path, HEADER "lat_ffma,threads,0:10:1\n");
	assert_int_equal(gp_suite_load(path, &s, err, sizeof err), -1);
	assert_contains(err, path);
	assert_contains(err, "line 2");

	snprintf(path, sizeof path, "%s/empty.csv", dir);
	write_file(path, "");
	assert_int_equal(gp_suite_load(path, &s, err, sizeof err), -1);
	assert_contains(err, "empty");

	snprintf(path, sizeof path, "%s/quote.csv", dir);
	write_file(path, HEADER "lat_ffma,iters,\"4\n");
	assert_int_equal(gp_suite_load(path, &s, err, sizeof err), -1);
	assert_contains(err, path);

	snprintf(path, sizeof path, "%s/missing.csv", dir);
	assert_int_equal(gp_suite_load(path, &s, err, sizeof err), -1);
	assert_contains(err, path);
	remove_tree(dir);
}

static void committed_config(const char *path)
{
	struct gp_suite s;
	char err[512] = "";

	if (access(path, R_OK))
		fail_msg("%s not readable from %s (make test runs from the repository root)", path,
			 getcwd(err, sizeof err) ? err : "?");
	if (gp_suite_load(path, &s, err, sizeof err))
		fail_msg("%s", err);
	assert_true(s.n > 0);
	for (size_t i = 0; i < s.n; i++) {
		struct gp_sweep sw;
		if (gp_sweep_init(&sw, &s.items[i], err, sizeof err))
			fail_msg("%s: %s", path, err);
		assert_true(sw.npoints > 0);
		gp_sweep_free(&sw);
	}
	gp_suite_free(&s);
}

static void test_committed_quick(void **state)
{
	committed_config("configs/quick.csv");
}

static void test_committed_default(void **state)
{
	committed_config("configs/default.csv");
}

static void test_committed_paper(void **state)
{
	committed_config("configs/paper.csv");
}

/* Every other suite in configs/ (sanitize, ncu-*, candidate lists): a bad value there would only
 * show up on the GPU machine, in scarce time. */
static void test_committed_other_suites(void **state)
{
	glob_t g;
	size_t n = 0;

	if (glob("configs/*.csv", 0, NULL, &g))
		fail_msg("no configs/*.csv here (make test runs from the repository root)");
	for (size_t f = 0; f < g.gl_pathc; f++) {
		FILE *fp = fopen(g.gl_pathv[f], "r");
		char head[64] = "";
		if (!fp)
			fail_msg("%s: unreadable", g.gl_pathv[f]);
		if (!fgets(head, sizeof head, fp))
			head[0] = 0;
		fclose(fp);
		if (strncmp(head, "experiment,parameter,values", 27))
			continue; /* reference.csv and other tables */
		committed_config(g.gl_pathv[f]);
		n++;
	}
	globfree(&g);
	assert_true(n >= 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_value_lists_and_ranges),
		cmocka_unit_test(test_name_values),
		cmocka_unit_test(test_value_errors),
		cmocka_unit_test(test_max_values),
		cmocka_unit_test(test_valid_suite_and_sweep_order),
		cmocka_unit_test(test_suite_add_is_idempotent),
		cmocka_unit_test(test_sweep_point_limit),
		cmocka_unit_test(test_sweep_process_end),
		cmocka_unit_test(test_unknown_experiment),
		cmocka_unit_test(test_unknown_parameter),
		cmocka_unit_test(test_value_out_of_range),
		cmocka_unit_test(test_non_numeric_value),
		cmocka_unit_test(test_bad_ranges),
		cmocka_unit_test(test_unknown_name_value),
		cmocka_unit_test(test_parameter_set_twice),
		cmocka_unit_test(test_unknown_column),
		cmocka_unit_test(test_missing_column),
		cmocka_unit_test(test_header_only),
		cmocka_unit_test(test_values_without_parameter),
		cmocka_unit_test(test_empty_values_with_parameter),
		cmocka_unit_test(test_too_many_values),
		cmocka_unit_test(test_huge_number),
		cmocka_unit_test(test_error_line_counts_blank_lines),
		cmocka_unit_test(test_load_from_files),
		cmocka_unit_test(test_committed_quick),
		cmocka_unit_test(test_committed_default),
		cmocka_unit_test(test_committed_paper),
		cmocka_unit_test(test_committed_other_suites),
	};

	return cmocka_run_group_tests_name("suite", tests, NULL, NULL);
}
