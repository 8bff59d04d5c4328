/* meas_api.c — what a probe calls: setup (kernels, buffers, launch, clock), values (samples,
 * statistics, cells) and status (measure.h). */
#include "gp.h"
#include "measure_priv.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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

int gp_meas_skip(struct gp_meas *m)
{
	m->priv->skip = m->priv->na = 1; /* na: nothing more runs for it */
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

void gp_meas_contexts(struct gp_meas *m, int n)
{
	if (m->priv->context_at == 0)
		m->priv->contexts = n < 1 ? 1 : n > GP_MAX_CONTEXTS ? GP_MAX_CONTEXTS : n;
}

int gp_meas_resident(struct gp_meas *m, int threads, int blocks_per_sm)
{
	int resident = 0;

	gp_cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(&resident, m->fn, threads, 0);
	if (resident >= blocks_per_sm)
		return 0;
	gp_meas_na(m, "only %d blocks of %d threads fit per SM, asked for %d", resident, threads, blocks_per_sm);
	return 1;
}

int gp_meas_upload(struct gp_meas *m, CUdeviceptr d, const void *src, size_t bytes)
{
	return gp_upload(d, src, bytes);
}

int gp_meas_input(struct gp_meas *m, CUdeviceptr *d, const void *src, size_t bytes)
{
	const int rc = gp_meas_buf(m, d, bytes, GP_NO_POISON);

	return rc ? rc : gp_meas_upload(m, *d, src, bytes);
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

/* A multi-GB read-back (the GEMM benches read C back on every point) allocated fresh for each
 * point costs its page faults every time, more than the copy itself; the largest blocks are
 * kept for the next point of the process instead. Small ones come zeroed, large ones are
 * overwritten by the read-back before anyone reads them. */
#define POOL_SLOTS 2
#define POOL_MIN_BYTES (1u << 20)

static struct {
	void *p;
	size_t bytes;
} pool[POOL_SLOTS];

void *gp_meas_pool_take(size_t bytes)
{
	if (bytes < POOL_MIN_BYTES)
		return calloc(1, bytes ? bytes : 1);
	for (size_t i = 0; i < POOL_SLOTS; i++)
		if (pool[i].p && pool[i].bytes == bytes) {
			void *p = pool[i].p;
			pool[i].p = NULL;
			return p;
		}
	return malloc(bytes);
}

void gp_meas_pool_put(void *p, size_t bytes)
{
	size_t slot = 0;

	if (!p || bytes < POOL_MIN_BYTES) {
		free(p);
		return;
	}
	for (size_t i = 0; i < POOL_SLOTS; i++)
		if (!pool[i].p || pool[i].bytes < pool[slot].bytes)
			slot = i;
	if (pool[slot].p && pool[slot].bytes > bytes) {
		free(p); /* keep the larger one */
		return;
	}
	free(pool[slot].p);
	pool[slot].p = p;
	pool[slot].bytes = bytes;
}

void gp_meas_pool_drop(void)
{
	for (size_t i = 0; i < POOL_SLOTS; i++) {
		free(pool[i].p);
		pool[i].p = NULL;
		pool[i].bytes = 0;
	}
}

void *gp_meas_readback(struct gp_meas *m, CUdeviceptr d, size_t bytes, enum gp_readback when)
{
	struct gp_meas_priv *p = m->priv;

	for (size_t i = 0; i < p->nbufs; i++) {
		struct buf *b = &p->bufs[i];
		if (b->d != d)
			continue;
		if (!b->host && !(b->host = gp_meas_pool_take(bytes))) {
			p->nomem = 1;
			return NULL;
		}
		if (!b->host_bytes)
			b->host_bytes = bytes;
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

void gp_meas_spin_clock(struct gp_meas *m)
{
	m->priv->spin_clock = 1;
}

/* ------------------------------------------------------------------ values */

struct metric *gp_meas_find_metric(const struct gp_meas *m, const char *name)
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
	if (!(x = gp_meas_find_metric(m, metric))) {
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

void gp_meas_summarise(struct gp_meas *m)
{
	for (size_t i = 0; i < m->priv->nmetrics; i++) {
		struct metric *x = &m->priv->metrics[i];
		x->have_st = x->n > 0 && !gp_stats(x->v, x->n, &x->st);
	}
}

double gp_meas_stat(const struct gp_meas *m, const char *metric, enum gp_stat s)
{
	const struct metric *x = gp_meas_find_metric(m, metric);

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

double gp_meas_latency_ns(struct gp_meas *m, const char *cycles_metric)
{
	const double cyc = gp_meas_stat(m, cycles_metric, GP_MEDIAN);

	gp_meas_num(m, "latency_ns", cyc / gp_meas_mhz(m) * 1e3);
	return cyc;
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

