/* models.h — seed 000 / seed 001 performance models of the SGEMM ladder over a run's CSVs.
 *
 * Rooflines (seed 001 M103-M105, Figure 10), shared-memory arithmetic intensity and the register
 * limit (M101/M102), and two GFLOP/s predictors (seed 000 M001 re-parameterised, and an issue /
 * bandwidth bound model in the spirit of M002/M006). Every GPU property comes from the run's
 * profile.csv and meta.csv; the only constants are each kernel's tile shape, from its line in
 * bench/sgemm.list (LDS widths confirmed against its SASS by tests/test_planner.c). */
#ifndef GP_MODELS_H
#define GP_MODELS_H

#include <stdio.h>

struct gp_table;

/* One SGEMM kernel's tile as the inner loop sees it, per thread and per k step. */
struct gp_tile {
	const char *name;
	int rx, ry;          /* C elements per thread along m and n: rx * ry FFMA per k step */
	int a_words, b_words;/* words read from shared memory per k step (0: A from global) */
	int lds_bytes;       /* LDS width nvcc emits (4, 8, 16); 0 = no shared memory */
	int a_share, b_share;/* lanes of a warp that read the same A / B word (broadcast) */
	int gbm, gbn;        /* tile each global word is reused over (block tile when staged) */
	int bk;              /* k steps per shared tile */
	int threads;         /* threads per block */
	int bm, bn, any, vec4; /* the sizes it accepts: m, n, k multiples of bm, bn, bk unless any */
};

/* Every FFMA kernel of bench/sgemm.list with a model tile, in the list's order. */
extern const struct gp_tile gp_tiles[];
extern const size_t gp_ntiles;
const struct gp_tile *gp_tile_find(const char *name);

/* Measured machine, all from profile.csv + meta.csv. NaN where the run lacks the key. */
struct gp_machine {
	double sms, mhz;               /* SM count, measured SM clock */
	double ffma_per_clk_sm;        /* FFMA ops per clock per SM (tput_fp32) */
	double lds_Bpc[3];             /* LDS.32/.64/.128 bytes per clock per SM (bw_smem) */
	double lds_latency, ffma_latency, l2_latency, hbm_latency;  /* cycles */
	double hbm_GBps, l2_GBps;
	double fp32_gflops;            /* achieved FP32 roof: ffma rate x 2 x SMs x clock */
	/* Dense TF32 tensor rates in GFLOP/s as the probes measured them (each at the clock it
	 * held under its load): mma.sync m16n8k8 (tput_mma) and wgmma (tput_wgmma, m64n256k8).
	 * A run whose tput_wgmma measured f16 only gets the wgmma rate as f16's times the TF32 :
	 * f16 ratio tput_mma measured on mma.sync (m16n8k8 tf32 over m16n8k16 f16, the same
	 * operand bytes); tf32_wgmma_derived says so. */
	double tf32_mma_gflops, tf32_wgmma_gflops;
	int tf32_wgmma_derived;
};

/* Fill m from a run directory; 0, -1 with err if profile.csv / meta.csv are unreadable or a value
 * of profile.csv is not a number (the file, line and column named), -2 with err if they lack the
 * FFMA rate or the SM count / clock (a partial run). */
int gp_machine_load(const char *run_dir, struct gp_machine *m, char *err, size_t errlen);
/* Bytes per clock per SM of an LDS of this width. */
double gp_machine_lds_Bpc(const struct gp_machine *m, int lds_bytes);

/* M101 sAI = 1 / (1/rx + 1/ry) (words loaded from shared memory per FFMA, inverted). */
double gp_sai(int rx, int ry);
/* M102: registers for C tile + double-buffered A and B fragments: rx ry + 2 rx + 2 ry. */
int gp_reg_need(int rx, int ry);
/* M103 global intensity: 2 bm bn bk / (4 (bm bk + bn bk)) flop per byte. */
double gp_intensity_global(int bm, int bn);
/* M104 shared intensity, per-thread bytes requested: 2 rx ry / (4 (a_words + b_words)). */
double gp_intensity_shared(const struct gp_tile *t);
/* Shared intensity in bank traffic: each LDS costs at least one 128-byte wavefront per warp,
 * so broadcast reads cost width/share bytes per thread but never less than 4. */
double gp_intensity_shared_bank(const struct gp_tile *t);

/* Rooflines at an intensity; bound "fp32", "global" or "shared" (the lowest roof; global is the
 * HBM roof, Figure 10's compulsory-traffic view). roof_l2 is the global intensity at the L2 read
 * rate: tile re-reads hit L2, so a kernel between the two global roofs is fed from L2. */
struct gp_roof {
	double i_global, i_shared, i_shared_bank;
	double roof_global, roof_shared, roof_shared_bank, roof_fp32, roof_l2;
	const char *bound;
};
void gp_roofline(const struct gp_machine *m, const struct gp_tile *t, struct gp_roof *r);

/* Seed 000 M001 re-parameterised: 2 N_SM f / (A/b_N + B/b_M + T) with A = g_L/N_T + c,
 * B = g_L/N_T + 2c, T = c + LDS cost per FFMA; c = 1 / FFMA rate, g_L the L2 latency. */
double gp_predict_m001(const struct gp_machine *m, const struct gp_tile *t, double threads_per_sm);
/* Bound model: the FP32 roof scaled by FFMA share of issued instructions, capped by the
 * shared (bank) and global roofs and by latency hiding (warps x ILP vs LDS->FFMA latency). */
double gp_predict_bound(const struct gp_machine *m, const struct gp_tile *t, double threads_per_sm);
/* The same, and which limit set it in *why: "fp32 issue", "latency", "smem banks", "L2 feed". */
double gp_predict_bound_why(const struct gp_machine *m, const struct gp_tile *t, double threads_per_sm,
			    const char **why);

/* The row of sgemm.csv that stands for kernel: its ok row of the largest m n k; -1 if none. */
long gp_sgemm_best_row(const struct gp_table *sgemm, const char *kernel);

/* roofline.csv and models.csv into run_dir, a REPORT.md section into md (may be NULL).
 * 0, or -1 with a message on stderr. */
int gp_models_write(const char *run_dir, FILE *md);

#endif
