/* tune_rank.h — the tuner's model over every SGEMM ladder kernel, held against the run's own
 * measurements: `gpuprobe tune sgemm`'s ranking and REPORT.md's "Tuner" section.
 *
 * One model per pipe, every number from the run (profile.csv, meta.csv, sgemm.csv) or from the
 * kernel's line in bench/sgemm.list:
 * - FFMA kernels with a tile (SG_MODEL): models.c's bound model (FP32 issue share, latency
 *   cover, shared-memory banks, L2 feed);
 * - tensor-core kernels (SG_TCMODEL): the measured TF32 rate of the instruction they issue
 *   divided by the products each term needs (3 for 3xTF32), capped by the kernel's own
 *   ceiling_gflops in sgemm.csv, by shared memory feeding its warp (group) tile and by L2
 *   feeding its block tile;
 * - any other ladder kernel (no model on its line): the FP32 roof capped by L2 feeding its
 *   block tile, an upper bound that says so in its `bound`. */
#ifndef GP_TUNE_RANK_H
#define GP_TUNE_RANK_H

#include <stddef.h>
#include <stdio.h>

struct gp_table;

#define GP_TUNE_TOP 4      /* candidates `gpuprobe tune sgemm` measures by default */

enum gp_kpipe { GP_KP_FFMA, GP_KP_TC };
enum gp_kmodel { GP_KM_NONE, GP_KM_TILE, GP_KM_TC };
/* The tensor instruction a kernel issues: which measured rate (struct gp_machine) it runs at. */
enum gp_tc_inst { GP_TC_mma_sync, GP_TC_wgmma };

/* SG_TCMODEL(inst, passes, wm, wn, a_reads, b_reads) of a list line. */
struct gp_tc_model {
	enum gp_tc_inst inst;
	int passes;          /* tensor products per term: 3 for the 3xTF32 split */
	int wm, wn;          /* C tile of one warp (mma.sync) or one warpgroup (wgmma) */
	int a_reads, b_reads;/* shared-memory reads of each A / B element of that tile per k */
};

/* One SGEMM ladder kernel: every float line of bench/sgemm.list but the cuBLAS baseline. */
struct gp_kernel {
	const char *name;
	enum gp_kpipe pipe;
	int bm, bn, bk, threads, any, vec4;  /* block tile, threads per block, sizes it takes */
	int minb;                            /* its launch bounds' minimum blocks per SM (0: none) */
	enum gp_kmodel model;
	struct gp_tc_model tc;  /* model GP_KM_TC */
};

extern const struct gp_kernel gp_kernels[];
extern const size_t gp_nkernels;
const struct gp_kernel *gp_kernel_find(const char *name);
/* 0 if the sgemm experiment's kernel takes size^3 (square, packed), else -1 with why ("needs
 * m % 192, n % 192, k % 4 == 0"): bench/sgemm_fit.h's rule. */
int gp_kernel_fits(const struct gp_kernel *k, int size, char *why, size_t len);
const char *gp_kpipe_name(enum gp_kpipe p);

/* The model of k's pipe on machine m (tune_rank.h's head): predicted GFLOP/s, NaN if the run
 * cannot say; *why names the limit that set it, *next (may be NULL) the next limit above it.
 * threads_per_sm feeds the FFMA tiles' latency cover, ceiling (the kernel's ceiling_gflops, or
 * NaN) caps a tensor-core kernel. */
struct gp_machine;
double gp_kernel_predict(const struct gp_machine *m, const struct gp_kernel *k, double threads_per_sm,
			 double ceiling, const char **why, double *next);

/* Spearman's rank correlation of x and y (n pairs; ties get their mean rank): the Pearson
 * correlation of the ranks. NaN when n < 2 or either side is constant. */
double gp_spearman(const double *x, const double *y, size_t n);

/* Every ladder kernel ranked by predicted GFLOP/s, best first (a kernel the run cannot predict
 * last, in list order). Columns: rank, kernel, rx, ry, bm, bn, bk, threads_per_sm,
 * gflops_predicted, gflops_measured (sgemm.csv's ok row at the largest size; nan if none), pipe,
 * bound (the limit that set the prediction), gflops_next_limit (the next limit above it, which
 * orders kernels at the same prediction: the further one first), measured_over_predicted,
 * rank_measured (1 = the fastest measured; empty if not measured). NULL with err (file named) when the run's profile,
 * meta or sgemm.csv cannot be read or lack what the FFMA model needs. */
struct gp_table *gp_tune_rank(const char *run_dir, char *err, size_t errlen);

/* What a ranking says as a whole: Spearman's rho over the kernels with both numbers, how many,
 * the measured best kernel and its predicted rank (0 if nothing was measured). */
struct gp_tune_summary {
	double rho;
	size_t n;
	double rho_pipe[2];  /* the same within one pipe (enum gp_kpipe) */
	size_t n_pipe[2];
	const char *best;   /* a cell of the ranking table */
	long best_rank;
};
void gp_tune_summarize(const struct gp_table *ranking, struct gp_tune_summary *s);

/* tune_rank.csv into run_dir and the REPORT.md section "Tuner: predicted against measured" into
 * md (may be NULL); a run without sgemm.csv or the FFMA rate gets a line saying so. 0, or -1
 * with one line on stderr. */
int gp_tune_report(const char *run_dir, FILE *md);

#endif
