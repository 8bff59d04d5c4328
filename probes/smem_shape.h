/* smem_shape.h — the shape of the on-chip memory probes, read by smem.cu (nvcc) and smem.c
 * (gcc): the constant bank the chase spans, accesses per loop trip, the shared memory of a warp
 * of bw_* and of bank_*, and the widths there are kernels for. Pitfall: the kernels' offsets are
 * literal lists of SMEM_TRIP entries (PTX immediates) in smem.cu; a new SMEM_TRIP needs them
 * rewritten. */
#ifndef GP_SMEM_SHAPE_H
#define GP_SMEM_SHAPE_H

#define CCHAIN_BYTES 65536     /* the constant bank a module may use: lat_const's table */
#define SMEM_TRIP 8            /* independent accesses per warp per loop trip of bw_* and bank_* */
#define BANK_SMEM_BYTES 16384  /* dynamic shared memory of bank_lds*, all of it initialised */

/* Bytes of shared memory warp w of bw_* owns: one trip's SMEM_TRIP x 32 lanes x width bytes. */
#define SMEM_WARP_BYTES(width_bytes) (SMEM_TRIP * 32u * (width_bytes))

/* Access widths (bits, bytes) with a kernel each in bw_smem and bank_smem. */
#define SMEM_WIDTHS(X) X(32, 4) X(64, 8) X(128, 16)

#endif
