/* sgemm.cuh — what the GEMM kernel files share (nvcc only): C = A * B, column-major like the seeds
 * and cuBLAS (alpha 1, beta 0), one FMA per (i, j, l) triple (flops = 2 m n k).
 *
 * The argument list, the float4 helpers (the cp.async ones: sgemm_async.cuh), and the kernels' definitions from
 * bench/sgemm.list: a file holding templates sets its image's gate to pass (SG_HERE below) and
 * includes the list, which defines the lines whose image is that file, each as an extern "C"
 * kernel with launch bounds bx * by threads (and minb blocks per SM where the line asks). Kernels
 * that need tile multiples say so in the list; the host never launches them on other sizes. */
#ifndef SG_CUH
#define SG_CUH

#include "sgemm_map.h"
#include "sgemm_tmaffma.h"


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
#define SG_IMAGE_sgemm_tmaffma_90a(x)
#define SG_IMAGE_dgemm(x)
#define SG_IMAGE_ffma_patch(x)

#define SG_VARIANT(name, T, image, call, minb, seed, kind, pipe, bm, bn, bk, bx, by, na, gap, any, vec4, dyn, \
		   model)                                                                               \
	SG_IMAGE_##image(extern "C" __global__ void SG_BOUNDS_##minb((bx) * (by)) name(GEMM_ARGS(T)) { call; })

/* The TMA images' form (sgemm_wgmma_90a.cu, sgemm_tmaffma_90a.cu, which include <cuda.h>): the
 * kernel takes the two tensor maps after the usual arguments (bench/sgemm_tma.c makes them). Such
 * a file defines SG_VARIANT as SG_VARIANT_TMA around its #include "sgemm.list". */
#define SG_ARGS_TMA SG_ARGS, &sg_tma_a, &sg_tma_b
#define SG_VARIANT_TMA(name, T, image, call, minb, seed, kind, pipe, bm, bn, bk, bx, by, na, gap, any, vec4, \
		       dyn, model)                                                                      \
	SG_IMAGE_##image(extern "C" __global__ void SG_BOUNDS_##minb((bx) * (by))                       \
			 name(GEMM_ARGS(T), const __grid_constant__ CUtensorMap sg_tma_a,                \
			      const __grid_constant__ CUtensorMap sg_tma_b) { call; })

#endif
