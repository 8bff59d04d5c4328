/* sgemm.cuh — what the GEMM kernel files share (nvcc only): C = A * B, column-major like the seeds
 * and cuBLAS (alpha 1, beta 0), one FMA per (i, j, l) triple (flops = 2 m n k).
 *
 * The argument list, the float4 and cp.async helpers, and the kernels' definitions from
 * bench/sgemm.list: a file holding templates sets its image's gate to pass (SG_HERE below) and
 * includes the list, which defines the lines whose image is that file, each as an extern "C"
 * kernel with launch bounds bx * by threads (and minb blocks per SM where the line asks). Kernels
 * that need tile multiples say so in the list; the host never launches them on other sizes. */
#ifndef SG_CUH
#define SG_CUH

#include "sgemm_map.h"


#define GEMM_ARGS(T) int m, int n, int k, const T *__restrict__ A, int lda, const T *__restrict__ B, int ldb, \
	T *__restrict__ C, int ldc

/* ------------------------------------------------------------------ helpers */

__device__ __forceinline__ float4 ld4(const float *p)
{
	return *reinterpret_cast<const float4 *>(p);
}

/* ld.global.nc: the read-only (texture) path of seed 001's "+LDG128" step. */
__device__ __forceinline__ float4 ld4_nc(const float *p)
{
	return __ldg(reinterpret_cast<const float4 *>(p));
}

__device__ __forceinline__ void st4(float *p, float4 v)
{
	*reinterpret_cast<float4 *>(p) = v;
}

/* Shared memory by a 32-bit shared-window byte address (__cvta_generic_to_shared): no generic
 * pointer to rebuild (gemm_warp's SADDR). */
__device__ __forceinline__ float4 lds4(unsigned a)
{
	float4 v;
	asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "r"(a));
	return v;
}

__device__ __forceinline__ void sts4(unsigned a, float4 v)
{
	asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};" ::"r"(a), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w)
		     : "memory");
}

__device__ __forceinline__ void sts1(unsigned a, float v)
{
	asm volatile("st.shared.f32 [%0], %1;" ::"r"(a), "f"(v) : "memory");
}

__device__ __forceinline__ float4 fma4(float a, float4 b, float4 c)
{
	c.x = fmaf(a, b.x, c.x);
	c.y = fmaf(a, b.y, c.y);
	c.z = fmaf(a, b.z, c.z);
	c.w = fmaf(a, b.w, c.w);
	return c;
}

/* cp.async (sm_80+): 16 bytes through L2 only, or 4 bytes through L1 (.ca is the only form for
 * 4-byte copies). Before sm_80 the same code path copies synchronously, so sm_75 builds and
 * stays correct (the barrier in the pipeline orders the plain stores just as well). */
__device__ __forceinline__ void cp16(float *dst, const float *src)
{
#if __CUDA_ARCH__ >= 800
	const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(src) : "memory");
#else
	*reinterpret_cast<float4 *>(dst) = *reinterpret_cast<const float4 *>(src);
#endif
}

__device__ __forceinline__ void cp4(float *dst, const float *src)
{
#if __CUDA_ARCH__ >= 800
	const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
	asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(s), "l"(src) : "memory");
#else
	*dst = *src;
#endif
}

__device__ __forceinline__ void cp_commit(void)
{
#if __CUDA_ARCH__ >= 800
	asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}

template <int N> __device__ __forceinline__ void cp_wait(void)
{
#if __CUDA_ARCH__ >= 800
	asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
#endif
}

/* ------------------------------------------------------------------ the list's kernels */

#define SG_ARGS m, n, k, A, lda, B, ldb, C, ldc
/* seed 002 kernels are row-major: (M, N) = (n, m), A_r = B, B_r = A (sgemm_regblock.cu). */
#define SG_ARGS_RM n, m, k, B, ldb, A, lda, C, ldc

#define SG_BOUNDS_0(threads) __launch_bounds__(threads)
#define SG_BOUNDS_1(threads) __launch_bounds__(threads, 1)
#define SG_BOUNDS_2(threads) __launch_bounds__(threads, 2)

/* Every image's gate is shut; the file that holds an image's templates opens its own (#undef,
 * #define SG_IMAGE_<image>(x) x) around its #include "sgemm.list". */
#define SG_IMAGE_none(x)
#define SG_IMAGE_sgemm_volkov(x)
#define SG_IMAGE_sgemm_regblock(x)
#define SG_IMAGE_sgemm_warp(x)
#define SG_IMAGE_sgemm_tc3(x)
#define SG_IMAGE_sgemm_wgmma_90a(x)
#define SG_IMAGE_dgemm(x)
#define SG_IMAGE_ffma_patch(x)

#define SG_VARIANT(name, T, image, call, minb, seed, kind, pipe, bm, bn, bk, bx, by, na, gap, any, vec4, dyn, \
		   model)                                                                               \
	SG_IMAGE_##image(extern "C" __global__ void SG_BOUNDS_##minb((bx) * (by)) name(GEMM_ARGS(T)) { call; })

#endif
