/* measure.c — the measurement of one sweep point for every probe (measure.h).
 *
 * setup -> for each repetition (warm-up first): poison, before, launch (timed as the runner
 * says), read-back, clock sample, sample -> statistics -> finish -> the standard checks -> one
 * row -> clean-up. Everything a probe asks for (buffers, modules, host memory) is released here,
 * on every path. */
#include "gp.h"
#include "isolate.h" /* gp_now */
#include "measure.h"
#include "nvml.h"
#include "stats.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BUFS 24
#define MAX_METRICS 24
#define MAX_CELLS 48
#define MAX_HOST 16

struct buf {
	CUdeviceptr d;
	size_t bytes;
	int poison;
	void *host; /* read-back copy, or NULL */
	enum gp_readback when;
};

struct metric {
	const char *name;
	double *v; /* one per timed repetition */
	size_t n;
	struct gp_stats st;
	int have_st;
};

struct cell {
	const char *col;
	char v[256];
};

struct gp_meas_priv {
	struct buf bufs[MAX_BUFS];
	size_t nbufs;
	struct metric metrics[MAX_METRICS];
	size_t nmetrics;
	struct cell cells[MAX_CELLS];
	size_t ncells;
	void *host[MAX_HOST];
	size_t nhost;
	CUmodule modules[4];
	size_t nmodules;
	CUdeviceptr d_clock;
	struct gp_clock_sample *clock; /* host copy */
	double *mhz;                   /* per timed repetition */
	struct gp_power before, after; /* NVML around the repetitions */
	char stop[96];                 /* why the repetitions stopped */
	char status[512];
	int na, failed;
	int nomem; /* a bookkeeping table overflowed: internal error */
};

/* ------------------------------------------------------------------ status */

static void vsay(struct gp_meas *m, int na, const char *fmt, va_list ap)
{
	struct gp_meas_priv *p = m->priv;

	if (p->na || p->failed)
		return;
	vsnprintf(p->status, sizeof p->status, fmt, ap);
	if (na) {
		char tmp[sizeof p->status];
		snprintf(tmp, sizeof tmp, "n/a: %s", p->status);
		memcpy(p->status, tmp, sizeof tmp);
	}
	p->na = na;
	p->failed = !na;
}

int gp_meas_ok(const struct gp_meas *m)
{
	return !m->priv->na && !m->priv->failed;
}

int gp_meas_na(struct gp_meas *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(m, 1, fmt, ap);
	va_end(ap);
	return 0;
}

void gp_meas_fail(struct gp_meas *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(m, 0, fmt, ap);
	va_end(ap);
}

int gp_meas_check_f32(struct gp_meas *m, const char *what, const float *got, const float *want, size_t n,
		      size_t period)
{
	for (size_t i = 0; i < n; i++)
		if (memcmp(&got[i], &want[i % period], sizeof *got)) {
			gp_meas_fail(m, "%s %zu: result %.9g, host %.9g: work skipped or reordered", what, i,
				     (double)got[i], (double)want[i % period]);
			return -1;
		}
	return 0;
}

int gp_meas_check_f64(struct gp_meas *m, const char *what, const double *got, const double *want, size_t n,
		      size_t period)
{
	for (size_t i = 0; i < n; i++)
		if (memcmp(&got[i], &want[i % period], sizeof *got)) {
			gp_meas_fail(m, "%s %zu: result %.17g, host %.17g: work skipped or reordered", what, i,
				     got[i], want[i % period]);
			return -1;
		}
	return 0;
}

int gp_meas_check_u32(struct gp_meas *m, const char *what, const unsigned *got, const unsigned *want,
		      size_t n, size_t period)
{
	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i % period]) {
			gp_meas_fail(m, "%s %zu: result 0x%08x, host 0x%08x: work skipped or reordered", what, i,
				     got[i], want[i % period]);
			return -1;
		}
	return 0;
}

void gp_meas_ceiling(struct gp_meas *m, const char *what, double value, double ceiling, double tol,
		     const char *unit)
{
	if (ceiling > 0 && value > ceiling * (1 + tol))
		gp_meas_fail(m, "%.4g %s of %s is above the ceiling of %.4g %s: broken probe", value, unit, what,
			     ceiling, unit);
}

void gp_meas_floor(struct gp_meas *m, const char *what, double value, double floor, double tol,
		   const char *unit)
{
	if (floor > 0 && value < floor * (1 - tol))
		gp_meas_fail(m, "%.4g %s of %s is below the floor of %.4g %s: broken probe", value, unit, what,
			     floor, unit);
}

/* ------------------------------------------------------------------ setup */

int gp_meas_kernel(struct gp_meas *m, const char *fmt, ...)
{
	char name[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof name, fmt, ap);
	va_end(ap);
	return gp_kernel(m->dev, m->probe->image, name, &m->fn);
}

int gp_meas_kernel_image(struct gp_meas *m, const void *image, const char *name)
{
	struct gp_meas_priv *p = m->priv;
	CUmodule mod;

	if (p->nmodules == GP_ARRAY_SIZE(p->modules)) {
		gp_err("internal: more than %zu modules for one point", GP_ARRAY_SIZE(p->modules));
		return GP_EFAIL;
	}
	GP_CU(cuModuleLoadData(&mod, image));
	p->modules[p->nmodules++] = mod;
	GP_CU(cuModuleGetFunction(&m->fn, mod, name));
	return 0;
error:
	return GP_ECUDA;
}

void gp_meas_launch(struct gp_meas *m, unsigned grid, unsigned block, unsigned smem)
{
	m->grid = grid;
	m->block = block;
	m->smem = smem;
}

void gp_meas_launch_2d(struct gp_meas *m, unsigned gx, unsigned gy, unsigned bx, unsigned by, unsigned smem)
{
	gp_meas_launch(m, gx, bx, smem);
	m->grid_y = gy;
	m->block_y = by;
}

void gp_meas_args_(struct gp_meas *m, void *const *args, size_t n)
{
	if (n > GP_MEAS_MAX_ARGS) {
		m->priv->nomem = 1;
		n = GP_MEAS_MAX_ARGS;
	}
	memcpy(m->args, args, n * sizeof *args);
	m->nargs = n;
}

static struct buf *new_buf(struct gp_meas *m)
{
	struct gp_meas_priv *p = m->priv;

	if (p->nbufs == MAX_BUFS) {
		gp_err("internal: more than %d buffers for one point", MAX_BUFS);
		p->nomem = 1;
		return NULL;
	}
	return memset(&p->bufs[p->nbufs++], 0, sizeof(struct buf));
}

int gp_meas_buf(struct gp_meas *m, CUdeviceptr *d, size_t bytes, int poison)
{
	struct buf *b = new_buf(m);
	int rc;

	*d = 0;
	if (!b)
		return GP_EFAIL;
	if ((rc = gp_alloc(&b->d, bytes ? bytes : 1)))
		return rc;
	b->bytes = bytes;
	b->poison = poison;
	*d = b->d;
	return 0;
}

int gp_meas_buf_fit(struct gp_meas *m, CUdeviceptr *d, size_t bytes, int poison)
{
	size_t free_b = 0, total_b = 0;

	*d = 0;
	if (gp_cu.cuMemGetInfo(&free_b, &total_b) == CUDA_SUCCESS) {
		if (bytes > total_b)
			return gp_meas_na(m, "%zu bytes exceed the device's %zu bytes of memory", bytes, total_b), 1;
		if (bytes > free_b)
			return gp_meas_na(m, "%zu bytes exceed the %zu bytes free on the device", bytes, free_b), 1;
	}
	if (gp_meas_buf(m, d, bytes, poison))
		return gp_meas_na(m, "%zu bytes could not be allocated", bytes), 1;
	return 0;
}

int gp_meas_upload(struct gp_meas *m, CUdeviceptr d, const void *src, size_t bytes)
{
	return gp_upload(d, src, bytes);
}

void *gp_meas_host(struct gp_meas *m, size_t bytes)
{
	struct gp_meas_priv *p = m->priv;
	void *h;

	if (p->nhost == MAX_HOST || !(h = calloc(1, bytes ? bytes : 1))) {
		p->nomem = 1;
		return NULL;
	}
	return p->host[p->nhost++] = h;
}

void *gp_meas_readback(struct gp_meas *m, CUdeviceptr d, size_t bytes, enum gp_readback when)
{
	struct gp_meas_priv *p = m->priv;

	for (size_t i = 0; i < p->nbufs; i++) {
		struct buf *b = &p->bufs[i];
		if (b->d != d)
			continue;
		if (!b->host)
			b->host = gp_meas_host(m, bytes);
		b->bytes = bytes < b->bytes || !b->bytes ? bytes : b->bytes;
		b->when = when;
		return b->host;
	}
	gp_err("internal: read-back of a buffer gp_meas_buf did not make");
	p->nomem = 1;
	return NULL;
}

CUdeviceptr *gp_meas_clock(struct gp_meas *m)
{
	struct gp_meas_priv *p = m->priv;

	if (!p->clock && !gp_meas_buf(m, &p->d_clock, sizeof *p->clock, 0))
		p->clock = gp_meas_readback(m, p->d_clock, sizeof *p->clock, GP_EVERY_REP);
	return &p->d_clock;
}

const struct gp_clock_sample *gp_meas_clock_sample(const struct gp_meas *m)
{
	return m->priv->clock;
}

/* ------------------------------------------------------------------ values */

static struct metric *find_metric(const struct gp_meas *m, const char *name)
{
	for (size_t i = 0; i < m->priv->nmetrics; i++)
		if (!strcmp(m->priv->metrics[i].name, name))
			return &m->priv->metrics[i];
	return NULL;
}

void gp_sample(struct gp_meas *m, const char *metric, double v)
{
	struct gp_meas_priv *p = m->priv;
	struct metric *x;

	if (m->rep < 0 || m->rep >= m->cap)
		return;
	if (!(x = find_metric(m, metric))) {
		if (p->nmetrics == MAX_METRICS || !(p->metrics[p->nmetrics].v = calloc((size_t)m->cap, sizeof(double)))) {
			p->nomem = 1;
			return;
		}
		x = &p->metrics[p->nmetrics++];
		x->name = metric;
	}
	if (x->n < (size_t)m->cap)
		x->v[x->n++] = v;
}

static void summarise(struct gp_meas *m)
{
	for (size_t i = 0; i < m->priv->nmetrics; i++) {
		struct metric *x = &m->priv->metrics[i];
		x->have_st = x->n > 0 && !gp_stats(x->v, x->n, &x->st);
	}
}

double gp_meas_stat(const struct gp_meas *m, const char *metric, enum gp_stat s)
{
	const struct metric *x = find_metric(m, metric);

	if (!x || !x->have_st)
		return NAN;
	switch (s) {
	case GP_MEDIAN: return x->st.median;
	case GP_MIN: return x->st.min;
	case GP_MAX: return x->st.max;
	case GP_SPREAD: return x->st.spread;
	case GP_MEAN: return x->st.mean;
	}
	return NAN;
}

double gp_meas_mhz(const struct gp_meas *m)
{
	return gp_meas_stat(m, "clock_MHz", GP_MEDIAN);
}

static struct cell *cell_for(struct gp_meas *m, const char *col)
{
	struct gp_meas_priv *p = m->priv;

	for (size_t i = 0; i < p->ncells; i++)
		if (!strcmp(p->cells[i].col, col))
			return &p->cells[i];
	if (p->ncells == MAX_CELLS) {
		p->nomem = 1;
		return NULL;
	}
	p->cells[p->ncells].col = col;
	return &p->cells[p->ncells++];
}

void gp_meas_str(struct gp_meas *m, const char *col, const char *v)
{
	struct cell *c = cell_for(m, col);

	if (c)
		snprintf(c->v, sizeof c->v, "%s", v);
}

void gp_meas_num(struct gp_meas *m, const char *col, double v)
{
	struct cell *c = cell_for(m, col);

	if (c)
		gp_format_num(c->v, sizeof c->v, v);
}

void gp_meas_int(struct gp_meas *m, const char *col, long long v)
{
	struct cell *c = cell_for(m, col);

	if (c)
		snprintf(c->v, sizeof c->v, "%lld", v);
}

long gp_meas_param(const struct gp_meas *m, const char *name)
{
	return gp_point_int(m->pt, name);
}

const char *gp_meas_param_str(const struct gp_meas *m, const char *name)
{
	return gp_point_str(m->pt, name);
}

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

/* One repetition (or, for GP_RUN_BATCH, the whole timed loop: gp_time_batches owns it). */
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
	if (m->probe->runner == GP_RUN_EVENT) {
		GP_CU(cuEventRecord(e1, NULL));
		GP_CU(cuEventSynchronize(e1));
		GP_CU(cuEventElapsedTime(&ms, e0, e1));
	}
	/* Surfaces a fault inside the kernel (the sticky error) next to its launch. */
	GP_CU(cuCtxSynchronize());
	if ((rc = read_back(m, 0)))
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
	const struct metric *x = m->probe->primary ? find_metric(m, m->probe->primary) : NULL;
	struct gp_stats st;
	double rsd;

	if (m->rep < run->reps)
		return 0;
	if (run->reps_max <= run->reps) {
		snprintf(p->stop, sizeof p->stop, "fixed count");
		return 1;
	}
	if (!x || !x->n || gp_stats(x->v, x->n, &st) || !(st.mean != 0)) {
		snprintf(p->stop, sizeof p->stop, "fixed count (no primary metric)");
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
	GP_CU(cuEventRecord(e1, NULL));
	GP_CU(cuEventSynchronize(e1));
	GP_CU(cuEventElapsedTime(&one, e0, e1));
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
	GP_CU(cuEventRecord(e1, NULL));
	GP_CU(cuEventSynchronize(e1));
	GP_CU(cuEventElapsedTime(&ms, e0, e1));
	m->rep_ms = ms / m->batch;
	gp_sample(m, "time_ms", m->rep_ms);
	return 0;
error:
	return GP_ECUDA;
}

static int repetitions(struct gp_meas *m)
{
	const int batch = m->probe->runner == GP_RUN_BATCH;
	const double t0 = gp_now();
	CUevent e0 = NULL, e1 = NULL;
	int rc = GP_ECUDA;

	if (m->probe->runner != GP_RUN_SYNC) {
		GP_CU(cuEventCreate(&e0, CU_EVENT_DEFAULT));
		GP_CU(cuEventCreate(&e1, CU_EVENT_DEFAULT));
	}
	if (batch && (rc = size_batch(m, e0, e1)))
		goto out;
	for (m->rep = -m->run->warmup; !enough(m, t0); m->rep++)
		if ((rc = batch ? batch_rep(m, e0, e1) : one_rep(m, e0, e1)))
			goto out;
	m->reps = m->rep;
	GP_CU(cuCtxSynchronize());
	if ((rc = read_back(m, 1)))
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
	if (e0)
		gp_cu.cuEventDestroy(e0);
	if (e1)
		gp_cu.cuEventDestroy(e1);
	return rc;
}

/* A point whose kernels were all too short for their own clock sample gets the clock of a 2 ms
 * spin kernel run right after it (harness/clock.cu): the clock the SM was at, not during. */
extern const unsigned char gp_image_harness_clock[];

static double clock_after(struct gp_device *dev)
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

	if (find_metric(m, col)) {
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
		if (find_metric(m, base)) {
			*v = gp_meas_stat(m, base, sfx[i].s);
			return 1;
		}
	}
	return 0;
}

/* The conditions the point ran under (gp_condition_columns): NVML right after its repetitions,
 * the limiting reasons seen before or after, and a flag where the clock moved or was held. */
static int condition_cell(const struct gp_meas *m, const char *col, char *buf, size_t len)
{
	const struct gp_power *b = &m->priv->before, *a = &m->priv->after;
	char r[160];

	if (!strcmp(col, "nvml_sm_MHz"))
		return gp_format_num(buf, len, a->valid ? a->sm_MHz : NAN), 1;
	if (!strcmp(col, "power_W"))
		return gp_format_num(buf, len, a->valid ? a->power_W : NAN), 1;
	if (!strcmp(col, "temp_C"))
		return gp_format_num(buf, len, a->valid ? a->temp_C : NAN), 1;
	if (!strcmp(col, "throttle")) {
		snprintf(buf, len, "%s", a->valid ? gp_nvml_reasons(a->reasons | (b->valid ? b->reasons : 0), r, sizeof r)
						  : "n/a: no NVML");
		return 1;
	}
	if (!strcmp(col, "reps_stop")) {
		snprintf(buf, len, "%s", m->priv->stop);
		return 1;
	}
	if (strcmp(col, "conditions"))
		return 0;
	if (!a->valid)
		snprintf(buf, len, "n/a: no NVML");
	else if (gp_nvml_limiting(a->reasons | (b->valid ? b->reasons : 0)))
		snprintf(buf, len, "throttled: %s", gp_nvml_reasons(a->reasons | (b->valid ? b->reasons : 0), r, sizeof r));
	else if (b->valid && fabs(a->sm_MHz - b->sm_MHz) > 0.02 * fmax(a->sm_MHz, b->sm_MHz))
		snprintf(buf, len, "clock changed: %.0f -> %.0f MHz", b->sm_MHz, a->sm_MHz);
	else
		snprintf(buf, len, "steady");
	return 1;
}

static int write_row(struct gp_meas *m, struct gp_table *t)
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
		else if (condition_cell(m, col, num, sizeof num))
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

static void release(struct gp_meas *m)
{
	struct gp_meas_priv *p = m->priv;

	if (m->probe && m->probe->cleanup)
		m->probe->cleanup(m);
	for (size_t i = 0; i < p->nbufs; i++)
		gp_free(p->bufs[i].d);
	for (size_t i = 0; i < p->nmodules; i++)
		gp_cu.cuModuleUnload(p->modules[i]);
	for (size_t i = 0; i < p->nhost; i++)
		free(p->host[i]);
	for (size_t i = 0; i < p->nmetrics; i++)
		free(p->metrics[i].v);
	free(m->ctx);
	free(p);
}

int gp_measure(struct gp_run *run, const struct gp_exp_impl *im, const struct gp_point *pt, struct gp_table *t)
{
	const struct gp_probe *pr = im->probe;
	struct gp_meas m = { .run = run, .dev = run->dev, .pt = pt, .probe = pr, .reps = run->reps,
			     .cap = run->reps_max > run->reps ? run->reps_max : run->reps };
	int rc;

	if (!pr)
		return im->measure(run, pt, t);
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
		rc = repetitions(&m);
		gp_nvml_sample(&m.priv->after);
		if (!rc && m.priv->nomem)
			rc = GP_EFAIL;
	}
	if (!rc) {
		summarise(&m);
		if (m.priv->clock && !(gp_meas_mhz(&m) > 0)) {
			const double mhz = clock_after(m.dev);
			m.rep = 0;
			if (mhz > 0)
				gp_sample(&m, "clock_MHz", mhz);
			summarise(&m);
		}
		if (pr->finish && !m.priv->na)
			pr->finish(&m);
		if (m.priv->clock && !m.priv->na && !(gp_meas_mhz(&m) > 0))
			gp_meas_fail(&m, "clock sample too short to measure the SM clock");
		rc = m.priv->nomem ? GP_EFAIL : write_row(&m, t);
		if (!rc)
			rc = gp_meas_ok(&m) || m.priv->na ? 0 : GP_EVALID;
	}
	release(&m);
	return rc;
}
