/* arith_shape.h — the shape of the FP32 probes' loops, read by arith.cu (nvcc) and arith.c (gcc):
 * the host replays exactly the work the kernels do, so these live in one place. */
#ifndef GP_ARITH_SHAPE_H
#define GP_ARITH_SHAPE_H

#define LAT_UNROLL 256   /* dependent FFMAs per loop trip of lat_ffma */
#define TPUT_UNROLL 16   /* unrolled steps per loop trip of tput_* */
#define TPUT_ILP 8       /* independent chains per thread of tput_* */
#define SMEM_WORDS 2048  /* lat_ffma_smem's table */
#define RING_WORDS 2016  /* 63 x 32: 63 does not divide 256, so a skipped loop trip shows */

#endif
