/* sgemm_wgmma.h — the geometry of the wgmma GEMM (bench/sgemm_wgmma_90a.cu), read by nvcc and gcc:
 * the block's roles, the A box the TMA loads, and which element of C each accumulator register
 * of each consumer thread holds. The kernel's epilogue stores through sgw_row / sgw_col, and
 * tests/test_sgemm.c walks every block and thread of a launch through the same two functions, so
 * a map that wrote an element twice or not at all, at any size, fails on the host.
 *
 * A consumer warpgroup's wgmma rows are not the tile's rows in order: A comes from registers,
 * loaded from a 128-byte-swizzled box of 32 rows (m) x 32 k by `ld.shared` (the 16-byte chunk c of
 * k row r sits at chunk c ^ (r % 8)). Lane (g, t) of a warp reads k row t (and t + 4) at its
 * fragment's row; with rows in order, lanes t and t ^ 1 would meet in one bank. Logical row g
 * of warp w therefore takes tile row 8 (w % 2) + 16 (g / 4) + g % 4 of its 32-row box (chunks
 * {c, c + 4} XOR t: 8 distinct chunks, no conflict), and row g + 8 the one 4 below it. C's rows
 * are the same rows, so the product is the same GEMM. */
#ifndef SG_WGMMA_H
#define SG_WGMMA_H

#include "sgemm_map.h"

#define SGW_THREADS 384      /* warpgroup 0: TMA (warp 0) and B split (warps 1-3); 1, 2: wgmma */
#define SGW_CONSUMERS 2      /* warpgroups of wgmma, 64 rows of the tile each */
#define SGW_BM 128           /* tile rows: 2 x 64 (wgmma's m64) */
#define SGW_BK 32            /* k per stage: one 128-byte swizzle row of floats */
#define SGW_NCHUNK 128       /* columns per wgmma (m64n128k8): the FP32 promotion's unit */
#define SGW_ABOX 32          /* rows of A per TMA box: 128 bytes, the swizzle's width */
#define SGW_SPLITTERS 96     /* threads splitting B (warps 1-3 of warpgroup 0) */

/* Tile row of consumer warpgroup wg's warp w, lane row g (0..7), upper half hi (rows g + 8). */
SG_HD int sgw_row(int wg, int w, int g, int hi)
{
	return 64 * wg + 32 * (w / 2) + 8 * (w % 2) + 16 * (g / 4) + g % 4 + 4 * hi;
}

/* Tile column of accumulator register i (chunks of 64 registers, one per 128 columns) of lane
 * column t (0..3): the wgmma accumulator layout. Its row is sgw_row(..., (i / 2) % 2). */
SG_HD int sgw_col(int i, int t)
{
	return SGW_NCHUNK * (i / 64) + 8 * (i % 64 / 4) + 2 * t + i % 2;
}

#endif
