/* tma_common.h — what the asynchronous-copy probes share on the host (probes/tma.c, tma_bw.c):
 * the module image, the geometry of a copy kind's boxes (tma_shape.h's struct, built here), the
 * tensor map that describes it, and the source buffer of word i = i. */
#ifndef GP_TMA_COMMON_H
#define GP_TMA_COMMON_H

#include <stddef.h>

#include "measure.h"
#include "tma_shape.h"

extern const unsigned char gp_image_probes_tma[];

/* A tensor map and the room to align it to 128 bytes inside a zeroed context (calloc's 16 are
 * not enough for CUtensorMap's alignment); tma_map() gives the aligned one. */
struct tma_map {
	unsigned char raw[sizeof(CUtensorMap) + 128];
};
CUtensorMap *tma_map(struct tma_map *m);

/* The copy kind's rank (0: bulk) from its name (the copy parameter), -1 if unknown. */
int tma_rank(const char *copy);
/* The geometry of boxes of box_bytes of that rank over at most `bytes` (rounded down to a power
 * of two of boxes or box slabs); NULL, or why the point cannot be formed. */
const char *tma_geom_make(struct tma_geom *g, int rank, unsigned long long box_bytes, unsigned long long bytes);
/* The footprint the geometry covers, in bytes. */
unsigned long long tma_footprint(const struct tma_geom *g);
/* "32x8" for the row's box_dims (bulk: the bytes). */
void tma_box_dims(const struct tma_geom *g, char *buf, size_t len);
/* The source (a buffer of tma_footprint bytes holding word i = i) and, for a tensor rank, the
 * tensor map over it. 0, 1 when the buffer does not fit (the point is n/a), or an error. */
int tma_source(struct gp_meas *m, const struct tma_geom *g, CUdeviceptr *src, CUtensorMap *map);
/* A buffer of `bytes` holding word i = i (the cp.async probes' source); 1 when it does not fit. */
int tma_fill_buf(struct gp_meas *m, CUdeviceptr *d, size_t bytes);
/* Blocks of `threads` with `smem` bytes of dynamic shared memory that fit on an SM (the
 * kernel's opt-in to that much set first); 0 on error. */
int tma_resident(CUfunction fn, int threads, unsigned smem);
/* The per-thread (bad, checked) word counts the bandwidth kernels write: none bad, all checked. */
void tma_check_words(struct gp_meas *m, const unsigned *out, size_t nthr, double want_words);

#endif
