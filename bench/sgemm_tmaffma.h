/* sgemm_tmaffma.h — the geometry of the TMA-fed FFMA GEMM (bench/sgemm_tmaffma_90a.cu), read by
 * nvcc and gcc: each lane's piece of C and the order of its columns. The kernel's epilogue stores
 * through sgf_row / sgf_col, and tests/test_sgemm.c walks every block and thread of a launch
 * through the same two functions, so a map that wrote an element twice or not at all fails on the
 * host.
 *
 * Warps of 8 x 4 lanes (lm = lane % 8, ln = lane / 8), each lane SGF_TM x SGF_TN of C: rows
 * 32 i + 4 lm + q of its warp's 8 SGF_TM (i < SGF_TM / 4, q < 4: a float4 of A per i), columns
 * ln + 4 j of its warp's 4 SGF_TN (j < SGF_TN). The columns interleave so that a warp's 4 column
 * groups read 4 consecutive 128-byte rows of the k-major B tile, whose swizzle puts their 16-byte
 * chunks in 4 different places (no bank conflict). */
#ifndef SG_TMAFFMA_H
#define SG_TMAFFMA_H

#include "sgemm_map.h"

#define SGF_TM 16 /* rows of C a lane */
#define SGF_TN 8  /* columns of C a lane */
#define SGF_BK 32 /* k per stage: one 128-byte swizzle row of B */

/* Tile row of lane `lane` of warp `warp`, fragment i (0 .. SGF_TM / 4 - 1), row q (0 .. 3). */
SG_HD int sgf_row(int bm, int warp, int lane, int i, int q)
{
	return warp % (bm / (8 * SGF_TM)) * 8 * SGF_TM + 32 * i + 4 * (lane % 8) + q;
}

/* Tile column of that lane's column j (0 .. SGF_TN - 1). */
SG_HD int sgf_col(int bm, int warp, int lane, int j)
{
	return warp / (bm / (8 * SGF_TM)) * 4 * SGF_TN + lane / 8 + 4 * j;
}

#endif
