/* blas.c — dlopen libcublas and resolve the few entry points the GEMM baseline needs.
 *
 * The prototypes are declared here with plain C types (an opaque handle, int enums) rather than
 * taken from cublas_v2.h, whose header drags in the runtime API; the values are cuBLAS's ABI
 * (cublas_api.h): CUBLAS_OP_N 0, CUBLAS_PEDANTIC_MATH 2, CUBLAS_STATUS_SUCCESS 0. The exported
 * names are the _v2 ones (nm -D libcublas.so.13), except cublasSetMathMode. */
#include "gp.h"
#include "blas.h"

#include <dlfcn.h>
#include <stdio.h>

typedef struct gp_cublas_ctx *gp_cublas_handle;
typedef int gp_cublas_status;

enum { GP_CUBLAS_OP_N = 0, GP_CUBLAS_PEDANTIC_MATH = 2 };

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
