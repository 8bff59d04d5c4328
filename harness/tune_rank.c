/* tune_rank.c — every SGEMM ladder kernel ranked by a model of its pipe, held against the run.
 *
 * What: the kernels are bench/sgemm.list's float lines but the baseline; each gets a predicted
 * GFLOP/s from the model of its pipe (tune_rank.h), its measured GFLOP/s from the run's sgemm.csv,
 * and both ranks; Spearman's rho over the kernels with both says how well the model orders them.
 * Pattern: every machine number is the run's (gp_machine_load); every kernel number is its list
 * line's. Pitfall: the tensor rates are the probes' dense-instruction rates at the clock each
 * held, an upper bound a 3xTF32 kernel reaches only as far as its split and FP32 promotion
 * instructions (not modelled) leave the tensor pipe busy: measured / predicted below 1 is that
 * share, and the report shows it rather than folding it into the prediction. */
#include "tune_rank.h"
#include "gp.h"
#include "md.h"
#include "models.h"
#include "sgemm.h"
#include "sgemm_fit.h"
#include "sgemm_map.h"
#include "table.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------------ the ladder from the list */

/* A line's model: SG_MODEL (an FFMA tile: models.c holds it), SG_TCMODEL (its fields here) or
 * SG_NOMODEL. KM_<kind> turns the parenthesised form into the entry's last fields. */
#define SG_MODEL(...) (1, __VA_ARGS__)
#define SG_TCMODEL(...) (2, __VA_ARGS__)
#define SG_NOMODEL (0, 0)
#define KM(m) KM_X(KM_ m)
#define KM_X(x) x
#define KM_(kind, ...) KM_##kind(__VA_ARGS__)
#define KM_0(...) GP_KM_NONE, { 0 }
#define KM_1(...) GP_KM_TILE, { 0 }
#define KM_2(inst, passes, wm, wn, ar, br) GP_KM_TC, { GP_TC_##inst, passes, wm, wn, ar, br }
/* Float lines only (KEEP_float), and not the library (KEEP_SG_K_CUBLAS): the ladder. */
#define KEEP_float(...) __VA_ARGS__
#define KEEP_double(...)
#define KEEP_SG_K_CUBLAS(...)
#define KEEP_SG_K_NAIVE(...) __VA_ARGS__
#define KEEP_SG_K_TILE(...) __VA_ARGS__
#define KEEP_SG_K_VOLKOV(...) __VA_ARGS__
#define KEEP_SG_K_P4TILE(...) __VA_ARGS__
#define KEEP_SG_K_P4(...) __VA_ARGS__
#define KEEP_SG_K_K1(...) __VA_ARGS__
#define KEEP_SG_K_WARP(...) __VA_ARGS__
#define KEEP_SG_K_TMA(...) __VA_ARGS__
#define SG_VARIANT(name, T, image, call, minb, seed, kind, pipe, bm, bn, bk, bx, by, na, gap, any, vec4, dyn, \
		   model)                                                                               \
	KEEP_##kind(KEEP_##T({ #name, (pipe) == SG_TF32X3_MMA ? GP_KP_TC : GP_KP_FFMA, bm, bn, bk, (bx) * (by),  \
			       any, vec4, minb, KM(model) }, ))
const struct gp_kernel gp_kernels[] = {
#include "sgemm.list"
};
#undef SG_VARIANT
#undef SG_MODEL
#undef SG_TCMODEL
#undef SG_NOMODEL
GP_TABLE_LOOKUP(struct gp_kernel, gp_kernels, gp_nkernels, gp_kernel_find)

int gp_kernel_fits(const struct gp_kernel *k, int size, char *why, size_t len)
{
	return SG_FIT_SQUARE(k, size, why, len);
}

const char *gp_kpipe_name(enum gp_kpipe p)
{
	return p == GP_KP_TC ? "3xtf32 tensor" : "fp32 ffma";
}

/* ------------------------------------------------------------------ Spearman */

/* Mean ranks (1-based) of v into r: equal values share the mean of the ranks they span. */
static int mean_ranks(const double *v, size_t n, double *r)
{
	for (size_t i = 0; i < n; i++) {
		size_t below = 0, same = 0;
		for (size_t j = 0; j < n; j++) {
			below += v[j] < v[i];
			same += v[j] == v[i];
		}
		r[i] = (double)below + (same + 1) / 2.0;
	}
	return 0;
}

double gp_spearman(const double *x, const double *y, size_t n)
{
	double *rx = n ? malloc(2 * n * sizeof *rx) : NULL, *ry = rx + n;
	double mean = (n + 1) / 2.0, sxy = 0, sxx = 0, syy = 0;

	if (n < 2 || !rx) {
		free(rx);
		return NAN;
	}
	mean_ranks(x, n, rx);
	mean_ranks(y, n, ry);
	for (size_t i = 0; i < n; i++) {
		sxy += (rx[i] - mean) * (ry[i] - mean);
		sxx += (rx[i] - mean) * (rx[i] - mean);
		syy += (ry[i] - mean) * (ry[i] - mean);
	}
	free(rx);
	return sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : NAN;
}

/* ------------------------------------------------------------------ the models */

static double cell(const struct gp_table *s, long r, const char *col)
{
	double v;

	return s && r >= 0 && !gp_table_get_double(s, (size_t)r, col, &v) ? v : NAN;
}

/* A prediction: the lowest limit (p, named by why) and the next one above it (next; NaN if none),
 * which orders kernels at the same limit: the one further from its next limit ranks first. */
struct limit {
	double p, next;
	const char *why;
};

/* Take v (a limit named name) into l. */
static void cap(struct limit *l, double v, const char *name)
{
	if (isnan(v))
		return;
	if (isnan(l->p) || v < l->p) {
		if (!isnan(l->p))
			l->next = l->p;
		l->p = v;
		l->why = name;
	} else if (v > l->p && (isnan(l->next) || v < l->next)) {
		l->next = v;
	}
}

/* The tensor pipe's roof for the kernel, capped by its measured ceiling and its feeds. */
static struct limit predict_tc(const struct gp_machine *m, const struct gp_kernel *k, double ceiling)
{
	const struct gp_tc_model *tc = &k->tc;
	const double rate = tc->inst == GP_TC_wgmma ? m->tf32_wgmma_gflops : m->tf32_mma_gflops;
	/* Shared memory per warp (group) tile and k: a_reads wm + b_reads wn words for 2 wm wn flops. */
	const double i_smem = 2.0 * tc->wm * tc->wn / (4.0 * (tc->a_reads * tc->wm + tc->b_reads * tc->wn));
	struct limit l = { NAN, NAN, "no tensor rate in this run" };
	double roof = rate / tc->passes;
	const char *why = "tensor rate";

	/* The ceiling only lowers the roof, never orders equals: it moves with the clock sampled
	 * while the kernel ran. */
	if (isnan(roof) || ceiling < roof) {
		roof = ceiling;
		why = "ceiling";
	}
	if (isnan(roof))
		return l;   /* neither the probes' rate nor the kernel's ceiling: no prediction */
	cap(&l, roof, why);
	cap(&l, i_smem * gp_machine_lds_Bpc(m, 16) * m->sms * m->mhz / 1e3, "smem feed");
	cap(&l, gp_intensity_global(k->bm, k->bn) * m->l2_GBps, "L2 feed");
	return l;
}

static struct limit predict(const struct gp_machine *m, const struct gp_kernel *k, double nt, double ceiling)
{
	const struct gp_tile *t = k->model == GP_KM_TILE ? gp_tile_find(k->name) : NULL;
	struct limit l = { NAN, NAN, "" };
	struct gp_roof r;

	if (t) {
		/* The bound model's prediction; its roofs above it are the next limits. */
		l.p = gp_predict_bound_why(m, t, nt, &l.why);
		gp_roofline(m, t, &r);
		cap(&l, r.roof_fp32, "");
		cap(&l, r.roof_shared_bank, "");
		cap(&l, r.roof_l2, "");
		return l;
	}
	if (k->model == GP_KM_TC)
		return predict_tc(m, k, ceiling);
	/* A kernel without a model: no more than its pipe's roof and what L2 can feed its tile. */
	cap(&l, k->pipe == GP_KP_TC ? m->tf32_mma_gflops / 3 : m->fp32_gflops, "roof (no model)");
	cap(&l, gp_intensity_global(k->bm, k->bn) * m->l2_GBps, "L2 feed");
	return l;
}

double gp_kernel_predict(const struct gp_machine *m, const struct gp_kernel *k, double nt, double ceiling,
			 const char **why, double *next)
{
	const struct limit l = predict(m, k, nt, ceiling);

	*why = l.why;
	if (next)
		*next = l.next;
	return l.p;
}

/* ------------------------------------------------------------------ the ranking */

struct ranked {
	const struct gp_kernel *k;
	double pred, next, nt, meas;
	const char *why;
	long rank_meas;
	unsigned idx;
};

static int by_pred(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	/* Best first; no prediction last; at the same prediction the further next limit first, then
	 * list order (qsort is not stable). */
	if (isnan(x->pred) != isnan(y->pred))
		return isnan(x->pred) ? 1 : -1;
	if (x->pred != y->pred && !isnan(x->pred))
		return x->pred < y->pred ? 1 : -1;
	if (isnan(x->next) != isnan(y->next))
		return isnan(x->next) ? 1 : -1;
	if (x->next != y->next && !isnan(x->next))
		return x->next < y->next ? 1 : -1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/* rank_meas: 1 for the fastest measured kernel, list order among equals; 0 if not measured. */
static void rank_measured(struct ranked *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		r[i].rank_meas = 0;
		if (isnan(r[i].meas))
			continue;
		r[i].rank_meas = 1;
		for (size_t j = 0; j < n; j++)
			if (!isnan(r[j].meas) &&
			    (r[j].meas > r[i].meas || (r[j].meas == r[i].meas && r[j].idx < r[i].idx)))
				r[i].rank_meas++;
	}
}

static const char *const rank_cols[] = { "rank", "kernel", "rx", "ry", "bm", "bn", "bk", "threads_per_sm",
	"gflops_predicted", "gflops_measured", "pipe", "bound", "gflops_next_limit", "measured_over_predicted",
	"rank_measured" };

static int add_row(struct gp_table *t, size_t i, const struct ranked *r, char *err, size_t errlen)
{
	const struct gp_tile *tl = r->k->model == GP_KM_TILE ? gp_tile_find(r->k->name) : NULL;
	char rx[16] = "", ry[16] = "", rm[16] = "";

	if (tl) {
		snprintf(rx, sizeof rx, "%d", tl->rx);
		snprintf(ry, sizeof ry, "%d", tl->ry);
	}
	if (r->rank_meas)
		snprintf(rm, sizeof rm, "%ld", r->rank_meas);
	return gp_row_begin(t) || gp_row_int(t, "rank", (long long)i + 1) || gp_row_str(t, "kernel", r->k->name) ||
	       gp_row_str(t, "rx", rx) || gp_row_str(t, "ry", ry) || gp_row_int(t, "bm", tl ? tl->gbm : r->k->bm) ||
	       gp_row_int(t, "bn", tl ? tl->gbn : r->k->bn) || gp_row_int(t, "bk", r->k->bk) ||
	       gp_row_num(t, "threads_per_sm", r->nt) || gp_row_num(t, "gflops_predicted", r->pred) ||
	       gp_row_num(t, "gflops_measured", r->meas) || gp_row_str(t, "pipe", gp_kpipe_name(r->k->pipe)) ||
	       gp_row_str(t, "bound", r->why) || gp_row_num(t, "gflops_next_limit", r->next) ||
	       gp_row_num(t, "measured_over_predicted", r->meas / r->pred) ||
	       gp_row_str(t, "rank_measured", rm) || gp_row_end(t, err, errlen);
}

/* sgemm.csv's label columns (its name parameters and the pipe): the rest is numbers. */
static const char *const sgemm_text_cols[] = { "kernel", "seed_kernel", "precision", "shape", "pipe", "math_mode",
	NULL };

/* The run's sgemm.csv, or NULL with *s NULL when the run has none; -1 with err if unreadable. */
static int load_sgemm(const char *run_dir, struct gp_table **s, char *err, size_t errlen)
{
	char path[4096], lerr[256];

	*s = NULL;
	snprintf(path, sizeof path, "%s/sgemm.csv", run_dir);
	if (access(path, F_OK))
		return 0;
	/* One that is there must read back whole: a corrupt sgemm.csv used to rank on NaN. */
	if (!(*s = gp_table_load(path, lerr, sizeof lerr)) || gp_table_check_numbers(*s, sgemm_text_cols, lerr, sizeof lerr)) {
		snprintf(err, errlen, "%s: %s", path, lerr);
		gp_table_free(*s);
		*s = NULL;
		return -1;
	}
	return 0;
}

static struct gp_table *rank_table(const struct gp_machine *m, const struct gp_table *s, char *err, size_t errlen)
{
	struct ranked r[GP_ARRAY_SIZE(gp_kernels)];
	struct gp_table *t;

	for (unsigned i = 0; i < gp_nkernels; i++) {
		const struct gp_kernel *k = &gp_kernels[i];
		const long row = s ? gp_sgemm_best_row(s, k->name) : -1;
		const double occ = cell(s, row, "active_threads_per_sm");
		/* Unknown occupancy (no row in the run): the blocks per SM its launch bounds ask, else two. */
		const double nt = occ > 0 ? occ : (k->minb > 0 ? k->minb : 2) * (double)k->threads;
		r[i] = (struct ranked){ .k = k, .idx = i, .meas = cell(s, row, "gflops"), .nt = nt };
		r[i].pred = gp_kernel_predict(m, k, nt, cell(s, row, "ceiling_gflops"), &r[i].why, &r[i].next);
	}
	rank_measured(r, gp_nkernels);
	qsort(r, gp_nkernels, sizeof r[0], by_pred);
	if (!(t = gp_table_new(rank_cols, GP_ARRAY_SIZE(rank_cols)))) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	for (unsigned i = 0; i < gp_nkernels; i++)
		if (add_row(t, i, &r[i], err, errlen)) {
			gp_table_free(t);
			return NULL;
		}
	return t;
}

struct gp_table *gp_tune_rank(const char *run_dir, char *err, size_t errlen)
{
	struct gp_machine m;
	struct gp_table *s, *t;

	if (gp_machine_load(run_dir, &m, err, errlen) < 0 || load_sgemm(run_dir, &s, err, errlen))
		return NULL;
	t = rank_table(&m, s, err, errlen);
	gp_table_free(s);
	return t;
}

/* Spearman over the rows with both numbers, of one pipe (or every pipe: pipe < 0), into *n. */
static double rho_of(const struct gp_table *t, int pipe, size_t *n)
{
	double *x = malloc(2 * (t->nrows + 1) * sizeof *x), *y = x ? x + t->nrows + 1 : NULL, rho;

	*n = 0;
	for (size_t r = 0; x && r < t->nrows; r++) {
		const double p = gp_table_num(t, r, "gflops_predicted"), v = gp_table_num(t, r, "gflops_measured");
		const struct gp_kernel *k = gp_kernel_find(gp_table_get(t, r, "kernel"));
		if (isnan(p) || isnan(v) || (pipe >= 0 && (!k || (int)k->pipe != pipe)))
			continue;
		x[*n] = p;
		y[(*n)++] = v;
	}
	rho = x ? gp_spearman(x, y, *n) : NAN;
	free(x);
	return rho;
}

void gp_tune_summarize(const struct gp_table *t, struct gp_tune_summary *s)
{
	double best = -INFINITY;

	*s = (struct gp_tune_summary){ .rho = NAN };
	for (size_t r = 0; r < t->nrows; r++) {
		const double v = gp_table_num(t, r, "gflops_measured");
		if (v > best) {
			best = v;
			s->best = gp_table_get(t, r, "kernel");
			s->best_rank = (long)r + 1;
		}
	}
	s->rho = rho_of(t, -1, &s->n);
	for (int p = GP_KP_FFMA; p <= GP_KP_TC; p++)
		s->rho_pipe[p] = rho_of(t, p, &s->n_pipe[p]);
}

/* ------------------------------------------------------------------ the report */

static void write_md(FILE *md, const struct gp_machine *m, const struct gp_table *t)
{
	static const char *const cols[] = { "rank", "kernel", "pipe", "bound", "gflops_predicted", "gflops_measured",
		"measured_over_predicted", "rank_measured" };
	struct gp_tune_summary s;
	char a[32], b[32], c[32], d[32], e[32];

	gp_tune_summarize(t, &s);
	fprintf(md, "\n## Tuner: predicted against measured (`gpuprobe tune sgemm`)\n\n");
	fprintf(md, "Every ladder kernel by the model of its pipe, from this run's numbers: FFMA tiles by the bound "
		    "model above; 3xTF32 tensor-core kernels by the TF32 rate of the instruction they issue "
		    "(mma.sync %s GFLOP/s, wgmma %s GFLOP/s%s) over the 3 products of a term, capped by their "
		    "`ceiling_gflops`, shared memory feeding their warp tile and L2 feeding their block tile. "
		    "Measured is sgemm.csv's largest ok size. Spearman's rank correlation over the %zu kernels with "
		    "both: **%s** (FFMA alone %s over %zu, tensor alone %s over %zu); the fastest measured, %s, is "
		    "predicted rank %ld (`tune`'s default measures the first %d). File: `tune_rank.csv`.\n\n",
		gp_md_fmt(a, sizeof a, m->tf32_mma_gflops), gp_md_fmt(b, sizeof b, m->tf32_wgmma_gflops),
		m->tf32_wgmma_derived ? ": tput_wgmma's f16 rate x tput_mma's TF32 : f16 ratio" : "", s.n,
		gp_md_fmt(c, sizeof c, s.rho), gp_md_fmt(d, sizeof d, s.rho_pipe[GP_KP_FFMA]), s.n_pipe[GP_KP_FFMA],
		gp_md_fmt(e, sizeof e, s.rho_pipe[GP_KP_TC]), s.n_pipe[GP_KP_TC], s.best ? s.best : "none", s.best_rank,
		GP_TUNE_TOP);
	gp_md_header(md, "rank", "kernel", "pipe", "bound", "predicted GFLOP/s", "measured GFLOP/s", "measured / predicted",
		     "measured rank");
	gp_md_rows(md, t, cols, GP_ARRAY_SIZE(cols));
	fprintf(md, "\nA 3xTF32 kernel's measured / predicted is the share of the tensor rate its split and FP32 "
		    "promotion instructions leave; the FFMA tiles' spread under one prediction is what the tile "
		    "model cannot see (register banks, scheduling: the SASS statistics).\n");
}

int gp_tune_report(const char *run_dir, FILE *md)
{
	char err[512], path[4096];
	struct gp_machine m;
	struct gp_table *s = NULL, *t = NULL;
	const int ml = gp_machine_load(run_dir, &m, err, sizeof err);
	int rc = -1;

	snprintf(path, sizeof path, "%s/sgemm.csv", run_dir);
	if (ml == -2 || (!ml && access(path, F_OK))) {
		if (md)
			fprintf(md, "\n## Tuner: predicted against measured\n\nNot computed: %s.\n",
				ml ? "this run did not measure the FFMA rate (tput_fp32)" : "sgemm did not run in this run");
		return 0;
	}
	if (ml < 0 || load_sgemm(run_dir, &s, err, sizeof err) || !(t = rank_table(&m, s, err, sizeof err)))
		goto out;
	if (gp_table_save_in(t, run_dir, "tune_rank.csv", err, sizeof err))
		goto out;
	if (md)
		write_md(md, &m, t);
	rc = 0;
out:
	if (rc < 0)
		gp_err("tune: %s", err);
	gp_table_free(s);
	gp_table_free(t);
	return rc;
}
