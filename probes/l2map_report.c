/* l2map_report.c — lat_l2_map's profile keys and REPORT.md section (no device code) from the
 * analysis of its cells (l2map_analysis.c): the map's spread and its two-way split (line, SM,
 * pair), and the SM groups that count as L2 sides, each with its near/far latencies. */
#include "gp.h"
#include "analysis.h"
#include "changepoint.h"
#include "l2map_analysis.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

static void l2map_derive(struct gp_profile *prof, const struct gp_table *t)
{
	static const char src[] = "lat_l2_map";
	struct l2m_sum u;
	char method[160];
	size_t groups, n;

	if (!l2m_analyse(t, &u))
		return;
	snprintf(method, sizeof method, "ld.global.cg hit, %zu SMs x %zu lines, median over all", u.m.nsm, u.m.nl);
	gp_profile_add(prof, "l2map_latency_cycles", u.med, "cycles", method, src);
	gp_profile_add(prof, "l2map_latency_p05_cycles", u.p05, "cycles", "5th percentile over SMs x lines", src);
	gp_profile_add(prof, "l2map_latency_p95_cycles", u.p95, "cycles", "95th percentile over SMs x lines", src);
	gp_profile_add(prof, "l2map_sm_median_min_cycles", u.sm_lo, "cycles", "fastest SM's median over its lines", src);
	gp_profile_add(prof, "l2map_sm_median_max_cycles", u.sm_hi, "cycles", "slowest SM's median over its lines", src);
	gp_profile_add(prof, "l2map_line_effect_sd_cycles", u.sd_line, "cycles", "spread of the per-line means (the address)", src);
	gp_profile_add(prof, "l2map_sm_effect_sd_cycles", u.sd_sm, "cycles", "spread of the per-SM means (the SM)", src);
	gp_profile_add(prof, "l2map_pair_effect_sd_cycles", u.sd_rest, "cycles",
		       "spread left after line and SM means (SM-to-line distance, noise)", src);
	snprintf(method, sizeof method,
		 "SM groups of correlated pair parts (r >= %.1f), >= 2 SMs each, >= %.0f %% of SMs, pair part >= %.0f "
		 "x noise", L2MAP_CORR, 100 * L2MAP_COVER, GP_CP_MIN_NOISE);
	if (!(groups = l2m_real_groups(&u))) {
		gp_profile_add_text(prof, "l2map_partitions_detected", "none detected", "groups", method, src);
		l2m_free(&u);
		return;
	}
	gp_profile_add(prof, "l2map_partitions_detected", (double)groups, "groups", method, src);
	l2m_side_median(&u, L2M_GROUPED, 0, &n);
	snprintf(method, sizeof method, "median over the %zu grouped SMs of their mean over their group's near/far lines", n);
	gp_profile_add(prof, "l2map_near_latency_cycles", l2m_side_median(&u, L2M_GROUPED, offsetof(struct l2m_side, near), NULL),
		       "cycles", method, src);
	gp_profile_add(prof, "l2map_far_latency_cycles", l2m_side_median(&u, L2M_GROUPED, offsetof(struct l2m_side, far), NULL),
		       "cycles", method, src);
	gp_profile_add(prof, "l2map_near_fraction", l2m_side_median(&u, L2M_GROUPED, offsetof(struct l2m_side, frac), NULL),
		       "ratio", method, src);
	l2m_free(&u);
}

/* "0-15, 32, 40-47": the SMs of selection g, cut at len. */
static void sm_ranges(const struct l2m_sum *u, int g, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (size_t s = 0; s < u->m.nsm && o + 24 < len; s++) {
		size_t e = s;
		if (!l2m_in_sel(u, s, g))
			continue;
		while (e + 1 < u->m.nsm && u->m.sm[e + 1] == u->m.sm[e] + 1 && l2m_in_sel(u, e + 1, g))
			e++;
		o += (size_t)snprintf(buf + o, len - o, "%s%.0f", o ? ", " : "", u->m.sm[s]);
		if (e > s)
			o += (size_t)snprintf(buf + o, len - o, "-%.0f", u->m.sm[e]);
		s = e;
	}
	if (o + 24 >= len)
		snprintf(buf + o, len - o, ", …");
}

static void group_row(FILE *md, const struct l2m_sum *u, int g, const char *label)
{
	char ids[200];
	size_t n;
	const double near = l2m_side_median(u, g, offsetof(struct l2m_side, near), &n);
	const double far = l2m_side_median(u, g, offsetof(struct l2m_side, far), NULL);

	sm_ranges(u, g, ids, sizeof ids);
	gp_md_str(md, label);
	gp_md_num(md, (double)n);
	gp_md_str(md, ids);
	gp_md_num(md, 100 * l2m_side_median(u, g, offsetof(struct l2m_side, frac), NULL));
	gp_md_num(md, near);
	gp_md_num(md, far);
	gp_md_num(md, far - near);
	gp_md_num(md, l2m_side_median(u, g, offsetof(struct l2m_side, corr), NULL));
	gp_md_end(md);
}

static void summary_md(FILE *md, const struct l2m_sum *u)
{
	gp_md_header(md, "SMs", "lines", "stride (B)", "median", "p05", "p95", "SM medians: min", "max", "sd by line",
		     "sd by SM", "sd by pair", "noise", "SMs with a bimodal split");
	gp_md_num(md, (double)u->m.nsm);
	gp_md_num(md, (double)u->m.nl);
	gp_md_num(md, u->m.stride);
	gp_md_num(md, u->med);
	gp_md_num(md, u->p05);
	gp_md_num(md, u->p95);
	gp_md_num(md, u->sm_lo);
	gp_md_num(md, u->sm_hi);
	gp_md_num(md, u->sd_line);
	gp_md_num(md, u->sd_sm);
	gp_md_num(md, u->sd_rest);
	gp_md_num(md, u->m.noise);
	gp_md_num(md, (double)u->nsplit);
	gp_md_end(md);
}


/* The GPU a published lat_l2_map value is for (configs/reference.csv's gpu column), or "–". */
static const char *ref_gpu(const struct gp_table *ref, const char *key)
{
	const char *gpu = NULL;

	gp_reference(ref, "lat_l2_map", key, &gpu, NULL);
	return gpu && *gpu ? gpu : "–";
}

static void l2map_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	struct l2m_sum u;
	char label[32];
	size_t rest;

	fprintf(md, "L2-hit latency (dependent ld.global.cg to a line the SM warmed) from every SM to each sample "
		    "line, all SMs at once; the heat map shows SM (x) against line (y). The cells' spread is split "
		    "into what follows the line (its address), the SM, and the pair (SM-to-slice distance), beside "
		    "the cells' repetition noise. SMs whose pair parts correlate (r >= %.1f) form a group; groups "
		    "count as L2 sides with >= 2 SMs each, >= %.0f %% of the SMs together and a pair part >= %.0f x "
		    "the noise. A group's near lines are those its SMs see faster than the average SM. A bimodal "
		    "split of an SM's lines needs the evidence of a cache level (gap >= %.0f x noise, step >= %.0f "
		    "standard errors, ratio >= %.2f). Published (%s): near %s, far %s cycles (lat_mem sees "
		    "the far level by footprint); L2 hit by SM (%s): %s cycles.\n\n",
		L2MAP_CORR, 100 * L2MAP_COVER, GP_CP_MIN_NOISE, GP_CP_MIN_NOISE, GP_CP_MIN_T, GP_CP_MIN_STEP,
		ref_gpu(ref, "published_l2_near_cycles"), gp_ref_or_dash(ref, "lat_l2_map", "published_l2_near_cycles"),
		gp_ref_or_dash(ref, "lat_l2_map", "published_l2_far_cycles"), ref_gpu(ref, "published_sm_spread_cycles"),
		gp_ref_or_dash(ref, "lat_l2_map", "published_sm_spread_cycles"));
	if (!l2m_analyse(t, &u)) {
		fprintf(md, "No cell was measured.\n\n");
		return;
	}
	summary_md(md, &u);
	fprintf(md, "\nSM groups (cycles: medians over the group's SMs of their means over the group's near and far "
		    "lines; r: median correlation with the group's centroid): %s.\n\n",
		l2m_real_groups(&u) ? "the L2 sides as the SMs see them" : "none detected");
	gp_md_header(md, "group", "SMs", "SM ids", "near lines %", "near cycles", "far cycles", "far - near", "r");
	for (size_t g = 0, k = 0; g < u.ng; g++)
		if (l2m_side_sized(&u, g)) {
			snprintf(label, sizeof label, "%zu", ++k);
			group_row(md, &u, (int)g, label);
		}
	l2m_side_median(&u, L2M_REST, 0, &rest);
	if (rest)
		group_row(md, &u, L2M_REST, "ungrouped");
	fputc('\n', md);
	l2m_free(&u);
}

GP_ANALYSIS(lat_l2_map, l2map_derive, l2map_report);
