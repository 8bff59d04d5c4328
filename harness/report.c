/* report.c — `gpuprobe report DIR`: charts through gnuplot (plots/<experiment>.gp, SVG and PNG)
 * and REPORT.md with the device, every experiment's table, the paper-layout tables with the
 * paper's and published numbers beside ours, and profile.csv. Needs no GPU; works on partial
 * runs (an experiment that did not run gets a line saying so). */
#include "gp.h"
#include "analysis.h"
#include "experiment.h"
#include "report.h"
#include "models.h"
#include "planner.h"
#include "tune_rank.h"

#include <errno.h>
#include <signal.h>
#include <limits.h>
#include <math.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Every number of a result table as read back, except the experiment's name parameters (a
 * register-bank combo "012" beside "same" is a label, not a number). A build without the
 * experiments' implementations (the host-only link test) cannot tell labels from numbers and
 * checks nothing. */
static int check_numbers(const struct gp_experiment *e, const struct gp_table *t, char *err, size_t errlen)
{
	const char *text[GP_MAX_PARAMS + 1] = { NULL };
	size_t n = 0;

	if (!e->impl || (!e->impl->probe && !e->impl->measure))
		return 0;
	for (size_t i = 0; e->impl && i < e->impl->nparams && n < GP_MAX_PARAMS; i++)
		if (e->impl->params[i].kind == GP_PARAM_NAME)
			text[n++] = e->impl->params[i].name;
	return gp_table_check_numbers(t, text, err, errlen);
}

static int file_exists(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* gnuplot -c script in out: 0 on success, -1 if gnuplot failed, -2 if it is not installed.
 * The chart is drawn under a temporary name (keeping the extension, which picks the terminal)
 * and renamed over `out` only when gnuplot succeeded: a failed or interrupted chart leaves the
 * previous one as it was (it used to be emptied in place). An `out` that is a symbolic link or
 * anything but a regular file is refused, not written through. gnuplot gets GP_GNUPLOT_S
 * seconds and is killed and reaped on timeout or interrupt. Its messages go to a scratch file,
 * shown only when it fails: a series a run did not measure ("no valid points") is normal. */
#define GP_GNUPLOT_S 120

static int gnuplot(const char *script, const char *in, const char *out)
{
	const char *gp = getenv("GNUPLOT") ? getenv("GNUPLOT") : "gnuplot", *dot = strrchr(out, '.');
	char tmp[PATH_MAX + 64];
	char *argv[] = { (char *)gp, "-c", (char *)script, (char *)in, tmp, NULL };
	posix_spawn_file_actions_t fa;
	FILE *log;
	struct stat sb;
	pid_t pid;
	int st, rc;

	if (!lstat(out, &sb) && !S_ISREG(sb.st_mode)) {
		gp_err("%s is not a regular file (a symbolic link?): chart not written", out);
		return -1;
	}
	snprintf(tmp, sizeof tmp, "%.*s.tmp.%ld%s", dot ? (int)(dot - out) : (int)strlen(out), out, (long)getpid(),
		 dot ? dot : "");
	log = tmpfile();
	posix_spawn_file_actions_init(&fa);
	if (log)
		posix_spawn_file_actions_adddup2(&fa, fileno(log), STDERR_FILENO);
	rc = posix_spawnp(&pid, gp, &fa, NULL, argv, environ) ? -2 : 0;
	posix_spawn_file_actions_destroy(&fa);
	if (!rc) {
		const double deadline = gp_now() + GP_GNUPLOT_S;
		pid_t w;
		while ((w = waitpid(pid, &st, WNOHANG)) == 0) {
			if (gp_signal || gp_now() > deadline) {
				kill(pid, SIGKILL);
				waitpid(pid, &st, 0);
				if (!gp_signal)
					gp_err("gnuplot ran past %d s on %s: killed", GP_GNUPLOT_S, out);
				w = -1;
				break;
			}
			usleep(10000);
		}
		rc = w < 0 || !WIFEXITED(st) || WEXITSTATUS(st) ? -1 : 0;
	}
	/* A gnuplot that succeeds and draws nothing (GNUPLOT=/bin/true in the tests) leaves no file. */
	if (!rc && !access(tmp, F_OK) && rename(tmp, out)) {
		gp_err("cannot write %s: %s", out, strerror(errno));
		rc = -1;
	}
	if (rc)
		unlink(tmp);
	if (rc == -1 && log) {
		char line[512];
		rewind(log);
		while (fgets(line, sizeof line, log))
			if (!strstr(line, "no valid points") && strspn(line, " \n") < strlen(line))
				fputs(line, stderr);
	}
	if (log)
		fclose(log);
	return rc;
}

/* The profile keys the summary opens with, in this order (a key the run lacks is left out). */
static const struct {
	const char *key, *what;
} headline[] = {
	{ "ffma_latency", "FFMA latency" },
	{ "fp32_tflops_achieved", "FP32 rate achieved" },
	{ "ffma_ops_per_clk_per_sm", "FFMA per clock per SM" },
	{ "lds_ffma_latency", "LDS -> FFMA latency" },
	{ "l1_latency_cycles", "L1 hit latency" },
	{ "l2_latency_cycles", "L2 hit latency (near)" },
	{ "l2_far_latency_cycles", "L2 hit latency (far)" },
	{ "hbm_latency_cycles", "HBM latency" },
	{ "hbm_latency_ns", "HBM latency" },
	{ "tlb1_reach_bytes", "first TLB level's reach" },
	{ "lds128_bytes_per_clk_per_sm", "shared memory, LDS.128" },
	{ "l2_read_bw_GBps", "L2 read" },
	{ "hbm_read_bw_GBps", "HBM read" },
	{ "hbm_write_bw_GBps", "HBM write" },
	{ "register_banks", "register banks" },
	{ "sgemm_best_gflops", "best SGEMM of the ladder" },
	{ "sgemm_best_ratio_to_cublas", "best SGEMM / cuBLAS" },
	{ "cublas_sgemm_gflops", "cuBLAS SGEMM" },
	{ "tsm2r_v4_single_max_pct_hbm_read", "TSM2R V4 (float), of the HBM read rate" },
};

static void summary(FILE *md, const struct gp_table *prof)
{
	char cell[64];

	fprintf(md, "## Summary\n\nThe headline numbers of this run's profile (all of it at the end, and in "
		    "profile.csv); each experiment's section below sets them beside the paper's and the "
		    "published values.\n\n| what | key | value | unit | method |\n|---|---|---|---|---|\n");
	for (size_t i = 0; i < GP_ARRAY_SIZE(headline); i++) {
		const long r = gp_table_find(prof, 0, "key", headline[i].key, NULL);
		double v;
		if (r < 0 || gp_table_get_double(prof, (size_t)r, "value", &v))
			continue;
		gp_md_fmt(cell, sizeof cell, v);
		fprintf(md, "| %s | `%s` | %s | %s | %s |\n", headline[i].what, headline[i].key, cell,
			gp_table_get(prof, (size_t)r, "unit"), gp_table_get(prof, (size_t)r, "method"));
	}
	fputc('\n', md);
}

static const char *meta_get(const struct gp_table *meta, const char *key)
{
	for (size_t r = 0; r < meta->nrows; r++)
		if (!strcmp(gp_table_get(meta, r, "key"), key))
			return gp_table_get(meta, r, "value");
	return "";
}

/* The SGEMM cubin whose SASS the planner section reads: $GP_SGEMM_CUBIN, else the one the build
 * compiles for the run's compute capability (build/cubins/sgemm.sm_<cc>.cubin, `make`), else
 * none (the section then says how to get the distances). */
static const char *sgemm_cubin(const struct gp_table *meta, char *buf, size_t len)
{
	const char *env = getenv("GP_SGEMM_CUBIN"), *cc = meta_get(meta, "compute_capability");
	int major, minor;

	if (env)
		return env;
	if (!cc || sscanf(cc, "%d.%d", &major, &minor) != 2)
		return NULL;
	snprintf(buf, len, "%s/build/cubins/sgemm.sm_%d%d.cubin", gp_home(), major, minor);
	return access(buf, R_OK) ? NULL : buf;
}

int gp_cmd_report(const char *dir, int plots_only)
{
	static const char *const meta_keys[] = {
		"device_name", "compute_capability", "sm_count", "sm_clock_max_MHz", "sm_clock_measured_MHz",
		"mem_clock_max_MHz", "mem_bus_width_bits", "mem_bandwidth_theoretical_GBps", "l2_bytes",
		"smem_per_sm_bytes", "regs_per_sm", "fp32_peak_at_max_clock_TFLOPs", "driver_version",
		"toolkit_version", "gpuprobe_version", "git_revision", "started_utc", "elapsed_s", "status",
		"command_line",
	};
	char path[PATH_MAX], tmp[PATH_MAX + 16], script[PATH_MAX], out[PATH_MAX], err[512], cubin[PATH_MAX];
	struct gp_table *meta, *ref, *prof = NULL;
	FILE *md = NULL;
	int rc = 0, charts = 0, chart_fail = 0, no_gnuplot = 0, werr;

	snprintf(path, sizeof path, "%s/meta.csv", dir);
	if (!file_exists(path)) {
		gp_err("%s is not a gpuprobe run directory (no meta.csv)", dir);
		return GP_EUSAGE;
	}
	if (!(meta = gp_table_load(path, err, sizeof err)) || gp_table_col(meta, "key") < 0 ||
	    gp_table_col(meta, "value") < 0) {
		gp_err("%s: %s", path, meta ? "no key,value columns" : err);
		gp_table_free(meta);
		return GP_ECONFIG;
	}
	/* The device fields the report and the models compute with: present means valid. */
	{
		static const char *const positive[] = { "sm_count", "sm_clock_max_MHz", "sm_clock_measured_MHz",
							"l2_bytes", "mem_bus_width_bits", "mem_clock_max_MHz" };
		const char *cc = meta_get(meta, "compute_capability");
		int major, minor, used = 0;
		if (*cc && (sscanf(cc, "%d.%d%n", &major, &minor, &used) != 2 || cc[used] || major < 1 || minor < 0)) {
			gp_err("%s/meta.csv: compute_capability '%s' is not MAJOR.MINOR", dir, cc);
			gp_table_free(meta);
			return GP_ECONFIG;
		}
		for (size_t i = 0; i < GP_ARRAY_SIZE(positive); i++) {
			const char *v = meta_get(meta, positive[i]);
			double x;
			if (*v && (gp_parse_double(v, &x) || !(x > 0) || isinf(x))) {
				gp_err("%s/meta.csv: %s '%s' is not a positive number", dir, positive[i], v);
				gp_table_free(meta);
				return GP_ECONFIG;
			}
		}
	}
	snprintf(path, sizeof path, "%s/configs/reference.csv", gp_home());
	ref = gp_table_load(path, err, sizeof err);
	if (!ref) {
		gp_err("warning: reference numbers unavailable (%s: %s)", path, err);
	} else if (gp_table_col(ref, "experiment") < 0 || gp_table_col(ref, "key") < 0 ||
		   gp_table_col(ref, "value") < 0) {
		gp_err("warning: %s lacks the experiment,key,value columns: reference numbers ignored", path);
		gp_table_free(ref);
		ref = NULL;
	}

	/* Before the temporary REPORT.md exists: an interrupt from then on must find the handler, or
	 * the default action ends the process and leaves the temporary file behind. */
	gp_catch_signals();
	if (!plots_only) {
		snprintf(path, sizeof path, "%s/REPORT.md", dir);
		snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
		if (!(md = fopen(tmp, "w"))) {
			gp_err("cannot write %s: %s", tmp, strerror(errno));
			rc = GP_EIO;
			goto done;
		}
		fprintf(md, "# gpuprobe report: %s\n\n", meta_get(meta, "device_name"));
		if (*meta_get(meta, "stub_driver"))
			fprintf(md, "> **Not a measurement.** Run `%s` went through gpuprobe's stub driver (meta.csv "
				    "`stub_driver`: %s): no kernel ran on a GPU, and no number below describes "
				    "one.\n\n| key | value |\n|---|---|\n",
				dir, meta_get(meta, "stub_driver"));
		else
			fprintf(md, "Run `%s`. Every number below was measured in this run unless a column says "
				    "\"paper\" or \"published\".\n\n| key | value |\n|---|---|\n", dir);
		for (size_t i = 0; i < GP_ARRAY_SIZE(meta_keys); i++)
			fprintf(md, "| %s | %s |\n", meta_keys[i], meta_get(meta, meta_keys[i]));
		fputc('\n', md);
		snprintf(path, sizeof path, "%s/profile.csv", dir);
		if ((prof = gp_table_load(path, err, sizeof err)) && gp_table_col(prof, "key") >= 0 &&
		    gp_table_col(prof, "value") >= 0)
			summary(md, prof);
		gp_table_free(prof);
	}
	for (size_t i = 0; i < gp_nexperiments; i++) {
		const struct gp_experiment *e = gp_experiments[i];
		const struct gp_analysis *an;
		struct gp_table *t;

		if (gp_signal) {
			/* Leave the earlier REPORT.md as it was; the temporary one goes at done: */
			gp_err("report %s interrupted: REPORT.md left as it was", dir);
			rc = GP_EINTR;
			goto done;
		}

		snprintf(path, sizeof path, "%s/%s.csv", dir, e->name);
		if (md)
			fprintf(md, "## %s — %s (%s)\n\n%s.\n\n", e->name, e->paper, e->id, e->summary);
		if (!file_exists(path)) {
			if (md)
				fprintf(md, "Not run in this run.\n\n");
			continue;
		}
		if (!(t = gp_table_load(path, err, sizeof err)) || check_numbers(e, t, err, sizeof err)) {
			gp_err("%s: %s", path, err);
			gp_table_free(t);
			rc = GP_ECONFIG;
			continue;
		}
		/* A table without one ok row (every point faulted, say) has nothing to draw: no chart,
		 * and the section says so instead of gnuplot failing on it. */
		size_t ok_rows = 0;
		for (size_t r = 0; r < t->nrows; r++)
			ok_rows += gp_table_row_ok(t, r) != 0;
		if (!ok_rows && md)
			fprintf(md, "No data: none of its %zu rows is ok (their status column says why).\n\n", t->nrows);
		snprintf(script, sizeof script, "%s/plots/%s.gp", gp_home(), e->name);
		if (ok_rows && file_exists(script)) {
			static const char *const ext[] = { "svg", "png" };
			for (size_t k = 0; k < GP_ARRAY_SIZE(ext) && !no_gnuplot; k++) {
				snprintf(out, sizeof out, "%s/%s.%s", dir, e->name, ext[k]);
				int g = gnuplot(script, path, out);
				if (g == -2) {
					no_gnuplot = 1;
				} else if (g) {
					chart_fail++;
					gp_err("gnuplot failed on %s for %s", script, out);
				} else {
					charts++;
				}
			}
			snprintf(out, sizeof out, "%s/%s.svg", dir, e->name);
			if (md && file_exists(out)) /* no broken image link where no chart was rendered */
				fprintf(md, "![%s](%s.svg)\n\n", e->name, e->name);
		}
		if (md && (an = gp_analysis_find(e->name)) && an->report)
			an->report(md, t, ref);
		if (md) /* the raw data is linked, not pasted (it was most of the report) */
			fprintf(md, "All %zu rows and %zu columns: [%s.csv](%s.csv).\n\n", t->nrows, t->ncols, e->name,
				e->name);
		gp_table_free(t);
	}
	if (md) {
		/* Models over the measured tables (rooflines, cost model) and the schedule planner:
		 * they need the run's profile; a partial run without one just says so. */
		snprintf(path, sizeof path, "%s/profile.csv", dir);
		if (!file_exists(path)) {
			fprintf(md, "## Models and schedule planner\n\nNot computed: this run has no profile.csv.\n\n");
		} else {
			if (gp_models_write(dir, md) < 0 || gp_tune_report(dir, md) < 0)
				rc = rc ? rc : GP_EFAIL;
			gp_planner_report(dir, sgemm_cubin(meta, cubin, sizeof cubin), md);
		}
		snprintf(path, sizeof path, "%s/roofline.csv", dir);
		snprintf(script, sizeof script, "%s/plots/roofline.gp", gp_home());
		if (file_exists(path) && file_exists(script) && !no_gnuplot) {
			static const char *const ext[] = { "svg", "png" };
			for (size_t k = 0; k < GP_ARRAY_SIZE(ext); k++) {
				snprintf(out, sizeof out, "%s/roofline.%s", dir, ext[k]);
				int g = gnuplot(script, path, out);
				no_gnuplot |= g == -2;
				chart_fail += g == -1;
				charts += g == 0;
			}
			fprintf(md, "![roofline](roofline.svg)\n\n");
		}
		snprintf(path, sizeof path, "%s/profile.csv", dir);
		fprintf(md, "## Tuning profile (profile.csv)\n\n");
		if ((prof = gp_table_load(path, err, sizeof err))) {
			/* Raw data is linked, not pasted: the Summary above holds the headline keys and
			 * each experiment's section its own; the whole table (with each key's method and
			 * source experiment) doubled the report's size. */
			fprintf(md, "%zu keys, each with its value, unit, method and source experiment: "
				    "[profile.csv](profile.csv). The headline keys open this report (Summary).\n\n",
				prof->nrows);
			gp_table_free(prof);
		} else {
			fprintf(md, "No profile.csv in this run.\n\n");
		}
		snprintf(path, sizeof path, "%s/REPORT.md", dir);
		/* A write that failed before the last one (a buffer flushed into a full disk) sets the
		 * stream's error flag, which fclose does not report when its own flush succeeds. */
		werr = ferror(md);
		if (rc) { /* a table that did not read back: the earlier REPORT.md stays as it was */
			fclose(md);
			unlink(tmp);
		} else if (fclose(md) || werr || rename(tmp, path)) {
			gp_err("cannot write %s: %s", path, strerror(errno));
			unlink(tmp);
			rc = GP_EIO;
		}
		md = NULL;
	}
	if (no_gnuplot)
		gp_err("%sgnuplot is not installed: no charts rendered for %s", plots_only ? "" : "warning: ",
		       dir);
	if (chart_fail || (no_gnuplot && plots_only))
		rc = rc ? rc : GP_EFAIL;
	if (!rc)
		gp_info("gpuprobe: report %s: %d charts rendered\n", dir, charts);
done:
	if (md) {
		fclose(md);
		unlink(tmp);
	}
	gp_table_free(meta);
	gp_table_free(ref);
	return rc;
}
