/* mbarrier.cuh — the shared-memory mbarrier operations of the asynchronous-copy kernels (TMA,
 * bulk copies) and their shared-memory addresses: probes/tma.cu, probes/tma_mc_90a.cu and
 * bench/sgemm_wgmma_90a.cu and sgemm_tmaffma_90a.cu (sm_90 and later; smem_addr everywhere). */
#ifndef GP_MBARRIER_CUH
#define GP_MBARRIER_CUH

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
	return (unsigned)__cvta_generic_to_shared(p);
}

#if __CUDA_ARCH__ >= 900
__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}

__device__ __forceinline__ void mbar_expect_tx(unsigned bar, unsigned bytes)
{
	asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}

__device__ __forceinline__ void mbar_arrive(unsigned bar)
{
	asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}

/* name(bar, parity): until the phase of this parity has completed (try_wait suspends for a while
 * in hardware), with the wait's memory semantics SEM ("": the CTA's default; ".acquire.cluster"
 * also sees what other ranks of the cluster released). */
#define MBAR_WAIT_FN(name, SEM)                                                                    \
	__device__ __forceinline__ void name(unsigned bar, unsigned parity)                        \
	{                                                                                          \
		unsigned done;                                                                     \
		do {                                                                               \
			asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity" SEM ".shared::cta.b64 p, [%1], %2;\n\t" \
				     "selp.u32 %0, 1, 0, p;\n\t}"                                  \
				     : "=r"(done)                                                  \
				     : "r"(bar), "r"(parity)                                       \
				     : "memory");                                                  \
		} while (!done);                                                                   \
	}
MBAR_WAIT_FN(mbar_wait, "")

/* One 2-D TMA box of `map` at (c0, c1) into shared memory at dst, completing on mbarrier bar. */
__device__ __forceinline__ void tma_load_2d(unsigned dst, const void *map, int c0, int c1, unsigned bar)
{
	asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
		     "l"(map), "r"(c0), "r"(c1), "r"(bar)
		     : "memory");
}

/* Generic-proxy accesses to shared memory (the check, the poison) before the TMA writes it again. */
__device__ __forceinline__ void fence_proxy_async(void)
{
	asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

#endif

#endif
