/* warp_report.c — what lat_warp, tput_warp and lat_barrier make of their tables (no device code):
 * latency and throughput of every warp operation side by side, barrier cost against block size,
 * and the profile keys a kernel tuner needs. Published figures from configs/reference.csv where a
 * source has one (keys <op> for lat_warp, guide_<op> for tput_warp: absent by design elsewhere). */
#include "gp.h"
#include "analysis.h"

#include <math.h>
#include <string.h>

/* A published value with its source, or NULLs (an optional key). */
static const char *published(const struct gp_table *ref, const char *exp, const char *key, const char **src)
{
	const long r = ref ? gp_table_find(ref, 0, "experiment", exp, "key", key, NULL) : -1;

	*src = r >= 0 ? gp_table_get(ref, (size_t)r, "source") : NULL;
	return r >= 0 ? gp_reference_opt(ref, exp, key) : NULL;
}

/* The value of `col` on op's row if it is ok; NaN otherwise. */
static double op_value(const struct gp_table *t, const char *op, const char *col)
{
	const long r = gp_table_find(t, 0, "op", op, NULL);

	return r >= 0 && gp_table_row_ok(t, (size_t)r) ? gp_table_num(t, (size_t)r, col) : NAN;
}

/* One row per operation: its cells, then the published value beside it. */
static void op_table(FILE *md, const struct gp_table *t, const struct gp_table *ref, const char *exp,
		     const char *const *cols, size_t ncols, const char *keyfmt)
{
	for (size_t r = 0; r < t->nrows; r++) {
		const char *src, *pub;
		char key[64];
		snprintf(key, sizeof key, keyfmt, gp_table_get(t, r, "op"));
		pub = published(ref, exp, key, &src);
		gp_md_cells(md, t, r, cols, ncols);
		gp_md_str(md, pub);
		gp_md_str(md, src);
		gp_md_end(md);
	}
	fputc('\n', md);
}

static void lat_warp_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const cols[] = { "op", "sass", "cycles_per_step", "latency_ns", "clock_MHz", "status" };

	fprintf(md, "One warp, a dependent chain per lane (each step's result is its next input): cycles per step "
		    "from clock64, the timer's cost subtracted. Every lane's last value is checked against the "
		    "host's replay of the warp.\n\n");
	gp_md_header(md, "op", "SASS", "cycles/step", "ns/step", "clock MHz", "status", "published cycles", "source");
	op_table(md, t, ref, "lat_warp", cols, GP_ARRAY_SIZE(cols), "%s");
}

/* The named keys a tuner asks for, from the operation each stands for. */
static const struct {
	const char *key, *op, *method;
} lat_keys[] = {
	{ "shfl_latency_cycles", "shfl_bfly", "dependent __shfl_xor_sync chain, one warp, clock64" },
	{ "vote_latency_cycles", "vote_any", "dependent __any_sync chain through the predicate, clock64" },
	{ "redux_latency_cycles", "redux_add", "dependent __reduce_add_sync chain (REDUX + move back), clock64" },
	{ "match_latency_cycles", "match_any", "dependent __match_any_sync chain, clock64" },
};

static void lat_warp_derive(struct gp_profile *prof, const struct gp_table *t)
{
	gp_profile_rows(prof, t, "cycles_per_step", "warp_%s_latency_cycles", "op", NULL, "cycles",
			"dependent chain, one warp, clock64", "lat_warp");
	for (size_t i = 0; i < GP_ARRAY_SIZE(lat_keys); i++) {
		const double v = op_value(t, lat_keys[i].op, "cycles_per_step");
		if (!isnan(v))
			gp_profile_add(prof, lat_keys[i].key, v, "cycles", lat_keys[i].method, "lat_warp");
	}
}

GP_ANALYSIS_BY_NAME(lat_warp);

static void tput_warp_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const cols[] = { "op", "sass", "warps_per_sm", "ops_per_clk_per_sm", "warp_insts_per_clk_per_sm",
					    "clock_MHz", "status" };

	fprintf(md, "8 independent chains per thread on every SM: thread-operations per clock per SM over the "
		    "event time and the measured clock (ceiling: 128, four warp-instructions a clock). The "
		    "Programming Guide's rate where its throughput table has the operation.\n\n");
	gp_md_header(md, "op", "SASS", "warps/SM", "ops/clk/SM", "warp-insts/clk/SM", "clock MHz", "status",
		     "Guide ops/clk/SM", "source");
	op_table(md, t, ref, "tput_warp", cols, GP_ARRAY_SIZE(cols), "guide_%s");
}

static void tput_warp_derive(struct gp_profile *prof, const struct gp_table *t)
{
	double v;

	for (size_t r = 0; r < t->nrows; r++) {
		char key[64];
		if (!gp_table_row_ok(t, r) || isnan(v = gp_table_num(t, r, "ops_per_clk_per_sm")))
			continue;
		snprintf(key, sizeof key, "warp_%s_ops_per_clk_per_sm", gp_table_get(t, r, "op"));
		gp_profile_add(prof, key, v, "ops/clk/SM", "8 independent chains/thread, all SMs, events", "tput_warp");
	}
	if (!isnan(v = op_value(t, "shfl_bfly", "ops_per_clk_per_sm")))
		gp_profile_add(prof, "shfl_ops_per_clk_per_sm", v, "ops/clk/SM",
			       "__shfl_xor_sync, 8 independent chains/thread, all SMs, events", "tput_warp");
}

GP_ANALYSIS_BY_NAME(tput_warp);

/* ---------------------------------------------------------------- lat_barrier */

static double barrier_cycles(const struct gp_table *t, const char *kind, const char *threads)
{
	const long r = gp_table_find(t, 0, "kind", kind, "threads", threads, NULL);

	return r >= 0 && gp_table_row_ok(t, (size_t)r) ? gp_table_num(t, (size_t)r, "cycles_per_barrier") : NAN;
}

/* Block sizes down, the two kinds across. */
static void lat_barrier_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	fprintf(md, "One block, barriers back to back: thread 0's cycles per barrier (clock64, the timer's cost "
		    "subtracted). bar_sync is `bar.sync 0` (__syncthreads); mbarrier is every thread's "
		    "`mbarrier.arrive` on a shared mbarrier counting the block and its wait for the phase's parity "
		    "(try_wait on sm_90, test_wait on sm_80).\n\n");
	gp_md_header(md, "threads", "warps", "bar_sync cycles", "bar_sync ns", "mbarrier cycles", "mbarrier ns");
	for (size_t r = 0; r < t->nrows; r++) {
		const char *thr = gp_table_get(t, r, "threads");
		const long b = gp_table_find(t, 0, "kind", "bar_sync", "threads", thr, NULL);
		const long mb = gp_table_find(t, 0, "kind", "mbarrier", "threads", thr, NULL);
		if (gp_table_find(t, 0, "threads", thr, NULL) != (long)r)
			continue;
		gp_md_cell(md, thr);
		gp_md_cell(md, gp_table_get(t, r, "warps"));
		gp_md_num(md, barrier_cycles(t, "bar_sync", thr));
		gp_md_cell(md, b >= 0 && gp_table_row_ok(t, (size_t)b) ? gp_table_get(t, (size_t)b, "ns_per_barrier") : NULL);
		gp_md_num(md, barrier_cycles(t, "mbarrier", thr));
		gp_md_cell(md, mb >= 0 && gp_table_row_ok(t, (size_t)mb) ? gp_table_get(t, (size_t)mb, "ns_per_barrier") : NULL);
		gp_md_end(md);
	}
	fputc('\n', md);
}

/* mbarrier's key at the largest block measured (the method names it). */
static void lat_barrier_derive(struct gp_profile *prof, const struct gp_table *t)
{
	double v, best = -1, mb = NAN;
	char method[160];

	if (!isnan(v = barrier_cycles(t, "bar_sync", "1024")))
		gp_profile_add(prof, "bar_sync_cycles_1024threads", v, "cycles", "bar.sync 0 loop, one block of 1024, clock64",
			       "lat_barrier");
	if (!isnan(v = barrier_cycles(t, "bar_sync", "32")))
		gp_profile_add(prof, "bar_sync_cycles_32threads", v, "cycles", "bar.sync 0 loop, one warp, clock64",
			       "lat_barrier");
	for (size_t r = 0; r < t->nrows; r++) {
		const double thr = gp_table_num(t, r, "threads");
		if (gp_table_row_ok(t, r) && !strcmp(gp_table_get(t, r, "kind"), "mbarrier") && thr > best) {
			best = thr;
			mb = gp_table_num(t, r, "cycles_per_barrier");
		}
	}
	snprintf(method, sizeof method, "mbarrier arrive + parity wait per phase, one block of %.0f, clock64", best);
	if (!isnan(mb))
		gp_profile_add(prof, "mbarrier_cycles", mb, "cycles", method, "lat_barrier");
}

GP_ANALYSIS_BY_NAME(lat_barrier);
