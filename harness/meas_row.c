/* meas_row.c — one point's row: metrics, parameters, cells and the conditions it ran under. */
#include "gp.h"
#include "measure_priv.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ the row */

static const char *param_value(const struct gp_point *pt, const char *col)
{
	for (size_t k = 0; k < pt->nparams; k++)
		if (!strcmp(pt->params[k].name, col))
			return pt->str[k];
	return NULL;
}

/* "x", "x_min", "x_max", "x_spread", "x_mean" for a metric x. */
static int metric_cell(const struct gp_meas *m, const char *col, double *v)
{
	static const struct {
		const char *suffix;
		enum gp_stat s;
	} sfx[] = { { "_min", GP_MIN }, { "_max", GP_MAX }, { "_spread", GP_SPREAD }, { "_mean", GP_MEAN } };
	const size_t len = strlen(col);

	if (gp_meas_find_metric(m, col)) {
		*v = gp_meas_stat(m, col, GP_MEDIAN);
		return 1;
	}
	for (size_t i = 0; i < GP_ARRAY_SIZE(sfx); i++) {
		const size_t sl = strlen(sfx[i].suffix);
		char base[128];
		if (len <= sl || len - sl >= sizeof base || strcmp(col + len - sl, sfx[i].suffix))
			continue;
		memcpy(base, col, len - sl);
		base[len - sl] = 0;
		if (gp_meas_find_metric(m, base)) {
			*v = gp_meas_stat(m, base, sfx[i].s);
			return 1;
		}
	}
	return 0;
}

/* The conditions the point ran under (gp_condition_columns): NVML right after its repetitions,
 * the limiting reasons seen before or after, and a flag where the clock moved or was held. */
int gp_meas_condition_cell(const struct gp_meas *m, const char *col, char *buf, size_t len)
{
	const struct gp_power *b = &m->priv->before, *a = &m->priv->after;
	/* A point that did not run (n/a) has no conditions; NVML was never asked. */
	const char *none = m->priv->na ? "n/a: not measured" : "n/a: no NVML";
	char r[160];

	if (!strcmp(col, "nvml_sm_MHz"))
		return gp_format_num(buf, len, a->valid ? a->sm_MHz : NAN), 1;
	if (!strcmp(col, "power_W"))
		return gp_format_num(buf, len, a->valid ? a->power_W : NAN), 1;
	if (!strcmp(col, "temp_C"))
		return gp_format_num(buf, len, a->valid ? a->temp_C : NAN), 1;
	if (!strcmp(col, "throttle")) {
		snprintf(buf, len, "%s", a->valid ? gp_nvml_reasons(a->reasons | (b->valid ? b->reasons : 0), r, sizeof r)
						  : none);
		return 1;
	}
	if (!strcmp(col, "reps_stop")) {
		snprintf(buf, len, "%s", m->priv->stop);
		return 1;
	}
	if (strcmp(col, "conditions"))
		return 0;
	if (!a->valid)
		snprintf(buf, len, "%s", none);
	else if (gp_nvml_limiting(a->reasons | (b->valid ? b->reasons : 0)))
		snprintf(buf, len, "throttled: %s", gp_nvml_reasons(a->reasons | (b->valid ? b->reasons : 0), r, sizeof r));
	else if (b->valid && fabs(a->sm_MHz - b->sm_MHz) > 0.02 * fmax(a->sm_MHz, b->sm_MHz))
		snprintf(buf, len, "clock changed: %.0f -> %.0f MHz", b->sm_MHz, a->sm_MHz);
	else
		snprintf(buf, len, "steady");
	return 1;
}

int gp_meas_write_row(struct gp_meas *m, struct gp_table *t)
{
	struct gp_meas_priv *p = m->priv;
	char err[160], num[64];

	gp_row_begin(t);
	for (size_t c = 0; c < t->ncols; c++) {
		const char *col = t->cols[c], *v = NULL;
		const struct cell *cl = NULL;
		double x;
		for (size_t i = 0; i < p->ncells && !cl; i++)
			cl = !strcmp(p->cells[i].col, col) ? &p->cells[i] : NULL;
		if (!strcmp(col, "status"))
			v = p->na || p->failed ? p->status : "ok";
		else if (cl)
			v = cl->v;
		else if (gp_meas_condition_cell(m, col, num, sizeof num))
			v = num;
		else if (!p->na && metric_cell(m, col, &x))
			v = gp_format_num(num, sizeof num, x);
		else if (!strcmp(col, "spread") && m->probe->primary)
			v = gp_format_num(num, sizeof num, p->na ? NAN : gp_meas_stat(m, m->probe->primary, GP_SPREAD));
		else if (!strcmp(col, "reps"))
			v = (snprintf(num, sizeof num, "%d", m->reps), num);
		else if ((v = param_value(m->pt, col)))
			;
		else if (!gp_meas_ok(m) || !strcmp(col, "clock_MHz"))
			v = "nan"; /* no measurement, or a probe without a clock sample */
		if (v)
			gp_row_str(t, col, v);
	}
	if (gp_row_end(t, err, sizeof err)) {
		gp_err("internal: row: %s", err);
		return GP_EFAIL;
	}
	return 0;
}

