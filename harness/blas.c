/* blas.c — dlopen libcublas and resolve the few entry points the GEMM baseline needs.
 *
 * The prototypes are declared here with plain C types (an opaque handle, int enums) rather than
 * taken from cublas_v2.h, whose header drags in the runtime API; the values are cuBLAS's ABI
 * (cublas_api.h): CUBLAS_OP_N 0, CUBLAS_PEDANTIC_MATH 2, CUBLAS_STATUS_SUCCESS 0. The exported
 * names are the _v2 ones (nm -D libcublas.so.13), except cublasSetMathMode, cublasGemmEx and the
 * emulation-strategy calls (cuBLAS 12.9 on), which the FP32 modes resolve if present. */
#include "gp.h"
#include "blas.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef struct gp_cublas_ctx *gp_cublas_handle;
typedef int gp_cublas_status;

enum { GP_CUBLAS_OP_N = 0, GP_CUBLAS_PEDANTIC_MATH = 2 };
/* The FP32 modes' ABI values: cudaDataType CUDA_R_32F 0, CUBLAS_GEMM_DEFAULT -1; cublasMath_t,
 * cublasComputeType_t and cublasEmulationStrategy_t as cublas_api.h of CUDA 13 numbers them. */
enum { GP_CUDA_R_32F = 0, GP_CUBLAS_GEMM_DEFAULT = -1 };
enum { GP_CUBLAS_DEFAULT_MATH = 0, GP_CUBLAS_FP32_EMULATED_BF16X9_MATH = 4 };
enum {
	GP_CUBLAS_COMPUTE_32F = 68,
	GP_CUBLAS_COMPUTE_32F_PEDANTIC = 69,
	GP_CUBLAS_COMPUTE_32F_FAST_TF32 = 77,
	GP_CUBLAS_COMPUTE_32F_EMULATED_16BFX9 = 78,
};
enum { GP_CUBLAS_KEEP = -1, GP_CUBLAS_EMULATION_STRATEGY_EAGER = 2 };

static const struct {
	const char *name, *compute_name, *math_name;
	int compute, math, strategy;
} modes[GP_BLAS_NMODES] = {
#define MODE(id, name_, compute_, math_, strategy_)                                                 \
	[GP_BLAS_##id] = { #name_, "CUBLAS_" #compute_, "CUBLAS_" #math_, GP_CUBLAS_##compute_, GP_CUBLAS_##math_, \
			   GP_CUBLAS_##strategy_ },
	GP_BLAS_MODES(MODE)
#undef MODE
};

static struct {
	void *lib;
	gp_cublas_handle h;
	int version;
	gp_cublas_status (*create)(gp_cublas_handle *);
	gp_cublas_status (*destroy)(gp_cublas_handle);
	gp_cublas_status (*set_math)(gp_cublas_handle, int);
	gp_cublas_status (*set_stream)(gp_cublas_handle, void *);
	gp_cublas_status (*get_version)(gp_cublas_handle, int *);
	gp_cublas_status (*sgemm)(gp_cublas_handle, int, int, int, int, int, const float *, const float *, int,
				  const float *, int, const float *, float *, int);
	gp_cublas_status (*dgemm)(gp_cublas_handle, int, int, int, int, int, const double *, const double *, int,
				  const double *, int, const double *, double *, int);
	/* Optional (the FP32 modes): NULL in a cuBLAS without them. */
	gp_cublas_status (*gemm_ex)(gp_cublas_handle, int, int, int, int, int, const void *, const void *, int, int,
				    const void *, int, int, const void *, void *, int, int, int, int);
	gp_cublas_status (*set_emulation)(gp_cublas_handle, int);
	gp_cublas_status (*get_emulation)(gp_cublas_handle, int *);
	gp_cublas_handle mode_h[GP_BLAS_NMODES];
} blas;

static void *open_lib(char *why, size_t whylen)
{
	static const char *const names[] = {
		"libcublas.so.13",
		"libcublas.so",
#ifdef GP_CUDA_LIB_DIR
		GP_CUDA_LIB_DIR "/libcublas.so.13",
#endif
	};
	void *lib = NULL;

	for (size_t i = 0; i < GP_ARRAY_SIZE(names) && !lib; i++)
		lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		snprintf(why, whylen, "no cuBLAS (libcublas.so.13 not loadable: %s)", dlerror());
	return lib;
}

#define RESOLVE(field, sym)                                                                        \
	do {                                                                                       \
		*(void **)&blas.field = dlsym(blas.lib, sym);                                      \
		if (!blas.field) {                                                                 \
			snprintf(why, whylen, "cuBLAS too old: no %s in libcublas", sym);          \
			goto error;                                                                \
		}                                                                                  \
	} while (0)

int gp_blas_load(char *why, size_t whylen)
{
	gp_cublas_status s;

	if (blas.h)
		return 0;
	if (!blas.lib && !(blas.lib = open_lib(why, whylen)))
		return GP_ENOGPU;
	RESOLVE(create, "cublasCreate_v2");
	RESOLVE(destroy, "cublasDestroy_v2");
	RESOLVE(set_math, "cublasSetMathMode");
	RESOLVE(set_stream, "cublasSetStream_v2");
	RESOLVE(get_version, "cublasGetVersion_v2");
	RESOLVE(sgemm, "cublasSgemm_v2");
	RESOLVE(dgemm, "cublasDgemm_v2");
	*(void **)&blas.gemm_ex = dlsym(blas.lib, "cublasGemmEx");
	*(void **)&blas.set_emulation = dlsym(blas.lib, "cublasSetEmulationStrategy");
	*(void **)&blas.get_emulation = dlsym(blas.lib, "cublasGetEmulationStrategy");
	if ((s = blas.create(&blas.h)) != 0) {
		snprintf(why, whylen, "cublasCreate failed (status %d)", s);
		blas.h = NULL;
		return GP_ENOGPU;
	}
	if ((s = blas.set_math(blas.h, GP_CUBLAS_PEDANTIC_MATH)) != 0 || (s = blas.set_stream(blas.h, NULL)) != 0) {
		snprintf(why, whylen, "cublasSetMathMode/SetStream failed (status %d)", s);
		gp_blas_unload();
		return GP_ENOGPU;
	}
	if (blas.get_version(blas.h, &blas.version) != 0)
		blas.version = 0;
	return 0;
error:
	return GP_ENOGPU;
}

void gp_blas_unload(void)
{
	for (size_t i = 0; i < GP_ARRAY_SIZE(blas.mode_h); i++)
		if (blas.mode_h[i])
			blas.destroy(blas.mode_h[i]);
	memset(blas.mode_h, 0, sizeof blas.mode_h);
	if (blas.h)
		blas.destroy(blas.h);
	blas.h = NULL;
}

int gp_blas_version(void)
{
	return blas.version;
}

/* C = A B, column-major, no transposes: cublasSgemm (dbl 0) or cublasDgemm (dbl 1). One line
 * naming the call and its size when cuBLAS refuses. */
static int gemm(int dbl, int m, int n, int k, CUdeviceptr A, int lda, CUdeviceptr B, int ldb, CUdeviceptr C,
		int ldc)
{
	const float f1 = 1.0f, f0 = 0.0f;
	const double d1 = 1.0, d0 = 0.0;
	gp_cublas_status s;

	if (!blas.h)
		return GP_ECUDA;
	s = dbl ? blas.dgemm(blas.h, GP_CUBLAS_OP_N, GP_CUBLAS_OP_N, m, n, k, &d1, (const double *)A, lda,
			     (const double *)B, ldb, &d0, (double *)C, ldc)
		: blas.sgemm(blas.h, GP_CUBLAS_OP_N, GP_CUBLAS_OP_N, m, n, k, &f1, (const float *)A, lda,
			     (const float *)B, ldb, &f0, (float *)C, ldc);
	if (s) {
		gp_err("%s(%d, %d, %d) failed (status %d)", dbl ? "cublasDgemm" : "cublasSgemm", m, n, k, s);
		return GP_ECUDA;
	}
	return 0;
}

int gp_blas_sgemm(int m, int n, int k, CUdeviceptr A, int lda, CUdeviceptr B, int ldb, CUdeviceptr C, int ldc)
{
	return gemm(0, m, n, k, A, lda, B, ldb, C, ldc);
}

int gp_blas_dgemm(int m, int n, int k, CUdeviceptr A, int lda, CUdeviceptr B, int ldb, CUdeviceptr C, int ldc)
{
	return gemm(1, m, n, k, A, lda, B, ldb, C, ldc);
}

/* ---------------------------------------------------------------- the FP32 modes */

int gp_blas_mode_parse(const char *name, enum gp_blas_mode *mode)
{
	for (size_t i = 0; i < GP_ARRAY_SIZE(modes); i++)
		if (name && !strcmp(name, modes[i].name)) {
			*mode = (enum gp_blas_mode)i;
			return 0;
		}
	return -1;
}

const char *gp_blas_mode_name(enum gp_blas_mode mode)
{
	return (unsigned)mode < GP_BLAS_NMODES ? modes[mode].name : NULL;
}

const char *gp_blas_mode_compute(enum gp_blas_mode mode)
{
	return (unsigned)mode < GP_BLAS_NMODES ? modes[mode].compute_name : NULL;
}

const char *gp_blas_mode_math(enum gp_blas_mode mode)
{
	return (unsigned)mode < GP_BLAS_NMODES ? modes[mode].math_name : NULL;
}

int gp_blas_mode_open(enum gp_blas_mode mode, char *why, size_t whylen)
{
	gp_cublas_handle h = NULL;
	gp_cublas_status s;

	if ((unsigned)mode >= GP_BLAS_NMODES || blas.mode_h[mode])
		return (unsigned)mode < GP_BLAS_NMODES ? 0 : (snprintf(why, whylen, "no cuBLAS mode %d", (int)mode), -1);
	if (!blas.h)
		return snprintf(why, whylen, "cuBLAS not loaded"), -1;
	if (!blas.gemm_ex || (modes[mode].strategy != GP_CUBLAS_KEEP && !blas.set_emulation))
		return snprintf(why, whylen, "cuBLAS %d lacks cublasGemmEx or cublasSetEmulationStrategy", blas.version), -1;
	if ((s = blas.create(&h)) || (s = blas.set_math(h, modes[mode].math)) || (s = blas.set_stream(h, NULL)) ||
	    (modes[mode].strategy != GP_CUBLAS_KEEP && (s = blas.set_emulation(h, modes[mode].strategy)))) {
		snprintf(why, whylen, "cuBLAS refused %s with %s (status %d)", modes[mode].math_name,
			 modes[mode].compute_name, s);
		if (h)
			blas.destroy(h);
		return -1;
	}
	blas.mode_h[mode] = h;
	return 0;
}

const char *gp_blas_mode_strategy(enum gp_blas_mode mode)
{
	static const char *const names[] = { "default", "performant", "eager" };
	int v = -1;

	if ((unsigned)mode >= GP_BLAS_NMODES || !blas.mode_h[mode])
		return "n/a: no handle";
	if (!blas.get_emulation)
		return "n/a: no cublasGetEmulationStrategy";
	if (blas.get_emulation(blas.mode_h[mode], &v) || v < 0 || (size_t)v >= GP_ARRAY_SIZE(names))
		return "n/a: not readable";
	return names[v];
}

int gp_blas_gemm_mode(enum gp_blas_mode mode, int m, int n, int k, CUdeviceptr A, int lda, CUdeviceptr B, int ldb,
		      CUdeviceptr C, int ldc)
{
	const float one = 1.0f, zero = 0.0f;
	gp_cublas_handle h;
	gp_cublas_status s;

	if ((unsigned)mode >= GP_BLAS_NMODES || !(h = blas.mode_h[mode])) {
		gp_err("internal: cuBLAS mode %d not opened", (int)mode);
		return GP_EFAIL;
	}
	s = blas.gemm_ex(h, GP_CUBLAS_OP_N, GP_CUBLAS_OP_N, m, n, k, &one, (const void *)A, GP_CUDA_R_32F, lda,
			 (const void *)B, GP_CUDA_R_32F, ldb, &zero, (void *)C, GP_CUDA_R_32F, ldc, modes[mode].compute,
			 GP_CUBLAS_GEMM_DEFAULT);
	if (s) {
		gp_err("cublasGemmEx(%d, %d, %d, %s) failed (status %d)", m, n, k, modes[mode].compute_name, s);
		return GP_ECUDA;
	}
	return 0;
}
