/* run.c — the suite runner: validate the whole suite before touching the GPU, make a fresh run
 * directory, measure every sweep point in a child process (isolate.c) with progress on stderr,
 * write each experiment's CSV (temporary name, then rename) and meta.csv / profile.csv. A fault
 * or hang becomes a row saying so and the suite goes on. An interrupt finishes the point in
 * flight, writes what is complete and marks the run "interrupted" in meta.csv. */
#include "gp.h"
#include "version.h"
#include "analysis.h"
#include "device.h"
#include "experiment.h"
#include "isolate.h"
#include "nvml.h"
#include "report.h"
#include "run.h"
#include "stats.h"
#include "suite.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <regex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int mkdir_p(const char *path)
{
	char buf[PATH_MAX];

	if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, 0777) && errno != EEXIST)
		return -1;
	return 0;
}

int gp_make_run_dir(const char *root, const char *slug, char *dir, size_t len)
{
	char parent[PATH_MAX], stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	if (snprintf(parent, sizeof parent, "%s/%s", root, slug) >= (int)sizeof parent || mkdir_p(parent)) {
		gp_err("cannot create results directory %s/%s: %s", root, slug, strerror(errno));
		return GP_EIO;
	}
	for (int i = 0; i < 100; i++) {
		int n = i ? snprintf(dir, len, "%s/%s-%d", parent, stamp, i + 1)
			  : snprintf(dir, len, "%s/%s", parent, stamp);
		if (n >= (int)len)
			break;
		/* mkdir is atomic: an existing run directory is never reused. */
		if (mkdir(dir, 0777) == 0)
			return 0;
		if (errno != EEXIST) {
			gp_err("cannot create run directory %s: %s", dir, strerror(errno));
			return GP_EIO;
		}
	}
	gp_err("cannot create a new run directory under %s", parent);
	return GP_EIO;
}

static int add_kv(struct gp_table *t, const char *k, const char *v)
{
	char err[64];

	return gp_row_begin(t) || gp_row_str(t, "key", k) || gp_row_str(t, "value", v) ||
	       gp_row_end(t, err, sizeof err);
}

static int write_meta(const char *dir, const struct gp_kv *kv, size_t n, const struct gp_run_opts *o,
		      const char *suite, const char *status, time_t started, double elapsed,
		      double clock_mhz)
{
	static const char *const cols[] = { "key", "value" };
	struct gp_table *t = gp_table_new(cols, 2);
	char buf[4096], host[256] = "", path[PATH_MAX];
	size_t used = 0;
	struct tm tm;
	int rc = GP_EIO;

	if (!t)
		return GP_EFAIL;
	add_kv(t, "gpuprobe_version", GP_VERSION);
	add_kv(t, "git_revision", GP_GIT_REV);
	for (int i = 0; i < o->argc && used < sizeof buf; i++)
		used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", i ? " " : "", o->argv[i]);
	add_kv(t, "command_line", buf);
	gmtime_r(&started, &tm);
	strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
	add_kv(t, "started_utc", buf);
	snprintf(buf, sizeof buf, "%.1f", elapsed);
	add_kv(t, "elapsed_s", buf);
	add_kv(t, "status", status);
	gethostname(host, sizeof host - 1);
	add_kv(t, "hostname", host);
	add_kv(t, "suite", suite);
	snprintf(buf, sizeof buf, "%d", o->reps);
	add_kv(t, "reps", buf);
	snprintf(buf, sizeof buf, "%d", o->warmup);
	add_kv(t, "warmup", buf);
	snprintf(buf, sizeof buf, "%d", o->reps_max > o->reps ? o->reps_max : o->reps);
	add_kv(t, "reps_max", buf);
	snprintf(buf, sizeof buf, "%g", o->reps_max > o->reps ? 100 * o->target_rsd : 0);
	add_kv(t, "target_rsd_pct", o->reps_max > o->reps ? buf : "");
	snprintf(buf, sizeof buf, "%g", o->max_point_s);
	add_kv(t, "max_point_s", o->reps_max > o->reps ? buf : "");
	snprintf(buf, sizeof buf, "%.0f", o->timeout_s);
	add_kv(t, "watchdog_s", buf);
	for (size_t i = 0; i < n; i++)
		add_kv(t, kv[i].key, kv[i].value);
	snprintf(buf, sizeof buf, "%.0f", clock_mhz);
	add_kv(t, "sm_clock_measured_MHz", clock_mhz > 0 ? buf : "");
	snprintf(path, sizeof path, "%s/meta.csv", dir);
	if (gp_table_save(t, path))
		gp_err("cannot write %s: %s", path, strerror(errno));
	else
		rc = 0;
	gp_table_free(t);
	return rc;
}

/* Build the suite from the options and check every sweep, all before any GPU work. */
static int prepare(const struct gp_run_opts *o, struct gp_suite *s, char *suite_name, size_t len)
{
	char err[512], path[PATH_MAX];
	regex_t re;
	int have_re = 0;

	memset(s, 0, sizeof *s);
	if (o->filter) {
		int e = regcomp(&re, o->filter, REG_EXTENDED | REG_NOSUB);
		if (e) {
			regerror(e, &re, err, sizeof err);
			gp_err("--filter '%s': %s", o->filter, err);
			return GP_EUSAGE;
		}
		have_re = 1;
	}
	if (o->suite || !o->nnames) {
		if (o->suite && (strchr(o->suite, '/') || strstr(o->suite, ".csv") || !access(o->suite, F_OK)))
			snprintf(path, sizeof path, "%s", o->suite);
		else /* a suite by name (quick, default, paper …): the installed or in-tree configs */
			snprintf(path, sizeof path, "%s/configs/%s.csv", gp_home(), o->suite ? o->suite : "default");
		if (gp_suite_load(path, s, err, sizeof err)) {
			gp_err("%s", err);
			goto config_error;
		}
		/* The default suite by its name in the tree, not this machine's path to it. */
		if (o->suite && !strcmp(path + strlen(path) - strlen(o->suite), o->suite))
			snprintf(suite_name, len, "%s", path);
		else
			snprintf(suite_name, len, "configs/%s.csv", o->suite ? o->suite : "default");
	} else {
		snprintf(suite_name, len, "(command line)");
	}
	for (int i = 0; i < o->nnames; i++) {
		const struct gp_experiment *e = gp_experiment_find(o->names[i]);
		int found = 0;
		if (!e) {
			gp_err("unknown experiment '%s' (gpuprobe list shows them)", o->names[i]);
			gp_suite_free(s);
			if (have_re)
				regfree(&re);
			return GP_EUSAGE;
		}
		if (!o->suite && gp_suite_add(s, e))
			goto config_error;
		for (size_t k = 0; k < s->n; k++)
			found |= s->items[k].exp == e;
		if (!found) {
			gp_err("experiment '%s' is not in suite %s", o->names[i], suite_name);
			gp_suite_free(s);
			if (have_re)
				regfree(&re);
			return GP_EUSAGE;
		}
	}
	/* Keep only what the names and the filter select. */
	size_t keep = 0;
	for (size_t i = 0; i < s->n; i++) {
		int sel = 1;
		if (o->nnames) {
			sel = 0;
			for (int k = 0; k < o->nnames; k++)
				sel |= !strcmp(o->names[k], s->items[i].exp->name);
		}
		if (sel && have_re)
			sel = regexec(&re, s->items[i].exp->name, 0, NULL, 0) == 0;
		if (sel)
			s->items[keep++] = s->items[i];
		else
			for (size_t j = 0; j < GP_MAX_PARAMS; j++)
				free(s->items[i].values[j]);
	}
	s->n = keep;
	if (have_re)
		regfree(&re);
	have_re = 0;
	if (!s->n) {
		gp_err("no experiment selected (filter '%s' matches none in %s)", o->filter ? o->filter : "",
		       suite_name);
		gp_suite_free(s);
		return GP_EUSAGE;
	}
	for (size_t i = 0; i < s->n; i++) {
		struct gp_sweep sw;
		if (gp_sweep_init(&sw, &s->items[i], err, sizeof err)) {
			gp_err("suite %s: %s: %s", suite_name, s->items[i].exp->name, err);
			goto config_error;
		}
		gp_sweep_free(&sw);
	}
	return 0;
config_error:
	if (have_re)
		regfree(&re);
	gp_suite_free(s);
	return GP_ECONFIG;
}

static const char *kv_get(const struct gp_kv *kv, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(kv[i].key, key))
			return kv[i].value;
	return "?";
}

/* One GPU's run: its own child, run directory and meta.csv. *ngpus gets the number of GPUs the
 * description says the host has (topo_gpus; 0 where it did not say). */
static int run_one(const struct gp_run_opts *o, int *ngpus)
{
	struct gp_suite suite;
	struct gp_device dev = { 0 };
	struct gp_profile profile = { 0 };
	struct gp_table **tables = NULL;
	struct gp_kv *kv = calloc(GP_DESC_MAX, sizeof *kv);
	struct gp_progress progress = { .t0 = gp_now() };
	struct gp_isolation iso = { .device = o->device, .reps = o->reps, .warmup = o->warmup,
				    .reps_max = o->reps_max, .target_rsd = o->target_rsd,
				    .max_point_s = o->max_point_s, .timeout_s = o->timeout_s, .interrupted = &gp_signal,
				    .progress = &progress, .fd = -1 };
	char suite_name[PATH_MAX], dir[PATH_MAX], why[512], slug[128];
	size_t nkv = 0;
	time_t started = time(NULL);
	int rc, worst = 0, stop = 0;

	if (!kv)
		return GP_EFAIL;
	if ((rc = prepare(o, &suite, suite_name, sizeof suite_name))) {
		free(kv);
		return rc;
	}
	for (size_t i = 0; i < suite.n; i++) {
		struct gp_sweep sw;
		gp_sweep_init(&sw, &suite.items[i], why, sizeof why);
		progress.total += sw.npoints;
		gp_sweep_free(&sw);
	}
	progress.nexp = suite.n;
	gp_catch_signals();
	iso.inprocess = o->inprocess;
	iso.dev = &dev;
	if ((rc = o->inprocess ? gp_inprocess_describe(o->device, kv, GP_DESC_MAX, &nkv, slug, sizeof slug, &dev)
			       : gp_isolation_start(&iso, kv, GP_DESC_MAX, &nkv, slug, sizeof slug, &dev))) {
		gp_suite_free(&suite);
		free(kv);
		return rc;
	}
	*ngpus = atoi(kv_get(kv, nkv, "topo_gpus"));
	/* NVML only accounts for the conditions (clock, power, temperature, throttling): without it
	 * the run measures as before and says once why those columns stay empty. */
	if (nkv < GP_DESC_MAX) {
		char nv[256];
		struct gp_kv *k = &kv[nkv++];
		snprintf(k->key, sizeof k->key, "nvml");
		if (gp_nvml_open(kv_get(kv, nkv - 1, "device_uuid"), nv, sizeof nv)) {
			gp_info("gpuprobe: warning: %s\n", nv);
			snprintf(k->value, sizeof k->value, "none: %s", nv);
		} else {
			snprintf(k->value, sizeof k->value, "yes");
			gp_nvml_close();
		}
	}
	if ((rc = gp_make_run_dir(o->out, slug, dir, sizeof dir)))
		goto out;
	if ((rc = write_meta(dir, kv, nkv, o, suite_name, "running", started, 0, 0)))
		goto out;
	tables = calloc(suite.n, sizeof *tables);
	if (!tables) {
		rc = GP_EFAIL;
		goto out;
	}
	gp_parse_double(kv_get(kv, nkv, "l2_bytes"), &profile.l2_bytes);
	gp_info("gpuprobe: %s (cc %s, %s SMs) -> %s\n", kv_get(kv, nkv, "device_name"),
		kv_get(kv, nkv, "compute_capability"), kv_get(kv, nkv, "sm_count"), dir);

	for (size_t i = 0; i < suite.n && !gp_signal && !stop; i++) {
		const struct gp_experiment *e = suite.items[i].exp;
		const struct gp_analysis *an;
		char path[PATH_MAX];

		tables[i] = gp_exp_table(e->impl);
		if (!tables[i]) {
			rc = GP_EFAIL;
			goto out;
		}
		progress.exp_index = i;
		rc = gp_isolated_sweep(&iso, &suite.items[i], tables[i]);
		if (rc == GP_EVALID)
			gp_err("%s: some results failed validation (see their status column)", e->name);
		else if (rc == GP_ECUDA)
			gp_err("%s: some points faulted or hung (see their status column)", e->name);
		if (rc == GP_ENOGPU || rc == GP_EFAIL || iso.dead)
			stop = 1; /* nothing more can be measured */
		if (rc > worst)
			worst = rc;
		snprintf(path, sizeof path, "%s/%s.csv", dir, e->name);
		if (gp_table_save(tables[i], path)) {
			gp_err("cannot write %s: %s", path, strerror(errno));
			worst = worst > GP_EIO ? worst : GP_EIO;
		}
		if ((an = gp_analysis_find(e->name)) && an->derive)
			an->derive(&profile, tables[i]);
	}
	gp_isolation_end(&iso);
	if (gp_profile_write(&profile, dir))
		worst = worst ? worst : GP_EIO;
	rc = write_meta(dir, kv, nkv, o, suite_name,
			gp_signal ? "interrupted" : stop ? "failed" : worst == GP_ECUDA ? "faults" :
			worst ? "invalid-results" : "complete",
			started, gp_now() - progress.t0, gp_tables_clock_median(tables, suite.n));
	if (!rc)
		rc = gp_signal ? GP_EINTR : worst;
	gp_info("gpuprobe: %s in %.1f s: %s\n", rc ? "finished with errors" : "done", gp_now() - progress.t0, dir);
	printf("%s\n", dir);
	fflush(stdout);
	if (o->report && !gp_signal) {
		int rrc = gp_cmd_report(dir, 0);
		if (!rc)
			rc = rrc;
	}
out:
	gp_isolation_end(&iso);
	if (tables)
		for (size_t i = 0; i < suite.n; i++)
			gp_table_free(tables[i]);
	free(tables);
	gp_profile_free(&profile);
	gp_suite_free(&suite);
	if (o->inprocess && dev.ctx)
		gp_device_close(&dev);
	free(kv);
	return rc;
}

/* --device all or a list: the runs one after the other, each as if its GPU had been named alone;
 * the exit status is the worst of theirs (interrupted ends the series). */
int gp_cmd_run(const struct gp_run_opts *o)
{
	struct gp_run_opts one = *o;
	int n = o->all_devices ? 1 : o->ndevices, worst = 0, ngpus = 0;

	if (!o->all_devices && o->ndevices <= 1) {
		one.device = o->ndevices ? o->devices[0] : o->device;
		return run_one(&one, &ngpus);
	}
	for (int k = 0; k < n && !gp_signal; k++) {
		int rc;
		one.device = o->all_devices ? k : o->devices[k];
		gp_info("gpuprobe: run %d: GPU %d\n", k + 1, one.device);
		rc = run_one(&one, &ngpus);
		if (o->all_devices && !k) {
			n = ngpus > 0 ? ngpus : 1;
			gp_info("gpuprobe: --device all: %d GPU%s\n", n, n > 1 ? "s" : "");
		}
		if (rc == GP_EUSAGE || rc == GP_ECONFIG)
			return rc; /* the same for every GPU */
		worst = rc > worst ? rc : worst;
	}
	return gp_signal ? GP_EINTR : worst;
}

int gp_cmd_list(void)
{
	printf("%-14s %-6s %-44s %s\n", "experiment", "id", "reproduces", "measures");
	for (size_t i = 0; i < gp_nexperiments; i++) {
		const struct gp_experiment *e = gp_experiments[i];
		printf("%-14s %-6s %-44s %s\n", e->name, e->id, e->paper, e->summary);
		if (e->impl->fresh_process)
			printf("    (measured in a process of its own: what a process allocated before moves it)\n");
		for (size_t k = 0; k < e->impl->nparams; k++) {
			const struct gp_param *p = &e->impl->params[k];
			if (p->kind != GP_PARAM_NAME)
				printf("    %-14s %s [%ld..%ld]%s default: %s\n", p->name, p->help, p->min, p->max,
				       p->kind == GP_PARAM_PROCESS ? " (each value in a process of its own)" : "",
				       p->defaults);
			else
				printf("    %-14s %s {%s} default: %s\n", p->name, p->help, p->choices, p->defaults);
		}
	}
	return 0;
}

int gp_cmd_info(int device)
{
	struct gp_device dev;
	struct gp_kv *kv = calloc(GP_DESC_MAX, sizeof *kv);
	char why[512];
	size_t n;
	int rc = kv ? gp_device_open(&dev, device, why, sizeof why) : GP_EFAIL;

	if (rc) {
		if (kv)
			gp_err("%s", why);
		free(kv);
		return rc;
	}
	n = gp_device_describe(&dev, kv, GP_DESC_MAX);
	for (size_t i = 0; i < n; i++)
		printf("%-32s %s\n", kv[i].key, kv[i].value);
	gp_device_close(&dev);
	free(kv);
	return 0;
}
