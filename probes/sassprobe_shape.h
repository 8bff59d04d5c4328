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

/* The instructions of the register-bank streams: a template kernel bank_<name> each, regbank_ffma's
 * `op` values and the plans' opcodes. X(name, element type, PTX of the 8 chains (regbank.cu),
 * operand constraint, SASS mnemonic, instruction class (sass/insn.h), register sources). */
#define SP_BANK_OPS(X)                                                                              \
	X(ffma, float, FFMA_OP, CONS_F, "FFMA", GP_I_FFMA_RRR, 3)                                 \
	X(fmul, float, FMUL_OP, CONS_F, "FMUL", GP_I_FMUL_RRR, 2)                                 \
	X(iadd3, int, IADD3_OP, CONS_R, "IADD3", GP_I_IADD3_RRR, 3)

#endif
