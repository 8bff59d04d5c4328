/* fleet.c — `gpuprobe fleet RUN...`: many runs (many GPUs, or one GPU several times) key by key.
 *
 * Every run's profile.csv gives one value per key; for each key the fleet's median and its
 * median absolute deviation (MAD) are taken, and a GPU is an outlier on a key when it lies more
 * than GP_FLEET_MADS robust standard deviations (1.4826 MAD) from the median AND more than
 * GP_FLEET_FLOOR relative to it: the first rule ignores what the fleet's own scatter explains,
 * the second differences too small to matter when every card agrees to the last digit. With
 * fewer than three runs there is no fleet to be an outlier of: the rows give the spread only.
 * Tidy CSV on stdout (key, unit, run, device, value, median, rel_dev_pct, outlier); the outlier
 * GPUs, one line each, on stderr; with --md FILE the same as a Markdown page. */
#include "gp.h"
#include "fleet.h"
#include "md.h"
#include "table.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct fleet_run {
	const char *dir;
	struct gp_table *meta, *prof;
	char device[160];
	int outliers;
};

static int cmp_double(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median_of(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int gp_fleet_stats(const double *x, size_t n, double *median, double *mad)
{
	double *v = malloc((n ? n : 1) * sizeof *v);

	if (!v || !n) {
		free(v);
		return -1;
	}
	memcpy(v, x, n * sizeof *v);
	*median = median_of(v, n);
	for (size_t i = 0; i < n; i++)
		v[i] = fabs(x[i] - *median);
	*mad = median_of(v, n);
	free(v);
	return 0;
}

int gp_fleet_outlier(double x, double median, double mad, size_t n)
{
	const double dev = fabs(x - median);

	return n >= 3 && dev > GP_FLEET_MADS * 1.4826 * mad && dev > GP_FLEET_FLOOR * fabs(median);
}

static const char *kv(const struct gp_table *t, const char *key)
{
	for (size_t r = 0; t && r < t->nrows; r++)
		if (!strcmp(gp_table_get(t, r, "key"), key))
			return gp_table_get(t, r, "value");
	return NULL;
}

static int load_run(struct fleet_run *f, const char *dir)
{
	char path[PATH_MAX], err[256];

	f->dir = dir;
	snprintf(path, sizeof path, "%s/meta.csv", dir);
	if (!(f->meta = gp_table_load(path, err, sizeof err))) {
		gp_err("fleet: %s is not a gpuprobe run directory (%s)", dir, err);
		return GP_EUSAGE;
	}
	snprintf(path, sizeof path, "%s/profile.csv", dir);
	if (!(f->prof = gp_table_load(path, err, sizeof err)) || gp_table_col(f->prof, "key") < 0 ||
	    gp_table_col(f->prof, "value") < 0) {
		gp_err("fleet: %s: %s", path, f->prof ? "no key,value columns" : err);
		return GP_ECONFIG;
	}
	snprintf(f->device, sizeof f->device, "%s %s", kv(f->meta, "device_name") ? kv(f->meta, "device_name") : "?",
		 kv(f->meta, "device_uuid") ? kv(f->meta, "device_uuid") : "");
	return 0;
}

/* One key over every run that has it: CSV rows and, with md, a table row. */
static void one_key(struct fleet_run *runs, size_t n, const char *key, const char *unit, struct gp_table *out,
		    FILE *md)
{
	double x[GP_FLEET_MAX_RUNS], med, mad;
	int have[GP_FLEET_MAX_RUNS];
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		have[i] = !gp_parse_double(kv(runs[i].prof, key), &x[m]);
		m += (size_t)have[i];
	}
	if (gp_fleet_stats(x, m, &med, &mad))
		return;
	if (md) {
		gp_md_str(md, key);
		gp_md_str(md, unit);
		gp_md_num(md, med);
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
		gp_row_int(out, "outlier", out_flag);
		gp_row_end(out, err, sizeof err);
		if (!md)
			continue;
		gp_md_fmt(cell, sizeof cell, v);
		fprintf(md, "| %s%s%s ", out_flag ? "**" : "", cell, out_flag ? "**" : "");
	}
	if (md)
		gp_md_end(md);
}

int gp_cmd_fleet(int nruns, char **dirs, const char *md_path)
{
	static const char *const cols[] = { "key", "unit", "run", "device", "value", "median", "rel_dev_pct", "outlier" };
	struct fleet_run runs[GP_FLEET_MAX_RUNS] = { { 0 } };
	struct gp_table *out = gp_table_new(cols, GP_ARRAY_SIZE(cols));
	FILE *md = NULL;
	char tmp[PATH_MAX + 32];
	int rc = 0;

	if (!out)
		return GP_EFAIL;
	if (nruns < 2 || nruns > GP_FLEET_MAX_RUNS) {
		gp_table_free(out);
		gp_err("fleet: give 2 to %d run directories, not %d", GP_FLEET_MAX_RUNS, nruns);
		return GP_EUSAGE;
	}
	for (int i = 0; i < nruns && !rc; i++)
		rc = load_run(&runs[i], dirs[i]);
	if (!rc && md_path) {
		snprintf(tmp, sizeof tmp, "%s.tmp.%ld", md_path, (long)getpid());
		if (!(md = fopen(tmp, "w"))) {
			gp_err("fleet: cannot write %s: %s", tmp, strerror(errno));
			rc = GP_EIO;
		}
	}
	if (rc)
		goto done;
	if (md) {
		fprintf(md, "# gpuprobe fleet: %d runs\n\nEach key's median over the runs; a value in bold lies more "
			    "than %.1f robust standard deviations and %.0f %% from it.\n\n| key | unit | median |",
			nruns, GP_FLEET_MADS, 100 * GP_FLEET_FLOOR);
		for (int i = 0; i < nruns; i++)
			fprintf(md, " %s (%s) |", runs[i].device, runs[i].dir);
		fprintf(md, "\n|---|---|---|");
		for (int i = 0; i < nruns; i++)
			fprintf(md, "---|");
		fputc('\n', md);
	}
	/* Keys in the order the first run that has them lists them; each once. */
	for (int i = 0; i < nruns; i++)
		for (size_t r = 0; r < runs[i].prof->nrows; r++) {
			const char *key = gp_table_get(runs[i].prof, r, "key");
			int seen = 0;
			for (int j = 0; j < i && !seen; j++)
				seen = kv(runs[j].prof, key) != NULL;
			for (size_t q = 0; q < r && !seen; q++)
				seen = !strcmp(gp_table_get(runs[i].prof, q, "key"), key);
			if (!seen)
				one_key(runs, (size_t)nruns, key, gp_table_get(runs[i].prof, r, "unit") ?: "", out, md);
		}
	if (gp_table_write(out, stdout) || fflush(stdout)) {
		gp_err("fleet: cannot write the comparison to stdout");
		rc = GP_EIO;
	}
	for (int i = 0; i < nruns; i++)
		if (runs[i].outliers)
			gp_err("fleet: outlier: %s (%s) on %d key%s", runs[i].dir, runs[i].device, runs[i].outliers,
			       runs[i].outliers == 1 ? "" : "s");
	if (md) {
		const int bad = fclose(md) != 0;
		md = NULL;
		if (bad || rename(tmp, md_path)) {
			gp_err("fleet: cannot write %s: %s", md_path, strerror(errno));
			unlink(tmp);
			rc = GP_EIO;
		}
	}
done:
	if (md) {
		fclose(md);
		unlink(tmp);
	}
	gp_table_free(out);
	for (int i = 0; i < nruns; i++) {
		gp_table_free(runs[i].meta);
		gp_table_free(runs[i].prof);
	}
	return rc;
}
