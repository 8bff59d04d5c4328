/* sgemm_map.h — index maps shared by the GEMM kernels (bench/sgemm.cu) and the host tests.
 *
 * Which row of C a thread owns, where a clamped A pointer lands, how a 1-D grid is swizzled onto
 * C tiles: the same inline functions compile for the device (nvcc) and the host (gcc), so
 * tests/test_sgemm.c can walk every block and thread of a launch on the CPU and prove that the
 * bound-checked variants write each element of C exactly once and never read outside A, for
 * sizes that are not tile multiples. Column-major throughout: element (r, c) of X is X[r + c * ldx]. */
#ifndef SG_MAP_H
#define SG_MAP_H

#ifdef __CUDACC__
#define SG_HD __host__ __device__ __forceinline__
#else
#define SG_HD static inline
#endif

/* Bound-check policies of the seed 000 kernels (Section 8: cases I..VI). */
enum sg_check {
	SG_CHECK_NONE = 0, /* Volkov's original: m, n, k multiples of the tile (case I only) */
	SG_CHECK_V1 = 1,   /* method5_v1: check A and B in edge blocks, A checked inside a rolled loop */
	SG_CHECK_V2 = 2,   /* method5_v2: no check A (reads rows past m inside the allocation slack) */
	SG_CHECK_V3 = 3,   /* method5_v3 / method6-8: A row pointer redirected to row m - 1, B checked */
};

/* Floats of slack allocated after every matrix: method5_v2 reads up to 255 rows past the last
 * valid row of the last column (seed 000 E019's "safe allocation" condition). */
#define SG_SLACK_ELEMS 1024


/* Seed 000 family: row of A / C held by thread tid in its v-th A vector. gap = 0: the NA vectors
 * of a block are adjacent chunks of NT rows (method1..6); gap = 1 (method7): vector v of block bx
 * is chunk bx + v * gx, so the two vectors of a block lie far apart in the column. */
SG_HD int sg_v_row(int bx, int gx, int tid, int v, int nt, int na, int gap)
{
	return gap ? (bx + v * gx) * nt + tid : bx * nt * na + v * nt + tid;
}

/* Blocks along m for the seed 000 family. */
SG_HD int sg_v_grid_x(int m, int nt, int na)
{
	return (m + nt * na - 1) / (nt * na);
}

/* method5_v3's redirect: rows past the end read the last row (their C rows are never stored). */
SG_HD int sg_clamp_row(int row, int m)
{
	return row < m ? row : m - 1;
}

/* Seed 003 tile kernels: thread (tx, ty) of a BX x BY block owns rows tx + i * BX and columns
 * ty + j * BY of the block's TILE x TILE piece of C (strided: coalesced and conflict-free). */
SG_HD int sg_t_row(int bx, int tile, int tx, int i, int bxdim)
{
	return bx * tile + tx + i * bxdim;
}

SG_HD int sg_t_col(int by, int tile, int ty, int j, int bydim)
{
	return by * tile + ty + j * bydim;
}

/* Swizzled 1-D grid of the modern kernels: consecutive blocks walk down a group of `group` tile
 * rows before moving right, so the blocks resident at once share A row-panels and B column-panels
 * in L2. Maps block id -> (tile row tm, tile column tn); a bijection onto tiles_m x tiles_n. */
SG_HD void sg_swizzle(int id, int tiles_m, int tiles_n, int group, int *tm, int *tn)
{
	const int width = group * tiles_n;
	const int first = (id / width) * group;
	const int rest = tiles_m - first;
	const int gs = rest < group ? rest : group;
	const int in = id % width;

	*tm = first + in % gs;
	*tn = in / gs;
}

#endif
