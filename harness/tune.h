/* tune.h — `gpuprobe tune sgemm`: rank every SGEMM ladder kernel by the model of its pipe fed
 * with a run's profile (gp_tune_rank, tune_rank.c), confirm the best-ranked ones with a short
 * measurement on the GPU at hand, and pick the fastest one that computed the right result.
 *
 * The ranking is gp_tune_rank's table, so its columns stay exactly what they are there (the
 * first ten what they were before measuring existed); the measurement is the sgemm experiment's probe for one point through
 * gp_measure (same inputs, check against cuBLAS and timing as a run), run in this process. The
 * steps are separate functions so the host tests can hold each one (selection, pick, columns)
 * without a GPU. */
#ifndef GP_TUNE_H
#define GP_TUNE_H

#include <stdio.h>

#include "experiment.h"
#include "tune_rank.h"

#define GP_TUNE_SIZE 4096  /* M = N = K of the measurement by default */
#define GP_TUNE_REPS 3     /* short: the pick needs the order, not a tight spread */
#define GP_TUNE_WARMUP 1

struct gp_tune_opts {
	const char *run_dir;
	int top, size, device;
	int measure;       /* 0: --no-measure */
};

/* Parse `tune sgemm RUN_DIR [--top N] [--size M] [--device D] [--no-measure]` (argv[0] is
 * "tune"; options may come anywhere). 0, or GP_EUSAGE with one line on stderr. */
int gp_tune_parse(int argc, char **argv, struct gp_tune_opts *o);

/* One output row: a ranked kernel (rank_row >= 0) or the cuBLAS baseline (rank_row < 0, last). */
struct gp_tune_row {
	const char *kernel;
	long rank_row;        /* row of the ranking table; -1 for cuBLAS */
	double predicted;     /* gflops_predicted; NaN for cuBLAS */
	int candidate;        /* chosen for the measurement */
	int measured;         /* gp_measure produced a row for it */
	double gflops, rel_err, ratio_to_cublas;   /* measured now; NaN when not */
	char status[256];
	int pick;
};

struct gp_tune {
	struct gp_table *ranking;  /* gp_tune_rank's table; NULL in synthetic tests */
	struct gp_tune_row *rows;  /* ranking order, then cuBLAS */
	size_t n;
	int size, top;
};

/* The ranking of run_dir into tu, every row not yet a candidate. 0; GP_EUSAGE when run_dir is no
 * run directory, GP_ECONFIG when its CSVs are unusable, GP_EFAIL out of memory (one line each). */
int gp_tune_load(const char *run_dir, struct gp_tune *tu);
void gp_tune_free(struct gp_tune *tu);

/* Status of every row at size^3, and the candidates: the first `top` kernels in rank order that
 * the sgemm experiment can run at that size (tile multiples, a kernel it knows), plus cuBLAS.
 * Kernels that cannot are "n/a: why" and the next ones in rank order take their place. Returns
 * the number of kernel candidates (at most top). */
size_t gp_tune_select(struct gp_tune *tu, int size, int top);

/* Candidate i turned out n/a on the device (its row said so): it stops being a candidate and
 * the next kernel in rank order that is neither n/a nor chosen becomes one. Its index, or -1. */
long gp_tune_replace(struct gp_tune *tu, size_t i);

/* Candidates that stay unmeasured get "not measured: why". */
void gp_tune_unmeasured(struct gp_tune *tu, const char *why);

/* Measure every candidate with the sgemm experiment's probe at tu->size^3 on run's device.
 * 0; GP_EVALID when a row failed its check (its status says why; measuring goes on); or the code
 * of a CUDA or internal error, after which nothing more is measured (the rest say so). */
int gp_tune_measure(struct gp_tune *tu, struct gp_run *run);

/* Set pick on the kernel candidate with the highest measured GFLOP/s whose status is "ok" (cuBLAS
 * is the baseline, never the pick; a tie goes to the better-ranked). Its index, or -1. */
long gp_tune_pick(struct gp_tune *tu);

/* The tidy CSV: gp_tune_rank's columns, then size, gflops_measured_now,
 * measured_now_over_predicted, ratio_to_cublas, rel_err, status, pick. 0 or -1. */
int gp_tune_write(const struct gp_tune *tu, FILE *out);

/* The whole command (argv[0] is "tune"): the exit status (gp.h). */
int gp_tune_main(int argc, char **argv);

#endif
