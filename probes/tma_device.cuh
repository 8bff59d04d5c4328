/* tma_device.cuh — the device helpers of the asynchronous-copy kernels (tma.cu, sm_90, and
 * tma_mc_90a.cu, sm_90a): the dynamic shared memory, the check of a box against the source
 * indices it must hold; the mbarrier operations are mbarrier.cuh's. Include after probe.cuh
 * and tma_shape.h. */
#ifndef GP_TMA_DEVICE_CUH
#define GP_TMA_DEVICE_CUH

#include <stdint.h>

#include "mbarrier.cuh"

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

#if __CUDA_ARCH__ >= 900
/* Stage s's barriers of a ring: full[s] waits for the producer's one arrival (with the box's
 * bytes), empty[s] for one arrival per consumer warp. */
__device__ __forceinline__ void tma_stage_init(unsigned full, unsigned empty, int s)
{
	mbar_init(full + 8 * s, 1);
	mbar_init(empty + 8 * s, TMA_CONSUMER_WARPS);
}
#endif

/* The consumer warps' side of a ring of `stages` boxes at RING (full[s]: the bytes landed,
 * empty[s]: the consumers are done with it), warps 1 .. TMA_CONSUMER_WARPS: for each of the
 * block's `mine` boxes (box FIRST + i * STEP), wait for its stage, check every word (bad, words),
 * release the stage. The caller's g, stages, mine, full, empty, stride, lane, bad and words. */
#define TMA_CONSUME(FIRST, STEP, RING)                                                             \
	for (unsigned i = 0, s = 0, ph = 0; i < mine; i++) {                                       \
		int c[TMA_MAX_RANK];                                                               \
		const unsigned long long origin = tma_box_origin(&g, RANK, ((FIRST) + i * (STEP)) & (g.nboxes - 1), c); \
		mbar_wait(full + 8 * s, ph);                                                       \
		bad += check_box<RANK>(&g, g.box_bytes, (RING) + s * stride, origin, threadIdx.x - 32, \
				       32 * TMA_CONSUMER_WARPS, &words);                           \
		__syncwarp();                                                                      \
		if (lane == 0)                                                                     \
			mbar_arrive(empty + 8 * s);                                                \
		if (++s == (unsigned)stages) {                                                     \
			s = 0;                                                                     \
			ph ^= 1;                                                                   \
		}                                                                                  \
	}

#endif
