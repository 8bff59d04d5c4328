/* compare.c — `gpuprobe compare RUN_A RUN_B`: two runs side by side (two GPUs, or before and after
 * a change). Rows are matched by the experiment's parameter columns (and their order of
 * occurrence), every numeric column is compared as B / A, and a difference is flagged when it
 * exceeds the larger of the two rows' measured spread ((max - min) / median over repetitions),
 * beyond what repeating the measurement moved, and the relative floor below. The comparison is a tidy CSV on stdout.
 *
 * Compared are the measured values only: not the parameters (they pair the rows), not the
 * spread and repetition counts, and not the conditions a point ran under (clock, power,
 * temperature: a change there is a cause, listed apart in the meta rows). A value is flagged
 * (beyond_spread = yes) when it moved more than its spread and more than GP_COMPARE_FLOOR: a
 * spread of 0.001 % over 5 repetitions of a clock64 chain says little about the next run or the
 * next card. The summary on stderr counts both. */
#include "gp.h"
#include "experiment.h"
#include "compare.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const out_cols[] = {
	"experiment", "key", "column", "a", "b", "ratio_b_over_a", "spread", "beyond_spread",
};

#define GP_COMPARE_FLOOR 0.02

/* Columns that describe a measurement rather than being one. */
static int not_measured(const char *col)
{
	size_t n = strlen(col);

	for (size_t i = 0; i < gp_ncondition_columns; i++)
		if (!strcmp(col, gp_condition_columns[i]))
			return 1;
	return !strcmp(col, "spread") || !strcmp(col, "reps") || !strcmp(col, "launches_per_rep") ||
	       (n > 7 && !strcmp(col + n - 7, "_spread"));
}

static int is_param(const struct gp_experiment *e, const char *col)
{
	for (size_t i = 0; i < e->impl->nparams; i++)
		if (!strcmp(e->impl->params[i].name, col))
			return 1;
	return 0;
}

/* "threads=64 op=ffma": the parameter columns of row r that the other run's table has too (a
 * parameter added since the older run, which ran it at its default, does not stop the pairing). */
static char *base_key(const struct gp_experiment *e, const struct gp_table *t, const struct gp_table *other, size_t r)
{
	char buf[512];
	size_t used = 0;

	buf[0] = '\0';
	for (size_t c = 0; c < t->ncols && used < sizeof buf; c++)
		if (is_param(e, t->cols[c]) && gp_table_col(other, t->cols[c]) >= 0)
			used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s=%s", used ? " " : "", t->cols[c],
						 t->cells[r * t->ncols + c] ? t->cells[r * t->ncols + c] : "");
	return gp_strdup(buf);
}

struct keyed {
	char *key;
	size_t row;
};

static int by_key_then_row(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;
	const int c = strcmp(a->key, b->key);

	return c ? c : (a->row > b->row) - (a->row < b->row);
}

/* Every row's key, "threads=64 op=ffma #0": its parameters and its occurrence among rows with
 * the same parameters (rows of one point, an SM x line map, pair in order). Sorted by key, so a
 * key is found by bsearch: a table of 17,000 rows paired in O(n log n) (the pairwise scan took
 * minutes). NULL when out of memory. */
static struct keyed *row_keys(const struct gp_experiment *e, const struct gp_table *t, const struct gp_table *other)
{
	struct keyed *k = calloc(t->nrows ? t->nrows : 1, sizeof *k);
	size_t nth = 0;
	char *prev = NULL;

	if (!k)
		return NULL;
	for (size_t r = 0; r < t->nrows; r++) {
		k[r].row = r;
		if (!(k[r].key = base_key(e, t, other, r)))
			goto oom;
	}
	qsort(k, t->nrows, sizeof *k, by_key_then_row);
	for (size_t i = 0; i < t->nrows; i++) {
		char *full;
		size_t len;
		/* k[i - 1] already holds its full key: compare the bases (prev) */
		nth = prev && !strcmp(prev, k[i].key) ? nth + 1 : 0;
		len = strlen(k[i].key) + 24;
		if (!(full = malloc(len)))
			goto oom;
		snprintf(full, len, "%s%s#%zu", k[i].key, *k[i].key ? " " : "", nth);
		free(prev);
		prev = k[i].key;
		k[i].key = full;
	}
	free(prev);
	/* "#10" sorts before "#2": sort again on the full key for bsearch */
	qsort(k, t->nrows, sizeof *k, by_key_then_row);
	return k;
oom:
	free(prev);
	for (size_t r = 0; r < t->nrows; r++)
		free(k[r].key);
	free(k);
	return NULL;
}

static void keys_free(struct keyed *k, size_t n)
{
	for (size_t r = 0; k && r < n; r++)
		free(k[r].key);
	free(k);
}

static long find_key(const struct keyed *k, size_t n, const char *key)
{
	const struct keyed probe = { (char *)key, 0 };
	size_t lo = 0, hi = n;

	while (lo < hi) { /* the first entry >= key (rows of one key differ by #n, so it is unique) */
		const size_t mid = lo + (hi - lo) / 2;
		if (strcmp(k[mid].key, probe.key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !strcmp(k[lo].key, key) ? (long)k[lo].row : -1;
}

static int add(struct gp_table *o, const char *exp, const char *key, const char *col, const char *a,
	       const char *b, double ratio, const char *spread, const char *beyond)
{
	char err[64];

	gp_row_begin(o);
	gp_row_str(o, "experiment", exp);
	gp_row_str(o, "key", key);
	gp_row_str(o, "column", col);
	gp_row_str(o, "a", a);
	gp_row_str(o, "b", b);
	if (isnan(ratio))
		gp_row_str(o, "ratio_b_over_a", "");
	else
		gp_row_num(o, "ratio_b_over_a", ratio);
	gp_row_str(o, "spread", spread);
	gp_row_str(o, "beyond_spread", beyond);
	return gp_row_end(o, err, sizeof err);
}

static struct gp_table *load_csv(const char *dir, const char *name, int required, int *rc)
{
	char path[PATH_MAX], err[512];
	struct gp_table *t;
	struct stat st;

	snprintf(path, sizeof path, "%s/%s.csv", dir, name);
	if (stat(path, &st)) {
		if (required) {
			gp_err("%s is not a gpuprobe run directory (no %s.csv)", dir, name);
			*rc = GP_EUSAGE;
		}
		return NULL;
	}
	if (!(t = gp_table_load(path, err, sizeof err))) {
		gp_err("%s: %s", path, err);
		*rc = GP_ECONFIG;
	}
	return t;
}

static void compare_meta(struct gp_table *o, const struct gp_table *ma, const struct gp_table *mb)
{
	static const char *const keys[] = { "device_name", "compute_capability", "sm_clock_measured_MHz",
					     "driver_version", "git_revision", "started_utc" };

	for (size_t k = 0; k < GP_ARRAY_SIZE(keys); k++) {
		const char *a = "", *b = "";
		double x, y;
		for (size_t r = 0; r < ma->nrows; r++)
			if (!strcmp(gp_table_get(ma, r, "key"), keys[k]))
				a = gp_table_get(ma, r, "value");
		for (size_t r = 0; r < mb->nrows; r++)
			if (!strcmp(gp_table_get(mb, r, "key"), keys[k]))
				b = gp_table_get(mb, r, "value");
		add(o, "meta", "", keys[k], a, b,
		    !gp_parse_double(a, &x) && !gp_parse_double(b, &y) && x != 0 ? y / x : NAN, "", "");
	}
}

/* One experiment: every numeric non-parameter column of every row found in both runs. */
static size_t compare_experiment(struct gp_table *o, const struct gp_experiment *e, const struct gp_table *a,
				 const struct gp_table *b, size_t *flagged, size_t *floored)
{
	size_t n = 0;
	struct keyed *ka = row_keys(e, a, b), *kb = row_keys(e, b, a);
	const char **keyof = calloc(a->nrows ? a->nrows : 1, sizeof *keyof);

	for (size_t i = 0; ka && keyof && i < a->nrows; i++)
		keyof[ka[i].row] = ka[i].key;
	for (size_t r = 0; ka && kb && keyof && r < a->nrows; r++) { /* in A's row order */
		const char *key = keyof[r];
		char spread[32] = "";
		double sa = NAN, sb = NAN, s = NAN;
		long rb;

		if ((rb = find_key(kb, b->nrows, key)) < 0)
			continue;
		gp_table_get_double(a, r, "spread", &sa);
		gp_table_get_double(b, (size_t)rb, "spread", &sb);
		if (!isnan(sa) || !isnan(sb)) {
			s = fmax(isnan(sa) ? 0 : sa, isnan(sb) ? 0 : sb);
			snprintf(spread, sizeof spread, "%.6g", s);
		}
		for (size_t c = 0; c < a->ncols; c++) {
			const char *col = a->cols[c], *va = a->cells[r * a->ncols + c], *vb = gp_table_get(b, (size_t)rb, col);
			double x, y;
			const char *beyond = "unknown";

			if (is_param(e, col) || not_measured(col) || !vb || gp_parse_double(va, &x) ||
			    gp_parse_double(vb, &y))
				continue;
			if (!isnan(s) && x != 0) {
				const double rel = fabs(y - x) / fabs(x);
				beyond = rel > s && rel > GP_COMPARE_FLOOR ? "yes" : "no";
				*flagged += rel > s;
				*floored += rel > s && rel > GP_COMPARE_FLOOR;
			}
			add(o, e->name, key, col, va, vb, x != 0 ? y / x : NAN, spread, beyond);
			n++;
		}
	}
	free(keyof);
	keys_free(ka, a->nrows);
	keys_free(kb, b->nrows);
	return n;
}

int gp_cmd_compare(const char *dir_a, const char *dir_b)
{
	struct gp_table *o = gp_table_new(out_cols, GP_ARRAY_SIZE(out_cols));
	struct gp_table *ma = NULL, *mb = NULL;
	size_t n = 0, flagged = 0, floored = 0, shared = 0;
	int rc = 0;

	if (!o)
		return GP_EFAIL;
	if (!(ma = load_csv(dir_a, "meta", 1, &rc)) || !(mb = load_csv(dir_b, "meta", 1, &rc)))
		goto done;
	if (gp_table_col(ma, "key") < 0 || gp_table_col(ma, "value") < 0 || gp_table_col(mb, "key") < 0 ||
	    gp_table_col(mb, "value") < 0) {
		gp_err("meta.csv without key,value columns");
		rc = GP_ECONFIG;
		goto done;
	}
	compare_meta(o, ma, mb);
	for (size_t i = 0; i < gp_nexperiments && !rc; i++) {
		const struct gp_experiment *e = gp_experiments[i];
		struct gp_table *a = load_csv(dir_a, e->name, 0, &rc), *b = load_csv(dir_b, e->name, 0, &rc);

		if (a && b) {
			n += compare_experiment(o, e, a, b, &flagged, &floored);
			shared++;
		}
		gp_table_free(a);
		gp_table_free(b);
	}
	if (rc)
		goto done;
	if (gp_table_write(o, stdout)) {
		gp_err("cannot write the comparison: %s", strerror(errno));
		rc = GP_EIO;
		goto done;
	}
	gp_info("gpuprobe: %zu experiments in both runs, %zu values compared, %zu differ beyond their spread, "
		"%zu of them by more than %.0f %% (flagged)\n", shared, n, flagged, floored, 100 * GP_COMPARE_FLOOR);
done:
	gp_table_free(o);
	gp_table_free(ma);
	gp_table_free(mb);
	return rc;
}
