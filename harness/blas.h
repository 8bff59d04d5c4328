/* blas.h — cuBLAS as the GEMM baseline, loaded at run time.
 *
 * Like libcuda (cu.h), libcublas is opened with dlopen so the binary starts where no CUDA
 * libraries are installed and only the experiments that need the baseline fail, in one line.
 * cuBLAS runs on the runtime API's primary context, which is the context the harness retains,
 * so device pointers from gp_alloc are valid for it. The handle is created once per process
 * with the math mode fixed to CUBLAS_PEDANTIC_MATH: FP32 GEMM on the FFMA pipes, never TF32 or
 * the BF16x9 emulation — the comparison the seeds make. Calls go to the legacy default stream,
 * the one gp_launch and the harness's events use. */
#ifndef GP_BLAS_H
#define GP_BLAS_H

#include <stddef.h>

#include "cu.h"

/* The math mode every cuBLAS call of gpuprobe runs under (recorded in the CSVs). */
#define GP_BLAS_MATH_MODE "CUBLAS_PEDANTIC_MATH"

/* Open libcublas, resolve the entry points, create the handle. 0, or GP_ENOGPU with a one-line
 * reason (library missing, symbol missing, cublasCreate failed). Idempotent. */
int gp_blas_load(char *why, size_t whylen);
/* Destroy the handle (the library stays mapped). */
void gp_blas_unload(void);
/* cuBLAS's version number (e.g. 130000), 0 if unknown. */
int gp_blas_version(void);

/* Column-major C = A B (alpha 1, beta 0: C's old contents are never read). 0 or GP_ECUDA. */
int gp_blas_sgemm(int m, int n, int k, CUdeviceptr A, int lda, CUdeviceptr B, int ldb, CUdeviceptr C, int ldc);
int gp_blas_dgemm(int m, int n, int k, CUdeviceptr A, int lda, CUdeviceptr B, int ldb, CUdeviceptr C, int ldc);

#endif
