/* tma_device.cuh — the device helpers of the asynchronous-copy kernels (tma.cu, sm_90, and
 * tma_mc_90a.cu, sm_90a): the dynamic shared memory, the check of a box against the source
 * indices it must hold, and the mbarrier operations (sm_90 and later). Include after probe.cuh
 * and tma_shape.h. */
#ifndef GP_TMA_DEVICE_CUH
#define GP_TMA_DEVICE_CUH

#include <stdint.h>

extern __shared__ __align__(1024) unsigned char tma_smem[];

/* Words of a box (or chunk) in shared memory that differ from the source index they must hold:
 * lanes `from`, `from` + step, ... read 16-byte vectors. *words counts what was checked. Rank 0
 * (a bulk copy or a cp.async chunk) reads no geometry: g may be NULL. */
template <int RANK>
__device__ __forceinline__ unsigned check_box(const tma_geom *g, unsigned long long bytes, const unsigned char *box,
					      unsigned long long origin, unsigned from, unsigned step, unsigned *words)
{
	const unsigned nvec = (unsigned)(bytes / 16);
	unsigned bad = 0;

	for (unsigned v = from; v < nvec; v += step) {
		const uint4 x = ((const uint4 *)box)[v];
		const unsigned i = (unsigned)tma_word_index(g, RANK, origin, 4 * v);
		/* Dimension 0 of a box is a multiple of 4 elements: a vector never crosses a row. */
		bad += (x.x != i) + (x.y != i + 1) + (x.z != i + 2) + (x.w != i + 3);
		*words += 4;
	}
	return bad;
}

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

/* Until the phase of this parity has completed (try_wait suspends for a while in hardware). */
__device__ __forceinline__ void mbar_wait(unsigned bar, unsigned parity)
{
	unsigned done;

	do {
		asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
			     "selp.u32 %0, 1, 0, p;\n\t}"
			     : "=r"(done)
			     : "r"(bar), "r"(parity)
			     : "memory");
	} while (!done);
}

/* Generic-proxy accesses to shared memory (the check, the poison) before the TMA writes it again. */
__device__ __forceinline__ void fence_proxy_async(void)
{
	asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

#endif

#endif
