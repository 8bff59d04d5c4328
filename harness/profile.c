/* profile.c — the tuning profile of a run (profile.h). */
#include "gp.h"
#include "profile.h"
#include "stats.h"
#include "table.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gp_profile_add(struct gp_profile *p, const char *key, double value, const char *unit, const char *method,
		   const char *source)
{
	struct gp_profile_entry *e;

	if (p->n == p->cap) {
		size_t ncap = p->cap ? 2 * p->cap : 16;
		struct gp_profile_entry *np = realloc(p->e, ncap * sizeof *np);
		if (!np)
			return -1;
		p->e = np;
		p->cap = ncap;
	}
	e = &p->e[p->n++];
	snprintf(e->value, sizeof e->value, "%.6g", value);
	/* Every committed method of up to 159 characters was whole; six were cut at 159 before the
	 * field grew (launch_gpu_gap_us, the TLB keys): a cut is said, never silent. */
	int cut = (size_t)snprintf(e->key, sizeof e->key, "%s", key) >= sizeof e->key;
	cut |= (size_t)snprintf(e->unit, sizeof e->unit, "%s", unit) >= sizeof e->unit;
	cut |= (size_t)snprintf(e->method, sizeof e->method, "%s", method) >= sizeof e->method;
	cut |= (size_t)snprintf(e->source, sizeof e->source, "%s", source) >= sizeof e->source;
	if (cut) {
		gp_err("internal: profile key %s: a text longer than its field, cut short", e->key);
		return -1;
	}
	return 0;
}

int gp_profile_add_text(struct gp_profile *p, const char *key, const char *value, const char *unit,
			const char *method, const char *source)
{
	const size_t n = p->n;
	const int rc = gp_profile_add(p, key, 0, unit, method, source);

	if (p->n == n) /* out of memory: no entry */
		return -1;
	snprintf(p->e[n].value, sizeof p->e[n].value, "%s", value); /* a cut text keeps its word */
	return rc;
}

void gp_profile_rows(struct gp_profile *p, const struct gp_table *t, const char *col, const char *key_fmt,
		     const char *k1, const char *k2, const char *unit, const char *method, const char *source)
{
	for (size_t r = 0; r < t->nrows; r++) {
		const double v = gp_table_num(t, r, col);
		char key[64];

		if (!gp_table_row_ok(t, r) || isnan(v))
			continue;
		snprintf(key, sizeof key, key_fmt, gp_table_get(t, r, k1), k2 ? gp_table_get(t, r, k2) : "");
		gp_profile_add(p, key, v, unit, method, source);
	}
}

void gp_profile_free(struct gp_profile *p)
{
	free(p->e);
	p->e = NULL;
	p->n = p->cap = 0;
}

int gp_profile_write(const struct gp_profile *p, const char *dir)
{
	static const char *const cols[] = { "key", "value", "unit", "method", "source" };
	struct gp_table *t = gp_table_new(cols, GP_ARRAY_SIZE(cols));
	char path[PATH_MAX], err[64];
	int rc = 0;

	if (!t)
		return GP_EFAIL;
	for (size_t i = 0; i < p->n; i++) {
		const struct gp_profile_entry *e = &p->e[i];
		if (gp_row_begin(t) || gp_row_str(t, "key", e->key) || gp_row_str(t, "value", e->value) ||
		    gp_row_str(t, "unit", e->unit) || gp_row_str(t, "method", e->method) ||
		    gp_row_str(t, "source", e->source) || gp_row_end(t, err, sizeof err))
			rc = GP_EFAIL;
	}
	snprintf(path, sizeof path, "%s/profile.csv", dir);
	if (!rc && gp_table_save(t, path)) {
		gp_err("cannot write %s: %s", path, strerror(errno));
		rc = GP_EIO;
	}
	gp_table_free(t);
	return rc;
}

/* The median of x[0..n) (NAN for none or no x), freeing x. */
static double median_free(double *x, size_t n)
{
	struct gp_stats st;
	const double med = x && n && !gp_stats(x, n, &st) ? st.median : NAN;

	free(x);
	return med;
}

double gp_table_clock_median(const struct gp_table *t)
{
	double *x = malloc((t->nrows + 1) * sizeof *x);
	size_t n = 0;

	for (size_t r = 0; x && r < t->nrows; r++) {
		const double v = gp_table_num(t, r, "clock_MHz");
		if (gp_table_row_ok(t, r) && v > 0)
			x[n++] = v;
	}
	return median_free(x, n);
}

double gp_tables_clock_median(struct gp_table *const *tables, size_t n)
{
	double *x = malloc((n + 1) * sizeof *x);
	size_t k = 0;

	for (size_t i = 0; x && i < n; i++)
		if (tables[i] && (x[k] = gp_table_clock_median(tables[i])) > 0)
			k++;
	return median_free(x, k);
}
