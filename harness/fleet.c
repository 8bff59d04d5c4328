/* fleet.c — `gpuprobe fleet RUN...`: many runs (many GPUs, or one GPU several times) key by key.
 *
 * Every run's profile.csv gives one value per key; for each key the fleet's median and its
 * median absolute deviation (MAD) are taken, and a GPU is an outlier on a key when it lies more
 * than GP_FLEET_MADS robust standard deviations (1.4826 MAD) from the median AND more than
 * GP_FLEET_FLOOR relative to it: the first rule ignores what the fleet's own scatter explains,
 * the second differences too small to matter when every card agrees to the last digit. With
 * fewer than three runs there is no fleet to be an outlier of: the rows give the spread only.
 * Tidy CSV on stdout (key, unit, run, device, value, median, rel_dev_pct, range_pct: the key's
 * largest minus smallest value over the runs, % of the median, outlier); the outlier
 * GPUs, the runs that did not complete and the runs made through the stub driver, one line each,
 * on stderr; with --md FILE a Markdown page: the runs (host, device, status, outlier keys), then
 * the keys.
 *
 * Where every run is of one GPU (one device_uuid), the page also holds the repeatability check:
 * the latency keys (cycles, ns, us) against GP_REPEAT_LAT_PCT and the bandwidth keys (GB/s,
 * B/clk/SM) against GP_REPEAT_BW_PCT, each key's range over the runs, and the keys beyond their
 * target by name, with how many runs flagged the key themselves (a noisy spread the run saw);
 * stderr says the counts.
 *
 * An argument that is not a run directory (no meta.csv) is a results root: the run directories
 * below it (GP_FLEET_DEPTH levels, in name order) are the fleet, so the root a Slurm array job
 * wrote (scripts/slurm/gpuprobe.sbatch: <root>/<job>/<host>/gpu<N>/<gpu>/<stamp>) is one argument. */
#include "gp.h"
#include "fleet.h"
#include "md.h"
#include "stats.h"
#include "table.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct fleet_run {
	char *dir;
	struct gp_table *meta, *prof;
	char device[256];
	int stub, outliers;
};

struct fleet {
	struct fleet_run *runs;
	int n;
};

/* The repeatability check: per class (REP_LAT, REP_BW) the keys and those within the target; the
 * keys beyond it as Markdown rows. */
enum { REP_NONE, REP_LAT, REP_BW, REP_CLASSES };
struct repeat {
	int keys[REP_CLASSES], within[REP_CLASSES];
	FILE *beyond;
};
static const double rep_target[REP_CLASSES] = { 0, GP_REPEAT_LAT_PCT, GP_REPEAT_BW_PCT };

static int rep_class(const char *unit)
{
	static const char *const lat[] = { "cycles", "ns", "us" }, *const bw[] = { "GB/s", "B/clk/SM" };

	for (size_t i = 0; i < GP_ARRAY_SIZE(lat); i++)
		if (!strcmp(unit, lat[i]))
			return REP_LAT;
	for (size_t i = 0; i < GP_ARRAY_SIZE(bw); i++)
		if (!strcmp(unit, bw[i]))
			return REP_BW;
	return REP_NONE;
}

/* One key's range (% of its median; NaN where the median is 0) against its class's target; flagged:
 * how many of the m runs that have it flag it themselves (its method says "flagged": a noisy or
 * bimodal spread the run saw, e.g. the host-timed launch keys). */
static void rep_key(struct repeat *rep, const char *key, const char *unit, double range, const struct gp_stats *st,
		    size_t flagged, size_t m)
{
	const int c = rep_class(unit);
	const int ok = isnan(range) ? st->max == st->min : range <= rep_target[c];
	char cell[48];

	if (!rep || c == REP_NONE)
		return;
	rep->keys[c]++;
	rep->within[c] += ok;
	if (!ok && rep->beyond) {
		gp_md_str(rep->beyond, key);
		gp_md_str(rep->beyond, unit);
		gp_md_num(rep->beyond, st->min);
		gp_md_num(rep->beyond, st->max);
		gp_md_num(rep->beyond, range);
		gp_md_num(rep->beyond, rep_target[c]);
		snprintf(cell, sizeof cell, "%zu of %zu", flagged, m);
		gp_md_str(rep->beyond, cell);
		gp_md_end(rep->beyond);
	}
}

int gp_fleet_stats(const double *x, size_t n, struct gp_stats *s, double *mad)
{
	struct gp_stats d;
	double *v = malloc((n ? n : 1) * sizeof *v);
	int rc = !v || gp_stats(x, n, s) ? -1 : 0;

	for (size_t i = 0; !rc && i < n; i++)
		v[i] = fabs(x[i] - s->median);
	if (!rc && !(rc = gp_stats(v, n, &d)))
		*mad = d.median;
	free(v);
	return rc;
}

int gp_fleet_outlier(double x, double median, double mad, size_t n)
{
	const double dev = fabs(x - median);

	return n >= 3 && dev > GP_FLEET_MADS * 1.4826 * mad && dev > GP_FLEET_FLOOR * fabs(median);
}

/* Column col of key's row in a key/value table (meta.csv, profile.csv); NULL where it has none. */
static const char *key_col(const struct gp_table *t, const char *key, const char *col)
{
	for (size_t r = 0; t && r < t->nrows; r++)
		if (!strcmp(gp_table_get(t, r, "key"), key))
			return gp_table_get(t, r, col);
	return NULL;
}

static const char *kv(const struct gp_table *t, const char *key)
{
	return key_col(t, key, "value");
}

/* Whether key's method in t says the run flagged it. */
static int flagged_in(const struct gp_table *t, const char *key)
{
	const char *m = key_col(t, key, "method");

	return m && strstr(m, "flagged") != NULL;
}

static const char *meta_or(const struct fleet_run *f, const char *key, const char *dflt)
{
	const char *v = kv(f->meta, key);

	return v && *v ? v : dflt;
}

static int is_run_dir(const char *dir)
{
	char path[PATH_MAX];

	return snprintf(path, sizeof path, "%s/meta.csv", dir) < (int)sizeof path && !access(path, F_OK);
}

static int add_run(struct fleet *fl, const char *dir)
{
	if (fl->n == GP_FLEET_MAX_RUNS) {
		gp_err("fleet: more than %d run directories", GP_FLEET_MAX_RUNS);
		return GP_EUSAGE;
	}
	if (!(fl->runs[fl->n].dir = gp_strdup(dir)))
		return GP_EFAIL;
	fl->n++;
	return 0;
}

/* The run directories below root, depth levels down, in name order; dot entries are skipped. */
static int collect(struct fleet *fl, const char *root, int depth)
{
	struct dirent **ents;
	int n = scandir(root, &ents, NULL, alphasort), rc = 0;

	if (n < 0) {
		gp_err("fleet: %s: %s", root, strerror(errno));
		return GP_EUSAGE;
	}
	for (int i = 0; i < n; i++) {
		char path[PATH_MAX];
		struct stat st;

		if (!rc && ents[i]->d_name[0] != '.' &&
		    snprintf(path, sizeof path, "%s/%s", root, ents[i]->d_name) < (int)sizeof path &&
		    !stat(path, &st) && S_ISDIR(st.st_mode)) {
			if (is_run_dir(path))
				rc = add_run(fl, path);
			else if (depth > 1)
				rc = collect(fl, path, depth - 1);
		}
		free(ents[i]);
	}
	free(ents);
	return rc;
}

/* Each argument: a run directory, or a results root holding some. */
static int expand(struct fleet *fl, int nargs, char **args)
{
	for (int i = 0; i < nargs; i++) {
		const int before = fl->n;
		int rc;

		if (is_run_dir(args[i]))
			rc = add_run(fl, args[i]);
		else if (!(rc = collect(fl, args[i], GP_FLEET_DEPTH)) && fl->n == before) {
			gp_err("fleet: %s is not a gpuprobe run directory and holds none (no meta.csv in it or "
			       "%d levels below it)", args[i], GP_FLEET_DEPTH);
			rc = GP_EUSAGE;
		}
		if (rc)
			return rc;
	}
	if (fl->n < 2) {
		gp_err("fleet: give 2 to %d run directories, not %d", GP_FLEET_MAX_RUNS, fl->n);
		return GP_EUSAGE;
	}
	return 0;
}

static int load_run(struct fleet_run *f)
{
	char path[PATH_MAX], err[256];

	snprintf(path, sizeof path, "%s/meta.csv", f->dir);
	if (!(f->meta = gp_table_load(path, err, sizeof err))) {
		gp_err("fleet: %s is not a gpuprobe run directory (%s)", f->dir, err);
		return GP_EUSAGE;
	}
	snprintf(path, sizeof path, "%s/profile.csv", f->dir);
	if (!(f->prof = gp_table_load(path, err, sizeof err)) || gp_table_col(f->prof, "key") < 0 ||
	    gp_table_col(f->prof, "value") < 0) {
		gp_err("fleet: %s: %s", path, f->prof ? "no key,value columns" : err);
		return GP_ECONFIG;
	}
	/* The stub driver's runs say so wherever a device is named (tests/stub/cuda_stub.c). */
	f->stub = kv(f->meta, "stub_driver") != NULL;
	snprintf(f->device, sizeof f->device, "%s %s%s", meta_or(f, "device_name", "?"), meta_or(f, "device_uuid", ""),
		 f->stub ? " [stub driver: not a measurement]" : "");
	return 0;
}

/* One key over every run that has it: CSV rows and, with md, a table row; 0 where no run has a
 * number for it (a level "none detected" everywhere). */
static int one_key(struct fleet_run *runs, size_t n, const char *key, const char *unit, struct gp_table *out,
		    FILE *md, struct repeat *rep)
{
	double x[GP_FLEET_MAX_RUNS], med, mad, range;
	int have[GP_FLEET_MAX_RUNS];
	struct gp_stats st;
	size_t m = 0, flagged = 0;

	for (size_t i = 0; i < n; i++) {
		have[i] = !gp_parse_double(kv(runs[i].prof, key), &x[m]) && !isnan(x[m]);
		flagged += (size_t)(have[i] && flagged_in(runs[i].prof, key));
		m += (size_t)have[i];
	}
	if (gp_fleet_stats(x, m, &st, &mad))
		return 0;
	med = st.median;
	range = med != 0 ? 100 * st.spread : NAN; /* (max - min) / |median| */
	if (m >= 2)
		rep_key(rep, key, unit, range, &st, flagged, m);
	if (md) {
		gp_md_str(md, key);
		gp_md_str(md, unit);
		gp_md_num(md, med);
		gp_md_num(md, range);
	}
	for (size_t i = 0, k = 0; i < n; i++) {
		const double v = have[i] ? x[k++] : NAN;
		const int out_flag = have[i] && gp_fleet_outlier(v, med, mad, m);
		char cell[64], err[64];
		runs[i].outliers += out_flag;
		gp_row_begin(out);
		gp_row_str(out, "key", key);
		gp_row_str(out, "unit", unit);
		gp_row_str(out, "run", runs[i].dir);
		gp_row_str(out, "device", runs[i].device);
		gp_row_num(out, "value", v);
		gp_row_num(out, "median", med);
		gp_row_num(out, "rel_dev_pct", med != 0 ? 100 * (v - med) / fabs(med) : NAN);
		gp_row_num(out, "range_pct", range);
		gp_row_int(out, "outlier", out_flag);
		gp_row_end(out, err, sizeof err);
		if (!md)
			continue;
		gp_md_fmt(cell, sizeof cell, v);
		fprintf(md, "| %s%s%s ", out_flag ? "**" : "", cell, out_flag ? "**" : "");
	}
	if (md)
		gp_md_end(md);
	return 1;
}

/* Every key, in the order the first run that has it lists them, each once; the number of keys. */
static size_t all_keys(struct fleet *fl, struct gp_table *out, FILE *md, struct repeat *rep)
{
	size_t nkeys = 0;

	for (int i = 0; i < fl->n; i++)
		for (size_t r = 0; r < fl->runs[i].prof->nrows; r++) {
			const char *key = gp_table_get(fl->runs[i].prof, r, "key");
			int seen = 0;
			for (int j = 0; j < i && !seen; j++)
				seen = kv(fl->runs[j].prof, key) != NULL;
			for (size_t q = 0; q < r && !seen; q++)
				seen = !strcmp(gp_table_get(fl->runs[i].prof, q, "key"), key);
			if (seen)
				continue;
			nkeys += (size_t)one_key(fl->runs, (size_t)fl->n, key,
						 gp_table_get(fl->runs[i].prof, r, "unit") ?: "", out, md, rep);
		}
	return nkeys;
}

/* Every run of one GPU: the same device_uuid, named. */
static int one_gpu(const struct fleet *fl)
{
	const char *uuid = meta_or(&fl->runs[0], "device_uuid", "");

	for (int i = 1; *uuid && i < fl->n; i++)
		if (strcmp(meta_or(&fl->runs[i], "device_uuid", ""), uuid))
			return 0;
	return *uuid != '\0';
}

/* The repeatability check's section: the counts, then the keys beyond their target. */
static void write_repeat(FILE *md, const struct fleet *fl, const struct repeat *rep, const char *beyond)
{
	fprintf(md, "\n## Repeatability\n\nOne GPU, %d runs: latency keys (cycles, ns, us) within %g %% over the "
		    "runs: %d of %d; bandwidth keys (GB/s, B/clk/SM) within %g %%: %d of %d (range: largest minus "
		    "smallest, %% of the median).\n\n",
		fl->n, GP_REPEAT_LAT_PCT, rep->within[REP_LAT], rep->keys[REP_LAT], GP_REPEAT_BW_PCT, rep->within[REP_BW],
		rep->keys[REP_BW]);
	if (rep->within[REP_LAT] + rep->within[REP_BW] == rep->keys[REP_LAT] + rep->keys[REP_BW])
		return;
	gp_md_header(md, "beyond its target", "unit", "lowest", "highest", "range %", "target %", "flagged by the runs");
	fputs(beyond, md);
}

/* The page: a stub warning where it applies, the runs, the repeatability check (one GPU), then
 * the keys (written to keys first). */
static void write_md(FILE *md, const struct fleet *fl, int nstub, const char *keys, const struct repeat *rep,
		     const char *beyond)
{
	fprintf(md, "# gpuprobe fleet: %d runs\n\n", fl->n);
	if (nstub)
		fprintf(md, "> **Not measurements.** %d of these %d runs went through gpuprobe's stub driver "
			    "(meta.csv `stub_driver`): no kernel ran on a GPU, and their values describe none.\n\n",
			nstub, fl->n);
	fprintf(md, "## Runs\n\n");
	gp_md_header(md, "#", "run", "host", "device", "status", "outlier keys");
	for (int i = 0; i < fl->n; i++) {
		const struct fleet_run *f = &fl->runs[i];
		char num[16];
		snprintf(num, sizeof num, "%d", i + 1);
		gp_md_str(md, num);
		gp_md_str(md, f->dir);
		gp_md_str(md, meta_or(f, "hostname", "?"));
		gp_md_str(md, f->device);
		gp_md_str(md, meta_or(f, "status", "?"));
		gp_md_num(md, f->outliers);
		gp_md_end(md);
	}
	if (rep)
		write_repeat(md, fl, rep, beyond ? beyond : "");
	fprintf(md, "\n## Keys\n\nEach profile key's median over the runs and its range (largest minus smallest, %% of "
		    "the median); a value in bold lies more than %.1f robust standard deviations and %.0f %% from the "
		    "median (with 3 runs or more).\n\n| key | unit | median | range %% |",
		GP_FLEET_MADS, 100 * GP_FLEET_FLOOR);
	for (int i = 0; i < fl->n; i++)
		fprintf(md, " #%d |", i + 1);
	fprintf(md, "\n|---|---|---|---|");
	for (int i = 0; i < fl->n; i++)
		fprintf(md, "---|");
	fprintf(md, "\n%s", keys);
}

/* stderr: the outlier GPUs, the runs that did not complete, the stub's runs, and a summary. */
static void tell(const struct fleet *fl, size_t nkeys, int nstub, const struct repeat *rep)
{
	int nout = 0, nhosts = 0;

	for (int i = 0; i < fl->n; i++) {
		const struct fleet_run *f = &fl->runs[i];
		int seen = 0;
		for (int j = 0; j < i && !seen; j++)
			seen = !strcmp(meta_or(f, "hostname", "?"), meta_or(&fl->runs[j], "hostname", "?"));
		nhosts += !seen;
		nout += f->outliers > 0;
		if (f->outliers)
			gp_err("fleet: outlier: %s (%s) on %d key%s", f->dir, f->device, f->outliers,
			       f->outliers == 1 ? "" : "s");
		if (strcmp(meta_or(f, "status", "?"), "complete"))
			gp_err("fleet: not complete: %s (%s on %s): status %s", f->dir, f->device,
			       meta_or(f, "hostname", "?"), meta_or(f, "status", "?"));
	}
	if (nstub)
		gp_err("fleet: %d of %d runs went through the stub driver: their values are not measurements", nstub,
		       fl->n);
	gp_info("gpuprobe: fleet: %d runs on %d host%s, %zu key%s, %d outlier GPU%s%s\n", fl->n, nhosts,
		nhosts == 1 ? "" : "s", nkeys, nkeys == 1 ? "" : "s", nout, nout == 1 ? "" : "s",
		fl->n < 3 ? " (no outlier rule below 3 runs)" : "");
	if (rep)
		gp_info("gpuprobe: fleet: one GPU: %d of %d latency keys within %g %%, %d of %d bandwidth keys within %g %%\n",
			rep->within[REP_LAT], rep->keys[REP_LAT], GP_REPEAT_LAT_PCT, rep->within[REP_BW], rep->keys[REP_BW],
			GP_REPEAT_BW_PCT);
}

int gp_cmd_fleet(int nargs, char **args, const char *md_path)
{
	static const char *const cols[] = { "key", "unit", "run", "device", "value", "median", "rel_dev_pct", "range_pct",
					    "outlier" };
	struct fleet fl = { calloc(GP_FLEET_MAX_RUNS, sizeof *fl.runs), 0 };
	struct gp_table *out = gp_table_new(cols, GP_ARRAY_SIZE(cols));
	char tmp[PATH_MAX + 32], *keys = NULL, *beyond = NULL;
	size_t keys_len = 0, beyond_len = 0, nkeys;
	FILE *md = NULL, *kmd = NULL;
	struct repeat rep = { { 0 }, { 0 }, NULL }, *repp = NULL;
	int rc = 0, nstub = 0;

	if (!out || !fl.runs) {
		rc = GP_EFAIL;
		goto done;
	}
	rc = expand(&fl, nargs, args);
	for (int i = 0; i < fl.n && !rc; i++) {
		rc = load_run(&fl.runs[i]);
		nstub += fl.runs[i].stub;
	}
	if (!rc && md_path) {
		snprintf(tmp, sizeof tmp, "%s.tmp.%ld", md_path, (long)getpid());
		if (!(md = fopen(tmp, "w")) || !(kmd = open_memstream(&keys, &keys_len)) ||
		    !(rep.beyond = open_memstream(&beyond, &beyond_len))) {
			gp_err("fleet: cannot write %s: %s", tmp, strerror(errno));
			rc = GP_EIO;
		}
	}
	if (rc)
		goto done;
	repp = one_gpu(&fl) ? &rep : NULL;
	nkeys = all_keys(&fl, out, kmd, repp);
	if (gp_table_write(out, stdout) || fflush(stdout)) {
		gp_err("fleet: cannot write the comparison to stdout");
		rc = GP_EIO;
	}
	tell(&fl, nkeys, nstub, repp);
	if (md) {
		int bad = fclose(kmd) != 0 || fclose(rep.beyond) != 0;
		kmd = rep.beyond = NULL;
		if (!bad)
			write_md(md, &fl, nstub, keys, repp, beyond);
		bad |= fclose(md) != 0;
		md = NULL;
		if (bad || rename(tmp, md_path)) {
			gp_err("fleet: cannot write %s: %s", md_path, strerror(errno));
			unlink(tmp);
			rc = GP_EIO;
		}
	}
done:
	if (kmd)
		fclose(kmd);
	if (rep.beyond)
		fclose(rep.beyond);
	if (md) {
		fclose(md);
		unlink(tmp);
	}
	free(keys);
	free(beyond);
	gp_table_free(out);
	for (int i = 0; fl.runs && i < fl.n; i++) {
		free(fl.runs[i].dir);
		gp_table_free(fl.runs[i].meta);
		gp_table_free(fl.runs[i].prof);
	}
	free(fl.runs);
	return rc;
}
