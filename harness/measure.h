/* measure.h — the harness measures; a probe declares.
 *
 * A probe is a const struct gp_probe: which runner times it, a setup() that states its buffers,
 * kernel, launch geometry and arguments, and optional hooks for what differs from the common
 * case. The harness (measure.c) does the rest for every sweep point: allocation and poisoning,
 * warm-up, repetitions, the clock sample, read-back, statistics (min / median / max / spread per
 * metric), the standard checks and status, the row and the clean-up. A probe author never writes
 * a repetition loop, a statistics call, a status string of the standard checks or a free().
 *
 * Metrics and columns meet by name: a metric "x" recorded with gp_sample() fills the columns
 * "x" (median), "x_min", "x_max" and "x_spread" wherever the experiment declares them; "spread"
 * is the primary metric's spread, "clock_MHz" the median SM clock of the repetitions, "reps" the
 * repetitions, "status" the status, and a column named like a parameter gets the point's value.
 * Anything else is set by the probe (gp_meas_num / _int / _str). */
#ifndef GP_MEASURE_H
#define GP_MEASURE_H

#include <stddef.h>

#include "device.h"
#include "experiment.h"

enum gp_runner {
	GP_RUN_SYNC,  /* launch and wait: the numbers come from buffers read back (in-kernel clock64) */
	GP_RUN_EVENT, /* one launch per repetition between two CUDA events: metric time_ms */
	GP_RUN_BATCH, /* batches of launches lasting ~batch_ms: time_ms per launch */
};

/* A buffer's poison: written (cuMemsetD8) before every repetition so stale results show. */
#define GP_NO_POISON (-1)
#define GP_POISON_NAN 0xff

/* When a read-back buffer is copied to the host: after every repetition (warm-up included, so
 * sample() can check each one) or once, after the last. */
enum gp_readback { GP_EVERY_REP, GP_LAST_REP };

enum gp_probe_flags {
	GP_PROBE_EVENT_CLOCK = 1, /* the clock sample is taken once, after the last repetition */
};

struct gp_meas;

struct gp_probe {
	enum gp_runner runner;
	const void *image; /* the embedded module gp_meas_kernel() loads from (NULL: gp_meas_kernel_image only) */
	/* Buffers, kernel, geometry, arguments, host reference (ctx). 0, or an error from the
	 * gp_meas_* calls; gp_meas_na()/gp_meas_fail() make a row without measurements. */
	int (*setup)(struct gp_meas *m);
	/* Optional. Enqueue one repetition's work when it is not the one kernel setup() named
	 * (several kernels, a copy, a library call); GP_RUN_BATCH calls it per launch. */
	int (*launch)(struct gp_meas *m);
	/* Optional. Before each repetition, warm-up included (m->rep < 0). */
	int (*before)(struct gp_meas *m);
	/* Optional. After each repetition's work (GP_RUN_BATCH: once, after the timed batches),
	 * outside the timing and before the read-back: e.g. a kernel that samples the SM clock into
	 * gp_meas_clock()'s buffer under the load the work left. */
	int (*after)(struct gp_meas *m);
	/* Optional. After each repetition and its read-back, warm-up included: gp_sample() the
	 * numbers (warm-up samples are dropped) and check results. */
	void (*sample)(struct gp_meas *m);
	/* Optional. After the statistics: derived columns, ceilings. */
	void (*finish)(struct gp_meas *m);
	/* Optional. Free what setup() made beyond the gp_meas buffers, modules and host memory. */
	void (*cleanup)(struct gp_meas *m);
	/* Optional. Why this point's kernel may fault on purpose (a patched kernel made to use a
	 * register before its load lands), or NULL. A CUDA error of such a point is its result: the
	 * isolation layer writes its row as "expected-fault: <why>: <error>", which does not fail
	 * the run (gp_status_rc); a fault of any other point still does. */
	const char *(*expect_fault)(const struct gp_point *pt);
	const char *primary; /* the metric whose spread is the row's "spread" */
	size_t ctx_size;     /* zeroed per-point state for the hooks (m->ctx) */
	double batch_ms;     /* GP_RUN_BATCH: target batch length (default 20 ms) */
	int max_batch;       /* GP_RUN_BATCH: most launches per batch (default 1000) */
	/* At least this many timed repetitions, whatever --reps says: for a probe whose repetitions
	 * are cheap and whose times can be bimodal (HBM streaming), so that its best repetition and
	 * its median are each a steady statistic. 0: the run's --reps. */
	int min_reps;
	unsigned flags;
};

#define GP_MEAS_MAX_ARGS 24

struct gp_meas {
	struct gp_run *run;
	struct gp_device *dev;
	const struct gp_point *pt;
	const struct gp_probe *probe;
	void *ctx;
	int rep;  /* the repetition in hand: -warmup … -1 are warm-up */
	int reps; /* timed repetitions: the minimum, then (after them) how many ran */
	int cap;  /* the most repetitions this point may take */
	int batch; /* GP_RUN_BATCH: launches per batch that were timed */
	double rep_ms; /* GP_RUN_EVENT: this repetition's event time (for sample()) */
	/* The launch setup() declares (GP_RUN_SYNC/EVENT without a launch hook). */
	CUfunction fn;
	unsigned grid, block, smem;
	unsigned grid_y, grid_z, block_y, block_z; /* 0 means 1 */
	void *args[GP_MEAS_MAX_ARGS];
	size_t nargs;
	struct gp_meas_priv *priv;
};

/* ---- setup */
/* Spread the repetitions over n contexts: the setup's own (the run's) and n - 1 fresh ones, each
 * made for the purpose, set up again (setup() runs in each: its buffers are new allocations there)
 * and destroyed after its share, the row's statistics over them all; the last context's read-back
 * is what finish() checks. For a rate that a context's state decides and that stays steady
 * within it (the L2 read of a small footprint: 6.8-7.4 TB/s from one context to the next in one
 * process on an H100, each within 0.5 %), so that the row is the GPU's rather than one
 * context's. Call it in setup() before anything is sampled; at most GP_MAX_CONTEXTS. Not for a
 * probe that keeps device state across points (gp_meas_keep, a cuBLAS handle): that lives in the
 * run's context only. */
#define GP_MAX_CONTEXTS 64
void gp_meas_contexts(struct gp_meas *m, int n);

/* The kernel `name` from the probe's image (printf-style name). */
int gp_meas_kernel(struct gp_meas *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The kernel `name` from a module image only this point uses (a patched cubin); unloaded after. */
int gp_meas_kernel_image(struct gp_meas *m, const void *image, const char *name);
void gp_meas_launch(struct gp_meas *m, unsigned grid, unsigned block, unsigned smem);
/* The same with a 2-D grid and block (dynamic shared memory above 48 KiB is opted into). */
void gp_meas_launch_2d(struct gp_meas *m, unsigned gx, unsigned gy, unsigned bx, unsigned by, unsigned smem);
/* The kernel's arguments, in order: pointers to values that live as long as the point (ctx). */
void gp_meas_args_(struct gp_meas *m, void *const *args, size_t n);
#define gp_meas_args(m, ...)                                                                        \
	gp_meas_args_((m), (void *const[]){ __VA_ARGS__ }, sizeof((void *const[]){ __VA_ARGS__ }) / sizeof(void *))
/* A device buffer, freed after the point; poisoned before every repetition unless GP_NO_POISON.
 * A failed allocation is GP_ECUDA. */
int gp_meas_buf(struct gp_meas *m, CUdeviceptr *d, size_t bytes, int poison);
/* The same for a size the sweep chose: one larger than the device's memory or than what is free
 * makes the point n/a (returns 1, the caller returns 0 from setup). */
int gp_meas_buf_fit(struct gp_meas *m, CUdeviceptr *d, size_t bytes, int poison);
/* After gp_meas_kernel: a point asking for more blocks of `threads` per SM than the kernel can
 * keep resident is n/a (returns 1, the caller returns 0 from setup): its rate would be of fewer
 * warps than the row says. */
int gp_meas_resident(struct gp_meas *m, int threads, int blocks_per_sm);
/* The parameters of the throughput grid those points ask for: blocks_per_sm resident blocks of
 * `threads` on every SM (8 x 256 by default: 64 warps, the most an SM holds since Volta). */
#define GP_PARAMS_TPUT_GRID                                                                         \
	{ "blocks_per_sm", GP_PARAM_INT, 1, 32, NULL, "8", "resident blocks per SM" },              \
	{ "threads", GP_PARAM_INT, 32, 1024, NULL, "256", "threads per block" }
/* Upload host data into a buffer once (before the warm-up). */
int gp_meas_upload(struct gp_meas *m, CUdeviceptr d, const void *src, size_t bytes);
/* An input: a buffer holding src's bytes, uploaded once and never poisoned (gp_meas_buf +
 * gp_meas_upload). */
int gp_meas_input(struct gp_meas *m, CUdeviceptr *d, const void *src, size_t bytes);
/* A host copy of a device buffer, refreshed as `when` says; owned by the harness. */
void *gp_meas_readback(struct gp_meas *m, CUdeviceptr d, size_t bytes, enum gp_readback when);
/* Zeroed host memory owned by the harness (freed after the point), NULL when out of memory. */
void *gp_meas_host(struct gp_meas *m, size_t bytes);
/* The clock-sample buffer the kernel writes (probes/probe.cuh); asking for it makes clock_MHz a
 * measured column and a sample too short to trust a failed row. */
CUdeviceptr *gp_meas_clock(struct gp_meas *m);
/* This repetition's clock sample as the kernel wrote it (for sample()); NULL without one. */
const struct gp_clock_sample *gp_meas_clock_sample(const struct gp_meas *m);
/* For work that writes no clock sample (a copy, a library call): clock_MHz is the clock of the
 * harness's spin kernel run right after the repetitions, as for a point whose own samples were
 * all too short, and a spin too short to measure fails the row the same way. */
void gp_meas_spin_clock(struct gp_meas *m);

/* ---- values */
/* One repetition's value of a metric (dropped during warm-up). */
void gp_sample(struct gp_meas *m, const char *metric, double v);
enum gp_stat { GP_MEDIAN, GP_MIN, GP_MAX, GP_SPREAD, GP_MEAN };
/* A metric's statistic over the timed repetitions; NaN when it has none. */
double gp_meas_stat(const struct gp_meas *m, const char *metric, enum gp_stat s);
/* Median SM clock in MHz of the repetitions; NaN without a clock sample. */
double gp_meas_mhz(const struct gp_meas *m);
/* The column latency_ns: the median of a cycles metric at the measured clock; returns that median. */
double gp_meas_latency_ns(struct gp_meas *m, const char *cycles_metric);
/* Cells of the row that are neither metrics nor parameters. */
void gp_meas_num(struct gp_meas *m, const char *col, double v);
void gp_meas_int(struct gp_meas *m, const char *col, long long v);
void gp_meas_str(struct gp_meas *m, const char *col, const char *v);
/* A parameter of the point (shorthands for gp_point_int/str). */
long gp_meas_param(const struct gp_meas *m, const char *name);
const char *gp_meas_param_str(const struct gp_meas *m, const char *name);

/* ---- a baseline inside a point */
/* From setup(): launch(arg) timed at m's point as a GP_RUN_BATCH probe's launch is (warm-up, then
 * batches of about batch_ms of at most max_batch launches), its median time per launch in *ms when
 * the timing finishes: a problem's library baseline, when the row that times it has not run yet.
 * 0, or the measurement's error. */
int gp_meas_batch_ms(struct gp_meas *m, int (*launch)(const void *arg), const void *arg, double batch_ms,
		     int max_batch, double *ms);

/* The reason the experiment's probe gives to expect a fault at this point, or NULL. */
const char *gp_expected_fault(const struct gp_exp_impl *im, const struct gp_point *pt);

/* ---- state kept across points */
/* A probe that keeps state for the points after this one (a GEMM problem's host inputs and its
 * cuBLAS time, device buffers consecutive points share) registers how to let it go: gp_measure_end
 * calls it once the experiment's points are done, so no experiment sees what another kept, as
 * when each had a process of its own. Registering a function again is a no-op. */
void gp_meas_keep(void (*drop)(void));
/* After an experiment's last point, in the process that measured it: the kept state, the cuBLAS
 * handle, the device's modules, the read-back pool and the last error message are let go. One
 * measuring child serves many experiments (isolate.c); each still starts as in a fresh process,
 * the CUDA context aside. */
void gp_measure_end(struct gp_run *run);

/* ---- status: the first failure stands */
int gp_meas_ok(const struct gp_meas *m);
/* The point cannot be formed (not a failure); its numbers are NaN. Returns 0. */
int gp_meas_na(struct gp_meas *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The point repeats another point's measurement (a parameter that means nothing to this kernel,
 * say): no row at all, not a failure. Returns 0, for setup() to return. */
int gp_meas_skip(struct gp_meas *m);
/* A check specific to the probe failed; the message says what was seen. */
void gp_meas_fail(struct gp_meas *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Results against the host's, bit for bit: element i of got against want[i % period]. 0 if equal. */
int gp_meas_check_f32(struct gp_meas *m, const char *what, const float *got, const float *want, size_t n,
		      size_t period);
int gp_meas_check_u32(struct gp_meas *m, const char *what, const unsigned *got, const unsigned *want,
		      size_t n, size_t period);
int gp_meas_check_f64(struct gp_meas *m, const char *what, const double *got, const double *want, size_t n,
		      size_t period);
/* A rate above what the hardware can do (value > ceiling * (1 + tol)) or a time below what it
 * can take (value < floor * (1 - tol)) means a broken probe. */
void gp_meas_ceiling(struct gp_meas *m, const char *what, double value, double ceiling, double tol,
		     const char *unit);
void gp_meas_floor(struct gp_meas *m, const char *what, double value, double floor, double tol,
		   const char *unit);

#endif
