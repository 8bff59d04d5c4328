/* l2map_shape.h — the shape of lat_l2_map and bw_l2_side, read by l2map.cu (nvcc), l2map.c and
 * l2map_side.c (gcc) and the tests: the dependent loads one timed chain holds, the rotation that
 * staggers where each SM starts in the line list, and the limits the host checks before a launch.
 * Pitfall: the kernel spells the chain as GP_REP8; a new L2MAP_CHAIN needs that rewritten (a
 * static_assert says so). */
#ifndef GP_L2MAP_SHAPE_H
#define GP_L2MAP_SHAPE_H

#define L2MAP_CHAIN 8        /* dependent ld.global.cg per timed chain (GP_REP8 in l2map.cu) */
#define L2MAP_ROT 7          /* SM s starts at line (s * L2MAP_ROT) mod lines: SMs spread over slices */
#define L2MAP_OVH_TRIES 8    /* timer-overhead samples per block (the minimum is taken) */
#define L2MAP_MAX_LINES 256  /* sample lines at most: SMs x lines rows x ~21 columns stay under the
                              * isolation pipe's 2^20 cells a point (harness/isolate.c) */
#define L2MAP_LINE 128       /* bytes of an L2 line: sample lines are line-aligned */
/* No L2 hit returns in fewer cycles: below any L1 hit since Volta (28-40 cycles), which an L2 hit
 * cannot beat. A cell under it means the load did not go to L2: a broken probe. */
#define L2MAP_FLOOR_CYCLES 20

/* bw_l2_side: lines each lane group of a warp has in flight (the stream kernel's unrolled loop),
 * and the fewest lines a reading SM's list may hold (the kernel wraps a list index once per step). */
#define L2SIDE_UNROLL 4
#define L2SIDE_MIN_LINES 64

#endif
