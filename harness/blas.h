/* blas.h — cuBLAS as the GEMM baseline, loaded at run time.
 *
 * Like libcuda (cu.h), libcublas is opened with dlopen so the binary starts where no CUDA
 * libraries are installed and only the experiments that need the baseline fail, in one line.
 * cuBLAS runs on the runtime API's primary context, which is the context the harness retains,
 * so device pointers from gp_alloc are valid for it. The handle is created once per process
 * with the math mode fixed to CUBLAS_PEDANTIC_MATH: FP32 GEMM on the FFMA pipes, never TF32 or
 * the BF16x9 emulation — the comparison the seeds make. The other FP32 modes (sgemm_modes) get
 * handles of their own. Calls go to the legacy default stream, the one gp_launch and the
 * harness's events use. */
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

/* cuBLAS's FP32 GEMM modes (cublasGemmEx, FP32 in and out), each on a handle of its own created
 * on first use with its math mode and emulation strategy fixed. One line per mode: its name (the
 * experiments' parameter value), cublasComputeType_t, cublasMath_t and emulation strategy
 * (without CUBLAS_ prefixes; KEEP leaves the handle's default, which cuBLAS documents as
 * PERFORMANT: emulate only where it pays, unless the CUBLAS_EMULATION_STRATEGY variable says
 * otherwise). pedantic is the baseline the rest of gpuprobe uses. */
#define GP_BLAS_MODES(X)                                                                           \
	X(PEDANTIC, pedantic, COMPUTE_32F_PEDANTIC, PEDANTIC_MATH, KEEP)                            \
	X(DEFAULT, default, COMPUTE_32F, DEFAULT_MATH, KEEP)                                        \
	X(TF32, tf32, COMPUTE_32F_FAST_TF32, DEFAULT_MATH, KEEP)                                    \
	X(BF16X9, bf16x9, COMPUTE_32F_EMULATED_16BFX9, FP32_EMULATED_BF16X9_MATH, KEEP)             \
	X(BF16X9_EAGER, bf16x9_eager, COMPUTE_32F_EMULATED_16BFX9, FP32_EMULATED_BF16X9_MATH, EMULATION_STRATEGY_EAGER)

#define GP_BLAS_MODE_ENUM(id, name, compute, math, strategy) GP_BLAS_##id,
enum gp_blas_mode { GP_BLAS_MODES(GP_BLAS_MODE_ENUM) GP_BLAS_NMODES };
#undef GP_BLAS_MODE_ENUM
/* The names as one string, each after a space: " pedantic default ..." (a parameter's choices). */
#define GP_BLAS_MODE_WORD(id, name, compute, math, strategy) " " #name
#define GP_BLAS_MODE_NAMES GP_BLAS_MODES(GP_BLAS_MODE_WORD)

/* The mode's name, its compute type's and math mode's cuBLAS names; NULL past the last. The mode
 * of a name: 0, or -1 for none. */
int gp_blas_mode_parse(const char *name, enum gp_blas_mode *mode);
const char *gp_blas_mode_name(enum gp_blas_mode mode);
const char *gp_blas_mode_compute(enum gp_blas_mode mode);
const char *gp_blas_mode_math(enum gp_blas_mode mode);
/* The mode's handle (after gp_blas_load), made once with its math mode and emulation strategy: 0,
 * or -1 and why (this cuBLAS lacks cublasGemmEx or the emulation calls, or refuses the setting). */
int gp_blas_mode_open(enum gp_blas_mode mode, char *why, size_t whylen);
/* The emulation strategy the mode's handle reports (cublasGetEmulationStrategy): "default",
 * "performant", "eager", or "n/a: ..." where it cannot be read. */
const char *gp_blas_mode_strategy(enum gp_blas_mode mode);
/* C = A B in FP32 under an opened mode (column-major, alpha 1, beta 0); enqueued. 0 or GP_ECUDA. */
int gp_blas_gemm_mode(enum gp_blas_mode mode, int m, int n, int k, CUdeviceptr A, int lda, CUdeviceptr B, int ldb,
		      CUdeviceptr C, int ldc);

/* Column-major C = A B (alpha 1, beta 0: C's old contents are never read). 0 or GP_ECUDA. */
int gp_blas_sgemm(int m, int n, int k, CUdeviceptr A, int lda, CUdeviceptr B, int ldb, CUdeviceptr C, int ldc);
int gp_blas_dgemm(int m, int n, int k, CUdeviceptr A, int lda, CUdeviceptr B, int ldb, CUdeviceptr C, int ldc);

#endif
