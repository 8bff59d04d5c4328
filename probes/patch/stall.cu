// stall.cu — patchable templates for stall_ffma (E105, seed 001 Figure 2 on Volta-family SASS).
// The host patches the control bits (stall count, yield, wait mask) of the timed instructions
// and checks the arithmetic against its own: with no hardware interlock for fixed-latency FFMA,
// a dependent chain whose stall is shorter than the latency reads a stale register and the
// result changes. The timed region sits between two CS2R SR_CLOCKLO reads; every FFMA R,R,R,R
// there is part of the chain. Operands come from memory (no constant-bank forms).
#include "probe.cuh"
#include "sassprobe_shape.h"

#if SP_WAIT_UNROLL != 16
#error "the chase loops are GP_REP16: change them with SP_WAIT_UNROLL"
#endif

// The timed region of every template, inside the clock sample: t0, `iters` trips of BODY (never
// unrolled: the patched instructions are the loop's), t1.
#define SP_TIMED(BODY)                                                                             \
	gp_clock_begin(cs);                                                                        \
	t0 = gp_clock();                                                                           \
	_Pragma("unroll 1") for (int i = 0; i < iters; i++) {                                      \
		BODY                                                                               \
	}                                                                                          \
	t1 = gp_clock()

// One dependent chain per thread: x = fma(b, x, c), 256 per loop trip.
extern "C" __global__ void stall_dep(float *out, unsigned long long *cycles, const float *bc, int iters,
				     gp_clock_sample *cs)
{
	const unsigned tid = threadIdx.x;
	float x = SP_START_VALUE(tid);
	const float b = bc[0], c = bc[1];
	unsigned long long t0, t1;

	SP_TIMED(GP_REP256(asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x) : "f"(b), "f"(c));));
	out[tid] = x;
	cycles[tid] = t1 - t0;
	gp_clock_end(cs);
}

#define IND8(OP) OP(0) OP(1) OP(2) OP(3) OP(4) OP(5) OP(6) OP(7)
#define IND_OP(k) "fma.rn.f32 %" #k ", %" #k ", %8, %9;\n\t"

// Eight independent chains per thread, interleaved: each FFMA's input was written 8 FFMAs ago.
extern "C" __global__ void stall_ind(float *out, unsigned long long *cycles, const float *bc, int iters,
				     gp_clock_sample *cs)
{
	const unsigned tid = threadIdx.x;
	const float b = bc[0], c = bc[1];
	const float x0 = SP_START_VALUE(tid);
	float a0 = x0, a1 = x0 + 0.0625f, a2 = x0 + 0.125f, a3 = x0 + 0.1875f;
	float a4 = x0 + 0.25f, a5 = x0 + 0.3125f, a6 = x0 + 0.375f, a7 = x0 + 0.4375f;
	unsigned long long t0, t1;

	SP_TIMED(GP_REP32(asm volatile(IND8(IND_OP)
				       : "+f"(a0), "+f"(a1), "+f"(a2), "+f"(a3), "+f"(a4), "+f"(a5), "+f"(a6), "+f"(a7)
				       : "f"(b), "f"(c));));
	out[SP_STALL_ILP * tid + 0] = a0;
	out[SP_STALL_ILP * tid + 1] = a1;
	out[SP_STALL_ILP * tid + 2] = a2;
	out[SP_STALL_ILP * tid + 3] = a3;
	out[SP_STALL_ILP * tid + 4] = a4;
	out[SP_STALL_ILP * tid + 5] = a5;
	out[SP_STALL_ILP * tid + 6] = a6;
	out[SP_STALL_ILP * tid + 7] = a7;
	cycles[tid] = t1 - t0;
	gp_clock_end(cs);
}

// A variable-latency load consumed at once: a pointer chase idx = tab[idx] & 0xfc (byte offsets)
// through global (LDG) or shared (LDS) memory. The first instruction that reads the loaded value
// (the mask) waits on the load's scoreboard; the host clears that wait bit and sees whether the
// chase still ends where the host's does. A stale read leaves idx where it was (one step lost);
// the ring has SP_WAIT_RING words (prime, and no power-of-two step count is a multiple of it),
// so lost steps show in the final index. The mask keeps any stale value inside the table.
#define CHASE_STEP_G "{ .reg .u32 t; .reg .u64 a; cvt.u64.u32 a, %0; add.u64 a, a, %1; " \
	"ld.global.u32 t, [a]; and.b32 %0, t, 0xfc; }"
#define CHASE_STEP_S "{ .reg .u32 t; .reg .u32 a; add.u32 a, %0, %1; ld.shared.u32 t, [a]; and.b32 %0, t, 0xfc; }"

extern "C" __global__ void stall_ldg(unsigned *out, unsigned long long *cycles, const unsigned *tab, int iters,
				     gp_clock_sample *cs)
{
	const unsigned tid = threadIdx.x;
	unsigned idx = 4u * (tid % SP_WAIT_RING);
	unsigned long long t0, t1;

	SP_TIMED(GP_REP16(asm volatile(CHASE_STEP_G : "+r"(idx) : "l"(tab) : "memory");));
	out[tid] = idx;
	cycles[tid] = t1 - t0;
	gp_clock_end(cs);
}

extern "C" __global__ void stall_lds(unsigned *out, unsigned long long *cycles, const unsigned *tab, int iters,
				     gp_clock_sample *cs)
{
	__shared__ unsigned stab[SP_WAIT_WORDS];
	const unsigned tid = threadIdx.x;
	const unsigned base = (unsigned)__cvta_generic_to_shared(stab);
	unsigned idx = 4u * (tid % SP_WAIT_RING);
	unsigned long long t0, t1;

	for (unsigned i = tid; i < SP_WAIT_WORDS; i += blockDim.x)
		stab[i] = tab[i];
	__syncthreads();
	SP_TIMED(GP_REP16(asm volatile(CHASE_STEP_S : "+r"(idx) : "r"(base) : "memory");));
	out[tid] = idx;
	cycles[tid] = t1 - t0;
	gp_clock_end(cs);
}
