/* sgemm_case.h — a GEMM problem's host inputs, cuBLAS reference and cuBLAS time, kept across the
 * points that share the problem (sgemm_case.c); the measurement's side of the GEMM benches. */
#ifndef GP_SGEMM_CASE_H
#define GP_SGEMM_CASE_H

#include <stddef.h>

#include "cu.h"
#include "sgemm.h"

struct sg_case {
	int m, n, k, lda, ldb, ldc, elem;
	size_t na, nb, nc;     /* elements of A, B, C with their slack */
	void *hA, *hB, *hR;    /* inputs and cuBLAS's result, column-major */
	double ref_err;        /* cuBLAS against host double dot products on sampled entries */
	double blas_ms;        /* cuBLAS's time per call (median); NaN until measured */
	int ready;             /* hR and ref_err hold */
};

/* The problem's inputs, filled on the host when it differs from the last one (a new problem
 * drops the reference and cuBLAS's time); NULL when out of memory (said). */
struct sg_case *sg_case_get(int m, int n, int k, int lda, int ldb, int ldc, int elem);
/* cuBLAS into C on the inputs uploaded to A and B, read back as the reference (once a problem). */
int sg_case_reference(struct sg_case *c, CUdeviceptr A, CUdeviceptr B, CUdeviceptr C);
/* C = A B by cuBLAS on the problem's shape (enqueued, not waited for). 0 or GP_ECUDA. */
int sg_case_blas(const struct sg_case *c, CUdeviceptr A, CUdeviceptr B, CUdeviceptr C);
/* ||out - R||_F / ||R||_F over m x n; and the relative error of out against exact (host double)
 * dot products on 64 sampled entries, the same entries every time. */
double sg_case_rel_err(const struct sg_case *c, const void *out);
double sg_case_sampled_err(const struct sg_case *c, const void *out);

/* The GEMM benches' clock sample: sg_clock (bench/sgemm_clock.cu), one block of 256 threads per SM
 * of dependent FFMAs writing the harness's clock sample, run by a probe's after hook right after
 * the timed work, so the clock is read under a dense load on every SM (a sample too short to
 * trust fails the row in the harness). */
#define SG_CLOCK_ITERS 32768 /* x 64 dependent FFMAs ~ 4 ms at ~2 GHz (1 ms read up to 2069 MHz after the tensor-core kernels on the H100, above its 1980 maximum) */
struct sg_clock {
	CUfunction fn;
	CUdeviceptr sink;
	int iters;
	void *args[3];
};
struct gp_meas;
/* From setup(): the kernel, from image (one that holds sg_clock), its sink and arguments. */
int sg_clock_setup(struct gp_meas *m, const void *image, struct sg_clock *k);
/* From the after hook: the clock kernel on every SM. */
int sg_clock_launch(struct gp_meas *m, struct sg_clock *k);

#endif
