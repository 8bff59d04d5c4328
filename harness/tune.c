/* tune.c — `gpuprobe tune sgemm`: the model's ranking, confirmed by a short measurement.
 *
 * What: gp_tune_rank (tune_rank.c) ranks every SGEMM ladder kernel, FFMA and tensor-core, by the
 * GFLOP/s the model of its pipe predicts from the run's profile, beside what the run measured;
 * the best-ranked kernels the sgemm experiment can run at M^3 are measured
 * with that experiment's own probe through gp_measure (the same poisoned-output check against
 * cuBLAS and the same batched event timing as a run, only fewer repetitions), cuBLAS beside
 * them, and the fastest correct kernel is the pick. The bench is reached only through the registry
 * (the experiment's parameters and probe) and the kernel table bench/sgemm.list generates. Pattern: load, select, measure, pick, write are separate so
 * tests/test_tune.c can hold each on the host. Pitfalls: measuring runs in this process (a
 * kernel fault ends the measuring: the context is gone, the remaining rows say so); a machine
 * without a GPU still gets the ranking (exit 0), but a GPU named with --device that cannot be
 * opened on a machine that has GPUs is an error (exit 4), not a silent fallback. */
#include "tune.h"
#include "gp.h"
#include "blas.h"
#include "device.h"
#include "md.h"
#include "models.h"
#include "suite.h"
#include "table.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Appended to gp_tune_rank's columns. `gflops_measured` stays what it was (the run's sgemm.csv,
 * its largest ok size); what is measured now, on this GPU, is `gflops_measured_now`. */
static const char *const extra_cols[] = { "size", "gflops_measured_now", "measured_now_over_predicted",
	"ratio_to_cublas", "rel_err", "status", "pick" };

#define TUNE_EXPERIMENT "sgemm"
#define BASELINE "cublas"

/* ------------------------------------------------------------------ command line */

static const struct gp_param *sgemm_param(const char *name)
{
	const struct gp_experiment *e = gp_experiment_find(TUNE_EXPERIMENT);

	for (size_t i = 0; e && i < e->impl->nparams; i++)
		if (!strcmp(e->impl->params[i].name, name))
			return &e->impl->params[i];
	return NULL;
}

static int bad_number(const char *opt, const char *v, long min, long max)
{
	gp_err("tune: %s: '%s' is not an integer in %ld..%ld", opt, v, min, max);
	return GP_EUSAGE;
}

int gp_tune_parse(int argc, char **argv, struct gp_tune_opts *o)
{
	static const struct option opts[] = {
		{ "top", required_argument, NULL, 't' },    { "size", required_argument, NULL, 's' },
		{ "device", required_argument, NULL, 'd' }, { "no-measure", no_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	/* The size range is the sgemm experiment's own m range, so the two cannot drift apart. */
	const struct gp_param *pm = sgemm_param("m");
	const long smin = pm ? pm->min : 1, smax = pm ? pm->max : 16384;
	long v;
	int c;

	*o = (struct gp_tune_opts){ .top = GP_TUNE_TOP, .size = GP_TUNE_SIZE, .measure = 1 };
	optind = 0; /* a fresh getopt scan, whoever scanned before (main, or a test calling again) */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'n': o->measure = 0; break;
		case 't':
			if (gp_parse_long(optarg, 1, (long)gp_nkernels, &v))
				return bad_number("--top", optarg, 1, (long)gp_nkernels);
			o->top = (int)v;
			break;
		case 's':
			if (gp_parse_long(optarg, smin, smax, &v))
				return bad_number("--size", optarg, smin, smax);
			o->size = (int)v;
			break;
		case 'd':
			if (gp_parse_long(optarg, 0, 63, &v))
				return bad_number("--device", optarg, 0, 63);
			o->device = (int)v;
			break;
		default: {
			const char *arg = optind > 0 ? argv[optind - 1] : "?";
			if (!strncmp(arg, "--", 2) && optopt)
				gp_err("tune: option '%s' needs a value (gpuprobe --help)", arg);
			else
				gp_err("tune: option '%s' is not known (gpuprobe --help)", arg);
			return GP_EUSAGE;
		}
		}
	}
	if (argc - optind != 2 || strcmp(argv[optind], "sgemm")) {
		gp_err("tune: usage: gpuprobe tune sgemm RUN_DIR [--top N] [--size M] [--device D] [--no-measure]");
		return GP_EUSAGE;
	}
	o->run_dir = argv[optind + 1];
	return 0;
}

/* ------------------------------------------------------------------ load */

static double num(const struct gp_table *t, size_t r, const char *col)
{
	double v;

	/* gp_table_get_double refuses "nan": that is exactly a missing value here. */
	return gp_table_get_double(t, r, col, &v) ? NAN : v;
}

void gp_tune_free(struct gp_tune *tu)
{
	gp_table_free(tu->ranking);
	free(tu->rows);
	memset(tu, 0, sizeof *tu);
}

/* A run directory is what `run` wrote: a directory with profile.csv and meta.csv. Anything else
 * is a wrong argument (exit 2, as for `report`), not a bad CSV. */
static int check_run_dir(const char *dir)
{
	static const char *const need[] = { "profile.csv", "meta.csv" };
	char path[4096];
	struct stat st;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		gp_err("tune: '%s' is not a directory", dir);
		return GP_EUSAGE;
	}
	for (size_t i = 0; i < GP_ARRAY_SIZE(need); i++) {
		snprintf(path, sizeof path, "%s/%s", dir, need[i]);
		if (access(path, R_OK)) {
			gp_err("tune: '%s' is not a run directory (no readable %s)", dir, need[i]);
			return GP_EUSAGE;
		}
	}
	return 0;
}

int gp_tune_load(const char *run_dir, struct gp_tune *tu)
{
	char err[512];
	int rc;

	memset(tu, 0, sizeof *tu);
	if ((rc = check_run_dir(run_dir)))
		return rc;
	if (!(tu->ranking = gp_tune_rank(run_dir, err, sizeof err))) {
		gp_err("tune: %s", err);
		return GP_ECONFIG;
	}
	tu->n = tu->ranking->nrows + 1;
	if (!(tu->rows = calloc(tu->n, sizeof *tu->rows))) {
		gp_err("tune: out of memory");
		gp_tune_free(tu);
		return GP_EFAIL;
	}
	for (size_t i = 0; i < tu->n; i++) {
		struct gp_tune_row *r = &tu->rows[i];
		const int base = i + 1 == tu->n;
		r->kernel = base ? BASELINE : gp_table_get(tu->ranking, i, "kernel");
		r->rank_row = base ? -1 : (long)i;
		r->predicted = base ? NAN : num(tu->ranking, i, "gflops_predicted");
		r->gflops = r->rel_err = r->ratio_to_cublas = NAN;
	}
	return 0;
}

/* ------------------------------------------------------------------ select */

/* 0 when the sgemm experiment can run kernel at size^3, else -1 with why: the kernel is one of the
 * experiment's (its parameter's choices) and its block tile takes the size (gp_kernel_fits). */
static int runnable(const char *kernel, int size, char *why, size_t len)
{
	const struct gp_param *pk = sgemm_param("kernel");
	const struct gp_kernel *k = gp_kernel_find(kernel);
	struct gp_values vals;
	char err[256];

	/* Both tables come from bench/sgemm.list; a kernel of one and not the other (an edited
	 * build) is skipped rather than measured under another name. */
	if (!k || !pk || gp_param_values(pk, kernel, &vals, err, sizeof err)) {
		snprintf(why, len, "not a kernel of the %s experiment in this build", TUNE_EXPERIMENT);
		return -1;
	}
	gp_values_free(&vals);
	return gp_kernel_fits(k, size, why, len);
}

size_t gp_tune_select(struct gp_tune *tu, int size, int top)
{
	size_t chosen = 0;

	tu->size = size;
	tu->top = top;
	for (size_t i = 0; i < tu->n; i++) {
		struct gp_tune_row *r = &tu->rows[i];
		char why[200];

		r->candidate = r->measured = r->pick = 0;
		r->gflops = r->rel_err = r->ratio_to_cublas = NAN;
		if (r->rank_row < 0) {
			r->candidate = 1;   /* the baseline is always measured beside the candidates */
			snprintf(r->status, sizeof r->status, "not measured");
		} else if (runnable(r->kernel, size, why, sizeof why)) {
			snprintf(r->status, sizeof r->status, "n/a: %s", why);
		} else if (chosen < (size_t)top) {
			r->candidate = 1;
			chosen++;
			snprintf(r->status, sizeof r->status, "not measured");
		} else {
			snprintf(r->status, sizeof r->status, "not measured: ranked below the %d candidates", top);
		}
	}
	return chosen;
}

void gp_tune_unmeasured(struct gp_tune *tu, const char *why)
{
	for (size_t i = 0; i < tu->n; i++)
		if (tu->rows[i].candidate && !tu->rows[i].measured)
			snprintf(tu->rows[i].status, sizeof tu->rows[i].status, "not measured: %s", why);
}

long gp_tune_replace(struct gp_tune *tu, size_t i)
{
	struct gp_tune_row *r = &tu->rows[i];

	r->candidate = 0;
	for (size_t j = i + 1; j < tu->n; j++) {
		struct gp_tune_row *next = &tu->rows[j];
		/* Not n/a on the host and not already chosen: the next kernel in rank order. */
		if (next->rank_row < 0 || next->candidate || gp_status_na(next->status))
			continue;
		next->candidate = 1;
		snprintf(next->status, sizeof next->status, "not measured");
		return (long)j;
	}
	return -1;
}

/* ------------------------------------------------------------------ measure */

/* One sgemm point (m = size, n = k = m, this kernel) through gp_measure and the experiment's probe. */
static int measure_one(struct gp_run *run, const struct gp_experiment *e, int size, struct gp_tune_row *r,
		       struct gp_table *t)
{
	struct gp_suite_item item = { .exp = e };
	struct gp_sweep sw;
	struct gp_point pt;
	char m[16], err[256];
	const size_t before = t->nrows;
	int rc;

	snprintf(m, sizeof m, "%d", size);
	for (size_t k = 0; k < e->impl->nparams; k++) {
		if (!strcmp(e->impl->params[k].name, "m"))
			item.values[k] = m;
		else if (!strcmp(e->impl->params[k].name, "kernel"))
			item.values[k] = (char *)r->kernel;
	}
	if (gp_sweep_init(&sw, &item, err, sizeof err)) {
		gp_err("internal: tune: %s %s: %s", TUNE_EXPERIMENT, r->kernel, err);
		return GP_EFAIL;
	}
	gp_sweep_point(&sw, 0, &pt);
	rc = gp_measure(run, e->impl, &pt, t);
	gp_sweep_free(&sw);
	if (t->nrows > before) {
		const size_t row = t->nrows - 1;
		const char *st = gp_table_get(t, row, "status");
		r->measured = 1;
		r->gflops = num(t, row, "gflops");
		r->rel_err = num(t, row, "rel_err");
		r->ratio_to_cublas = num(t, row, "ratio_to_cublas");
		snprintf(r->status, sizeof r->status, "%s", st ? st : "no status");
	}
	return rc;
}

int gp_tune_measure(struct gp_tune *tu, struct gp_run *run)
{
	const struct gp_experiment *e = gp_experiment_find(TUNE_EXPERIMENT);
	struct gp_table *t;
	size_t ncand = 0, done = 0;
	int worst = 0;

	if (!e || !(t = gp_table_new(e->impl->columns, e->impl->ncolumns))) {
		gp_err("internal: tune: no %s experiment, or out of memory", TUNE_EXPERIMENT);
		return GP_EFAIL;
	}
	for (size_t i = 0; i < tu->n; i++) {
		struct gp_tune_row *r = &tu->rows[i];
		int rc;

		if (!r->candidate)
			continue;
		ncand = done;
		for (size_t j = i; j < tu->n; j++)
			ncand += tu->rows[j].candidate;
		gp_info("gpuprobe: tune: [%zu/%zu] %s at %d^3\n", ++done, ncand, r->kernel, tu->size);
		rc = measure_one(run, e, tu->size, r, t);
		if (!rc && r->rank_row >= 0 && gp_status_na(r->status)) {
			/* n/a only the device can tell (e.g. tensor cores this GPU lacks): like a kernel
			 * the size rules out, it gives its place to the next one in rank order. */
			r->measured = 0;
			done--;
			gp_tune_replace(tu, i);
		} else if (rc == GP_EVALID) {
			worst = GP_EVALID;   /* the row says why; the other candidates still count */
		} else if (rc) {
			/* In-process: after a CUDA error the context is unusable, so stop here. */
			if (!r->measured)
				snprintf(r->status, sizeof r->status, "not measured: %s", gp_last_error());
			gp_tune_unmeasured(tu, "an earlier error ended the measurement");
			worst = rc;
			break;
		}
	}
	gp_table_free(t);
	return worst;
}

/* ------------------------------------------------------------------ pick */

long gp_tune_pick(struct gp_tune *tu)
{
	long best = -1;

	for (size_t i = 0; i < tu->n; i++) {
		struct gp_tune_row *r = &tu->rows[i];

		r->pick = 0;
		/* A wrong result is never fast enough; the baseline is what the pick is held against. */
		if (r->rank_row < 0 || !r->candidate || !r->measured || strcmp(r->status, "ok") || !(r->gflops > 0))
			continue;
		if (best < 0 || r->gflops > tu->rows[best].gflops)
			best = (long)i;
	}
	if (best >= 0)
		tu->rows[best].pick = 1;
	return best;
}

/* ------------------------------------------------------------------ write */

int gp_tune_write(const struct gp_tune *tu, FILE *out)
{
	const struct gp_table *rk = tu->ranking;
	const char **cols;
	struct gp_table *t = NULL;
	char err[256];
	int rc = -1;

	if (!rk)
		return -1;
	if (!(cols = calloc(rk->ncols + GP_ARRAY_SIZE(extra_cols), sizeof *cols)))
		return -1;
	/* gp_tune_rank's columns first: the interface scripts know. */
	for (size_t c = 0; c < rk->ncols; c++)
		cols[c] = rk->cols[c];
	for (size_t c = 0; c < GP_ARRAY_SIZE(extra_cols); c++)
		cols[rk->ncols + c] = extra_cols[c];
	if (!(t = gp_table_new(cols, rk->ncols + GP_ARRAY_SIZE(extra_cols))))
		goto out;
	for (size_t i = 0; i < tu->n; i++) {
		const struct gp_tune_row *r = &tu->rows[i];

		if (gp_row_begin(t))
			goto out;
		for (size_t c = 0; c < rk->ncols; c++) {
			const char *v = r->rank_row >= 0 ? gp_table_get(rk, (size_t)r->rank_row, rk->cols[c])
							 : !strcmp(rk->cols[c], "kernel") ? r->kernel : "";
			if (gp_row_str(t, rk->cols[c], v))
				goto out;
		}
		if (gp_row_int(t, "size", tu->size) || gp_row_num(t, "gflops_measured_now", r->gflops) ||
		    gp_row_num(t, "measured_now_over_predicted", r->gflops / r->predicted) ||
		    gp_row_num(t, "ratio_to_cublas", r->ratio_to_cublas) || gp_row_num(t, "rel_err", r->rel_err) ||
		    gp_row_str(t, "status", r->status) || gp_row_int(t, "pick", r->pick) || gp_row_end(t, err, sizeof err))
			goto out;
	}
	rc = gp_table_write(t, out) ? -1 : 0;
out:
	gp_table_free(t);
	free(cols);
	return rc;
}

/* ------------------------------------------------------------------ the command */

/* Whether this machine has a GPU at all (a driver that reports one or more devices). */
static int machine_has_gpu(void)
{
	char why[256];

	return gp_cu_load(why, sizeof why) == 0;
}

/* The model against the run's own sgemm table, whatever is measured now. */
static void model_summary(const struct gp_tune *tu)
{
	struct gp_tune_summary s;
	char rho[32];

	gp_tune_summarize(tu->ranking, &s);
	if (!s.best)
		return;
	gp_info("gpuprobe: tune: the model against the run's sgemm.csv: Spearman rho %s over %zu kernels; "
		"its fastest, %s, is predicted rank %ld of %zu\n", gp_md_fmt(rho, sizeof rho, s.rho), s.n, s.best,
		s.best_rank, tu->ranking->nrows);
}

static void summary(const struct gp_tune *tu, long pick)
{
	const struct gp_tune_row *r;
	const struct gp_tile *tl;
	const struct gp_kernel *k;

	if (pick < 0)
		return;
	r = &tu->rows[pick];
	tl = gp_tile_find(r->kernel);
	k = gp_kernel_find(r->kernel);
	gp_info("gpuprobe: tune: pick %s (rank %ld", r->kernel, r->rank_row + 1);
	if (tl)
		gp_info("; %d x %d per thread, %d x %d block tile, bk %d", tl->rx, tl->ry, tl->gbm, tl->gbn, tl->bk);
	else if (k)
		gp_info("; %s, %d x %d block tile, bk %d", gp_kpipe_name(k->pipe), k->bm, k->bn, k->bk);
	gp_info("): %.0f GFLOP/s at %d^3, %.2f of predicted, %.2f of cuBLAS\n", r->gflops, tu->size,
		r->gflops / r->predicted, r->ratio_to_cublas);
}

int gp_tune_main(int argc, char **argv)
{
	struct gp_tune_opts o;
	struct gp_tune tu;
	struct gp_device dev = { 0 };
	struct gp_run run = { .dev = &dev, .reps = GP_TUNE_REPS, .warmup = GP_TUNE_WARMUP };
	char why[512];
	int rc, mrc = 0, opened = 0;
	long pick;

	if ((rc = gp_tune_parse(argc, argv, &o)))
		return rc;
	if ((rc = gp_tune_load(o.run_dir, &tu)))
		return rc;
	if (!gp_tune_select(&tu, o.size, o.top))
		gp_info("gpuprobe: tune: no ranked tile runs at %d^3 (tile multiples): only cuBLAS is measured\n", o.size);
	if (!o.measure) {
		gp_tune_unmeasured(&tu, "--no-measure");
	} else if ((rc = gp_device_open(&dev, o.device, why, sizeof why))) {
		/* No GPU here is not an error for tune: the ranking is still the answer. A GPU that
		 * exists but cannot be opened (or a --device past the last one) is. */
		if (machine_has_gpu()) {
			gp_err("tune: %s", why);
			goto out;
		}
		rc = 0;
		gp_tune_unmeasured(&tu, "no GPU");
		fprintf(stderr, "gpuprobe: tune: nothing measured, the ranking is the model's alone: %s\n", why);
	} else if ((rc = gp_blas_load(why, sizeof why))) {
		gp_err("tune: the cuBLAS baseline and reference: %s", why);
		goto out;
	} else {
		opened = 1;
		mrc = gp_tune_measure(&tu, &run);
	}
	pick = gp_tune_pick(&tu);
	if (gp_tune_write(&tu, stdout) || fflush(stdout)) {
		gp_err("tune: writing the table to stdout failed");
		rc = GP_EIO;
		goto out;
	}
	/* Hard errors said what they were when they happened; a failed check is only in its row,
	 * and it is the run's exit 5 (README "Errors") even when another candidate was picked. */
	if (mrc == GP_EVALID)
		gp_err("tune: a candidate failed its check at %d^3 (its status says why)%s", o.size,
		       pick < 0 ? ": nothing picked" : "");
	else if (opened && !mrc && pick < 0)
		gp_info("gpuprobe: tune: no tile ran at %d^3 on this GPU: nothing picked\n", o.size);
	model_summary(&tu);
	summary(&tu, pick);
	rc = mrc;
out:
	if (opened)
		gp_blas_unload();
	if (dev.ctx)
		gp_device_close(&dev);
	gp_tune_free(&tu);
	return rc;
}
