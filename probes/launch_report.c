/* launch_report.c — profile keys and the REPORT.md section of lat_launch from its table (no
 * device code), with gpu-benches' time per small kernel (configs/reference.csv) beside ours. */
#include "gp.h"
#include "analysis.h"
#include "experiment.h"
#include "stats.h"

#include <math.h>
#include <string.h>

/* Column col of mode's grid-one rows that are ok, one a process (a run from before `process` has
 * one), in v; their spread in sp. How many. */
static size_t launch_rows(const struct gp_table *t, const char *mode, const char *col, double *v, double *sp)
{
	size_t n = 0;

	for (long r = gp_table_find(t, 0, "mode", mode, "grid", "one", NULL); r >= 0 && n < GP_MAX_PROCESSES;
	     r = gp_table_find(t, (size_t)r + 1, "mode", mode, "grid", "one", NULL))
		if (gp_table_row_ok(t, (size_t)r) && !isnan(v[n] = gp_table_num(t, (size_t)r, col)))
			sp[n++] = gp_table_num(t, (size_t)r, "spread");
	return n;
}

/* One key from mode's rows: over several processes the median (lowest: the lowest) of their
 * values, their range in the method. The row's spread is its host time's over the repetitions:
 * the host-timed keys (sync, async) are flagged where its median over the processes is noisy
 * (another process on the host's CPUs moves them, not the GPU), or where the processes disagree
 * by more than that (their range over their median: each process's host state, which no
 * statistic over them removes; GP_NOISY_SPREAD for both). */
static void launch_key(struct gp_profile *prof, const struct gp_table *t, const char *mode, const char *col,
		       const char *key, const char *method, int lowest)
{
	const int host = !strcmp(mode, "sync") || !strcmp(mode, "async");
	double v[GP_MAX_PROCESSES], sp[GP_MAX_PROCESSES];
	const size_t n = launch_rows(t, mode, col, v, sp);
	struct gp_stats st, sst;
	char m[400], over[120] = "";

	if (!n || gp_stats(v, n, &st))
		return;
	if (n > 1)
		snprintf(over, sizeof over, "; the %s of %zu processes (%.4g-%.4g)", lowest ? "lowest" : "median", n, st.min,
			 st.max);
	snprintf(m, sizeof m, "%s%s%s%s", method, over,
		 host && !gp_stats(sp, n, &sst) && sst.median > GP_NOISY_SPREAD
			 ? "; flagged: a noisy spread (lat_launch.csv spread)" : "",
		 host && n > 1 && st.spread > GP_NOISY_SPREAD ? "; flagged: the processes disagree (the host's state)" : "");
	gp_profile_add(prof, key, lowest ? st.min : st.median, "us", m, "lat_launch");
}

static void launch_derive(struct gp_profile *prof, const struct gp_table *t)
{
	launch_key(prof, t, "sync", "host_us_per_launch", "launch_overhead_us",
		   "empty one-block kernel, launch + stream synchronize, host wall time", 0);
	launch_key(prof, t, "async", "issue_us_per_launch", "launch_issue_us",
		   "empty one-block kernels back to back, host time of the launch calls", 0);
	launch_key(prof, t, "graph", "gpu_us_per_launch", "graph_kernel_us",
		   "empty one-block kernels in one CUDA graph, event time per kernel", 0);
	if (gp_table_find_ok(t, "mode", "queued", "grid", "one", NULL) >= 0) {
		const int has_min = gp_table_col(t, "gpu_gap_us_min") >= 0; /* since 6a5c782 */
		launch_key(prof, t, "queued", has_min ? "gpu_gap_us_min" : "gpu_gap_us", "launch_gpu_gap_us",
			   has_min ? "kernels queued behind a gate, then run back to back: mean %globaltimer gap from one "
				     "kernel's end to the next one's start; the lowest repetition over the contexts "
				     "reps_stop names (the pace differs from one context to the next)"
				   : "kernels queued behind a gate, then run back to back: mean %globaltimer gap from one "
				     "kernel's end to the next one's start",
			   1);
	}
	else /* a run from before mode queued: async's gap, which is the host's issue time where that is longer */
		launch_key(prof, t, "async", "gpu_gap_us", "launch_gpu_gap_us",
			   "back-to-back kernels: %globaltimer from one kernel's end to the next one's start", 0);
}

static void launch_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const modes[] = { "sync", "async", "graph", "queued" }, *const grids[] = { "one", "full" };
	const char *gpu = NULL, *src = NULL;

	gp_reference(ref, "lat_launch", "async_kernel_us", &gpu, &src);
	fprintf(md, "Microseconds per empty kernel: `sync` launches and waits for each, `async` launches them back "
		    "to back and waits once, `graph` launches them as one CUDA graph, `queued` launches them back to "
		    "back behind a gate kernel that holds the stream until all are queued (the GPU's own pace; gap: "
		    "the mean over the batch); `one` block or a `full` grid. "
		    "host: wall time from the first launch to the end of the wait; issue: the launch calls alone (per "
		    "launch, the batch's mean; p50: the median launch of the batch, untouched by the host's occasional "
		    "stalls; both are the host's: its CPU, OS and hypervisor, not the GPU); "
		    "GPU: CUDA events around the launches; gap: %%globaltimer from one kernel's end to the next one's "
		    "start (to the timer's tick; the median repetition, and the lowest: `queued` spreads its "
		    "repetitions over fresh contexts, whose pace differs); span: one kernel's own; process: the "
		    "measuring process, a fresh one for each (the profile takes the lowest gap and the median host "
		    "times over them). Published: %s, %s.\n\n",
		gpu ? gpu : "–", src ? src : "–");
	gp_md_header(md, "process", "mode", "grid", "blocks", "host µs", "host p50 µs", "issue µs", "issue p50 µs", "GPU µs", "gap µs",
		     "gap min µs", "span µs", "published host µs", "status");
	for (size_t i = 0; i < GP_ARRAY_SIZE(modes); i++)
		for (size_t g = 0; g < GP_ARRAY_SIZE(grids); g++)
			for (long r = gp_table_find(t, 0, "mode", modes[i], "grid", grids[g], NULL); r >= 0;
			     r = gp_table_find(t, (size_t)r + 1, "mode", modes[i], "grid", grids[g], NULL)) {
				char key[48];
				if (!gp_table_row_ok(t, (size_t)r))
					continue;
				snprintf(key, sizeof key, "%s_kernel_us", modes[i]);
				gp_md_cell(md, gp_table_get(t, (size_t)r, "process")); /* NULL in runs before it: "–" */
				gp_md_str(md, modes[i]);
				gp_md_str(md, grids[g]);
				gp_md_cell(md, gp_table_get(t, (size_t)r, "blocks"));
				gp_md_cell(md, gp_table_get(t, (size_t)r, "host_us_per_launch"));
				gp_md_cell(md, gp_table_get(t, (size_t)r, "host_us_p50")); /* NULL in runs before it: "–" */
				gp_md_cell(md, gp_table_get(t, (size_t)r, "issue_us_per_launch"));
				gp_md_cell(md, gp_table_get(t, (size_t)r, "issue_us_p50"));
				gp_md_cell(md, gp_table_get(t, (size_t)r, "gpu_us_per_launch"));
				gp_md_cell(md, gp_table_get(t, (size_t)r, "gpu_gap_us"));
				gp_md_cell(md, gp_table_get(t, (size_t)r, "gpu_gap_us_min")); /* NULL before 6a5c782: "–" */
				gp_md_cell(md, gp_table_get(t, (size_t)r, "kernel_gpu_us"));
				gp_md_str(md, !strcmp(grids[g], "one") ? gp_reference_opt(ref, "lat_launch", key) : NULL);
				gp_md_cell(md, gp_table_get(t, (size_t)r, "status"));
				gp_md_end(md);
			}
	fputc('\n', md);
}

GP_ANALYSIS(lat_launch, launch_derive, launch_report);
