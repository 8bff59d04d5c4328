/* test_l2map.c — lat_l2_map's analysis without a GPU: two sides of SMs that see complementary
 * line sets as near are found as two groups with their near/far latencies; a map of independent
 * noise (no SM correlates with another) and a flat map whose pattern stays under the timer's
 * repeatability publish "none detected"; the report renders either. bw_l2_side's use of it: the
 * same cells handed over as a matrix split every line into exactly one side's near set; its
 * profile keys and report from a table, with the published L2 rates of configs/reference.csv. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp.h"
#include "analysis.h"
#include "l2map_analysis.h"

#define NSM 12
#define NL 40

enum shape { TWO_SIDES, NOISE, FLAT };

/* Deterministic cells: a few cycles of jitter on top of the shape's latency; NOISE draws each
 * cell alone (splitmix64 of the cell's place), 240 to 300 cycles. */
static double cell_of(enum shape k, int sm, int l)
{
	const double jit = (double)((sm * 7 + l * 13) % 5) - 2.0;
	const int near = (l % 3 == 0) == (sm % 2 == 0);
	uint64_t h = (uint64_t)(sm * NL + l) * 0x9e3779b97f4a7c15ull;

	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
	h ^= h >> 31;

	if (k == NOISE)
		return 240 + (double)((h >> 33) % 6000) / 100;
	return k == TWO_SIDES ? (near ? 280 : 530) + jit : 283 + 0.2 * jit;
}

static struct gp_table *map_table(enum shape k)
{
	const char head[] = "sm,line,offset_bytes,lines,stride_bytes,trials,cycles,status\n";
	const size_t cap = sizeof head + (size_t)NSM * NL * 64;
	char *csv = malloc(cap), err[128];
	size_t o = 0;
	struct gp_table *t;

	assert_non_null(csv);
	o += (size_t)snprintf(csv + o, cap - o, "%s", head);
	for (int s = 0; s < NSM; s++)
		for (int l = 0; l < NL; l++)
			o += (size_t)snprintf(csv + o, cap - o, "%d,%d,%d,%d,4224,4,%.3f,ok\n", s, l, l * 4224, NL,
					      cell_of(k, s, l));
	t = gp_table_parse(csv, o, err, sizeof err);
	free(csv);
	if (!t)
		fail_msg("parse: %s", err);
	return t;
}

static const char *key(const struct gp_profile *p, const char *k)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->e[i].key, k))
			return p->e[i].value;
	return NULL;
}

static void derive(enum shape k, struct gp_profile *p)
{
	struct gp_table *t = map_table(k);
	const struct gp_analysis *a = gp_analysis_find("lat_l2_map");

	assert_non_null(a);
	a->derive(p, t);
	gp_table_free(t);
}

static char *report(enum shape k)
{
	struct gp_table *t = map_table(k);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	gp_analysis_find("lat_l2_map")->report(f, t, NULL);
	fclose(f);
	gp_table_free(t);
	return buf;
}

static void test_two_sides(void **state)
{
	struct gp_profile p = { 0 };
	char *md;

	derive(TWO_SIDES, &p);
	assert_string_equal(key(&p, "l2map_partitions_detected"), "2");
	assert_true(fabs(atof(key(&p, "l2map_near_latency_cycles")) - 280) < 3);
	assert_true(fabs(atof(key(&p, "l2map_far_latency_cycles")) - 530) < 3);
	/* even SMs: lines 0, 3, ... (14 of 40) near; odd SMs: the other 26 */
	assert_true(atof(key(&p, "l2map_near_fraction")) > 0.3 && atof(key(&p, "l2map_near_fraction")) < 0.7);
	gp_profile_free(&p);
	md = report(TWO_SIDES);
	assert_non_null(strstr(md, "| 1 | 6 | 0, 2, 4, 6, 8, 10 |"));
	assert_non_null(strstr(md, "| 2 | 6 | 1, 3, 5, 7, 9, 11 |"));
	free(md);
}

static void test_no_structure_none_detected(void **state)
{
	static const enum shape k[] = { NOISE, FLAT };

	for (size_t i = 0; i < 2; i++) {
		struct gp_profile p = { 0 };
		char *md;
		derive(k[i], &p);
		assert_string_equal(key(&p, "l2map_partitions_detected"), "none detected");
		assert_null(key(&p, "l2map_near_latency_cycles"));
		assert_non_null(key(&p, "l2map_latency_cycles"));
		gp_profile_free(&p);
		md = report(k[i]);
		assert_non_null(strstr(md, "none detected"));
		free(md);
	}
}

/* The TWO_SIDES cells as bw_l2_side hands them over: two groups, each line near to exactly one of
 * them, and the even SMs' near lines the ones the shape makes near (l % 3 == 0). */
static void test_classify_matrix(void **state)
{
	struct l2m_sum u = { .m = { .nsm = NSM, .nl = NL, .noise = 0.5 } };
	size_t g0, g1;

	u.m.v = malloc(NSM * NL * sizeof *u.m.v);
	assert_non_null(u.m.v);
	for (int s = 0; s < NSM; s++) {
		u.m.sm[s] = s;
		for (int l = 0; l < NL; l++)
			u.m.v[s * NL + l] = cell_of(TWO_SIDES, s, l);
	}
	assert_true(l2m_classify(&u));
	assert_int_equal(l2m_real_groups(&u), 2);
	g0 = (size_t)u.grp[0];
	g1 = (size_t)u.grp[1];
	assert_true(g0 != g1);
	for (int s = 0; s < NSM; s++)
		assert_int_equal(u.grp[s], s % 2 ? (int)g1 : (int)g0);
	for (int l = 0; l < NL; l++) {
		assert_int_equal(l2m_near(&u, g0, (size_t)l), l % 3 == 0);
		assert_int_equal(l2m_near(&u, g1, (size_t)l), l % 3 != 0);
	}
	l2m_free(&u);
}

/* bw_l2_side rows: (side, sms, GB/s, B/clk/SM). */
static struct gp_table *side_table(void)
{
	static const char csv[] = "side,sms,sms_reading,reader_sm,footprint_bytes,read_set_bytes,near_cycles,far_cycles,"
				  "bandwidth_GBps,bytes_per_clk_per_sm,pct_of_ceiling,status\n"
				  "near,all,12,nan,1048576,524288,280,530,1000,20,15.63,ok\n"
				  "far,all,12,nan,1048576,524288,280,530,800,16,12.5,ok\n"
				  "all,all,12,nan,1048576,1048576,280,530,900,18,14.06,ok\n"
				  "near,one,1,0,1048576,524288,280,530,100,40,31.25,ok\n"
				  "far,one,1,0,1048576,524288,280,530,50,20,15.63,ok\n"
				  "all,one,1,0,1048576,1048576,280,530,nan,nan,nan,n/a: not formed\n";
	char err[128];
	struct gp_table *t = gp_table_parse(csv, sizeof csv - 1, err, sizeof err);

	if (!t)
		fail_msg("parse: %s", err);
	return t;
}

static void test_side_keys_and_report(void **state)
{
	struct gp_table *t = side_table(), *ref;
	const struct gp_analysis *a = gp_analysis_find("bw_l2_side");
	struct gp_profile p = { 0 };
	char err[128], *md = NULL, missing[512];
	size_t len = 0;
	FILE *f;

	assert_non_null(a);
	/* as the report reads a run: every column numeric but the status and the name parameters */
	if (gp_table_check_numbers(t, (const char *const[]){ "side", "sms", NULL }, err, sizeof err))
		fail_msg("bw_l2_side table: %s", err);
	a->derive(&p, t);
	assert_string_equal(key(&p, "l2side_near_GBps"), "1000");
	assert_string_equal(key(&p, "l2side_far_bytes_per_clk_per_sm"), "16");
	assert_string_equal(key(&p, "l2side_far_over_near"), "0.8");
	assert_string_equal(key(&p, "l2side_far_over_near_one_sm"), "0.5");
	assert_null(key(&p, "l2side_all_one_sm_bytes_per_clk")); /* its row is n/a */
	gp_profile_free(&p);
	ref = gp_table_load("configs/reference.csv", err, sizeof err);
	if (!ref)
		fail_msg("configs/reference.csv: %s (make test runs from the repository root)", err);
	gp_reference_reset();
	assert_non_null(f = open_memstream(&md, &len));
	a->report(f, t, ref);
	fclose(f);
	if (gp_reference_missing(missing, sizeof missing))
		fail_msg("configs/reference.csv lacks %s", missing);
	assert_non_null(strstr(md, "| all | far | 12 | all |"));
	assert_non_null(strstr(md, "| 88.89 |")); /* far over all lines, all SMs */
	assert_non_null(strstr(md, "Far-line over near-line rate: 0.800 with all SMs of the sides reading, 0.500 with"));
	assert_non_null(strstr(md, "7045 GB/s (H100 PCIe"));
	free(md);
	gp_table_free(ref);
	gp_table_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_sides),
		cmocka_unit_test(test_no_structure_none_detected),
		cmocka_unit_test(test_classify_matrix),
		cmocka_unit_test(test_side_keys_and_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
