/* tma_mc_90a.cu — bw_tma_mc (probes/tma_bw.c): TMA loads with cluster multicast (sm_90a only;
 * `.multicast::cluster` is the sm_90a form). In every cluster of C blocks, rank 0's producer lane
 * issues each box once with cp.async.bulk.tensor.Nd...multicast::cluster and a ctaMask of all C
 * ranks: the box lands at the same offset of every rank's ring and completes on every rank's own
 * full[s] mbarrier. Each rank's four consumer warps check every word of its copy and release the
 * stage locally (empty[s]); each rank's producer lane then arms full[s] for the stage's next box
 * (arrive.expect_tx) and arrives on rank 0's cl_empty[s] (count C, through mapa), which rank 0
 * waits on before it overwrites stage s in every rank. Arming before telling rank 0 keeps every
 * expect_tx ahead of its bytes. A cluster barrier after the mbarrier inits (no rank receives
 * bytes into an uninitialized barrier) and one at the end (no rank leaves while another may still
 * arrive on its barriers). Cluster c copies boxes c, c + clusters, ... of `total`.
 * out[2t], out[2t + 1]: thread t's bad and checked words. */
#include <cuda.h>
#include <stdint.h>

#include "probe.cuh"
#include "tma_shape.h"
#include "tma_device.cuh"

/* Box k's copy into dst of every rank in mask, completing on each rank's bar at that offset. */
template <int RANK>
__device__ __forceinline__ void tma_issue_mc(unsigned dst, const CUtensorMap *map, const int *c, unsigned bar,
					     unsigned short mask)
{
#define TMA_MC_OP(n) "cp.async.bulk.tensor." #n "d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster "
	if (RANK == 1)
		asm volatile(TMA_MC_OP(1) "[%0], [%1, {%2}], [%3], %4;" ::"r"(dst), "l"(map), "r"(c[0]), "r"(bar), "h"(mask)
			     : "memory");
	else if (RANK == 2)
		asm volatile(TMA_MC_OP(2) "[%0], [%1, {%2, %3}], [%4], %5;" ::"r"(dst), "l"(map), "r"(c[0]), "r"(c[1]),
			     "r"(bar), "h"(mask)
			     : "memory");
	else if (RANK == 3)
		asm volatile(TMA_MC_OP(3) "[%0], [%1, {%2, %3, %4}], [%5], %6;" ::"r"(dst), "l"(map), "r"(c[0]), "r"(c[1]),
			     "r"(c[2]), "r"(bar), "h"(mask)
			     : "memory");
	else if (RANK == 4)
		asm volatile(TMA_MC_OP(4) "[%0], [%1, {%2, %3, %4, %5}], [%6], %7;" ::"r"(dst), "l"(map), "r"(c[0]),
			     "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(bar), "h"(mask)
			     : "memory");
	else
		asm volatile(TMA_MC_OP(5) "[%0], [%1, {%2, %3, %4, %5, %6}], [%7], %8;" ::"r"(dst), "l"(map), "r"(c[0]),
			     "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(bar), "h"(mask)
			     : "memory");
#undef TMA_MC_OP
}

/* An arrival on the barrier at this offset of rank `rank`'s shared memory (release, cluster). */
__device__ __forceinline__ void mbar_arrive_rank(unsigned bar, unsigned rank)
{
	asm volatile("{\n\t.reg .b32 ra;\n\tmapa.shared::cluster.u32 ra, %0, %1;\n\t"
		     "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [ra];\n\t}" ::"r"(bar),
		     "r"(rank)
		     : "memory");
}

/* Until the phase of this parity has completed, acquiring what the arrivals of other ranks released. */
MBAR_WAIT_FN(mbar_wait_cluster, ".acquire.cluster")

__device__ __forceinline__ void cluster_sync(void)
{
	asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

__device__ __forceinline__ unsigned sreg_cluster(int which)
{
	unsigned v;

	if (which == 0)
		asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(v));
	else if (which == 1)
		asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(v));
	else if (which == 2)
		asm("mov.u32 %0, %%clusterid.x;" : "=r"(v));
	else
		asm("mov.u32 %0, %%nclusterid.x;" : "=r"(v));
	return v;
}

/* Every rank's producer lane: before box i of its stage, the local consumers' release of the
 * stage's previous box, the arming of full[s] for box i, the arrival on rank 0's cl_empty[s];
 * rank 0 then waits for every rank's arrival and issues box i to all of them. */
template <int RANK>
__device__ __forceinline__ void tma_mc_produce(const CUtensorMap *map, const tma_geom &g, int stages, unsigned mine,
					       unsigned long long cl, unsigned long long ncl, unsigned rank, unsigned csize)
{
	const unsigned full = smem_addr(tma_smem), empty = full + 8 * TMA_MAX_STAGES, cl_empty = empty + 8 * TMA_MAX_STAGES;
	const unsigned long long stride = tma_stage_stride(g.box_bytes);
	const unsigned short mask = (unsigned short)((1u << csize) - 1);

	for (unsigned i = 0, s = 0, ph = 0; i < mine; i++) {
		if (i >= (unsigned)stages) {
			mbar_wait(empty + 8 * s, ph ^ 1);
			mbar_expect_tx(full + 8 * s, (unsigned)g.box_bytes);
			mbar_arrive_rank(cl_empty + 8 * s, 0);
		}
		if (rank == 0) {
			int c[TMA_MAX_RANK] = { 0, 0, 0, 0, 0 };
			tma_box_origin(&g, RANK, (cl + i * ncl) & (g.nboxes - 1), c);
			if (i >= (unsigned)stages)
				mbar_wait_cluster(cl_empty + 8 * s, ph ^ 1);
			tma_issue_mc<RANK>(smem_addr(tma_smem + TMA_BARRIER_BYTES + s * stride), map, c, full + 8 * s, mask);
		}
		if (++s == (unsigned)stages) {
			s = 0;
			ph ^= 1;
		}
	}
}

template <int RANK>
__device__ __forceinline__ void tma_mc_body(const CUtensorMap *map, const tma_geom &g, int stages, unsigned long long total,
					    unsigned *out, gp_clock_sample *cs)
{
	const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32, rank = sreg_cluster(0), csize = sreg_cluster(1);
	const unsigned full = smem_addr(tma_smem), empty = full + 8 * TMA_MAX_STAGES, cl_empty = empty + 8 * TMA_MAX_STAGES;
	const unsigned long long cl = sreg_cluster(2), ncl = sreg_cluster(3), stride = tma_stage_stride(g.box_bytes);
	const unsigned mine = (unsigned)(total > cl ? (total - cl + ncl - 1) / ncl : 0);
	unsigned bad = 0, words = 0;

	gp_clock_begin(cs);
	if (threadIdx.x == 0) {
		for (int s = 0; s < stages; s++) {
			tma_stage_init(full, empty, s);
			mbar_init(cl_empty + 8 * s, csize);
		}
		asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
		for (unsigned s = 0; s < (unsigned)stages && s < mine; s++)
			mbar_expect_tx(full + 8 * s, (unsigned)g.box_bytes); /* the first box of each stage */
	}
	cluster_sync();
	if (warp == 0 && lane == 0) {
		tma_mc_produce<RANK>(map, g, stages, mine, cl, ncl, rank, csize);
	} else if (warp > 0) {
		TMA_CONSUME(cl, ncl, tma_smem + TMA_BARRIER_BYTES);
	}
	gp_clock_end_grid(cs);
	__syncwarp();
	cluster_sync();
	out[2 * (blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x)] = bad;
	out[2 * (blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x) + 1] = words;
}

/* One kernel per tensor copy kind (tma_shape.h's list; cp.async.bulk without a tensor map is not
 * multicast here). Same arguments as tma_bw_<name>: src is unused. */
#define TMA_MC_KERNEL(name, rank)                                                                   \
	extern "C" __global__ void __launch_bounds__(TMA_BW_THREADS)                                \
		tma_mc_##name(const __grid_constant__ CUtensorMap map, tma_geom g, const unsigned *src, \
			      int stages, unsigned long long total, unsigned *out, gp_clock_sample *cs) \
	{                                                                                           \
		tma_mc_body<rank>(&map, g, stages, total, out, cs);                                 \
	}
#define TMA_MC_KERNELS(name, rank) TMA_MC_KERNEL_##rank(name)
#define TMA_MC_KERNEL_0(name)
#define TMA_MC_KERNEL_1(name) TMA_MC_KERNEL(name, 1)
#define TMA_MC_KERNEL_2(name) TMA_MC_KERNEL(name, 2)
#define TMA_MC_KERNEL_3(name) TMA_MC_KERNEL(name, 3)
#define TMA_MC_KERNEL_4(name) TMA_MC_KERNEL(name, 4)
#define TMA_MC_KERNEL_5(name) TMA_MC_KERNEL(name, 5)
TMA_COPIES(TMA_MC_KERNELS)
