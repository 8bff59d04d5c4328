/* measure.c — the measurement of one sweep point for every probe (measure.h).
 *
 * setup -> for each repetition (warm-up first): poison, before, launch (timed as the runner
 * says), read-back, clock sample, sample -> statistics -> finish -> the standard checks -> one
 * row -> clean-up. Everything a probe asks for (buffers, modules, host memory) is released here,
 * on every path. */
#include "gp.h"
#include "blas.h"
#include "measure_priv.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ repetitions */

static int poison(struct gp_meas *m)
{
	for (size_t i = 0; i < m->priv->nbufs; i++) {
		const struct buf *b = &m->priv->bufs[i];
		if (b->poison >= 0 && b->d != m->priv->d_clock)
			GP_CU(cuMemsetD8(b->d, (unsigned char)b->poison, b->bytes));
	}
	return 0;
error:
	return GP_ECUDA;
}

static int read_back(struct gp_meas *m, int last)
{
	for (size_t i = 0; i < m->priv->nbufs; i++) {
		const struct buf *b = &m->priv->bufs[i];
		int rc;
		if (b->host && (b->when == GP_EVERY_REP || last) && (rc = gp_download(b->host, b->d, b->bytes)))
			return rc;
	}
	return 0;
}

/* A sample shorter than the clock can be trusted over (gp_clock_mhz: < 100 us) is left out. */
static void sample_clock(struct gp_meas *m)
{
	const double mhz = m->priv->clock ? gp_clock_mhz(m->priv->clock) : 0;

	if (mhz > 0)
		gp_sample(m, "clock_MHz", mhz);
}

static int launch_once(struct gp_meas *m)
{
	if (m->probe->launch)
		return m->probe->launch(m);
	if (!m->fn) {
		gp_err("internal: the probe named no kernel");
		return GP_EFAIL;
	}
	if (m->smem > 48 * 1024)
		GP_CU(cuFuncSetAttribute(m->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)m->smem));
	GP_CU(cuLaunchKernel(m->fn, m->grid, m->grid_y ? m->grid_y : 1, m->grid_z ? m->grid_z : 1, m->block,
			     m->block_y ? m->block_y : 1, m->block_z ? m->block_z : 1, m->smem, NULL, m->args, NULL));
	return 0;
error:
	return GP_ECUDA;
}

/* One repetition of GP_RUN_SYNC or GP_RUN_EVENT (GP_RUN_BATCH: batch_rep). */
static int one_rep(struct gp_meas *m, CUevent e0, CUevent e1)
{
	float ms = 0;
	int rc;

	if ((rc = poison(m)) || (m->probe->before && (rc = m->probe->before(m))))
		return rc;
	if (m->probe->runner == GP_RUN_EVENT)
		GP_CU(cuEventRecord(e0, NULL));
	if ((rc = launch_once(m)))
		return rc;
	if (m->probe->runner == GP_RUN_EVENT && gp_events_stop(e0, e1, &ms))
		goto error;
	/* Surfaces a fault inside the kernel (the sticky error) next to its launch. */
	GP_CU(cuCtxSynchronize());
	if ((m->probe->after && (rc = m->probe->after(m))) || (rc = read_back(m, 0)))
		return rc;
	m->rep_ms = ms;
	if (m->probe->runner == GP_RUN_EVENT)
		gp_sample(m, "time_ms", ms);
	sample_clock(m);
	if (m->probe->sample)
		m->probe->sample(m);
	return 0;
error:
	return GP_ECUDA;
}

/* After the minimum, go on while the primary metric's relative standard deviation is above the
 * target, up to the maximum count or time (nvbench's rule). A fixed count when no maximum is set. */
static int enough(struct gp_meas *m, double t0)
{
	const struct gp_run *run = m->run;
	struct gp_meas_priv *p = m->priv;
	const struct metric *x = m->probe->primary ? gp_meas_find_metric(m, m->probe->primary) : NULL;
	struct gp_stats st;
	double rsd;

	if (m->rep < m->reps)
		return 0;
	if (m->cap <= m->reps || p->contexts > 1) {
		snprintf(p->stop, sizeof p->stop, "fixed count");
		return 1;
	}
	if (!x || !x->n || gp_stats(x->v, x->n, &st) || !(st.mean != 0)) {
		snprintf(p->stop, sizeof p->stop, "fixed count (%s)", x && x->n ? "primary metric zero" : "no primary metric");
		return 1;
	}
	rsd = st.stddev / fabs(st.mean);
	if (rsd <= run->target_rsd)
		snprintf(p->stop, sizeof p->stop, "steady: rsd %.2g%% <= %.2g%%", 100 * rsd, 100 * run->target_rsd);
	else if (m->rep >= run->reps_max)
		snprintf(p->stop, sizeof p->stop, "noisy: rsd %.2g%% after the most repetitions", 100 * rsd);
	else if (gp_now() - t0 > run->max_point_s)
		snprintf(p->stop, sizeof p->stop, "noisy: rsd %.2g%% at the time limit", 100 * rsd);
	else
		return 0;
	return 1;
}

/* GP_RUN_BATCH: one timed launch sizes a batch lasting about batch_ms; each repetition is then
 * a batch between two events, its time divided by the launches in it. */
static int size_batch(struct gp_meas *m, CUevent e0, CUevent e1)
{
	const struct gp_probe *pr = m->probe;
	const double batch_ms = pr->batch_ms > 0 ? pr->batch_ms : 20;
	const int max_batch = pr->max_batch > 0 ? pr->max_batch : 1000;
	float one;
	int rc;

	if ((rc = poison(m)) || (pr->before && (rc = pr->before(m))))
		return rc;
	GP_CU(cuEventRecord(e0, NULL));
	if ((rc = launch_once(m)))
		return rc;
	if (gp_events_stop(e0, e1, &one))
		goto error;
	m->batch = one > 0 ? (int)ceil(batch_ms / one) : max_batch;
	m->batch = m->batch < 1 ? 1 : m->batch > max_batch ? max_batch : m->batch;
	return 0;
error:
	return GP_ECUDA;
}

static int batch_rep(struct gp_meas *m, CUevent e0, CUevent e1)
{
	float ms;
	int rc;

	GP_CU(cuEventRecord(e0, NULL));
	for (int b = 0; b < m->batch; b++)
		if ((rc = launch_once(m)))
			return rc;
	if (gp_events_stop(e0, e1, &ms))
		goto error;
	m->rep_ms = ms / m->batch;
	gp_sample(m, "time_ms", m->rep_ms);
	return 0;
error:
	return GP_ECUDA;
}

int gp_meas_repetitions(struct gp_meas *m)
{
	const int batch = m->probe->runner == GP_RUN_BATCH;
	const double t0 = gp_now();
	CUevent e0 = NULL, e1 = NULL;
	int rc = GP_ECUDA;

	if (m->probe->runner != GP_RUN_SYNC && gp_events_new(&e0, &e1))
		goto error;
	if (batch && (rc = size_batch(m, e0, e1)))
		goto out;
	for (m->rep = -m->run->warmup; !enough(m, t0); m->rep++)
		if ((rc = batch ? batch_rep(m, e0, e1) : one_rep(m, e0, e1)))
			goto out;
	m->reps = m->rep;
	GP_CU(cuCtxSynchronize());
	if ((batch && m->probe->after && (rc = m->probe->after(m))) || (rc = read_back(m, 1)))
		goto out;
	if (batch) {
		m->rep = m->reps - 1;
		sample_clock(m);
		if (m->probe->sample)
			m->probe->sample(m);
	}
	rc = 0;
	goto out;
error:
	rc = GP_ECUDA;
out:
	gp_events_free(e0, e1);
	return rc;
}

/* A point whose kernels were all too short for their own clock sample gets the clock of a 2 ms
 * spin kernel run right after it (harness/clock.cu): the clock the SM was at, not during. */
extern const unsigned char gp_image_harness_clock[];

double gp_meas_clock_after(struct gp_device *dev)
{
	struct gp_clock_sample s;
	CUdeviceptr d = 0;
	CUfunction fn;
	long long ns = 2000000;
	double mhz = 0;
	void *args[] = { &ns, &d };

	if (gp_kernel(dev, gp_image_harness_clock, "gp_clock_spin", &fn) || gp_alloc(&d, sizeof s))
		return 0;
	if (!gp_launch(fn, 1, 32, 0, args, NULL) && !gp_download(&s, d, sizeof s))
		mhz = gp_clock_mhz(&s);
	gp_free(d);
	return mhz;
}

/* What a point holds on the device and for it (the probe's clean-up, buffers, modules, host
 * memory), not its samples, cells or status. */
static void release_resources(struct gp_meas *m)
{
	struct gp_meas_priv *p = m->priv;

	if (m->probe && m->probe->cleanup)
		m->probe->cleanup(m);
	for (size_t i = 0; i < p->nbufs; i++) {
		gp_free(p->bufs[i].d);
		gp_meas_pool_put(p->bufs[i].host, p->bufs[i].host_bytes);
	}
	for (size_t i = 0; i < p->nmodules; i++)
		gp_cu.cuModuleUnload(p->modules[i]);
	for (size_t i = 0; i < p->nhost; i++)
		free(p->host[i]);
	p->nbufs = p->nmodules = p->nhost = 0;
	p->d_clock = 0;
	p->clock = NULL;
}

static void release(struct gp_meas *m)
{
	struct gp_meas_priv *p = m->priv;

	release_resources(m);
	for (size_t i = 0; i < p->nmetrics; i++)
		free(p->metrics[i].v);
	free(m->ctx);
	free(p);
}

/* An experiment that composes other measurements writes its own rows (its columns only); the
 * harness adds the conditions it ran under. */
static int composite(struct gp_run *run, const struct gp_exp_impl *im, const struct gp_point *pt,
		     struct gp_table *t)
{
	struct gp_table *own = gp_table_new(im->columns, im->ncolumns);
	struct gp_meas m = { .run = run, .dev = run->dev, .pt = pt };
	struct gp_meas_priv priv = { 0 };
	char buf[8][160], *cells[128];
	int rc;

	if (!own || t->ncols > GP_ARRAY_SIZE(cells) || t->ncols - im->ncolumns > GP_ARRAY_SIZE(buf)) {
		gp_table_free(own);
		return GP_EFAIL;
	}
	m.priv = &priv;
	snprintf(priv.stop, sizeof priv.stop, "set by the experiment");
	gp_nvml_open(m.dev->uuid, NULL, 0);
	gp_nvml_sample(&priv.before);
	rc = im->measure(run, pt, own);
	gp_nvml_sample(&priv.after);
	for (size_t r = 0; r < own->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			char *b = buf[(c - own->ncols) % GP_ARRAY_SIZE(buf)];
			cells[c] = c < own->ncols ? own->cells[r * own->ncols + c] :
				   gp_meas_condition_cell(&m, t->cols[c], b, sizeof buf[0]) ? b : NULL;
		}
		if (gp_table_append(t, cells))
			rc = GP_EFAIL;
	}
	gp_table_free(own);
	return rc;
}

const char *gp_expected_fault(const struct gp_exp_impl *im, const struct gp_point *pt)
{
	return im->probe && im->probe->expect_fault ? im->probe->expect_fault(pt) : NULL;
}

/* gp_meas_contexts: the share of the repetitions in the setup's context, then in each fresh
 * one: made current with a module cache of its own (the device's is the run's context's), the
 * previous one's resources released and it destroyed, the probe's state zeroed and set up
 * again. The last fresh context stays current for finish(); *fresh is it (NULL: none). */
static int context_repetitions(struct gp_meas *m, CUcontext *fresh)
{
	struct gp_device *d = m->dev;
	struct gp_meas_priv *p = m->priv;
	const int n = p->contexts, share = (m->reps + n - 1) / n;
	int total, rc;

	m->cap = share * n > m->cap ? share * n : m->cap;
	m->reps = share;
	if ((rc = gp_meas_repetitions(m)))
		return rc;
	total = m->reps;
	for (p->context_at = 1; p->context_at < n && !p->na && !p->failed; p->context_at++) {
		release_resources(m);
		if (*fresh)
			gp_cu.cuCtxDestroy(*fresh);
		*fresh = NULL;
		d->nmodules = 0;
		GP_CU(cuCtxCreate(fresh, NULL, 0, d->dev));
		memset(m->ctx, 0, m->probe->ctx_size);
		m->fn = NULL;
		if ((rc = m->probe->setup(m)) || p->na || p->failed || (m->reps = share, rc = gp_meas_repetitions(m)))
			break;
		total += m->reps;
	}
	m->reps = total;
	if (!rc) {
		const size_t used = strlen(p->stop);
		snprintf(p->stop + used, sizeof p->stop - used, "; over %d contexts", p->context_at);
	}
	return p->nomem ? GP_EFAIL : rc;
error:
	return GP_ECUDA;
}

/* Back to the run's context and its module cache after fresh ones. */
static void context_end(struct gp_device *d, CUcontext fresh, const struct gp_device *saved)
{
	if (fresh)
		gp_cu.cuCtxDestroy(fresh);
	gp_cu.cuCtxSetCurrent(d->ctx);
	memcpy(d->modules, saved->modules, sizeof d->modules);
	d->nmodules = saved->nmodules;
}

int gp_measure(struct gp_run *run, const struct gp_exp_impl *im, const struct gp_point *pt, struct gp_table *t)
{
	struct gp_device saved; /* the run's module cache while fresh contexts are current */
	CUcontext fresh = NULL;
	int swapped = 0;
	const struct gp_probe *pr = im->probe;
	const int reps = pr && pr->min_reps > run->reps ? pr->min_reps : run->reps;
	struct gp_meas m = { .run = run, .dev = run->dev, .pt = pt, .probe = pr, .reps = reps,
			     .cap = run->reps_max > reps ? run->reps_max : reps };
	int rc;

	if (!pr)
		return composite(run, im, pt, t);
	if (!(m.priv = calloc(1, sizeof *m.priv)) || (pr->ctx_size && !(m.ctx = calloc(1, pr->ctx_size)))) {
		free(m.priv);
		return GP_EFAIL;
	}
	rc = pr->setup ? pr->setup(&m) : 0;
	if (!rc && m.priv->nomem)
		rc = GP_EFAIL;
	if (!rc && !m.priv->na && !m.priv->failed) {
		gp_nvml_open(m.dev->uuid, NULL, 0);
		gp_nvml_sample(&m.priv->before);
		if (m.priv->contexts > 1 && !m.priv->nmetrics) {
			memcpy(saved.modules, m.dev->modules, sizeof saved.modules);
			saved.nmodules = m.dev->nmodules;
			swapped = 1;
			rc = context_repetitions(&m, &fresh);
		} else
			rc = gp_meas_repetitions(&m);
		gp_nvml_sample(&m.priv->after);
		if (!rc && m.priv->nomem)
			rc = GP_EFAIL;
	}
	if (!rc) {
		gp_meas_summarise(&m);
		if ((m.priv->clock || m.priv->spin_clock) && !(gp_meas_mhz(&m) > 0)) {
			const double mhz = gp_meas_clock_after(m.dev);
			m.rep = 0;
			if (mhz > 0)
				gp_sample(&m, "clock_MHz", mhz);
			gp_meas_summarise(&m);
		}
		if (pr->finish && !m.priv->na)
			pr->finish(&m);
		if ((m.priv->clock || m.priv->spin_clock) && !m.priv->na && !(gp_meas_mhz(&m) > 0))
			gp_meas_fail(&m, "clock sample too short to measure the SM clock");
		rc = m.priv->nomem ? GP_EFAIL : m.priv->skip ? 0 : gp_meas_write_row(&m, t);
		if (!rc)
			rc = gp_meas_ok(&m) || m.priv->na ? 0 : GP_EVALID;
	}
	release(&m);
	if (swapped)
		context_end(m.dev, fresh, &saved);
	return rc;
}

/* ------------------------------------------------------------------ a baseline inside a point */

/* The gp_meas_batch_ms call in hand (its measurement runs inside the caller's setup()). */
static const struct batch_ms {
	int (*launch)(const void *arg);
	const void *arg;
	double *ms;
} *batch_ms_of;

static int batch_ms_launch(struct gp_meas *m)
{
	(void)m;
	return batch_ms_of->launch(batch_ms_of->arg);
}

static void batch_ms_finish(struct gp_meas *m)
{
	*batch_ms_of->ms = gp_meas_stat(m, "time_ms", GP_MEDIAN);
}

int gp_meas_batch_ms(struct gp_meas *m, int (*launch)(const void *arg), const void *arg, double batch_ms,
		     int max_batch, double *ms)
{
	static const char *const cols[] = { "status" };
	const struct gp_probe pr = { .runner = GP_RUN_BATCH, .launch = batch_ms_launch, .finish = batch_ms_finish,
				     .primary = "time_ms", .batch_ms = batch_ms, .max_batch = max_batch };
	const struct gp_exp_impl im = { .columns = cols, .ncolumns = 1, .probe = &pr };
	const struct batch_ms call = { launch, arg, ms }, *outer = batch_ms_of;
	struct gp_table *t = gp_table_new(cols, 1);
	int rc;

	if (!t)
		return GP_EFAIL;
	batch_ms_of = &call;
	rc = gp_measure(m->run, &im, m->pt, t);
	batch_ms_of = outer;
	gp_table_free(t);
	return rc;
}

/* ------------------------------------------------------------------ between experiments */

static void (*kept[8])(void);

void gp_meas_keep(void (*drop)(void))
{
	for (size_t i = 0; i < GP_ARRAY_SIZE(kept); i++) {
		if (kept[i] == drop)
			return;
		if (!kept[i]) {
			kept[i] = drop;
			return;
		}
	}
	gp_err("internal: more than %zu kinds of state kept across points", GP_ARRAY_SIZE(kept));
}

void gp_measure_end(struct gp_run *run)
{
	struct gp_device *d = run->dev;

	for (size_t i = 0; i < GP_ARRAY_SIZE(kept) && kept[i]; i++)
		kept[i]();
	memset(kept, 0, sizeof kept);
	gp_blas_unload();
	for (size_t i = 0; i < d->nmodules; i++)
		gp_cu.cuModuleUnload(d->modules[i].mod);
	d->nmodules = 0;
	gp_meas_pool_drop();
	gp_clear_error();
}
