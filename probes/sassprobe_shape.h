/* sassprobe_shape.h — the shape of the SASS probes' template kernels (probes/patch/, nvcc)
 * that the host (sassprobe.c, sassbank.c, gcc) replays or sizes its buffers by: one place for
 * each, so the host's reference and the kernel's work cannot drift apart. Changing a value
 * changes the templates' SASS: the patch plans' tests (tests/test_sassprobe.c) count on it. */
#ifndef GP_SASSPROBE_SHAPE_H
#define GP_SASSPROBE_SHAPE_H

/* stall_*: chain k of thread tid starts at SP_START_VALUE(tid) + 0.0625 k. */
#define SP_START_VALUE(tid) (1.0f + (float)((tid) % 7) * 0.125f)
#define SP_STALL_ILP 8      /* interleaved independent chains per thread of stall_ind */
#define SP_WAIT_UNROLL 16   /* chase steps per loop trip of stall_ldg / stall_lds (GP_REP16) */
#define SP_WAIT_WORDS 64    /* words of the chase table */
#define SP_WAIT_RING 61u    /* words of it on the ring: prime, no power-of-two step count is a multiple */
#define SP_WAIT_STEP 17u    /* ring word i holds the byte offset of word i + 17 */

/* regbank_*: values kept live through the stream (its free registers), then the 8 accumulators. */
#define SP_NLIVE 64
#define SP_BANK_IN (SP_NLIVE + 8)

#endif
