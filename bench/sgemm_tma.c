/* sgemm_tma.c — the tensor maps of the TMA GEMM kernels (bench/sgemm_wgmma_90a.cu, sgemm_wgmma.h;
 * bench/sgemm_tmaffma_90a.cu, whose A box is the whole BM x BK tile without swizzle).
 *
 * Both operands are float32 tiles whose rows are 128 bytes with the 128-byte swizzle: A is
 * column-major (m contiguous), so its boxes are 32 rows (128 bytes of m) by the k step, four per
 * 128-row tile; B is k-contiguous, so one box is the k step (32 floats) by the tile's columns,
 * the k-major layout wgmma reads. Coordinates past m, n or k read as zeros (OOB fill none), which
 * is what lets the kernel take any size. A tensor map's strides must be multiples of 16 bytes:
 * the variants say so in the list (vec4, leading dimensions multiples of 4). */
#include "gp.h"
#include "sgemm_tma.h"
#include "sgemm_wgmma.h"

#include <stdint.h>

CUtensorMap *sg_tma_maps_of(struct sg_tma_maps *m)
{
	return (CUtensorMap *)(((uintptr_t)m->raw + 63) & ~(uintptr_t)63);
}

static int encode(CUtensorMap *map, CUdeviceptr base, int rows, int cols, int ld, unsigned box_rows, unsigned box_cols,
		  CUtensorMapSwizzle swizzle)
{
	const cuuint64_t dims[2] = { (cuuint64_t)rows, (cuuint64_t)cols }, strides[1] = { (cuuint64_t)ld * 4 };
	const cuuint32_t box[2] = { box_rows, box_cols }, elem_strides[2] = { 1, 1 };

	GP_CU(cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *)(uintptr_t)base, dims, strides, box,
				     elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
				     CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
	return 0;
error:
	return GP_ECUDA;
}

int sg_tma_encode(CUtensorMap *maps, const struct sg_variant *v, int m, int n, int k, CUdeviceptr A, int lda,
		  CUdeviceptr B, int ldb)
{
	int rc;

	/* The FFMA kernel (sgemm_tmaffma_90a.cu) reads A as it lies, BM rows of m per k in one box
	 * without swizzle, and B's k-major rows swizzled against its lanes' column groups. */
	const int ffma = v->pipe == SG_FP32_FMA;

	if ((rc = encode(&maps[0], A, m, k, lda, ffma ? (unsigned)v->bm : SGW_ABOX, (unsigned)v->bk,
			 ffma ? CU_TENSOR_MAP_SWIZZLE_NONE : CU_TENSOR_MAP_SWIZZLE_128B)))
		return rc;
	return encode(&maps[1], B, k, n, ldb, (unsigned)v->bk, (unsigned)v->bn, CU_TENSOR_MAP_SWIZZLE_128B);
}
