/* sgemm_tmaffma.h — the geometry of the TMA-fed FFMA GEMM (bench/sgemm_tmaffma_90a.cu), read by
 * nvcc and gcc: each lane's piece of C and the order of its columns. The kernel's epilogue stores
 * through sgf_row / sgf_col, and tests/test_sgemm.c walks every block and thread of a launch
 * through the same two functions, so a map that wrote an element twice or not at all fails on the
 * host.
 *
 * Warps of 8 x 4 lanes (lm = lane % 8, ln = lane / 8), each lane tm x tn of C: rows
 * 32 i + 4 lm + q of its warp's 8 tm (i < tm / 4, q < 4: a float4 of A per i), columns
 * ln + 4 j of its warp's 4 tn (j < tn); warps tile the block tile bm x bn m first. The columns interleave so that a warp's 4 column
 * groups read 4 consecutive 128-byte rows of the k-major B tile, whose swizzle puts their 16-byte
 * chunks in 4 different places (no bank conflict). */
#ifndef SG_TMAFFMA_H
#define SG_TMAFFMA_H

#include "sgemm_map.h"

#define SGF_BK 32 /* k per stage: one 128-byte swizzle row of B */

/* Tile row of lane `lane` of warp `warp`, fragment i (0 .. tm / 4 - 1), row q (0 .. 3). */
SG_HD int sgf_row(int bm, int tm, int warp, int lane, int i, int q)
{
	return warp % (bm / (8 * tm)) * 8 * tm + 32 * i + 4 * (lane % 8) + q;
}

/* Tile column of that lane's column j (0 .. tn - 1). */
SG_HD int sgf_col(int bm, int tm, int tn, int warp, int lane, int j)
{
	return warp / (bm / (8 * tm)) * 4 * tn + lane / 8 + 4 * j;
}

#endif
