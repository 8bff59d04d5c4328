/* suite.c — suite CSV parsing, parameter validation and sweep expansion. */
#include "gp.h"
#include "suite.h"

#include <stdlib.h>
#include <string.h>

static const char *const suite_cols[] = { "experiment", "parameter", "values" };

static int param_index(const struct gp_experiment *e, const char *name)
{
	for (size_t i = 0; i < e->impl->nparams; i++)
		if (!strcmp(e->impl->params[i].name, name))
			return (int)i;
	return -1;
}

static struct gp_suite_item *find_item(struct gp_suite *s, const struct gp_experiment *e)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->items[i].exp == e)
			return &s->items[i];
	return NULL;
}

int gp_suite_add(struct gp_suite *s, const struct gp_experiment *e)
{
	struct gp_suite_item *ni;

	if (find_item(s, e))
		return 0;
	ni = realloc(s->items, (s->n + 1) * sizeof *ni);
	if (!ni)
		return -1;
	s->items = ni;
	memset(&s->items[s->n], 0, sizeof s->items[s->n]);
	s->items[s->n++].exp = e;
	return 0;
}

void gp_suite_free(struct gp_suite *s)
{
	for (size_t i = 0; i < s->n; i++)
		for (size_t j = 0; j < GP_MAX_PARAMS; j++)
			free(s->items[i].values[j]);
	free(s->items);
	s->items = NULL;
	s->n = 0;
}

int gp_suite_parse(const struct gp_table *t, struct gp_suite *s, char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	for (size_t c = 0; c < t->ncols; c++) {
		int known = 0;
		for (size_t k = 0; k < GP_ARRAY_SIZE(suite_cols); k++)
			known |= !strcmp(t->cols[c], suite_cols[k]);
		if (!known) {
			snprintf(err, errlen, "unknown column '%s' (a suite has experiment,parameter,values)",
				 t->cols[c]);
			return -1;
		}
	}
	for (size_t k = 0; k < GP_ARRAY_SIZE(suite_cols); k++)
		if (gp_table_col(t, suite_cols[k]) < 0) {
			snprintf(err, errlen, "missing column '%s'", suite_cols[k]);
			return -1;
		}
	if (t->nrows == 0) {
		snprintf(err, errlen, "no experiments (header only)");
		return -1;
	}
	for (size_t r = 0; r < t->nrows; r++) {
		const char *name = gp_table_get(t, r, "experiment");
		const char *param = gp_table_get(t, r, "parameter");
		const char *vals = gp_table_get(t, r, "values");
		const struct gp_experiment *e = gp_experiment_find(name);
		struct gp_suite_item *it;
		struct gp_values v;
		int p;

		if (!e) {
			snprintf(err, errlen, "line %zu: unknown experiment '%s' (see gpuprobe list)", gp_table_line(t, r), name);
			goto error;
		}
		if (gp_suite_add(s, e)) {
			snprintf(err, errlen, "out of memory");
			goto error;
		}
		it = find_item(s, e);
		if (!*param) {
			if (*vals) {
				snprintf(err, errlen, "line %zu: values given without a parameter", gp_table_line(t, r));
				goto error;
			}
			continue;
		}
		p = param_index(e, param);
		if (p < 0) {
			snprintf(err, errlen, "line %zu: experiment %s has no parameter '%s'", gp_table_line(t, r), name, param);
			goto error;
		}
		if (it->values[p]) {
			snprintf(err, errlen, "line %zu: %s.%s set twice", gp_table_line(t, r), name, param);
			goto error;
		}
		if (gp_param_values(&e->impl->params[p], vals, &v, err, errlen)) {
			char inner[256];
			snprintf(inner, sizeof inner, "%s", err);
			snprintf(err, errlen, "line %zu: %s.%s: %s", gp_table_line(t, r), name, param, inner);
			goto error;
		}
		gp_values_free(&v);
		if (!(it->values[p] = gp_strdup(vals))) {
			snprintf(err, errlen, "out of memory");
			goto error;
		}
	}
	return 0;
error:
	gp_suite_free(s);
	return -1;
}

int gp_suite_load(const char *path, struct gp_suite *s, char *err, size_t errlen)
{
	char inner[512];
	struct gp_table *t = gp_table_load(path, inner, sizeof inner);
	int rc;

	if (!t) {
		snprintf(err, errlen, "suite %s: %s", path, inner);
		return -1;
	}
	rc = gp_suite_parse(t, s, inner, sizeof inner);
	if (rc)
		snprintf(err, errlen, "suite %s: %s", path, inner);
	gp_table_free(t);
	return rc;
}

void gp_values_free(struct gp_values *v)
{
	for (size_t i = 0; i < v->n; i++)
		free(v->str[i]);
	free(v->str);
	free(v->num);
	memset(v, 0, sizeof *v);
}

static int push(struct gp_values *v, const char *s, long num)
{
	char **ns;
	long *nn;

	if (v->n >= GP_MAX_VALUES)
		return -1;
	ns = realloc(v->str, (v->n + 1) * sizeof *ns);
	if (!ns)
		return -1;
	v->str = ns;
	nn = realloc(v->num, (v->n + 1) * sizeof *nn);
	if (!nn)
		return -1;
	v->num = nn;
	if (!(v->str[v->n] = gp_strdup(s)))
		return -1;
	v->num[v->n++] = num;
	return 0;
}

static int name_allowed(const char *choices, const char *tok)
{
	size_t n = strlen(tok);

	for (const char *c = choices; *c;) {
		size_t len = strcspn(c, " ");
		if (len == n && !strncmp(c, tok, n))
			return 1;
		c += len;
		c += strspn(c, " ");
	}
	return 0;
}

static int int_token(const struct gp_param *p, const char *tok, struct gp_values *out, char *err,
		     size_t errlen)
{
	char buf[128], num[32];
	char *f[3] = { buf, NULL, NULL };
	long lo, hi, step = 1;

	if (strlen(tok) >= sizeof buf) {
		snprintf(err, errlen, "value too long");
		return -1;
	}
	strcpy(buf, tok);
	if ((f[1] = strchr(buf, ':'))) {
		*f[1]++ = '\0';
		if (!(f[2] = strchr(f[1], ':'))) {
			snprintf(err, errlen, "range '%s' is not lo:hi:step", tok);
			return -1;
		}
		*f[2]++ = '\0';
	}
	if (gp_parse_long(f[0], p->min, p->max, &lo) ||
	    (f[1] && (gp_parse_long(f[1], p->min, p->max, &hi) ||
		      gp_parse_long(f[2], 1, p->max, &step) || hi < lo))) {
		snprintf(err, errlen, "'%s' is not an integer (or lo:hi:step range) in %ld..%ld", tok, p->min,
			 p->max);
		return -1;
	}
	if (!f[1])
		hi = lo;
	for (long x = lo; x <= hi; x += step) {
		snprintf(num, sizeof num, "%ld", x);
		if (push(out, num, x)) {
			snprintf(err, errlen, "more than %d values", GP_MAX_VALUES);
			return -1;
		}
		if (x > hi - step)
			break;
	}
	return 0;
}

int gp_param_values(const struct gp_param *p, const char *list, struct gp_values *out, char *err,
		    size_t errlen)
{
	char *copy = gp_strdup(list ? list : ""), *save = NULL;

	memset(out, 0, sizeof *out);
	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (char *tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (p->kind != GP_PARAM_NAME) {
			if (int_token(p, tok, out, err, errlen))
				goto error;
		} else if (!name_allowed(p->choices, tok)) {
			snprintf(err, errlen, "'%s' is not one of: %s", tok, p->choices);
			goto error;
		} else if (push(out, tok, 0)) {
			snprintf(err, errlen, "more than %d values", GP_MAX_VALUES);
			goto error;
		}
	}
	if (out->n == 0) {
		snprintf(err, errlen, "empty value list");
		goto error;
	}
	free(copy);
	return 0;
error:
	free(copy);
	gp_values_free(out);
	return -1;
}

int gp_sweep_init(struct gp_sweep *sw, const struct gp_suite_item *it, char *err, size_t errlen)
{
	const struct gp_exp_impl *im = it->exp->impl;

	memset(sw, 0, sizeof *sw);
	sw->exp = it->exp;
	sw->npoints = 1;
	for (size_t i = 0; i < im->nparams; i++) {
		const char *list = it->values[i] ? it->values[i] : im->params[i].defaults;
		sw->given |= it->values[i] ? 1u << i : 0u;
		if (gp_param_values(&im->params[i], list, &sw->vals[i], err, errlen))
			goto error;
		if (sw->npoints > GP_MAX_POINTS / sw->vals[i].n) {
			snprintf(err, errlen, "more than %d sweep points", GP_MAX_POINTS);
			goto error;
		}
		sw->npoints *= sw->vals[i].n;
	}
	return 0;
error:
	gp_sweep_free(sw);
	return -1;
}

void gp_sweep_point(const struct gp_sweep *sw, size_t i, struct gp_point *pt)
{
	const struct gp_exp_impl *im = sw->exp->impl;

	pt->params = im->params;
	pt->nparams = im->nparams;
	pt->given = sw->given;
	for (size_t k = im->nparams; k-- > 0;) {
		size_t n = sw->vals[k].n, j = i % n;
		pt->str[k] = sw->vals[k].str[j];
		pt->num[k] = sw->vals[k].num[j];
		i /= n;
	}
}

size_t gp_sweep_process_end(const struct gp_sweep *sw, size_t first)
{
	const struct gp_exp_impl *im = sw->exp->impl;
	size_t inner;

	if (!im->nparams || im->params[0].kind != GP_PARAM_PROCESS || sw->vals[0].n < 2)
		return sw->npoints;
	inner = sw->npoints / sw->vals[0].n; /* the first parameter is the outermost loop */
	return (first / inner + 1) * inner;
}

void gp_sweep_free(struct gp_sweep *sw)
{
	for (size_t i = 0; i < GP_MAX_PARAMS; i++)
		gp_values_free(&sw->vals[i]);
}
