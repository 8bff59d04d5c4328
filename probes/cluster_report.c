/* cluster_report.c — profile keys and REPORT.md sections of lat_dsm, lat_cluster_barrier and
 * bw_dsm from their tables (no device code), with Luo et al.'s published chase latencies
 * (configs/reference.csv) beside ours. */
#include "gp.h"
#include "analysis.h"

#include <math.h>
#include <string.h>

static const int cluster_sizes[] = { 1, 2, 4, 8, 16 };

/* The first ok row whose `col` is `v` and whose cluster is `c` (any cluster for c = 0); -1. */
static long find(const struct gp_table *t, const char *col, const char *v, int c)
{
	for (size_t r = 0; r < t->nrows; r++) {
		const char *cell = gp_table_get(t, r, col);
		if (gp_table_row_ok(t, r) && cell && !strcmp(cell, v) && (!c || gp_table_num(t, r, "cluster") == c))
			return (long)r;
	}
	return -1;
}

static double num_at(const struct gp_table *t, long r, const char *col)
{
	return r < 0 ? NAN : gp_table_num(t, (size_t)r, col);
}

/* Rows as they are: a column per listed CSV column. */
static void rows_md(FILE *md, const struct gp_table *t, const char *const *cols, size_t ncols)
{
	gp_md_head(md, cols, ncols);
	gp_md_rows(md, t, cols, ncols);
	fputc('\n', md);
}

/* ------------------------------------------------------------------ lat_dsm */

static void lat_dsm_derive(struct gp_profile *prof, const struct gp_table *t)
{
	const double remote = num_at(t, find(t, "what", "remote", 2), "cycles_per_load");
	long lc = find(t, "what", "local_cluster", 2);

	if (!isnan(remote))
		gp_profile_add(prof, "dsm_latency_cycles", remote, "cycles",
			       "dependent chase of another SM's shared memory, cluster of 2", "lat_dsm");
	if (lc < 0)
		lc = find(t, "what", "local_cluster", 0);
	if (lc >= 0)
		gp_profile_add(prof, "smem_cluster_local_latency_cycles", num_at(t, lc, "cycles_per_load"), "cycles",
			       "dependent chase of the own shared memory through the cluster window", "lat_dsm");
}

static void lat_dsm_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	const char *gpu = NULL, *src = NULL;

	gp_reference(ref, "lat_dsm", "remote_c2", &gpu, &src);
	fprintf(md, "One thread of rank 0 chases a random cycle (cycles per dependent load): `local` through "
		    "ld.shared on its own block, `local_cluster` through its own rank's cluster window (the generic "
		    "LD that ld.shared::cluster compiles to), `remote` through the last rank's, another SM's, shared "
		    "memory. Published (%s): %s.\n\n",
		gpu ? gpu : "–", src ? src : "–");
	gp_md_header(md, "cluster", "local", "local_cluster", "remote", "remote − local_cluster", "remote ns",
		     "published remote", "published own rank");
	for (size_t i = 0; i < GP_ARRAY_SIZE(cluster_sizes); i++) {
		const int c = cluster_sizes[i];
		const long rr = find(t, "what", "remote", c), rl = find(t, "what", "local_cluster", c);
		char key[32];
		if (rr < 0 && rl < 0 && find(t, "what", "local", c) < 0)
			continue;
		snprintf(key, sizeof key, "remote_c%d", c);
		gp_md_num(md, c);
		gp_md_num(md, num_at(t, find(t, "what", "local", c), "cycles_per_load"));
		gp_md_num(md, num_at(t, rl, "cycles_per_load"));
		gp_md_num(md, num_at(t, rr, "cycles_per_load"));
		gp_md_num(md, num_at(t, rr, "cycles_per_load") - num_at(t, rl, "cycles_per_load"));
		gp_md_num(md, num_at(t, rr, "latency_ns"));
		gp_md_str(md, gp_reference_opt(ref, "lat_dsm", key));
		gp_md_str(md, gp_ref_or_dash(ref, "lat_dsm", "own_rank"));
		gp_md_end(md);
	}
	fputc('\n', md);
}

GP_ANALYSIS_BY_NAME(lat_dsm);

/* ------------------------------------------------------------------ lat_cluster_barrier */

static void cbar_derive(struct gp_profile *prof, const struct gp_table *t)
{
	for (size_t i = 0; i < GP_ARRAY_SIZE(cluster_sizes); i++) {
		const long r = find(t, "kind", "sync", cluster_sizes[i]);
		char key[48];
		if (r < 0 || cluster_sizes[i] < 2)
			continue;
		snprintf(key, sizeof key, "cluster_barrier_cycles_c%d", cluster_sizes[i]);
		gp_profile_add(prof, key, num_at(t, r, "cycles_per_barrier"), "cycles",
			       "barrier.cluster.arrive + wait (release/acquire), rank 0's loop", "lat_cluster_barrier");
	}
}

static void cbar_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const cols[] = { "cluster", "kind", "threads", "cycles_per_barrier", "ns_per_barrier",
					    "spread", "status" };

	fprintf(md, "Cycles per barrier of rank 0's thread 0 while every thread of every block of the cluster "
		    "passes the same barriers: `sync` is barrier.cluster.arrive + wait with their default "
		    "release/acquire semantics (what cluster.sync() issues), `relaxed` the same with "
		    "arrive.relaxed, `cta` the block's own bar.sync for scale.\n\n");
	rows_md(md, t, cols, GP_ARRAY_SIZE(cols));
}

GP_ANALYSIS(lat_cluster_barrier, cbar_derive, cbar_report);

/* ------------------------------------------------------------------ bw_dsm */

static int remote_pattern(const char *p)
{
	return p && (!strcmp(p, "pair") || !strcmp(p, "ring") || !strcmp(p, "all_to_one"));
}

/* The best pattern through another SM's shared memory. */
static void bw_dsm_derive(struct gp_profile *prof, const struct gp_table *t)
{
	double best = NAN;

	for (size_t r = 0; r < t->nrows; r++) {
		const double v = gp_table_num(t, r, "bytes_per_clk_per_sm");
		if (gp_table_row_ok(t, r) && remote_pattern(gp_table_get(t, r, "pattern")) && !(v <= best))
			best = v;
	}
	if (!isnan(best))
		gp_profile_add(prof, "dsm_bw_bytes_per_clk_per_sm", best, "B/clk/SM",
			       "ld/st.shared::cluster into each SM, best of pair/ring/all_to_one", "bw_dsm");
}

static void bw_dsm_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const cols[] = { "op", "pattern", "cluster", "width_bits", "threads", "blocks",
					    "bytes_per_clk_per_sm", "bytes_per_clk_per_target", "pct_of_128B",
					    "GBps_total", "spread", "status" };

	fprintf(md, "Every block of every cluster that fits at once (one per SM) accesses, with all its warps, the "
		    "shared memory the pattern names: `local` its own through ld/st.shared, `self` its own through "
		    "ld/st.shared::cluster, `pair` rank r ^ 1's, `ring` rank r + 1's, `all_to_one` rank 0's. Bytes per "
		    "clock into each SM (the median block) and out of each target SM, against the 128 B/clk/SM of "
		    "shared memory at the measured clock.\n\n");
	rows_md(md, t, cols, GP_ARRAY_SIZE(cols));
}

GP_ANALYSIS_BY_NAME(bw_dsm);
