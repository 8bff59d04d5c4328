/* sgemm_tma.h — the tensor maps of the GEMM kernels that load through TMA (kind SG_K_TMA, bench/
 * sgemm_wgmma_90a.cu): made on the host per problem with cuTensorMapEncodeTiled and passed by
 * value after the kernel's usual arguments (sgemm_tma.c). */
#ifndef GP_SGEMM_TMA_H
#define GP_SGEMM_TMA_H

#include "cu.h"
#include "sgemm.h"

/* Room for A's and B's maps at CUtensorMap's 64-byte alignment, inside a calloc'ed context. */
struct sg_tma_maps {
	unsigned char raw[2 * sizeof(CUtensorMap) + 64];
};

/* The two aligned maps of m: [0] A, [1] B. */
CUtensorMap *sg_tma_maps_of(struct sg_tma_maps *m);

/* A (m x k, lda) as boxes of 32 rows x bk, B (k x n, ldb) as boxes of bk x bn, both float32 with
 * the 128-byte swizzle, zeros past the edges. 0, or GP_ECUDA with the driver's refusal said. */
int sg_tma_encode(CUtensorMap *maps, const struct sg_variant *v, int m, int n, int k, CUdeviceptr A, int lda,
		  CUdeviceptr B, int ldb);

#endif
