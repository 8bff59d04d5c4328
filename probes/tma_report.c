/* tma_report.c — lat_tma, bw_tma and bw_cpasync from their tables (no device code): the latency of
 * one TMA copy per kind, box and level, the streaming rates against their ceilings, and the
 * profile keys a kernel tuner needs (the best TMA, cp.async and ld + st rates with what gave
 * them). Published numbers come from configs/reference.csv where a source gives them. */
#include "gp.h"
#include "analysis.h"

#include <math.h>
#include <string.h>

/* The cell equals v (a missing column or cell never does). */
static int is(const struct gp_table *t, size_t r, const char *col, const char *v)
{
	const char *c = gp_table_get(t, r, col);

	return c && !strcmp(c, v);
}

static void rows_md(FILE *md, const struct gp_table *t, const char *const *cols, size_t n)
{
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < n; c++)
			gp_md_cell(md, gp_table_get(t, r, cols[c]));
		gp_md_end(md);
	}
}

/* The ok row with the lowest (sign -1) or highest (sign 1) value of col among those whose column
 * `key` starts with `prefix` (NULL: any) and whose `level` is `level` (NULL: any); -1 if none. */
static long best_row(const struct gp_table *t, const char *col, int sign, const char *key, const char *prefix,
		     const char *level)
{
	long best = -1;

	for (size_t r = 0; r < t->nrows; r++) {
		const double v = gp_table_num(t, r, col);
		const char *k = key ? gp_table_get(t, r, key) : NULL;
		if (!gp_table_row_ok(t, r) || isnan(v) || (level && !is(t, r, "level", level)) ||
		    (prefix && (!k || strncmp(k, prefix, strlen(prefix)))))
			continue;
		if (best < 0 || sign * v > sign * gp_table_num(t, (size_t)best, col))
			best = (long)r;
	}
	return best;
}

/* A published number beside ours, where configs/reference.csv has one for the key. */
static void published(FILE *md, const struct gp_table *ref, const char *exp, const char *key, const char *what)
{
	const char *v = gp_reference_opt(ref, exp, key);

	if (v)
		fprintf(md, "- Published: %s %s.\n", what, v);
}

/* ------------------------------------------------------------------ lat_tma */

static void lat_tma_derive(struct gp_profile *p, const struct gp_table *t)
{
	static const char *const levels[][2] = { { "l2", "tma_latency_l2_cycles" }, { "hbm", "tma_latency_hbm_cycles" } };
	char method[160];

	for (size_t i = 0; i < GP_ARRAY_SIZE(levels); i++) {
		const long r = best_row(t, "cycles_per_copy", -1, NULL, NULL, levels[i][0]);
		if (r < 0)
			continue;
		snprintf(method, sizeof method, "issue to mbarrier completion, lowest median over copies: %s, %s B box (%s)",
			 gp_table_get(t, (size_t)r, "copy"), gp_table_get(t, (size_t)r, "box_bytes"),
			 gp_table_get(t, (size_t)r, "box_dims"));
		gp_profile_add(p, levels[i][1], gp_table_num(t, (size_t)r, "cycles_per_copy"), "cycles", method, "lat_tma");
	}
}

static void lat_tma_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const cols[] = { "copy", "box_bytes", "box_dims", "level", "footprint_bytes", "cycles_per_copy",
					    "fastest_copy_cycles", "slowest_copy_cycles", "latency_ns", "spread", "status" };

	fprintf(md, "One TMA copy at a time (one warp), from before its `mbarrier.arrive.expect_tx` to the "
		    "`mbarrier.try_wait.parity` that sees its bytes land, clock64 cycles; `bulk` is "
		    "`cp.async.bulk`, `Nd` is `cp.async.bulk.tensor.Nd` over a tiled UINT32 tensor map "
		    "(box_dims: elements per dimension, dimension 0 first). L2: the same boxes copied once "
		    "untimed first; HBM: boxes never copied before over a footprint above twice L2 (random boxes: "
		    "TLB misses included). Every word of every box is checked against its source.\n\n");
	gp_md_header(md, "copy", "box B", "box dims", "level", "footprint", "cycles/copy", "fastest", "slowest", "ns",
		     "spread", "status");
	rows_md(md, t, cols, GP_ARRAY_SIZE(cols));
	fputc('\n', md);
	published(md, ref, "lat_tma", "published_latency_cycles", "TMA load latency (cycles)");
}

/* ------------------------------------------------------------------ bw_tma */

static void bw_tma_derive(struct gp_profile *p, const struct gp_table *t)
{
	const long r = best_row(t, "bandwidth_GBps", 1, NULL, NULL, "hbm");
	char method[160];

	if (r < 0)
		return;
	snprintf(method, sizeof method, "TMA global -> shared, HBM footprint read once: %s, %s B box, %s stages, %s blocks/SM",
		 gp_table_get(t, (size_t)r, "copy"), gp_table_get(t, (size_t)r, "box_bytes"),
		 gp_table_get(t, (size_t)r, "stages"), gp_table_get(t, (size_t)r, "blocks_per_sm"));
	gp_profile_add(p, "tma_bw_best_GBps", gp_table_num(t, (size_t)r, "bandwidth_GBps"), "GB/s", method, "bw_tma");
}

static void bw_tma_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const cols[] = { "copy", "box_bytes", "box_dims", "stages", "blocks_per_sm",
					    "bytes_in_flight_per_sm", "level", "bandwidth_GBps", "ceiling_GBps", "pct_of_ceiling",
					    "spread", "status" };

	fprintf(md, "TMA loads streaming an HBM footprint (read once) into shared memory: one producer lane per "
		    "block issues into a ring of `stages` boxes (mbarrier per stage), four consumer warps check "
		    "every word and release the stage. Ceiling: the HBM datasheet rate (a footprint under twice L2, "
		    "level l2+hbm: shared memory's 128 B/clk/SM). bw_cpasync's `ldg16` rows are the ld.global "
		    "streaming rate of the same kind of footprint (profile: ldg_stream_GBps).\n\n");
	gp_md_header(md, "copy", "box B", "box dims", "stages", "blocks/SM", "bytes in flight/SM", "level", "GB/s",
		     "ceiling GB/s", "% of ceiling", "spread", "status");
	rows_md(md, t, cols, GP_ARRAY_SIZE(cols));
	fputc('\n', md);
	published(md, ref, "bw_tma", "luo_tma_gemm_speedup", "TMA's asynchronous model in a matrix multiplication (speedup over the synchronous one)");
}

/* ------------------------------------------------------------------ bw_cpasync */

static void bw_cpasync_derive(struct gp_profile *p, const struct gp_table *t)
{
	static const char *const keys[][2] = { { "cpasync", "cpasync_bw_best_GBps" }, { "ldg", "ldg_stream_GBps" } };
	char method[160];

	for (size_t i = 0; i < GP_ARRAY_SIZE(keys); i++) {
		const long r = best_row(t, "bandwidth_GBps", 1, "method", keys[i][0], "hbm");
		if (r < 0)
			continue;
		snprintf(method, sizeof method, "global -> shared, HBM footprint read once: %s, %s stages, %s blocks/SM x %s",
			 gp_table_get(t, (size_t)r, "method"), gp_table_get(t, (size_t)r, "stages"),
			 gp_table_get(t, (size_t)r, "blocks_per_sm"), gp_table_get(t, (size_t)r, "threads"));
		gp_profile_add(p, keys[i][1], gp_table_num(t, (size_t)r, "bandwidth_GBps"), "GB/s", method, "bw_cpasync");
	}
}

static void bw_cpasync_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const cols[] = { "method", "level", "stages", "blocks_per_sm", "threads", "chunk_bytes",
					    "bytes_in_flight_per_sm", "bandwidth_GBps", "ceiling_GBps", "pct_of_ceiling",
					    "spread", "status" };

	fprintf(md, "Streaming global memory into shared memory with `cp.async` (LDGSTS; `.ca` caches in L1, "
		    "`.cg` does not) in a ring of `stages` chunks, against `ld.global` + `st.shared` of the "
		    "same width (stages 1: one chunk in registers per thread at a time). HBM: a footprint above "
		    "twice L2 read once, against the datasheet rate; L2: one under half of L2 read in passes, "
		    "against what shared memory takes (128 B/clk/SM). Every word is checked after the barrier.\n\n");
	gp_md_header(md, "method", "level", "stages", "blocks/SM", "threads", "chunk B", "bytes in flight/SM", "GB/s",
		     "ceiling GB/s", "% of ceiling", "spread", "status");
	rows_md(md, t, cols, GP_ARRAY_SIZE(cols));
	fputc('\n', md);
	published(md, ref, "bw_cpasync", "published_throughput", "cp.async throughput");
}

GP_ANALYSIS(lat_tma, lat_tma_derive, lat_tma_report);
GP_ANALYSIS(bw_tma, bw_tma_derive, bw_tma_report);
GP_ANALYSIS(bw_cpasync, bw_cpasync_derive, bw_cpasync_report);
