/* tma_report.c — lat_tma, bw_tma and bw_cpasync from their tables (no device code): the latency of
 * one TMA copy per kind, box and level, the streaming rates against their ceilings, and the
 * profile keys a kernel tuner needs (the best TMA, TMA multicast, cp.async and ld + st rates with
 * what gave them). Published numbers come from configs/reference.csv where a source gives them. */
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

/* The HBM streaming rate a headline takes: the best repetition's where the run has it (times
 * can be bimodal; the best is then the steady statistic, as STREAM's best rate), the median's in
 * a run from before that column. */
static const char *stream_col(const struct gp_table *t)
{
	return gp_table_col(t, "best_GBps") >= 0 ? "best_GBps" : "bandwidth_GBps";
}

/* How the headline was taken, and whether its row's spread is flagged. */
static const char *stream_how(const struct gp_table *t, size_t r)
{
	if (gp_table_col(t, "best_GBps") < 0)
		return "median repetition";
	return gp_table_num(t, r, "spread") > GP_NOISY_SPREAD ? "best repetition; flagged: a noisy or bimodal spread"
							       : "best repetition";
}

/* A report section: its intro, its table (CSV column, header), and the published number
 * configs/reference.csv may hold for it (absent by design where no source gives one). */
#define SECTION_MAX_COLS 20

struct section {
	const char *intro, *exp, *ref_key, *ref_what;
	const char *const (*cols)[2];
	size_t n;
};

static void section(FILE *md, const struct gp_table *t, const struct gp_table *ref, const struct section *s)
{
	const char *v = gp_reference_opt(ref, s->exp, s->ref_key), *heads[SECTION_MAX_COLS];
	const char *cols[SECTION_MAX_COLS];
	size_t n = 0;

	fprintf(md, "%s\n\n", s->intro);
	for (size_t c = 0; c < s->n && n < SECTION_MAX_COLS; c++)
		if (gp_table_col(t, s->cols[c][0]) >= 0) /* a run from before the column: left out */
			cols[n] = s->cols[c][0], heads[n++] = s->cols[c][1];
	gp_md_head(md, heads, n);
	gp_md_rows(md, t, cols, n);
	fputc('\n', md);
	if (v)
		fprintf(md, "- Published: %s %s.\n", s->ref_what, v);
}

/* Experiment name's analysis: name_derive and a section of its table name_cols. */
#define SECTION(name, ref_key_, ref_what_, intro_)                                                 \
	static void name##_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)  \
	{                                                                                          \
		static const struct section sec = {                                                \
			.intro = intro_, .exp = #name, .ref_key = ref_key_, .ref_what = ref_what_, \
			.cols = name##_cols, .n = GP_ARRAY_SIZE(name##_cols),                      \
		};                                                                                 \
		section(md, t, ref, &sec);                                                         \
	}                                                                                          \
	GP_ANALYSIS_BY_NAME(name)

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

static const char *const lat_tma_cols[][2] = {
	{ "copy", "copy" },
	{ "box_bytes", "box B" },
	{ "box_dims", "box dims" },
	{ "level", "level" },
	{ "footprint_bytes", "footprint" },
	{ "cycles_per_copy", "cycles/copy" },
	{ "fastest_copy_cycles", "fastest" },
	{ "slowest_copy_cycles", "slowest" },
	{ "latency_ns", "ns" },
	{ "spread", "spread" },
	{ "status", "status" },
};

SECTION(lat_tma, "published_latency_cycles", "TMA load latency (cycles)",
	"One TMA copy at a time (one warp), from before its `mbarrier.arrive.expect_tx` to the "
	"`mbarrier.try_wait.parity` that sees its bytes land, clock64 cycles; `bulk` is `cp.async.bulk`, "
	"`Nd` is `cp.async.bulk.tensor.Nd` over a tiled UINT32 tensor map (box dims: elements per "
	"dimension, dimension 0 first). L2: the same boxes copied once untimed first; HBM: boxes never "
	"copied before over a footprint above twice L2 (random boxes: TLB misses included). Every word "
	"of every box is checked against its source.");

/* ------------------------------------------------------------------ bw_tma */

static void bw_tma_derive(struct gp_profile *p, const struct gp_table *t)
{
	const char *col = stream_col(t);
	const long r = best_row(t, col, 1, NULL, NULL, "hbm");
	char method[240];

	if (r < 0)
		return;
	snprintf(method, sizeof method,
		 "TMA global -> shared, HBM footprint read once: %s, %s B box, %s stages, %s blocks/SM; %s",
		 gp_table_get(t, (size_t)r, "copy"), gp_table_get(t, (size_t)r, "box_bytes"),
		 gp_table_get(t, (size_t)r, "stages"), gp_table_get(t, (size_t)r, "blocks_per_sm"), stream_how(t, (size_t)r));
	gp_profile_add(p, "tma_bw_best_GBps", gp_table_num(t, (size_t)r, col), "GB/s", method, "bw_tma");
}

static const char *const bw_tma_cols[][2] = {
	{ "copy", "copy" },
	{ "box_bytes", "box B" },
	{ "box_dims", "box dims" },
	{ "stages", "stages" },
	{ "blocks_per_sm", "blocks/SM" },
	{ "bytes_in_flight_per_sm", "bytes in flight/SM" },
	{ "level", "level" },
	{ "bandwidth_GBps", "GB/s" },
	{ "best_GBps", "best GB/s" },
	{ "ceiling_GBps", "ceiling GB/s" },
	{ "pct_of_ceiling", "% of ceiling" },
	{ "spread", "spread" },
	{ "status", "status" },
};

SECTION(bw_tma, "luo_tma_gemm_speedup", "TMA's asynchronous model in a matrix multiplication (speedup over the synchronous one)",
	"TMA loads streaming an HBM footprint (read once) into shared memory: one producer lane per block "
	"issues into a ring of `stages` boxes (an mbarrier per stage), four consumer warps check every "
	"word and release the stage. Ceiling: the HBM datasheet rate (a footprint under twice L2, level "
	"l2+hbm: shared memory's 128 B/clk/SM). bw_cpasync's `ldg16` rows are the ld.global streaming "
	"rate of the same kind of footprint (profile: ldg_stream_GBps). GB/s at the median repetition, best GB/s "
	"at the best one: HBM streaming times can be bimodal, and the profile's rates are the best "
	"repetition's on both sides (STREAM's best rate).");

/* ------------------------------------------------------------------ bw_tma_mc */

/* tma_multicast_bw_GBps: the most bytes landed in shared memory per second (cluster copies of
 * every box), HBM footprint; the read rate of that row in the method. */
static void bw_tma_mc_derive(struct gp_profile *p, const struct gp_table *t)
{
	const long r = best_row(t, "landed_GBps", 1, NULL, NULL, "hbm");
	char method[200];

	if (r < 0)
		return;
	snprintf(method, sizeof method,
		 "TMA multicast, bytes landed in all ranks' shared memory: %s, %s B box, cluster %s, %s stages; %.0f GB/s read from HBM",
		 gp_table_get(t, (size_t)r, "copy"), gp_table_get(t, (size_t)r, "box_bytes"),
		 gp_table_get(t, (size_t)r, "cluster"), gp_table_get(t, (size_t)r, "stages"),
		 gp_table_num(t, (size_t)r, "bandwidth_GBps"));
	gp_profile_add(p, "tma_multicast_bw_GBps", gp_table_num(t, (size_t)r, "landed_GBps"), "GB/s", method, "bw_tma_mc");
}

static const char *const bw_tma_mc_cols[][2] = {
	{ "copy", "copy" },
	{ "box_bytes", "box B" },
	{ "stages", "stages" },
	{ "cluster", "cluster" },
	{ "clusters", "clusters" },
	{ "level", "level" },
	{ "bandwidth_GBps", "read GB/s" },
	{ "best_GBps", "best read GB/s" },
	{ "ceiling_GBps", "read ceiling" },
	{ "pct_of_ceiling", "% of read ceiling" },
	{ "landed_GBps", "landed GB/s" },
	{ "landed_ceiling_GBps", "landed ceiling" },
	{ "landed_pct_of_ceiling", "% of landed ceiling" },
	{ "clock_MHz", "MHz" },
	{ "spread", "spread" },
	{ "status", "status" },
};

SECTION(bw_tma_mc, "published_multicast_GBps", "TMA multicast throughput",
	"bw_tma with cluster multicast: in each cluster of `cluster` blocks, rank 0's producer lane issues "
	"every box once with `cp.async.bulk.tensor.Nd...multicast::cluster` and a ctaMask of all ranks; the "
	"box lands in every rank's ring and completes on every rank's own mbarrier, every rank's four "
	"consumer warps check every word of their copy, and rank 0 reuses a stage only after every rank "
	"released it. Read: the footprint (once) over the time, against the HBM datasheet rate; landed: "
	"cluster x that, the bytes written into shared memory, against 128 B/clk/SM over all SMs at the "
	"measured clock.");

/* ------------------------------------------------------------------ bw_cpasync */

static void bw_cpasync_derive(struct gp_profile *p, const struct gp_table *t)
{
	static const char *const keys[][2] = { { "cpasync", "cpasync_bw_best_GBps" }, { "ldg", "ldg_stream_GBps" } };
	const char *col = stream_col(t);
	char method[240];

	for (size_t i = 0; i < GP_ARRAY_SIZE(keys); i++) {
		const long r = best_row(t, col, 1, "method", keys[i][0], "hbm");
		if (r < 0)
			continue;
		snprintf(method, sizeof method, "global -> shared, HBM footprint read once: %s, %s stages, %s blocks/SM x %s; %s",
			 gp_table_get(t, (size_t)r, "method"), gp_table_get(t, (size_t)r, "stages"),
			 gp_table_get(t, (size_t)r, "blocks_per_sm"), gp_table_get(t, (size_t)r, "threads"),
			 stream_how(t, (size_t)r));
		gp_profile_add(p, keys[i][1], gp_table_num(t, (size_t)r, col), "GB/s", method, "bw_cpasync");
	}
}

static const char *const bw_cpasync_cols[][2] = {
	{ "method", "method" },
	{ "level", "level" },
	{ "stages", "stages" },
	{ "blocks_per_sm", "blocks/SM" },
	{ "threads", "threads" },
	{ "chunk_bytes", "chunk B" },
	{ "bytes_in_flight_per_sm", "bytes in flight/SM" },
	{ "bandwidth_GBps", "GB/s" },
	{ "best_GBps", "best GB/s" },
	{ "ceiling_GBps", "ceiling GB/s" },
	{ "pct_of_ceiling", "% of ceiling" },
	{ "spread", "spread" },
	{ "status", "status" },
};

SECTION(bw_cpasync, "published_throughput", "cp.async throughput",
	"Streaming global memory into shared memory with `cp.async` (LDGSTS; `.ca` caches in L1, `.cg` "
	"does not) in a ring of `stages` chunks, against `ld.global` + `st.shared` of the same width "
	"(stages 1: one chunk in registers per thread at a time). HBM: a footprint above twice L2 read "
	"once, against the datasheet rate; L2: one under half of L2 read in passes, against what shared "
	"memory takes (128 B/clk/SM). Every word is checked after the barrier.");
