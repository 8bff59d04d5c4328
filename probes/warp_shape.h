/* warp_shape.h — the shape of the warp probes' loops, read by warp.cu (nvcc) and the host code
 * that replays them (gcc): the host must redo exactly the kernels' steps. */
#ifndef GP_WARP_SHAPE_H
#define GP_WARP_SHAPE_H

#define WARP_LAT_UNROLL 256 /* dependent steps per loop trip of lat_warp_* (GP_REP256) */
#define WARP_TPUT_STEPS 32  /* steps per chain per loop trip of tput_warp_* (GP_REP32) */
#define WARP_TPUT_ILP 8     /* independent chains per thread of tput_warp_* */
#define BAR_UNROLL 32       /* barriers per loop trip of lat_bar_* */
#define BAR_CHECK_TRIPS 4   /* untimed rounds that check what the barrier orders */
/* A lane's start value for chain c: distinct (PERM: every lane its own) or with repeats (DUP:
 * five values, zero among them, so MATCH and VOTE see equal and unequal lanes). */
#define WARP_START_PERM(l, c) (0x100u * (l) + 17u * (c) + 1u)
#define WARP_START_DUP(l, c) ((7u * (l) + 3u * (c)) % 5u)

#endif
