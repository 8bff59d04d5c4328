/* tsm2.h — TSM2X (seed 004): the tiling maps shared by the kernels and the host.
 *
 * The inline maps below (row tiles, B tiles, V4's k slices, A chunks, column panels, input hashes)
 * are compiled into the kernels of bench/tsm2_kernels.cuh and walked on the host by
 * tests/test_tsm2.c, so the coverage test checks the index arithmetic the GPU actually runs.
 * Which instances exist is bench/tsm2.list; the model and the kernel table are tsm2_model.h. */
#ifndef GP_TSM2_H
#define GP_TSM2_H

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define TSM2_HD __host__ __device__ __forceinline__
#else
#define TSM2_HD static inline
#endif

/* ---------------------------------------------------------------- tiling maps (kernels + host) */

/* End (exclusive) of the k range of the B tile starting at j: min(j + t1, k). The l loop walks
 * [j, end) in steps of t3; the last chunk may run past k (those A and B entries load as 0). */
TSM2_HD int tsm2_tile_end(int j, int t1, int k)
{
	return j + t1 < k ? j + t1 : k;
}

/* Row a thread loads A from: rows past m are clamped to m - 1 (a valid address; never stored). */
TSM2_HD int tsm2_load_row(int row, int m)
{
	return row < m ? row : m - 1;
}

/* Blocks of a TSM2R launch (one row per thread) and of a TSM2L launch (m / tcf threads); 0 for
 * no block size (cuBLAS rows carry t1 = 0: the first H100 run divided by it). */
TSM2_HD int tsm2_blocks(int m, int t1, int tcf)
{
	if (t1 < 1)
		return 0;
	const long rows_per_block = (long)t1 * (tcf > 0 ? tcf : 1);
	const long b = ((long)m + rows_per_block - 1) / rows_per_block;
	return b < 1 ? 1 : (int)b;
}

/* Rows a V5 thread carries (rows tid and tid + t1 of its block's TSM2_V5_ROWS x t1): each B value
 * read from shared memory serves this many FMAs per k step. */
#define TSM2_V5_ROWS 2

/* B tiles (t1-long k ranges) of the whole k: the most slices a split-k launch can use. */
TSM2_HD int tsm2_k_tiles(int k, int t1)
{
	return t1 < 1 || k < 1 ? 1 : (int)(((long)k + t1 - 1) / t1);
}

/* V4 (split-k) slice s of ks: k range [begin(s), begin(s + 1)). Slices are whole B tiles, dealt
 * out evenly (sizes differ by at most one tile), so every tile starts at a multiple of t1 as in
 * V3 and only the last slice can end at a k that is not one; with ks <= tsm2_k_tiles() none is
 * empty, and begin(ks) = k. The kernel derives its range from blockIdx.y / gridDim.y with it. */
TSM2_HD int tsm2_slice_begin(int s, int ks, int k, int t1)
{
	const long tiles = tsm2_k_tiles(k, t1), at = (long)s * tiles / (ks > 0 ? ks : 1) * t1;
	return at < k ? (int)at : k;
}

/* Uniform in [-1, 1), exact in float (24 bits), from (seed, index): the device fills A and B with
 * it and the host recomputes any entry for the reference check without holding the matrices. */
TSM2_HD double tsm2_uniform(uint64_t seed, uint64_t i)
{
	uint64_t z = seed + (i + 1) * 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return (double)(z >> 40) * 0x1p-23 - 1.0;
}

/* The latency chase (bench/tsm2_aux.cu builds the chain, bench/tsm2_env.c starts it at hop 0):
 * hop h sits at line tsm2_chase_line(h) of `lines` lines of TSM2_CHASE_LINE bytes, `lines` a power
 * of two. The map is a bijection of [0, lines) (odd multipliers and right xor-shifts are
 * invertible modulo a power of two), so no two hops share a line and the chain never turns back
 * on itself. Until cc343fc each hop drew its line independently: 65536 hops among
 * 2^23 lines shared about 256, the last of two writers decided where such a line pointed, and a
 * chain that pointed back looped through lines the L2 still held: the median of five moved
 * 478-695 cycles from run to run (lat_mem's HBM level: 678-680). */
#define TSM2_CHASE_SEED 0xc4a5e
#define TSM2_CHASE_LINE 128
TSM2_HD long tsm2_chase_line(uint64_t h, long lines)
{
	const uint64_t mask = (uint64_t)lines - 1;
	uint64_t z = (h + TSM2_CHASE_SEED) & mask;

	z = (z * 0x9e3779b97f4a7c15ull) & mask;
	z ^= z >> 11;
	z = (z * 0xbf58476d1ce4e5b9ull) & mask;
	z ^= z >> 13;
	z = (z * 0x94d049bb133111ebull) & mask;
	z ^= z >> 7;
	return (long)z;
}

/* Chunks in a V5 thread's ring of A in shared memory (cp.async): TSM2_V5_STAGES - 1 of them are in
 * flight while one is used, and none of them holds a register (see bench/tsm2_v5.cuh). */
#define TSM2_V5_STAGES 3

/* V6 (bench/tsm2_v6.cuh; why these values: docs/DESIGN.md, "TSM2R V6"): tsm2_v6_rows contiguous
 * rows a thread, one column's 16 bytes (four floats, two doubles: one 16-byte copy), a ring of
 * TSM2_V6_STAGES chunks, and k slices for TSM2_V6_WAVES waves of resident blocks rounded down
 * (tsm2_ksplit_for). */
#define tsm2_v6_rows(elem) (16 / (elem))
#define TSM2_V6_STAGES 4
#define TSM2_V6_WAVES 2
/* ... but no more waves than leave each slice at least TSM2_V6_MIN_SLICE k steps (down to one
 * wave): a slice's fixed costs (the ring's first chunks, its B tiles, its partial C) then stay a
 * small part of it. */
#define TSM2_V6_MIN_SLICE 256
#define TSM2_V6_MAXREG 128
/* V6's k slices are whole runs of TSM2_V6_SLICE_UNIT k steps, not of t1-long B tiles as V4's and
 * V5's: its slices are few and long, and whole tiles (80 at k = 10240, t1 = 128) dealt to 52
 * slices give some blocks twice the work of others. The B tile then starts at the slice's first k. */
#define TSM2_V6_SLICE_UNIT 16

#endif
