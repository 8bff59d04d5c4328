/* tsm2_bench.h — what the TSM2X points (bench/tsm2.c) share with their inputs (bench/tsm2_env.c):
 * the process's own measurements the rates are held against, and the problem cached across the
 * points that share (m, k, n, precision). Bench side only: these need the device and the kernels'
 * images, which the model (tsm2_model.h) and the report (tsm2_report.c) must not. */
#ifndef GP_TSM2_BENCH_H
#define GP_TSM2_BENCH_H

#include <stdint.h>

#include "cu.h"
#include "tsm2_model.h"

struct gp_run;
struct gp_device;

/* Timed batches of every TSM2X measurement: at least this long, at most this many launches. */
#define TSM2_BATCH_MS 2.0
#define TSM2_MAX_BATCH 1000
/* NaN elements allocated after every matrix: a kernel that reads past its data shows it. */
#define TSM2_SLACK 1024

/* The embedded image that holds grid entry `instance` (tsm2_instance); NULL past the last. */
const unsigned char *tsm2_image(int instance);

/* Measured once per experiment, before the first point that needs them (tsm2_env_get). */
struct tsm2_env {
	int done;
	double clock_mhz;      /* SM clock under an FFMA load */
	double stream_gbps;    /* streaming HBM read rate: the denominator of pct_of_hbm_read */
	double lat_clk;        /* global-memory latency in SM clocks: the model's latency_mem */
	double datasheet_gbps; /* 2 x memory clock x bus width: the bandwidth ceiling */
};
extern struct tsm2_env tsm2_env;
int tsm2_env_get(struct gp_run *run);
/* The model's figures: the device's attributes and tsm2_env; lat_comp <= 0 takes FFMA 4 / DFMA 8. */
void tsm2_hw_fill(const struct gp_device *d, int elem, double lat_comp, struct tsm2_hw *hw);
int tsm2_fma_lanes(const struct gp_device *d, int elem);

/* A and B from the hash, the cuBLAS result R (on the device and in hR) and cuBLAS's time. */
struct tsm2_problem {
	int m, k, n, elem, ready;
	CUdeviceptr A, B, R;
	void *hR;
	double ref_err; /* cuBLAS against host dot products on sampled entries */
	double blas_ms; /* cuBLAS's median time per launch (the harness's timed batches) */
};
/* The problem (m, k, n, elem), made on first use; 0 or an error (the previous one is freed). */
int tsm2_problem_get(struct gp_run *run, int m, int k, int n, int elem, const struct tsm2_problem **out);
/* C = A B by cuBLAS into out (ld = m). */
int tsm2_blas(const struct tsm2_problem *p, CUdeviceptr out);

#endif
