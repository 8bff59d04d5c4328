/* wgmma_shape.h — the facts the wgmma kernels (wgmma_90a.cu, nvcc) and their host code
 * (wgmma.c, wgmma_report.c, the tests; gcc) share: the input types and what one instruction of
 * each does, the loop shapes, and the shared-memory layout. Every kernel fills A and B with one
 * 32-bit word (the type's encoding of 1.0, four times for 8-bit types), so each wgmma adds K
 * (dense; sparse: the K/2 kept products of the doubled K) to every accumulator element and the
 * host knows the result exactly: count x K, while that stays in the type's exact range (below). */
#ifndef GP_WGMMA_SHAPE_H
#define GP_WGMMA_SHAPE_H

/* Dense K of m64nNk<K> per type (32 bytes of A per row); the sparse form's K is twice it. The
 * kernels spell the PTX shape from these. */
#define WGMMA_K_f16 16
#define WGMMA_K_bf16 16
#define WGMMA_K_tf32 8
#define WGMMA_K_e4m3 32
#define WGMMA_K_e5m2 32
#define WGMMA_K_s8 32
#define WGMMA_KSP_f16 32
#define WGMMA_KSP_bf16 32
#define WGMMA_KSP_tf32 16
#define WGMMA_KSP_e4m3 64
#define WGMMA_KSP_e5m2 64
#define WGMMA_KSP_s8 64

/* X(type, dense K, the word of 1.0s, integer accumulator, exact bits, tensor rate class of
 *   gp_tensor_flops_per_clk_sm, SASS opcode)
 * The accumulator is f32 for every floating type (the f16 accumulator is not measured), s32 for
 * s8. Exact bits: the accumulator holds count x K exactly up to 2^bits. FP8 keeps only about 14
 * bits of the sum (an H100 accumulator of 2^14 no longer grows by products of 1.0; DeepSeek-V3's
 * report, arXiv 2412.19437, saw ~14 bits on the H800); 23 for the other floating types is what
 * the first H100 run checked. Past it the kernels start the accumulator afresh each loop trip. */
#define WGMMA_TYPES(X)                                                                             \
	X(f16, WGMMA_K_f16, 0x3c003c00u, 0, 23, "f16", "HGMMA")                                    \
	X(bf16, WGMMA_K_bf16, 0x3f803f80u, 0, 23, "bf16", "HGMMA")                                 \
	X(tf32, WGMMA_K_tf32, 0x3f800000u, 0, 23, "tf32", "HGMMA")                                 \
	X(e4m3, WGMMA_K_e4m3, 0x38383838u, 0, 14, "fp8", "QGMMA")                                  \
	X(e5m2, WGMMA_K_e5m2, 0x3c3c3c3cu, 0, 14, "fp8", "QGMMA")                                  \
	X(s8, WGMMA_K_s8, 0x01010101u, 1, 31, "int8", "IGMMA")

#define WGMMA_M 64              /* rows of A and D per instruction (one warpgroup) */
#define WGMMA_THREADS 128       /* a warpgroup */
#define WGMMA_ROW_BYTES 32      /* one row of A (dense or sparse-compressed) or of dense B: K x type */
#define WGMMA_MAX_N 256
#define WGMMA_MAX_WG 4          /* warpgroups per block of tput_wgmma */
/* Shared memory of every kernel: B (N rows of 32 bytes, 64 for sparse), then one A tile of 64
 * rows per warpgroup. No swizzle, K-major: 8 x 16-byte core matrices stored contiguously
 * (128 bytes each), the K neighbour next (LBO = 128), the next 8 rows after all K chunks
 * (SBO = 128 x K chunks). */
#define WGMMA_B_BYTES (WGMMA_MAX_N * 2 * WGMMA_ROW_BYTES)
#define WGMMA_A_BYTES (WGMMA_M * WGMMA_ROW_BYTES)
#define WGMMA_SMEM_BYTES (WGMMA_B_BYTES + WGMMA_MAX_WG * WGMMA_A_BYTES)
#define WGMMA_CORE_BYTES 128
/* What shared memory delivers per clock per SM (32 banks x 4 bytes): with A and B read from it
 * for every instruction, (A + B bytes) / this is the fewest cycles an SM can spend on one. */
#define WGMMA_SMEM_BYTES_PER_CLK 128

/* fence -> mma -> commit -> wait 0 sequences per loop trip of lat_wgmma: 2 (ptxas takes a
 * second per N = 256 latency kernel at 4, and the loop's branch is one instruction a trip). */
#define WGMMA_LAT_UNROLL 2
#define WGMMA_TPUT_BATCH 16     /* mma_async per commit group of tput_wgmma */
/* Sparse metadata: every 4-element group keeps elements 0 and 1 (index nibble 0b0100), valid
 * for every type; selector 0. */
#define WGMMA_SP_META 0x44444444u

#endif
