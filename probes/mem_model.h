/* mem_model.h — host models behind the memory probes (probes/mem_*.c, probes/smem.c), kept apart
 * so tests can hold them against hand-computed answers without a GPU.
 *
 * Sector model (E016): a warp's global request is served in 32-byte sectors; its efficiency is
 * the distinct bytes the lanes asked for over the sector bytes fetched. Bank model: shared
 * memory has 32 banks of 4 bytes; a warp access takes as many wavefronts as the most distinct
 * words any one bank must deliver. Chain: a cyclic permutation (one cycle through every slot). */
#ifndef GP_MEM_MODEL_H
#define GP_MEM_MODEL_H

#include <stddef.h>
#include <stdint.h>

#define MEM_SECTOR_BYTES 32
#define MEM_WARP 32

/* Distinct 32-byte sectors covered by n accesses of `width` bytes at the given byte addresses. */
int mem_sectors(const int64_t *addr, int n, int width);

/* One warp, lane l reading elem_bytes at element offset + l * stride (stride 0: all lanes the
 * same element). Distinct requested bytes / fetched sector bytes, in 0..1. */
double mem_model_stride(int elem_bytes, long stride_elems, long offset_elems);

/* Column walk of a column-major matrix: a warp reads 32 consecutive elements of column j,
 * starting at row 0 (a multiple of 32), i.e. at element j * lda. Efficiency averaged over the
 * columns j = 0 .. ncols-1 (ncols = 8 covers every residue of j * lda mod 8 for 4-byte data). */
double mem_model_lda(int elem_bytes, long lda_elems, long ncols);

/* Shared memory, one warp: lane l accesses the width-byte element l * stride of rows of 32
 * elements followed by pad_elems padding elements (a [.][32 + pad] array of that width).
 * Returns the wavefronts (passes through the banks) the access needs. */
int mem_bank_wavefronts(int width_bytes, long stride_elems, int pad_elems);
/* Wavefronts of a conflict-free access of this width: 1, 2 or 4 (32 lanes x width / 128 B). */
int mem_bank_min_wavefronts(int width_bytes);

/* next[i] for a single cycle through all n slots: random (Sattolo's algorithm with a fixed
 * seed, so every run chases the same order) or sequential (i -> i + 1). */
void mem_chain_random(uint32_t *next, size_t n, uint64_t seed);
void mem_chain_sequential(uint32_t *next, size_t n);
/* Slot reached from `from` after `steps` steps. */
uint32_t mem_chain_walk(const uint32_t *next, uint32_t from, uint64_t steps);

#endif
