// regbank.cu — patchable templates for the register-bank probes (E103 regbank_ffma, E104
// regbank_map, regbank_reuse). The timed loop is 240 register-form FFMA (FMUL, IADD3) between
// two CS2R SR_CLOCKLO reads; the host rewrites their source registers (and reuse flags) to the
// combination under test and leaves every destination alone, so nothing outside the stream is
// clobbered. 64 values loaded before the loop and summed after it stay live throughout: they
// raise REGCOUNT so that the host has registers to choose from, and none of them is written
// inside the loop, so a patched source never depends on an instruction of the stream (the
// stream measures issue, not latency). 240 = lcm-friendly (1..6, 8, 10, 12, 15 divide it).
// The live values depend on threadIdx.x: uniform values would go to uniform registers (URx) on
// sm_75+, and the stream would not be FFMA R,R,R,R.
#include "probe.cuh"
#include "sassprobe_shape.h"

#define NLIVE SP_NLIVE
#define REP30(x) GP_REP16(x) GP_REP8(x) GP_REP4(x) GP_REP2(x)
#define OPS8(OP) OP(0) OP(1) OP(2) OP(3) OP(4) OP(5) OP(6) OP(7)
#define FFMA_OP(k) "fma.rn.f32 %" #k ", %" #k ", %8, %9;\n\t"
#define FMUL_OP(k) "mul.rn.f32 %" #k ", %" #k ", %8;\n\t"
#define IADD3_OP(k) "{ .reg .s32 t; add.s32 t, %" #k ", %8; add.s32 %" #k ", t, %9; }\n\t"

#define BANK_KERNEL(NAME, T, OPSTR, CONS)                                                          \
	extern "C" __global__ void NAME(T *out, unsigned long long *start, unsigned long long *stop, \
					const T *in, int iters, gp_clock_sample *cs)               \
	{                                                                                          \
		const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;                        \
		T v[NLIVE], a0 = in[NLIVE + 0], a1 = in[NLIVE + 1], a2 = in[NLIVE + 2];            \
		T a3 = in[NLIVE + 3], a4 = in[NLIVE + 4], a5 = in[NLIVE + 5];                      \
		T a6 = in[NLIVE + 6], a7 = in[NLIVE + 7], s;                                       \
		unsigned long long t0, t1;                                                         \
		_Pragma("unroll") for (int k = 0; k < NLIVE; k++) v[k] = in[(k + threadIdx.x) % NLIVE]; \
		gp_clock_begin(cs);                                                                \
		__syncthreads();                                                                   \
		t0 = gp_clock();                                                                   \
		_Pragma("unroll 1") for (int i = 0; i < iters; i++) {                              \
			REP30(asm volatile(OPS8(OPSTR)                                             \
					   : "+" CONS(a0), "+" CONS(a1), "+" CONS(a2), "+" CONS(a3), \
					     "+" CONS(a4), "+" CONS(a5), "+" CONS(a6), "+" CONS(a7) \
					   : CONS(v[0]), CONS(v[1]));)                         \
		}                                                                                  \
		t1 = gp_clock();                                                                   \
		start[tid] = t0;                                                                   \
		stop[tid] = t1;                                                                    \
		s = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;                                         \
		_Pragma("unroll") for (int k = 0; k < NLIVE; k++) s += v[k];                       \
		out[tid] = s;                                                                      \
		__syncthreads();                                                                   \
		gp_clock_end(cs);                                                                  \
	}

#define CONS_F(x) "f"(x)
#define CONS_R(x) "r"(x)

#define BANK_OP(name, T, OPSTR, CONS, mnemonic, cls, nsrc) BANK_KERNEL(bank_##name, T, OPSTR, CONS)
SP_BANK_OPS(BANK_OP)
