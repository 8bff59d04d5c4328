/* tma.cu — Hopper's asynchronous copies into shared memory: TMA (cp.async.bulk and
 * cp.async.bulk.tensor.Nd, completing on an mbarrier; sm_90) and the per-thread cp.async (LDGSTS,
 * sm_80) against ld.global + st.shared. Word i of every source holds i (tma_fill), and every
 * kernel checks every word it received against the index it must come from (tma_shape.h), so a
 * copy that moved nothing or the wrong box counts errors instead of publishing a rate. The
 * instructions are guarded by __CUDA_ARCH__ so the file builds for every sm; the host makes the
 * points n/a below cc 9.0 (TMA) and 8.0 (cp.async). Pitfall: a tensor map is a
 * __grid_constant__ parameter and its generic address is what cp.async.bulk.tensor takes. */
#include <cuda.h>
#include <stdint.h>

#include "probe.cuh"
#include "tma_shape.h"
#include "tma_device.cuh"

#define TMA_LAT_HOP 0x9E3779B1ull /* odd: box k of step s = (first + s) * hop mod 2^n, all distinct */

/* Word i = i (the low 32 bits of the index). */
extern "C" __global__ void tma_fill(unsigned *p, unsigned long long n)
{
	const unsigned long long T = (unsigned long long)gridDim.x * blockDim.x;

	for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n; i += T)
		p[i] = (unsigned)i;
}

#if __CUDA_ARCH__ >= 900
/* One copy of box k (origin and coordinates c from tma_box_origin) into dst, completing on bar. */
template <int RANK>
__device__ __forceinline__ void tma_issue(unsigned dst, const CUtensorMap *map, const unsigned *src,
					  unsigned long long origin, const int *c, unsigned bytes, unsigned bar)
{
	if (RANK == 0)
		asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
			     "l"(src + origin), "r"(bytes), "r"(bar)
			     : "memory");
	else if (RANK == 1)
		asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];" ::"r"(dst),
			     "l"(map), "r"(c[0]), "r"(bar)
			     : "memory");
	else if (RANK == 2)
		tma_load_2d(dst, map, c[0], c[1], bar);
	else if (RANK == 3)
		asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(dst),
			     "l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(bar)
			     : "memory");
	else if (RANK == 4)
		asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];" ::"r"(dst),
			     "l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(bar)
			     : "memory");
	else
		asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];" ::"r"(dst),
			     "l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(bar)
			     : "memory");
}

/* lat_tma: one warp; lane 0 times each copy from before the expect_tx to the try_wait that sees
 * the phase complete (clock64), then the warp checks every word of the box and poisons it for the
 * next. Step -1 is untimed (the tensor map's descriptor fetch). warm: the same steps run once
 * untimed first, so that their boxes sit in L2. out = {sum, min, max cycles, bad words, words}. */
template <int RANK>
__device__ __forceinline__ void tma_lat_body(const CUtensorMap *map, const tma_geom &g, const unsigned *src, int steps,
					     unsigned long long first, int warm, unsigned long long *out, gp_clock_sample *cs)
{
	const unsigned lane = threadIdx.x, bar = smem_addr(tma_smem);
	unsigned char *box = tma_smem + TMA_BARRIER_BYTES;
	const unsigned n = (unsigned)(g.box_bytes / TMA_ELEM);
	unsigned long long sum = 0, lo = ~0ull, hi = 0;
	unsigned bad = 0, words = 0, parity = 0;

	gp_clock_begin(cs);
	if (lane == 0) {
		mbar_init(bar, 1);
		asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
	}
	for (int pass = warm ? 0 : 1; pass < 2; pass++)
		for (int s = -1; s < steps; s++) {
			const unsigned long long k = ((first + (unsigned long long)(s + 1)) * TMA_LAT_HOP) & (g.nboxes - 1);
			int c[TMA_MAX_RANK] = { 0, 0, 0, 0, 0 };
			const unsigned long long origin = tma_box_origin(&g, RANK, k, c);
			for (unsigned i = lane; i < n; i += 32)
				((unsigned *)box)[i] = 0xffffffffu;
			fence_proxy_async();
			__syncwarp();
			if (lane == 0) {
				const unsigned long long t0 = gp_clock();
				mbar_expect_tx(bar, (unsigned)g.box_bytes);
				tma_issue<RANK>(smem_addr(box), map, src, origin, c, (unsigned)g.box_bytes, bar);
				mbar_wait(bar, parity);
				const unsigned long long t = gp_clock() - t0;
				if (pass == 1 && s >= 0) {
					sum += t;
					lo = t < lo ? t : lo;
					hi = t > hi ? t : hi;
				}
			}
			__syncwarp();
			mbar_wait(bar, parity); /* every lane's own acquire of the box (the phase is complete) */
			parity ^= 1;
			bad += check_box<RANK>(&g, g.box_bytes, box, origin, lane, 32, &words);
			__syncwarp();
		}
	bad = __reduce_add_sync(0xffffffffu, bad);
	words = __reduce_add_sync(0xffffffffu, words);
	gp_clock_end(cs);
	if (lane == 0) {
		out[0] = sum;
		out[1] = lo;
		out[2] = hi;
		out[3] = bad;
		out[4] = words;
	}
}

/* bw_tma: warp 0's lane 0 produces into a ring of `stages` boxes (full[s]: the bytes landed,
 * empty[s]: the consumers are done with it); TMA_CONSUMER_WARPS warps check every word of each
 * box and release it. Block b copies boxes b, b + grid, ... of `total` (passes over the footprint).
 * out[2t], out[2t + 1]: thread t's bad and checked words. */
template <int RANK>
__device__ __forceinline__ void tma_bw_body(const CUtensorMap *map, const tma_geom &g, const unsigned *src, int stages,
					    unsigned long long total, unsigned *out, gp_clock_sample *cs)
{
	const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
	const unsigned full = smem_addr(tma_smem), empty = full + 8 * TMA_MAX_STAGES;
	const unsigned long long G = gridDim.x, stride = tma_stage_stride(g.box_bytes);
	const unsigned mine = (unsigned)(total > blockIdx.x ? (total - blockIdx.x + G - 1) / G : 0);
	unsigned char *ring = tma_smem + TMA_BARRIER_BYTES;
	unsigned bad = 0, words = 0;

	gp_clock_begin(cs);
	if (threadIdx.x == 0) {
		for (int s = 0; s < stages; s++)
			tma_stage_init(full, empty, s);
		asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
	}
	__syncthreads();
	if (warp == 0 && lane == 0) {
		for (unsigned i = 0, s = 0, ph = 0; i < mine; i++) {
			int c[TMA_MAX_RANK] = { 0, 0, 0, 0, 0 };
			const unsigned long long origin = tma_box_origin(&g, RANK, (blockIdx.x + i * G) & (g.nboxes - 1), c);
			mbar_wait(empty + 8 * s, ph ^ 1); /* a fresh barrier's "previous" phase counts as done */
			mbar_expect_tx(full + 8 * s, (unsigned)g.box_bytes);
			tma_issue<RANK>(smem_addr(ring + s * stride), map, src, origin, c, (unsigned)g.box_bytes, full + 8 * s);
			if (++s == (unsigned)stages) {
				s = 0;
				ph ^= 1;
			}
		}
	} else if (warp > 0) {
		TMA_CONSUME(blockIdx.x, G, ring);
	}
	gp_clock_end_grid(cs);
	out[2 * (blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x)] = bad;
	out[2 * (blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x) + 1] = words;
}
#endif

/* One latency and one bandwidth kernel per copy kind (tma_shape.h's list). */
#if __CUDA_ARCH__ >= 900
#define TMA_KERNELS(name, rank)                                                                     \
	extern "C" __global__ void tma_lat_##name(const __grid_constant__ CUtensorMap map, tma_geom g,  \
						  const unsigned *src, int steps, unsigned long long first,   \
						  int warm, unsigned long long *out, gp_clock_sample *cs)     \
	{                                                                                           \
		tma_lat_body<rank>(&map, g, src, steps, first, warm, out, cs);                      \
	}                                                                                           \
	extern "C" __global__ void __launch_bounds__(TMA_BW_THREADS)                                \
		tma_bw_##name(const __grid_constant__ CUtensorMap map, tma_geom g, const unsigned *src, \
			      int stages, unsigned long long total, unsigned *out, gp_clock_sample *cs) \
	{                                                                                           \
		tma_bw_body<rank>(&map, g, src, stages, total, out, cs);                            \
	}
#else
#define TMA_KERNELS(name, rank)                                                                     \
	extern "C" __global__ void tma_lat_##name(const __grid_constant__ CUtensorMap map, tma_geom g,  \
						  const unsigned *src, int steps, unsigned long long first,   \
						  int warm, unsigned long long *out, gp_clock_sample *cs)     \
	{                                                                                           \
	}                                                                                           \
	extern "C" __global__ void tma_bw_##name(const __grid_constant__ CUtensorMap map, tma_geom g,   \
						 const unsigned *src, int stages, unsigned long long total,   \
						 unsigned *out, gp_clock_sample *cs)                          \
	{                                                                                           \
	}
#endif
TMA_COPIES(TMA_KERNELS)

/* ------------------------------------------------------------------ bw_cpasync */

/* One W-byte load into v's first W/4 words, and its store to shared memory. */
template <int W>
__device__ __forceinline__ uint4 ldg(const unsigned char *p)
{
	uint4 v = make_uint4(0, 0, 0, 0);

	if (W == 4)
		asm volatile("ld.global.b32 %0, [%1];" : "=r"(v.x) : "l"(p));
	else if (W == 8)
		asm volatile("ld.global.v2.b32 {%0, %1}, [%2];" : "=r"(v.x), "=r"(v.y) : "l"(p));
	else
		asm volatile("ld.global.v4.b32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
	return v;
}

template <int W>
__device__ __forceinline__ void sts(unsigned a, uint4 v)
{
	if (W == 4)
		asm volatile("st.shared.b32 [%0], %1;" ::"r"(a), "r"(v.x) : "memory");
	else if (W == 8)
		asm volatile("st.shared.v2.b32 [%0], {%1, %2};" ::"r"(a), "r"(v.x), "r"(v.y) : "memory");
	else
		asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w) : "memory");
}

#if __CUDA_ARCH__ >= 800
/* This thread's CPA_VEC copies of a chunk: copy e at e * T * W + t * W (a warp's are contiguous). */
template <int W, int CG>
__device__ __forceinline__ void cpa_issue(unsigned dst, const unsigned char *src, unsigned T, unsigned t)
{
#pragma unroll
	for (int e = 0; e < CPA_VEC; e++) {
		const unsigned o = (e * T + t) * W;
		if (CG)
			asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst + o), "l"(src + o) : "memory");
		else
			asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(dst + o), "l"(src + o), "n"(W) : "memory");
	}
	asm volatile("cp.async.commit_group;" ::: "memory");
}

/* cp.async.wait_group takes an immediate: one case per count of groups left in flight. */
__device__ __forceinline__ void cpa_wait(int pending)
{
	switch (pending) {
#define CPA_WAIT_CASE(n)                                                                            \
	case n:                                                                                     \
		asm volatile("cp.async.wait_group " #n ";" ::: "memory");                           \
		break;
		CPA_WAIT_CASE(1) CPA_WAIT_CASE(2) CPA_WAIT_CASE(3) CPA_WAIT_CASE(4) CPA_WAIT_CASE(5)
		CPA_WAIT_CASE(6) CPA_WAIT_CASE(7)
#undef CPA_WAIT_CASE
	default:
		asm volatile("cp.async.wait_group 0;" ::: "memory");
	}
}
#endif

/* Block b streams chunks b, b + grid, ... of `total` (passes over a footprint of nchunks chunks,
 * a power of two) into shared memory, T * CPA_VEC * W bytes a chunk. cp.async: a ring of
 * `stages` chunks, stages - 1 in flight while one is checked; ld + st: one chunk loaded into
 * registers (CPA_VEC loads in flight per thread), stored, checked. Every word is checked by a
 * thread other than the one that copied it, after the barrier. out as tma_bw's. */
template <int W, int ASYNC, int CG>
__device__ __forceinline__ void cpa_body(const unsigned char *src, unsigned long long nchunks, unsigned long long total,
					 int stages, unsigned *out, gp_clock_sample *cs)
{
	const unsigned T = blockDim.x, t = threadIdx.x, base = smem_addr(tma_smem);
	const unsigned long long G = gridDim.x;
	const unsigned mine = (unsigned)(total > blockIdx.x ? (total - blockIdx.x + G - 1) / G : 0);
	const unsigned long long chunk = (unsigned long long)T * CPA_VEC * W; /* chunk c's word j holds c * chunk / 4 + j */
	unsigned bad = 0, words = 0;

	gp_clock_begin(cs);
	if (ASYNC) {
#if __CUDA_ARCH__ >= 800
		for (int i = 0; i < stages - 1; i++)
			if ((unsigned)i < mine)
				cpa_issue<W, CG>(base + i * (unsigned)chunk, src + ((blockIdx.x + i * G) & (nchunks - 1)) * chunk, T, t);
			else
				asm volatile("cp.async.commit_group;" ::: "memory");
		for (unsigned i = 0, s = 0; i < mine; i++) {
			const unsigned j = i + stages - 1, js = s ? s - 1 : stages - 1;
			if (j < mine)
				cpa_issue<W, CG>(base + js * (unsigned)chunk, src + ((blockIdx.x + j * G) & (nchunks - 1)) * chunk, T, t);
			else
				asm volatile("cp.async.commit_group;" ::: "memory");
			cpa_wait(stages - 1);
			__syncthreads();
			bad += check_box<0>(NULL, chunk, tma_smem + s * chunk, ((blockIdx.x + i * G) & (nchunks - 1)) * (chunk / 4), t, T, &words);
			__syncthreads();
			s = s + 1 == (unsigned)stages ? 0 : s + 1;
		}
#endif
	} else {
		for (unsigned i = 0; i < mine; i++) {
			const unsigned long long c = (blockIdx.x + i * G) & (nchunks - 1);
			uint4 v[CPA_VEC];
#pragma unroll
			for (int e = 0; e < CPA_VEC; e++)
				v[e] = ldg<W>(src + c * chunk + (e * T + t) * W);
#pragma unroll
			for (int e = 0; e < CPA_VEC; e++)
				sts<W>(base + (e * T + t) * W, v[e]);
			__syncthreads();
			bad += check_box<0>(NULL, chunk, tma_smem, c * (chunk / 4), t, T, &words);
			__syncthreads();
		}
	}
	gp_clock_end_grid(cs);
	out[2 * (blockIdx.x * (unsigned long long)blockDim.x + t)] = bad;
	out[2 * (blockIdx.x * (unsigned long long)blockDim.x + t) + 1] = words;
}

#define CPA_KERNEL(name, w, async, cg, ptx)                                                         \
	extern "C" __global__ void cpa_##name(const unsigned char *src, unsigned long long nchunks,     \
					      unsigned long long total, int stages, unsigned *out,      \
					      gp_clock_sample *cs)                                      \
	{                                                                                           \
		cpa_body<w, async, cg>(src, nchunks, total, stages, out, cs);                        \
	}
CPA_METHODS(CPA_KERNEL)
