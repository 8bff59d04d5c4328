/* sgemm_wgmma_90a.cu — FP32-accurate GEMM at Hopper's tensor rate: 3xTF32 on warpgroup MMA
 * (wgmma.mma_async, sm_90a only; elsewhere the host makes its rows n/a). The kernels are
 * bench/sgemm.list's lines with image sgemm_wgmma_90a; each takes the list's arguments and two
 * TMA tensor maps (bench/sgemm_tma.c). Geometry and the C index map: sgemm_wgmma.h.
 *
 * The split is gemm_tc3's (sgemm_tc3.cu): a = a_big + a_small, three TF32 products per term
 * (a_small b_big + a_big b_small + a_big b_big), each group of k accumulated from zero in the
 * tensor core and added to an FP32 accumulator with FADDs, because the tensor core's own
 * accumulation truncates (its error grew with k to 30x cuBLAS's). What changes is who does what:
 * - warp 0's lane 0 loads A (4 boxes of 32 x 32, 128-byte swizzle) and B (32 k x BN, k-major,
 *   128-byte swizzle) by TMA into a STAGES-deep ring (mbarriers full/empty); the TMA fills the
 *   rows and columns past m, n, k with zeros, so any size runs;
 * - warps 1-3 write B_small = tf32(b - trunc(b)) beside each landed B tile (a ring of 2): wgmma
 *   reads B from shared memory only, and the tensor core reads a float's top 19 bits, so the tile
 *   as it landed is B_big (truncated) and only B_small needs a pass. The small part is rounded
 *   by adding half a TF32 ulp to its bits (the tensor core truncates the rest), which keeps every
 *   term's error unbiased;
 * - warpgroups 1 and 2 (64 rows each) load their A fragments from shared memory, split them to
 *   nearest (big = tf32_rn(a), small = a - big + half an ulp), and issue wgmma m64n128k8 with A
 *   from registers: per 128 columns and k tile, 12 wgmma into a partial sum `part` (the small
 *   terms first, from zero; chunk() says why), then one FADD per register into `acc`. `part`,
 *   `acc` and A take 216 of the 232 registers setmaxnreg gives a consumer, so `part` has one
 *   buffer: a warpgroup waits for its own wgmma before it adds (wgmma.wait_group 0), and the
 *   other warpgroup's wgmma are what the tensor cores run meanwhile.
 * Tile 128 x BN x 32, STAGES TMA stages: at BN = 256, 3 stages and the B_small ring fill 209 KB
 * of shared memory (one block per SM). */
#include <cuda.h>

#include "sgemm.cuh"
#include "sgemm_wgmma.h"
#include "mbarrier.cuh"

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define SGW_HOPPER 1
#endif

#define SGW_D4(i) "+f"(d[i]), "+f"(d[(i) + 1]), "+f"(d[(i) + 2]), "+f"(d[(i) + 3])
#define SGW_D16(i) SGW_D4(i), SGW_D4((i) + 4), SGW_D4((i) + 8), SGW_D4((i) + 12)

namespace sgw {

#ifdef SGW_HOPPER
/* Until the phase of this parity has completed (try_wait suspends in hardware for a while). */
__device__ __forceinline__ void bar_wait(unsigned bar, unsigned parity)
{
	asm volatile("{\n\t.reg .pred p;\n"
		     "SGW_WAIT:\n\t"
		     "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t"
		     "@!p bra SGW_WAIT;\n\t}" ::"r"(bar),
		     "r"(parity)
		     : "memory");
}

/* A k-major operand in 128-byte swizzled rows (8 rows = 1024 bytes apart): start address in
 * 16-byte units, the stride between 8-row groups, layout type 1 (128B swizzle). */
__device__ __forceinline__ unsigned long long desc_sw128(unsigned addr)
{
	return (unsigned long long)((addr & 0x3ffffu) >> 4) | 1ull << 16 | (1024ull >> 4) << 32 | 1ull << 62;
}

/* The compiler must not move register reads or writes across the asynchronous wgmma. */
__device__ __forceinline__ void keep(float &r)
{
	asm volatile("" : "+f"(r)::"memory");
}

/* D (m64 x n128, f32) (+)= A (registers, tf32) x B (shared memory, tf32); SCALE_D 0: D = A B. */
template <int SCALE_D>
__device__ __forceinline__ void mma(float (&d)[64], const unsigned (&a)[4], unsigned long long desc)
{
	asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %69, 0;\n\t"
		     "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 "
		     "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, "
		     "%20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, "
		     "%39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, "
		     "%58, %59, %60, %61, %62, %63}, {%64, %65, %66, %67}, %68, p, 1, 1;\n\t}"
		     : SGW_D16(0), SGW_D16(16), SGW_D16(32), SGW_D16(48)
		     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(SCALE_D)
		     : "memory");
}

__device__ __forceinline__ void mma_fence(void)
{
	asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}

__device__ __forceinline__ void mma_commit(void)
{
	asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}

template <int N> __device__ __forceinline__ void mma_wait(void)
{
	asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}

/* a = big + small: big = tf32 to nearest (ties away), small = the exact rest plus half a TF32
 * ulp (the tensor core drops its low 13 bits: to nearest again). */
__device__ __forceinline__ void split(unsigned x, unsigned &big, unsigned &small)
{
	big = (x + 0x1000u) & 0xffffe000u;
	small = __float_as_uint(__uint_as_float(x) - __uint_as_float(big)) + 0x1000u;
}

/* b's small part beside b itself as B_big: b - trunc(b) is exact; half an ulp, then truncation. */
__device__ __forceinline__ unsigned small_of(unsigned x)
{
	return __float_as_uint(__uint_as_float(x) - __uint_as_float(x & 0xffffe000u)) + 0x1000u;
}
#endif

} // namespace sgw

template <int BN, int STAGES, int DYN> struct gemm_wgmma {
	static constexpr int BM = SGW_BM, BK = SGW_BK, NCH = BN / SGW_NCHUNK;
	static constexpr int A_BYTES = BM * BK * 4, B_BYTES = BN * BK * 4, ABOX_BYTES = SGW_ABOX * BK * 4;
	static constexpr int OFF_B = STAGES * A_BYTES, OFF_BS = OFF_B + STAGES * B_BYTES;
	static constexpr int OFF_BAR = OFF_BS + 2 * B_BYTES;
	/* full[STAGES], empty[STAGES], sfull[2], sempty[2]; 1024 bytes of slack to align the ring. */
	static constexpr int SMEM = 1024 + OFF_BAR + 8 * (2 * STAGES + 4);
	static constexpr int CONSUMER_WARPS = 4 * SGW_CONSUMERS, SPLIT_WARPS = SGW_SPLITTERS / 32;
	static_assert(BN % SGW_NCHUNK == 0 && BN <= 256, "128-column chunks; one TMA box of B (256 rows at most)");
	static_assert(BM == 64 * SGW_CONSUMERS && BM % SGW_ABOX == 0 && STAGES >= 2, "tile");
	static_assert(SMEM == DYN, "the list line's dynamic shared memory (SG_WG_SMEM) is this layout");
	/* setmaxnreg: the TMA and split warpgroup needs few; a consumer holds acc (BN / 2), part
	 * (64), a_big of a k tile (16) and a_small (2 x 4) besides its addresses (224 spills). */
	static constexpr int PRODUCER_REGS = 40, CONSUMER_REGS = 232;
	static_assert(128 * PRODUCER_REGS + 128 * SGW_CONSUMERS * CONSUMER_REGS <= 65536, "setmaxnreg budget");

#ifdef SGW_HOPPER
	/* Lane 0 of warp 0: every k tile's A boxes and B box into stage kt % STAGES once it is free. */
	static __device__ __forceinline__ void produce(const CUtensorMap *ta, const CUtensorMap *tb, unsigned base,
						       int m0, int n0, int ktiles)
	{
		const unsigned full = base + OFF_BAR, empty = full + 8 * STAGES;

		for (int kt = 0; kt < ktiles; kt++) {
			const int s = kt % STAGES;
			if (kt >= STAGES)
				sgw::bar_wait(empty + 8 * s, (kt / STAGES - 1) & 1);
			mbar_expect_tx(full + 8 * s, A_BYTES + B_BYTES);
#pragma unroll
			for (int j = 0; j < BM / SGW_ABOX; j++)
				tma_load_2d(base + s * A_BYTES + j * ABOX_BYTES, ta, m0 + j * SGW_ABOX, kt * BK, full + 8 * s);
			tma_load_2d(base + OFF_B + s * B_BYTES, tb, kt * BK, n0, full + 8 * s);
		}
	}

	/* Warps 1-3: B_small of k tile kt into slot kt % 2, once the tile landed and the slot is free. */
	static __device__ __forceinline__ void split_b(unsigned char *smem, unsigned base, int ktiles)
	{
		const unsigned full = base + OFF_BAR, empty = full + 8 * STAGES, sfull = empty + 8 * STAGES;
		const unsigned sempty = sfull + 16;
		const int id = threadIdx.x - 32;

		for (int kt = 0; kt < ktiles; kt++) {
			const int s = kt % STAGES, b = kt & 1;
			const uint4 *src = reinterpret_cast<const uint4 *>(smem + OFF_B + s * B_BYTES);
			uint4 *dst = reinterpret_cast<uint4 *>(smem + OFF_BS + b * B_BYTES);
			sgw::bar_wait(full + 8 * s, (kt / STAGES) & 1);
			if (kt >= 2)
				sgw::bar_wait(sempty + 8 * b, (kt / 2 - 1) & 1);
#pragma unroll 4
			for (int i = id; i < B_BYTES / 16; i += SGW_SPLITTERS) {
				const uint4 v = src[i];
				dst[i] = make_uint4(sgw::small_of(v.x), sgw::small_of(v.y), sgw::small_of(v.z), sgw::small_of(v.w));
			}
			/* Ours (generic proxy) before wgmma's reads (async proxy); then the raw tile is free. */
			asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
			mbar_arrive(sfull + 8 * b);
			__syncwarp();
			if (threadIdx.x % 32 == 0)
				mbar_arrive(empty + 8 * s);
		}
	}

	/* One 128-column chunk of one k tile into part, then acc += part. The tensor core truncates
	 * every sum into part to its running magnitude, so the small terms of all 4 k steps go in
	 * first (8 wgmma, the first with scale-d = 0, while part is still small) and the 4 big terms
	 * last: 4 truncations at part's full size per FP32 promotion instead of 11. A is split per
	 * k step; a_big stays for the second pass, a_small's two register sets alternate (a set is
	 * rewritten once the step that read it has completed). */
	static __device__ __forceinline__ void chunk(float (&acc)[64], float (&part)[64], const unsigned *sa,
						     const unsigned (&aoff)[4], unsigned long long dbig,
						     unsigned long long dsmall)
	{
		unsigned ab[BK / 8][4], as[2][4];

#pragma unroll
		for (int kk = 0; kk < BK / 8; kk++) {
			const unsigned long long o = (unsigned long long)(kk * 32) >> 4;
			if (kk >= 2)
				sgw::mma_wait<1>();
#pragma unroll
			for (int q = 0; q < 4; q++)
				sgw::split(sa[aoff[q] + kk * 256], ab[kk][q], as[kk & 1][q]);
			sgw::mma_fence();
			if (kk == 0)
				sgw::mma<0>(part, as[kk & 1], dbig + o);
			else
				sgw::mma<1>(part, as[kk & 1], dbig + o);
			sgw::mma<1>(part, ab[kk], dsmall + o);
			sgw::mma_commit();
		}
#pragma unroll
		for (int kk = 0; kk < BK / 8; kk++)
			sgw::mma<1>(part, ab[kk], dbig + ((unsigned long long)(kk * 32) >> 4));
		sgw::mma_commit();
		sgw::mma_wait<0>();
#pragma unroll
		for (int i = 0; i < 64; i++) {
			sgw::keep(part[i]);
			acc[i] += part[i];
		}
	}

	/* Consumer warpgroup wg: rows 64 wg .. 64 wg + 63 of the tile, all BN columns. */
	static __device__ __forceinline__ void consume(float (&acc)[NCH][64], const unsigned char *smem, unsigned base,
						       int wg, int ktiles)
	{
		const unsigned full = base + OFF_BAR, empty = full + 8 * STAGES, sfull = empty + 8 * STAGES;
		const unsigned sempty = sfull + 16;
		const int w = threadIdx.x / 32 % 4, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
		const int c = 2 * (w % 2) + 4 * (g / 4); /* 16-byte chunk of rows g (c + 1: g + 8) */
		const int box = (2 * wg + w / 2) * (ABOX_BYTES / 4);
		/* Words of a0..a3 in the stage's A: k row t (a0, a1) and t + 4 (a2, a3), swizzled. */
		const unsigned aoff[4] = { (unsigned)(box + t * 32 + ((c ^ t) * 4) + g % 4),
					   (unsigned)(box + t * 32 + (((c + 1) ^ t) * 4) + g % 4),
					   (unsigned)(box + (t + 4) * 32 + ((c ^ (t + 4)) * 4) + g % 4),
					   (unsigned)(box + (t + 4) * 32 + (((c + 1) ^ (t + 4)) * 4) + g % 4) };
		float part[64];

#pragma unroll
		for (int i = 0; i < 64; i++)
			part[i] = 0.f;
		for (int kt = 0; kt < ktiles; kt++) {
			const int s = kt % STAGES, b = kt & 1;
			const unsigned *sa = reinterpret_cast<const unsigned *>(smem + s * A_BYTES);
			const unsigned long long dbig = sgw::desc_sw128(base + OFF_B + s * B_BYTES);
			const unsigned long long dsmall = sgw::desc_sw128(base + OFF_BS + b * B_BYTES);
			sgw::bar_wait(full + 8 * s, (kt / STAGES) & 1);
			sgw::bar_wait(sfull + 8 * b, (kt / 2) & 1);
#pragma unroll
			for (int h = 0; h < NCH; h++)
				chunk(acc[h], part, sa, aoff, dbig + (h * SGW_NCHUNK * 128 >> 4),
				      dsmall + (h * SGW_NCHUNK * 128 >> 4));
			__syncwarp();
			if (lane == 0) {
				mbar_arrive(empty + 8 * s);
				mbar_arrive(sempty + 8 * b);
			}
		}
	}

	/* acc to C through sgemm_wgmma.h's map, inside m x n. */
	static __device__ __forceinline__ void store(const float (&acc)[NCH][64], float *C, int ldc, int m, int n, int m0,
						     int n0, int wg)
	{
		const int w = threadIdx.x / 32 % 4, g = threadIdx.x % 32 / 4, t = threadIdx.x % 4;
		const int r0 = m0 + sgw_row(wg, w, g, 0), r1 = m0 + sgw_row(wg, w, g, 1);

#pragma unroll
		for (int h = 0; h < NCH; h++)
#pragma unroll
			for (int i = 0; i < 64; i++) {
				const int col = n0 + sgw_col(h * 64 + i, t), row = (i / 2) % 2 ? r1 : r0;
				if (row < m && col < n)
					C[row + (size_t)col * ldc] = acc[h][i];
			}
	}
#endif

	static __device__ __forceinline__ void run(GEMM_ARGS(float), const CUtensorMap *ta, const CUtensorMap *tb)
	{
#ifdef SGW_HOPPER
		extern __shared__ __align__(1024) unsigned char sgw_smem[];
		const unsigned raw = smem_addr(sgw_smem), base = (raw + 1023) & ~1023u;
		unsigned char *smem = sgw_smem + (base - raw);
		const unsigned full = base + OFF_BAR;
		const int tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN, ktiles = (k + BK - 1) / BK;
		int tm, tn;

		sg_swizzle(blockIdx.x, tiles_m, tiles_n, 8, &tm, &tn);
		if (threadIdx.x == 0) {
			for (int s = 0; s < STAGES; s++) {
				mbar_init(full + 8 * s, 1);
				mbar_init(full + 8 * (STAGES + s), CONSUMER_WARPS + SPLIT_WARPS);
			}
			for (int b = 0; b < 2; b++) {
				mbar_init(full + 8 * (2 * STAGES + b), SGW_SPLITTERS);
				mbar_init(full + 8 * (2 * STAGES + 2 + b), CONSUMER_WARPS);
			}
			asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
			asm volatile("prefetch.tensormap [%0];" ::"l"(ta) : "memory");
			asm volatile("prefetch.tensormap [%0];" ::"l"(tb) : "memory");
		}
		__syncthreads();
		if (threadIdx.x < 128) {
			asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(PRODUCER_REGS) : "memory");
			if (threadIdx.x == 0)
				produce(ta, tb, base, tm * BM, tn * BN, ktiles);
			else if (threadIdx.x >= 32)
				split_b(smem, base, ktiles);
		} else {
			asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(CONSUMER_REGS) : "memory");
			const int wg = threadIdx.x / 128 - 1;
			float acc[NCH][64];
#pragma unroll
			for (int h = 0; h < NCH; h++)
#pragma unroll
				for (int i = 0; i < 64; i++)
					acc[h][i] = 0.f;
			consume(acc, smem, base, wg, ktiles);
			store(acc, C, ldc, m, n, tm * BM, tn * BN, wg);
		}
#else
		__trap(); /* wgmma and setmaxnreg need sm_90a: the host never launches it elsewhere */
#endif
	}
};

/* The list's lines of this image, each a kernel with the two tensor maps (sgemm.cuh's SG_VARIANT_TMA). */
#pragma push_macro("SG_VARIANT")
#undef SG_VARIANT
#define SG_VARIANT SG_VARIANT_TMA
#undef SG_IMAGE_sgemm_wgmma_90a
#define SG_IMAGE_sgemm_wgmma_90a(x) x
#include "sgemm.list"
#undef SG_IMAGE_sgemm_wgmma_90a
#define SG_IMAGE_sgemm_wgmma_90a(x)
#pragma pop_macro("SG_VARIANT")
