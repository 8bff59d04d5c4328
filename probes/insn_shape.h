/* insn_shape.h — the shape of the instruction probes' loops, read by insn.cu (nvcc) and the host
 * code that replays them (gcc): the host must redo exactly the kernels' work, so these numbers
 * live here once. The variant lists of tput_lds_ffma and tput_occupancy are X-macros for the same
 * reason: kernels, parameter choices and report come from them. */
#ifndef GP_INSN_SHAPE_H
#define GP_INSN_SHAPE_H

#define INSN_LAT_UNROLL 256 /* dependent steps per loop trip of lat_* and occ_* (GP_REP256) */
#define INSN_TPUT_STEPS 32  /* steps per chain per loop trip of tput_* and mix_* (GP_REP32) */
#define INSN_TPUT_ILP 8     /* independent chains per thread of tput_* and mix_* */
#define INSN_SMEM_WORDS 2048 /* the shared table of every chain kernel */
/* The pointer-chase ring: lane l visits words l + 32 j, j < 63; 63 does not divide 256, so a
 * skipped loop trip shows in where the chase ends. */
#define INSN_RING_WORDS 2016
#define INSN_RING_BYTES (4 * INSN_RING_WORDS)
/* Operand words of the chain kernels: a, b, then a start value per class k = thread mod 7. */
#define INSN_CLASSES 7
#define INSN_OPND_WORDS (2 + INSN_CLASSES)

/* tput_lds_ffma: FFMAs per shared load, one kernel mix_ffma<R> each. */
#define INSN_MIX_RATIOS(X) X(1) X(2) X(4) X(8)

/* tput_occupancy: X(chain name, kernel, independent chains per thread). */
#define INSN_OCC_CHAINS(X)                                                                         \
	X(ffma, occ_ffma, 1)                                                                       \
	X(ffma_ilp2, occ_ffma, 2)                                                                  \
	X(ffma_ilp4, occ_ffma, 4)                                                                  \
	X(lds_ffma, occ_lds_ffma, 1)

#endif
