/* p2p.cu — kernels of bw_p2p and lat_p2p (probes/p2p.c).
 *
 * Bandwidth: p2p_copy moves 16-byte words with four loads in flight per thread; it runs on the
 * GPU that reads through a peer mapping (its source is the peer's memory) or writes through one
 * (its destination is). p2p_fill writes a hash of each word's index, p2p_check counts the words
 * of a destination that differ from it and the words it saw, so a copy that moved nothing or to
 * the wrong place fails, and so does a check that did not run.
 * Latency: one thread chases 64-bit pointers through slots `stride` bytes apart in the peer's
 * memory, laid out as one random cycle by p2p_chain on the owner; loads are ld.global.cg (no L1)
 * in asm volatile. Pitfall: a footprint below the owner's L2 times its L2, not its DRAM. */
#include "p2p_shape.h"
#include "probe.cuh"

typedef unsigned long long u64;

__device__ __forceinline__ unsigned p2p_word(u64 i, unsigned seed)
{
	unsigned x = (unsigned)i * 2654435761u ^ (unsigned)(i >> 32) ^ seed;
	return x ^ (x >> 15);
}

extern "C" __global__ void p2p_fill(unsigned *buf, u64 n, unsigned seed)
{
	for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x)
		buf[i] = p2p_word(i, seed);
}

/* res[0] += the words that differ, res[1] += the words checked (a check that did not run is seen). */
extern "C" __global__ void p2p_check(const unsigned *buf, u64 n, unsigned seed, u64 *res)
{
	u64 bad = 0, seen = 0;

	for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x, seen++)
		bad += buf[i] != p2p_word(i, seed);
	if (bad)
		atomicAdd(&res[0], bad);
	if (seen)
		atomicAdd(&res[1], seen);
}

extern "C" __global__ void p2p_copy(const uint4 *src, uint4 *dst, u64 n16)
{
	const u64 stride = (u64)gridDim.x * blockDim.x;
	u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x;

	for (; i + 3 * stride < n16; i += 4 * stride) {
		const uint4 a = src[i], b = src[i + stride], c = src[i + 2 * stride], d = src[i + 3 * stride];
		dst[i] = a;
		dst[i + stride] = b;
		dst[i + 2 * stride] = c;
		dst[i + 3 * stride] = d;
	}
	for (; i < n16; i += stride)
		dst[i] = src[i];
}

/* Slot i (at base + i * stride) holds the address of slot next[i]. */
extern "C" __global__ void p2p_chain(char *base, const unsigned *next, long long n, long long stride)
{
	for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
	     i += (long long)gridDim.x * blockDim.x)
		*(u64 *)(base + i * stride) = (u64)(base + (long long)next[i] * stride);
}

/* out[0] = the final pointer, out[1] = cycles of the timed chain, out[2] = the timer's overhead. */
extern "C" __global__ void p2p_chase(u64 start, long long warm, long long steps, u64 *out, gp_clock_sample *cs)
{
	u64 p = start, o0, o1, t0, t1;
	long long i;

	for (i = 0; i < warm; i++)
		asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p)::"memory");
	o0 = gp_clock();
	o1 = gp_clock();
	cs->ns0 = gp_ns();
	cs->clk0 = gp_clock();
	t0 = gp_clock();
#pragma unroll 1
	for (i = 0; i + 16 <= steps; i += 16) {
		GP_REP16(asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p)::"memory");)
	}
	for (; i < steps; i++)
		asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p)::"memory");
	t1 = gp_clock();
	cs->clk1 = gp_clock();
	cs->ns1 = gp_ns();
	out[0] = p;
	out[1] = t1 - t0;
	out[2] = o1 - o0;
}
