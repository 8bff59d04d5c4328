/* tma_shape.h — the shape of the TMA and cp.async probes, read by tma.cu (nvcc) and tma.c /
 * tma_bw.c (gcc): the copy kinds and cp.async methods (X-macro lists: kernels, parameter names and
 * test tables come from them), the geometry of a tensor box and where box k lies, and the data
 * pattern every probe checks (word i of the source holds i, so a box's words say where they came
 * from). Pitfall: the kernels fold these at compile time; a change here changes the SASS. */
#ifndef GP_TMA_SHAPE_H
#define GP_TMA_SHAPE_H

#ifdef __CUDACC__
#define TMA_HD __host__ __device__ __forceinline__
#else
#define TMA_HD static inline
#endif

#define TMA_MAX_RANK 5
#define TMA_ELEM 4            /* bytes of an element: the tensor maps are UINT32 */
#define TMA_ROW_ELEMS 1024    /* a tensor's dimension 0 (4 KB rows): a box row is one segment of it */
#define TMA_BOX_ROW_ELEMS 32  /* a box's dimension 0 (128 B, a GEMM tile row) when the box holds more */
#define TMA_MID_SPREAD 2      /* dimensions 1..rank-2 of a tensor hold this many boxes each */
#define TMA_MAX_BOX_DIM 256   /* elements along one box dimension (cuTensorMapEncodeTiled) */
#define TMA_CONSUMER_WARPS 4  /* bw_tma: warps that wait for a stage, read it and release it */
#define TMA_BW_THREADS (32 * (1 + TMA_CONSUMER_WARPS)) /* one producer warp (lane 0 issues) */
#define TMA_LAT_THREADS 32    /* lat_tma: lane 0 issues and times, the warp checks the box */
#define TMA_BARRIER_BYTES 1024 /* dynamic shared memory before the first stage: the mbarriers */
#define TMA_MAX_STAGES 16
#define CPA_VEC 4             /* bw_cpasync: copies per thread per stage (unrolled) */
#define CPA_MAX_STAGES 8      /* cp.async.wait_group takes an immediate: one case per count */

/* The copies lat_tma and bw_tma time: (name, rank); rank 0 is cp.async.bulk (no tensor map), rank N
 * cp.async.bulk.tensor.Nd. tma.cu makes tma_lat_<name> and tma_bw_<name> of each. */
#define TMA_COPIES(X) X(bulk, 0) X(1d, 1) X(2d, 2) X(3d, 3) X(4d, 4) X(5d, 5)

/* bw_cpasync's methods: (name, bytes per copy, cp.async?, .cg?, PTX). cp.async is LDGSTS (sm_80+;
 * .cg, which skips L1, only at 16 bytes); the others are ld.global + st.shared of the same width.
 * tma.cu makes cpa_<name> of each. */
#define CPA_METHODS(X)                                                                              \
	X(cpasync4_ca, 4, 1, 0, "cp.async.ca.shared.global") X(cpasync8_ca, 8, 1, 0, "cp.async.ca.shared.global") \
	X(cpasync16_ca, 16, 1, 0, "cp.async.ca.shared.global")                                     \
	X(cpasync16_cg, 16, 1, 1, "cp.async.cg.shared.global") X(ldg4, 4, 0, 0, "ld.global.b32")   \
	X(ldg8, 8, 0, 0, "ld.global.v2.b32") X(ldg16, 16, 0, 0, "ld.global.v4.b32")

/* A copy's geometry. rank 0: boxes of box_bytes one after another. rank >= 1: a packed UINT32
 * tensor of gdim[] elements (dimension 0 fastest; estride[d] elements between neighbours along d),
 * boxes of box[] = 2^lgb[] elements at multiples of box[], 2^lgn[d] boxes along d. Box k lies at
 * coordinates ((k mod 2^lgn0) * box0, ...), dimension 0 fastest, so neighbouring boxes share DRAM
 * rows; in shared memory a box is packed in the same order. Powers of two throughout, so the
 * kernels place boxes and words with shifts. 64-bit members first: nvcc and gcc lay this out
 * alike (it is a kernel argument). */
struct tma_geom {
	unsigned long long nboxes; /* boxes in the footprint (a power of two) */
	unsigned long long box_bytes;
	unsigned long long estride[TMA_MAX_RANK];
	unsigned gdim[TMA_MAX_RANK];
	unsigned box[TMA_MAX_RANK];
	int lgn[TMA_MAX_RANK];
	int lgb[TMA_MAX_RANK];
	int rank;
	int pad_;
};

/* The index of box k's first element (word i of the source holds i), and its coordinates. rank is
 * g->rank, passed apart so that a kernel's compile-time rank unrolls the loop (c stays in
 * registers). */
TMA_HD unsigned long long tma_box_origin(const struct tma_geom *g, int rank, unsigned long long k, int *c)
{
	unsigned long long idx = 0;

	if (rank == 0)
		return k * (g->box_bytes / TMA_ELEM);
	for (int d = 0; d < rank; d++) {
		c[d] = (int)((k & ((1ull << g->lgn[d]) - 1)) << g->lgb[d]);
		k >>= g->lgn[d];
		idx += (unsigned long long)c[d] * g->estride[d];
	}
	return idx;
}

/* The source index of element e of a packed box whose first element is `origin`. */
TMA_HD unsigned long long tma_word_index(const struct tma_geom *g, int rank, unsigned long long origin, unsigned e)
{
	unsigned long long idx = origin;

	if (rank == 0)
		return origin + e;
	for (int d = 0; d < rank; d++) {
		idx += (unsigned long long)(e & (g->box[d] - 1)) * g->estride[d];
		e >>= g->lgb[d];
	}
	return idx;
}

/* Bytes between two stages in shared memory: a tensor copy's destination is 128-byte aligned. */
TMA_HD unsigned long long tma_stage_stride(unsigned long long box_bytes)
{
	return (box_bytes + 127) & ~127ull;
}

#endif
