/* mem_shape.h — the shape of the global-memory probes, read by mem.cu (nvcc) and mem_lat.c /
 * mem_bw.c (gcc): where a chase slot sits, the loads a thread keeps in flight, the HBM kernels'
 * vector size and bw_global's load variants. The host replays the kernels' work (addresses,
 * expected sums, bytes moved) from these. Pitfall: the kernels fold them at compile time; a
 * change here changes the SASS. */
#ifndef GP_MEM_SHAPE_H
#define GP_MEM_SHAPE_H

#ifdef __CUDACC__
#define MEM_HD __host__ __device__ __forceinline__
#else
#define MEM_HD static inline
#endif

#define MEM_LINE 128          /* bytes of a cache line: chase slots are line-spaced, skews line-aligned */
#define MEM_SKEW_STEP 4224ull /* 33 lines: page-spaced slots spread over the cache sets */
#define EACH_MAX 4096         /* loads lat_each_* can time one by one (its shared record arrays) */
#define COAL_UNROLL 4         /* loads in flight per thread in coal_stride and coal_lda */
#define HBM_VEC_BYTES 16      /* hbm_* move uint4 vectors */
#define HBM_UNROLL 4          /* vectors in flight per thread in hbm_* */

/* lat_mem_tlb's slots per page: a cycle over one line per page averaged the L2 latency of two to
 * four lines at the smallest footprints, whose near or far L2 partition then moved those points
 * by several cycles, enough for a false TLB level (docs/DESIGN.md, "Evidence for a detected
 * level"). Several lines a page average the partitions; the pages, what the TLB sees, stay
 * footprint / stride. */
#define MEM_TLB_SLOTS_PER_PAGE 16

/* Byte offset of chase slot i. skew 0: i * spacing. skew S >= 1 (page-sized spacings): slot i is
 * line j = i % S of page p = i / S, at p * spacing plus a line-aligned (p * 4224 + j * spacing / S)
 * mod spacing, so that the pages' slots do not all fall into the same cache set (S = 1: one slot a
 * page, as before S existed). 64-bit throughout: footprints reach several GB. */
MEM_HD unsigned long long mem_slot_offset(unsigned long long i, unsigned long long spacing, int skew)
{
	const unsigned long long s = skew > 0 ? (unsigned long long)skew : 1ull, p = i / s, j = i % s;

	return p * spacing +
	       (skew ? ((p * MEM_SKEW_STEP + j * (spacing / s)) % spacing) & ~(unsigned long long)(MEM_LINE - 1) : 0ull);
}

/* bw_global's loads: every path (name, PTX qualifier) at every width in bits, with every count of
 * independent loads in flight per thread. mem.cu makes kernel bwg_ld<width>_<path>_<ilp> of each;
 * the host takes its parameter's names and its checks from the same lists. */
#define MEM_LDG_WIDTHS(X) X(32) X(64) X(128)
#define MEM_LDG_PATHS(X, w) X(w, default, "") X(w, nc, ".nc") X(w, cg, ".cg") X(w, cs, ".cs")
#define MEM_LDG_ILPS(X, w, p) X(w, p, 1) X(w, p, 2) X(w, p, 4) X(w, p, 8)

#endif
