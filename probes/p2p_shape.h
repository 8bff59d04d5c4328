/* p2p_shape.h — what p2p.cu and p2p.c share (read by nvcc and gcc). */
#ifndef GP_P2P_SHAPE_H
#define GP_P2P_SHAPE_H

#define P2P_THREADS 512      /* threads per block of the copy, fill and check kernels */
#define P2P_BLOCKS_PER_SM 4  /* their blocks per SM: 2048 threads, every SM full */
#define P2P_SEED 0x9e3779b9u /* the fill pattern's seed (the bidirectional copy's return uses ~seed) */

#endif
