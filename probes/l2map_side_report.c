/* l2map_side_report.c — bw_l2_side's profile keys and REPORT.md section (no device code): the L2
 * read rate of each SM's near lines, its far lines and every line, all SMs of the sides at once
 * and one alone, each against the 128 B/clk/SM an SM's L1 takes in and against the all-lines rate
 * of the same run, with published L2 read rates (configs/reference.csv) beside them. */
#include "gp.h"
#include "analysis.h"

#include <math.h>
#include <string.h>

static const char *const sides[] = { "near", "far", "all" }, *const modes[] = { "all", "one" };

static double side_num(const struct gp_table *t, const char *side, const char *sms, const char *col)
{
	const long r = gp_table_find_ok(t, "side", side, "sms", sms, NULL);

	return r < 0 ? NAN : gp_table_num(t, (size_t)r, col);
}

static void side_derive(struct gp_profile *p, const struct gp_table *t)
{
	static const char src[] = "bw_l2_side";
	char key[64], method[160];
	double v;

	for (size_t i = 0; i < GP_ARRAY_SIZE(sides); i++) {
		snprintf(method, sizeof method, "ld.global.cg.v2 of %s pool lines, every SM of the L2 sides at once; median",
			 !strcmp(sides[i], "all") ? "all" : !strcmp(sides[i], "near") ? "each SM's near" : "each SM's far");
		snprintf(key, sizeof key, "l2side_%s_GBps", sides[i]);
		if (!isnan(v = side_num(t, sides[i], "all", "bandwidth_GBps")))
			gp_profile_add(p, key, v, "GB/s", method, src);
		snprintf(key, sizeof key, "l2side_%s_bytes_per_clk_per_sm", sides[i]);
		if (!isnan(v = side_num(t, sides[i], "all", "bytes_per_clk_per_sm")))
			gp_profile_add(p, key, v, "B/clk/SM", method, src);
		snprintf(key, sizeof key, "l2side_%s_one_sm_bytes_per_clk", sides[i]);
		if (!isnan(v = side_num(t, sides[i], "one", "bytes_per_clk_per_sm")))
			gp_profile_add(p, key, v, "B/clk/SM", "the same, one SM of a side alone", src);
	}
	if (!isnan(v = side_num(t, "far", "all", "bandwidth_GBps") / side_num(t, "near", "all", "bandwidth_GBps")))
		gp_profile_add(p, "l2side_far_over_near", v, "ratio", "far-line over near-line rate, all SMs", src);
	if (!isnan(v = side_num(t, "far", "one", "bandwidth_GBps") / side_num(t, "near", "one", "bandwidth_GBps")))
		gp_profile_add(p, "l2side_far_over_near_one_sm", v, "ratio", "far-line over near-line rate, one SM", src);
}

/* One row: the point's cells, its rate against 128 B/clk/SM and against the all-lines rate. */
static void side_md_row(FILE *md, const struct gp_table *t, size_t r)
{
	const char *sms = gp_table_get(t, r, "sms");
	const double all = side_num(t, "all", sms ? sms : "", "bandwidth_GBps");

	gp_md_cell(md, sms);
	gp_md_cell(md, gp_table_get(t, r, "side"));
	gp_md_cell(md, gp_table_get(t, r, "sms_reading"));
	gp_md_cell(md, sms && !strcmp(sms, "all") ? "all" : gp_table_get(t, r, "reader_sm"));
	gp_md_num(md, gp_table_num(t, r, "footprint_bytes") / 1024);
	gp_md_num(md, gp_table_num(t, r, "read_set_bytes") / 1024);
	gp_md_cell(md, gp_table_get(t, r, "near_cycles"));
	gp_md_cell(md, gp_table_get(t, r, "far_cycles"));
	gp_md_cell(md, gp_table_get(t, r, "bandwidth_GBps"));
	gp_md_cell(md, gp_table_get(t, r, "bytes_per_clk_per_sm"));
	gp_md_cell(md, gp_table_get(t, r, "pct_of_ceiling"));
	gp_md_num(md, gp_table_row_ok(t, r) ? 100 * gp_table_num(t, r, "bandwidth_GBps") / all : NAN);
	gp_md_cell(md, gp_table_get(t, r, "status"));
	gp_md_end(md);
}

/* "far / near: x (all SMs), y (one SM)" from the rows the run has. */
static void side_ratios(FILE *md, const struct gp_table *t)
{
	char v[2][32];

	for (size_t i = 0; i < GP_ARRAY_SIZE(modes); i++) {
		const double x = side_num(t, "far", modes[i], "bandwidth_GBps") / side_num(t, "near", modes[i], "bandwidth_GBps");
		snprintf(v[i], sizeof v[i], isnan(x) ? "–" : "%.3f", x);
	}
	fprintf(md, "Far-line over near-line rate: %s with all SMs of the sides reading, %s with one SM alone.\n\n", v[0],
		v[1]);
}

static void side_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	const char *g1 = NULL, *s1 = NULL, *g2 = NULL, *s2 = NULL, *g3 = NULL, *s3 = NULL;
	const char *v1 = gp_reference(ref, "bw_l2_side", "published_l2_read_GBps", &g1, &s1);
	const char *v2 = gp_reference(ref, "bw_l2_side", "published_l2_read_GBps_h200", &g2, &s2);
	const char *v3 = gp_reference(ref, "bw_l2_side", "published_l2_read_bytes_per_clk", &g3, &s3);

	fprintf(md, "Each point maps its own pool (L2 size / `l2_div`, `pool KiB`) first: every SM times every "
		    "pool line with lat_l2_map's chase, twice, and lat_l2_map's analysis groups the SMs into L2 sides "
		    "and splits the lines into each side's near and far ones (`near`/`far cyc`: the readers' mean "
		    "map latency on them). Then every SM of the sides (`all`) or the lowest such %%smid alone "
		    "(`one`) streams only its near lines, only its far lines, or every pool line (ld.global.cg.v2, "
		    "one block per SM; each warp's sum checked). B/clk/SM is per reading SM at the measured clock, "
		    "against the 128 B/clk/SM an SM's L1 takes in; `%% of all` is against the all-lines row of the "
		    "same SMs, the classification-blind L2 rate of this pool (bw_hbm's `l2_read` measures the same "
		    "kind of footprint: profile l2_read_bw_GBps). Published L2 read rates: %s GB/s (%s; %s); %s "
		    "GB/s (%s; %s); %s B/clk for the whole GPU (%s; %s).\n\n",
		v1 ? v1 : "–", g1 ? g1 : "–", s1 ? s1 : "–", v2 ? v2 : "–", g2 ? g2 : "–", s2 ? s2 : "–", v3 ? v3 : "–",
		g3 ? g3 : "–", s3 ? s3 : "–");
	gp_md_header(md, "SMs", "side", "SMs reading", "reader %smid", "pool KiB", "read set KiB", "near cyc", "far cyc",
		     "GB/s", "B/clk/SM", "% of 128", "% of all", "status");
	for (size_t i = 0; i < GP_ARRAY_SIZE(modes); i++)
		for (size_t r = 0; r < t->nrows; r++)
			if (gp_table_get(t, r, "sms") && !strcmp(gp_table_get(t, r, "sms"), modes[i]))
				side_md_row(md, t, r);
	fputc('\n', md);
	side_ratios(md, t);
}

GP_ANALYSIS(bw_l2_side, side_derive, side_report);
