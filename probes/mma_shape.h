/* mma_shape.h — the shape of the mma.sync probes' loops and the facts of their operand types,
 * read by mma.cu (nvcc) and the host code that predicts every result (gcc): the host must know
 * exactly what the kernels did, so these numbers live here once. The variants themselves are
 * probes/mma.list's.
 *
 * A chain's trip is MMA_TRIP_STEPS mma: 31 pairs D += A*B+, D += A*B- and then two D += A*B+, with
 * every element of A and B+ equal to 1 and of B- to -1. Each mma adds +-K_eff (K, or K/2 for the
 * sparse forms) to every element of D, so after `iters` trips from 0 it holds exactly
 * 2 x iters x K_eff, and never more on the way: small integers, exact in every accumulator as long
 * as they stay inside its exact range (MMA_EXACT_BITS of the accumulator class). */
#ifndef GP_MMA_SHAPE_H
#define GP_MMA_SHAPE_H

#define MMA_TRIP_STEPS 64  /* mma per chain per loop trip (lat_ and tput_ kernels) */
#define MMA_TRIP_NET 2     /* net +1 steps per trip: 33 with B+, 31 with B- */
#define MMA_CHAINS 4       /* independent accumulators per warp in tput_ kernels */
#define MMA_META 0x44444444u /* sparse metadata: in every group of four, elements 0 and 1 */

/* Input classes: X(class, rate type of gp_tensor_flops_per_clk_sm, bits per element,
 * register word of +1, of -1). f64 operands are 64-bit registers holding one element. */
#define MMA_INPUTS(X)                                                                              \
	X(F16, "f16", 16, 0x3c003c00ull, 0xbc00bc00ull)                                            \
	X(BF16, "bf16", 16, 0x3f803f80ull, 0xbf80bf80ull)                                          \
	X(TF32, "tf32", 32, 0x3f800000ull, 0xbf800000ull)                                          \
	X(S8, "int8", 8, 0x01010101ull, 0xffffffffull)                                             \
	X(E4M3, "fp8", 8, 0x38383838ull, 0xb8b8b8b8ull)                                            \
	X(E5M2, "fp8", 8, 0x3c3c3c3cull, 0xbcbcbcbcull)                                            \
	X(F64, "fp64", 64, 0x3ff0000000000000ull, 0xbff0000000000000ull)

/* Accumulator classes: X(class, bits per element, elements per register, exact bits). Exact
 * bits: the integers up to 2^bits the class sums without rounding, with a margin: f16 holds 11
 * significant bits; f32 24, taken as 23 because the tensor cores align the addends to the
 * largest and truncate; FP8 inputs sum in f32 through a narrower path on Hopper (DeepSeek-V3
 * report: about 14 bits), so their class is F8 with 13. */
#define MMA_ACCS(X)                                                                                \
	X(F16, 16, 2, 11)                                                                          \
	X(F32, 32, 1, 23)                                                                          \
	X(F8, 32, 1, 13)                                                                           \
	X(S32, 32, 1, 31)                                                                          \
	X(F64, 64, 1, 52)

#endif
