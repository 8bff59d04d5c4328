/* tsm2_model.h — TSM2X's host-only arithmetic (bench/tsm2_model.c): the kernel table read from
 * the grid (bench/tsm2.list), launch checks, rates, V4's k-slice count, and the model M401-M407
 * on a struct of device figures that the experiment fills from the device's attributes and its
 * own short measurements (clock, streaming read bandwidth, memory latency). Nothing here touches
 * the device: the model, its tests and the report link without the kernels' images. */
#ifndef GP_TSM2_MODEL_H
#define GP_TSM2_MODEL_H

#include <stddef.h>

enum tsm2_kind {
	TSM2_V0,     /* Algorithm 1: inner product, one thread per row */
	TSM2_V1,     /* Algorithm 2: outer product, t2 C registers, B from global */
	TSM2_V2,     /* Algorithm 3: + B tile (t1 x t2) in shared memory */
	TSM2_V3,     /* Algorithm 4: + prefetch of the next A chunk and next B tile */
	TSM2_V4,     /* beyond the paper (Hopper): V3 + split-k, partial C added with atomics */
	TSM2_V5,     /* beyond the paper: V4 with B as LDS.128 for two rows a thread */
	TSM2_V6,     /* beyond the paper: V5 with 16 bytes of contiguous rows a thread (4 floats, 2 doubles) */
	TSM2_L1,     /* Algorithm 6: TSM2L Opt1, V3 per row tile, m / tcf threads */
	TSM2_L2,     /* Algorithm 7: TSM2L Opt2, row tiles interleaved under one B tile */
	TSM2_CUBLAS, /* the baseline */
};

/* The grid entry of (kind, precision, t2, t3): its index in the order of bench/tsm2.list (the same
 * index in every table generated from it), or -1 if that instance is not compiled. V0 ignores
 * t2 and t3, V1 ignores t3. */
int tsm2_instance(enum tsm2_kind kind, int elem, int t2, int t3);
/* The distinct t2 (t3 = 0) or t3 (t3 = 1) values compiled for kind and precision, ascending and
 * 0-terminated in out[max]: the candidate axes of the model and of tsm2_search. */
void tsm2_axis(enum tsm2_kind kind, int elem, int t3, int *out, size_t max);
/* Kernel symbol for (kind, precision, t2, t3); -1 if that instance is not compiled. */
int tsm2_kernel_name(enum tsm2_kind kind, int elem, int t2, int t3, char *out, size_t len);
int tsm2_kind_parse(const char *s, enum tsm2_kind *kind);
const char *tsm2_kind_name(enum tsm2_kind kind);
/* 0 if (kind, t1, t2, t3, tcf) is launchable for m x k x n, else -1 and why. */
int tsm2_supports(enum tsm2_kind kind, int elem, int m, int k, int n, int t1, int t2, int t3, int tcf, char *why,
		  size_t len);
/* Dynamic shared memory of a launch: the B tile, t1 x t2 x elem, for V2..V6/L1/L2, plus V5's and
 * V6's ring of A chunks (stages x rows a thread x t3 x t1 x elem), else 0. */
size_t tsm2_smem_bytes(enum tsm2_kind kind, int t1, int t2, int t3, int elem);

/* Whether a kind splits k (V4, V5, V6). */
int tsm2_splits_k(enum tsm2_kind kind);
/* Rows a thread carries: TSM2_V5_ROWS for V5, tsm2_v6_rows(elem) for V6, 1 for the other TSM2R kinds (TSM2L: the
 * thread-count factor tcf, the row tiles a thread walks). A launch has tsm2_blocks(m, t1, this) blocks. */
int tsm2_rows_per_thread(enum tsm2_kind kind, int tcf, int elem);
/* A bytes a SM keeps in flight with blocks_per_sm resident blocks of t1 threads: each thread's
 * prefetched chunk of t3 for each of its rows. What the t3 = 0 choice of V5 maximises (Little's
 * law: the HBM rate a SM can draw is what it has in flight over the latency). */
double tsm2_inflight_bytes(enum tsm2_kind kind, int blocks_per_sm, int t1, int t3, int elem);
/* V4's (and V5's) number of k slices. ksplit > 0: that many, clamped to the B tiles (no empty slice).
 * ksplit = 0: enough for TSM2_KSPLIT_WAVES waves, ceil(waves x sms x blocks_per_sm / row_blocks)
 * with blocks_per_sm the resident blocks of this kernel and shared memory (cuOccupancy...),
 * clamped to the tiles and to TSM2_KSPLIT_MAX; 1 when the row blocks alone make that many waves
 * (or none is resident). Why 4 waves and not 1: on the H100 (tsm2r ksplit sweep, float and
 * double, m 10240..30720, n <= 16) the one-wave choice reached 74-88 % of the HBM read rate and
 * 16 slices 92-100 %: a single wave ends ragged and each thread then keeps only t3 loads in
 * flight; more, shorter blocks keep the memory system busy to the end. */
#define TSM2_KSPLIT_MAX 1024
#define TSM2_KSPLIT_WAVES 4
int tsm2_ksplit_choose(int ksplit, int sms, int blocks_per_sm, int row_blocks, int k, int t1);
/* The slices a kind runs: V6 at ksplit = 0 takes floor(w x sms x blocks_per_sm / row_blocks) for
 * the most waves w <= TSM2_V6_WAVES whose slices are at least TSM2_V6_MIN_SLICE k long (else one
 * wave), at least 1, clamped to its TSM2_V6_SLICE_UNIT runs of k and TSM2_KSPLIT_MAX (its
 * blocks are few and long: a wave rounded up left a ragged last wave, and each slice adds its
 * partial C); every other kind tsm2_ksplit_choose. */
int tsm2_ksplit_for(enum tsm2_kind kind, int ksplit, int sms, int blocks_per_sm, int row_blocks, int k, int t1);

/* 2 m n k / t in GFLOP/s; compulsory bytes (A, B read once, C written once) and their rate. */
double tsm2_gflops(double m, double k, double n, double ms);
double tsm2_bytes(double m, double k, double n, int elem);
double tsm2_gbps(double bytes, double ms);

/* The figures the model needs, from the device and the run's own measurements. */
struct tsm2_hw {
	int sms;
	int regs_per_sm, smem_per_sm, max_threads_per_sm, max_blocks_per_sm;
	double clock_hz;     /* measured SM clock */
	double band_Bps;     /* PeakBand: streaming read bandwidth measured in the same run */
	double perf_flops;   /* PeakPerf: 2 x FMA lanes x SMs x measured clock, this precision */
	double lat_mem_clk;  /* global-memory latency in SM clocks (pointer chase, same run) */
	double lat_comp_clk; /* FMA dependent-issue latency in SM clocks (constant, see tsm2_model.c) */
	int lanes;           /* FMA lanes per SM for this precision */
};

/* M401: registers per thread, (3 t2 + 2 t3) x elem / 4 + fixed. */
double tsm2_regs_model(int t2, int t3, int elem, int fixed);
/* M403: threads per SM: min(HW, R_SM / R_thread, S_SM / S_thread), rounded down to whole blocks of
 * t1 (within the block limit). regs: registers per thread (measured or M401). */
int tsm2_occupancy(const struct tsm2_hw *hw, double regs, int t1, int t2, int elem);
/* M403 with the grid: the threads per SM actually resident, on average over the SMs, when the
 * launch has `threads` row-carrying threads (m for V0-V3, m x ks for V4, ~m / tcf for TSM2L):
 * min(occ, threads / SMs). m / t1 blocks of one row per thread do not fill a large GPU (80
 * blocks of 128 at m = 10240 on 132 SMs): Little's law counts what is in flight, not capacity. */
double tsm2_resident(const struct tsm2_hw *hw, int occ, double threads);
/* M404: Util_mem = occ x t3 x elem / (latency x PeakBand / (SMs x clock)) (bytes in flight);
 * occ: resident threads per SM (tsm2_resident). */
double tsm2_util_mem(const struct tsm2_hw *hw, double occ, int t3, int elem);
/* M405: Util_comp = occ x t3 x t2 / (latency_comp x lanes) (FMAs in flight). */
double tsm2_util_comp(const struct tsm2_hw *hw, double occ, int t2, int t3);
/* M406: t2_threshold = PeakPerf / PeakBand x elem. */
double tsm2_t2_threshold(const struct tsm2_hw *hw, int elem);
/* Algorithm 5's objective for one (t2, t3): memory time (n <= threshold or t2 below it) or
 * compute time, in seconds; utilisations are capped at 1. threads: the launch's row-carrying
 * threads as for tsm2_resident (m for V3; m x ks for V4). */
double tsm2_model_time(const struct tsm2_hw *hw, double m, double k, double n, int t1, int t2, int t3, int elem,
		       double regs, double threads);

/* A parameter choice and its cost. */
struct tsm2_choice {
	int t1, t2, t3;
	double cost;
};
typedef double (*tsm2_cost_fn)(void *ctx, int t1, int t2, int t3);
/* Minimise cost over the grid t1s x t2s x t3s (entries <= 0 end a list); NaN/inf costs are
 * skipped; ties go to the larger t2, then the smaller t3, then the smaller t1. -1 if none. */
int tsm2_argmin(const int *t1s, const int *t2s, const int *t3s, tsm2_cost_fn f, void *ctx, struct tsm2_choice *out);
/* Algorithm 5 (paper: gradient descent; here the exact minimum over the compiled V3 grid, which
 * gradient descent approximates): the model's (t2, t3) for t1 fixed. */
int tsm2_model_choose(const struct tsm2_hw *hw, double m, double k, double n, int t1, int elem, struct tsm2_choice *out);

/* 64 u sqrt(k) (as bench/sgemm_model.c) and relative Frobenius error over m x n (ld = m). */
double tsm2_err_bound(int k, int elem);
double tsm2_rel_err(const void *c, const void *r, int elem, int m, int n);

#endif
