/* sgemm_async.cuh — the cp.async helpers of the GEMM kernels that stage tiles with it
 * (bench/sgemm_tc3.cu, bench/sgemm_warp.cu). Apart from sgemm.cuh because their __CUDA_ARCH__
 * guards give a source a second PTX level (scripts/ptx-levels.sh reads the guards of every header
 * it includes): the GEMM sources that never call them keep one. */
#ifndef SG_ASYNC_CUH
#define SG_ASYNC_CUH

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

#endif
