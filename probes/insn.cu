/* insn.cu — instruction latency and throughput kernels (E006 / E106, E010, E004 style). lat_<insn>
 * (one warp, one dependent chain, 256 steps per trip in one asm statement, clock64 around it) and
 * tput_<insn> (8 independent chains per thread, all SMs) are generated from probes/insn.list;
 * mix_ffma<R> feeds R FFMAs from one shared load; occ_* time each block with clock64 and its SM.
 * Pitfall: ptxas optimises PTX too; each step is written to be one SASS instruction, which the
 * GPU test checks against the list. */
#include "probe.cuh"
#include "insn_shape.h"

static_assert(INSN_LAT_UNROLL == 256 && INSN_TPUT_STEPS == 32 && INSN_TPUT_ILP == 8,
	      "the kernels below unroll with GP_REP256, GP_REP32 and eight chains");

/* Register bits <-> 64-bit result words, so every chain type reports through one buffer. */
__device__ __forceinline__ unsigned long long bits64(float v) { return __float_as_uint(v); }
__device__ __forceinline__ unsigned long long bits64(unsigned v) { return v; }
__device__ __forceinline__ unsigned long long bits64(double v) { return (unsigned long long)__double_as_longlong(v); }
__device__ __forceinline__ void from64(float *v, unsigned long long w) { *v = __uint_as_float((unsigned)w); }
__device__ __forceinline__ void from64(unsigned *v, unsigned long long w) { *v = (unsigned)w; }
__device__ __forceinline__ void from64(double *v, unsigned long long w) { *v = __longlong_as_double((long long)w); }

/* Shared table for the shared-memory chains: lane l chases words l, l + 32, l + 64 … so every
 * lane stays in its own bank (conflict-free); word i holds the shared address of word i + 32,
 * on the ring of insn_shape.h. */
__device__ __forceinline__ unsigned smem_fill(unsigned *buf)
{
	const unsigned base = (unsigned)__cvta_generic_to_shared(buf);

	for (unsigned i = threadIdx.x; i < INSN_SMEM_WORDS; i += blockDim.x)
		buf[i] = base + 4u * ((i + 32u) % INSN_RING_WORDS);
	__syncthreads();
	return base;
}

/* Operands: %0 the chain, %1 = a, %2 = b (both from global memory, so ptxas must keep them in
 * registers), %3 = a kernel parameter (the constant-bank operand of ffma_const). Steps that need
 * a predicate or a typed temporary declare it in the asm's own scope (PRE) and hand the value
 * back (POST); that costs one extra instruction per 256 steps, counted in the host. */
#define LAT_KERNEL(NAME, T, CON, PRE, STEP, POST, INIT, FINI)                                      \
	extern "C" __global__ void lat_##NAME(unsigned long long *out, unsigned long long *cyc,   \
					      const unsigned long long *opnd, int iters, int tail,  \
					      gp_clock_sample *cs, float pconst)                    \
	{                                                                                          \
		__shared__ unsigned smem[INSN_SMEM_WORDS];                                         \
		const unsigned tid = threadIdx.x;                                                  \
		const unsigned base = smem_fill(smem);                                             \
		T x, a, b;                                                                         \
		unsigned long long o0, o1, t0, t1;                                                 \
		from64(&x, opnd[2 + tid % 7]);                                                     \
		from64(&a, opnd[0]);                                                               \
		from64(&b, opnd[1]);                                                               \
		INIT;                                                                              \
		gp_chain_start(&o0, &o1, &t0, cs);                                                 \
		for (int i = 0; i < iters; i++)                                                    \
			asm volatile("{\n\t" PRE GP_REP256(STEP) POST "}"                          \
				     : "+" CON(x) : CON(a), CON(b), "f"(pconst));                  \
		t1 = gp_clock();                                                                   \
		/* Untimed tail: lets the host see the result move with one more step. */          \
		for (int i = 0; i < tail; i++)                                                     \
			asm volatile("{\n\t" PRE STEP POST "}" : "+" CON(x) : CON(a), CON(b), "f"(pconst)); \
		gp_clock_end_grid(cs);                                                             \
		FINI;                                                                              \
		cyc[2 * tid] = t1 - t0;                                                            \
		cyc[2 * tid + 1] = o1 - o0;                                                        \
		out[tid] = bits64(x);                                                              \
	}

/* Eight independent chains: operands %0..%7, a = %8, b = %9, the parameter %10, this lane's
 * conflict-free shared address %11. */
#define TPUT_KERNEL(NAME, T, CON, PRE, STEP8, POST, INIT, FINI)                                    \
	extern "C" __global__ void tput_##NAME(unsigned long long *out, const unsigned long long *opnd, \
					       int iters, gp_clock_sample *cs, float pconst)        \
	{                                                                                          \
		__shared__ unsigned smem[INSN_SMEM_WORDS];                                         \
		const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;                        \
		const unsigned base = smem_fill(smem);                                             \
		unsigned lane_addr = base + 4u * (threadIdx.x % 32u);                              \
		T x0, x1, x2, x3, x4, x5, x6, x7, a, b;                                            \
		from64(&x0, opnd[2 + (tid + 0) % 7]);                                              \
		from64(&x1, opnd[2 + (tid + 1) % 7]);                                              \
		from64(&x2, opnd[2 + (tid + 2) % 7]);                                              \
		from64(&x3, opnd[2 + (tid + 3) % 7]);                                              \
		from64(&x4, opnd[2 + (tid + 4) % 7]);                                              \
		from64(&x5, opnd[2 + (tid + 5) % 7]);                                              \
		from64(&x6, opnd[2 + (tid + 6) % 7]);                                              \
		from64(&x7, opnd[2 + (tid + 7) % 7]);                                              \
		from64(&a, opnd[0]);                                                               \
		from64(&b, opnd[1]);                                                               \
		INIT;                                                                              \
		gp_clock_begin(cs);                                                                \
		for (int i = 0; i < iters; i++)                                                    \
			asm volatile("{\n\t" PRE GP_REP32(STEP8) POST "}"                          \
				     : "+" CON(x0), "+" CON(x1), "+" CON(x2), "+" CON(x3), "+" CON(x4), \
				       "+" CON(x5), "+" CON(x6), "+" CON(x7)                       \
				     : CON(a), CON(b), "f"(pconst), "r"(lane_addr));               \
		gp_clock_end_grid(cs);                                                             \
		FINI;                                                                              \
		out[tid] = bits64(x0) ^ bits64(x1) ^ bits64(x2) ^ bits64(x3) ^ bits64(x4) ^        \
			   bits64(x5) ^ bits64(x6) ^ bits64(x7);                                   \
	}

/* ---------------------------------------------------------------- the list's kernels
 * A list type is the chain register's C type and its constraint letter. */
#define CTYPE_F32 float
#define CTYPE_U32 unsigned
#define CTYPE_H2 unsigned
#define CTYPE_F64 double
#define CON_F32 "f"
#define CON_U32 "r"
#define CON_H2 "r"
#define CON_F64 "d"

/* Shapes: one step written with the operand strings of the kernel at hand (X the chain, A, B,
 * C, the temporary R, the lane's address L). */
#define SH_X(op, X, A, B, C, R, L) op " " X ", " X ";\n\t"
#define SH_XA(op, X, A, B, C, R, L) op " " X ", " X ", " A ";\n\t"
#define SH_XB(op, X, A, B, C, R, L) op " " X ", " X ", " B ";\n\t"
#define SH_XAB(op, X, A, B, C, R, L) op " " X ", " X ", " A ", " B ";\n\t"
#define SH_XCB(op, X, A, B, C, R, L) op " " X ", " X ", " C ", " B ";\n\t"
/* x = x + a + b: one IADD3 with three sources; two adds could be fused by ptxas anyway. */
#define SH_XA_XB(op, X, A, B, C, R, L) SH_XA(op, X, A, B, C, R, L) SH_XB(op, X, A, B, C, R, L)
#define SH_XAB_6C(op, X, A, B, C, R, L) op " " X ", " X ", " A ", " B ", 0x6c;\n\t"
/* Funnel shift of x:b by a (a runtime amount): not a rotation, so steps cannot be merged. */
#define SH_BXA(op, X, A, B, C, R, L) op " " X ", " B ", " X ", " A ";\n\t"
#define SH_RXAR(op, X, A, B, C, R, L) op " " R ", " X ", " A ", " R ";\n\t"
/* MUFU: the .ftz forms are one MUFU each (the non-ftz ones add denormal scaling). x = 1/x would
 * be folded away by ptxas (rcp(rcp(x)) = x): x = 1/(-x) keeps every MUFU.RCP (the negation is a
 * source modifier) and flips the sign each step, so the result shows the step count's parity. */
#define SH_NEG(op, X, A, B, C, R, L) "neg.f32 " R ", " X ";\n\t" op " " X ", " R ";\n\t"
/* Conversions on a 32-bit register seen as int then as float bits (mov.b32 costs nothing). */
#define SH_RX_MOV(op, X, A, B, C, R, L) op " " R ", " X ";\n\tmov.b32 " X ", " R ";\n\t"
#define SH_MOV_XR(op, X, A, B, C, R, L) "mov.b32 " R ", " X ";\n\t" op " " X ", " R ";\n\t"
/* Shared memory: loads are pointer chases (x = [x]) in the lane's own bank: a load whose value
 * is never used is dropped by ptxas even when volatile, so throughput runs 8 chases per thread.
 * Every store of a thread goes to its own word (the address STORE's INIT makes): conflict-free
 * like the lane's word, and no two warps write one word, so racecheck has nothing to report. */
#define SH_LD(op, X, A, B, C, R, L) op " " X ", [" X "];\n\t"
#define SH_ST(op, X, A, B, C, R, L) op " [" L "], " X ";\n\t"

/* One latency step; eight throughput steps, chain k on %k with temporary R<k>. */
#define STEP1(sh, op, R) SH_##sh(op, "%0", "%1", "%2", "%3", R, "")
#define STEPK(sh, op, R, k) SH_##sh(op, "%" #k, "%8", "%9", "%10", R #k, "%11")
#define STEP8(sh, op, R)                                                                           \
	STEPK(sh, op, R, 0) STEPK(sh, op, R, 1) STEPK(sh, op, R, 2) STEPK(sh, op, R, 3)            \
	STEPK(sh, op, R, 4) STEPK(sh, op, R, 5) STEPK(sh, op, R, 6) STEPK(sh, op, R, 7)

#define E8(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7)
/* ISETP chained through its predicate input: each trip opens with p = (x != b) and closes with a
 * select (latency: x = p; throughput: x = p ? x : b). */
#define PRED_OPEN(k) "setp.ne.u32 p" #k ", %" #k ", %9;\n\t"
#define PRED_CLOSE(k) "selp.u32 %" #k ", %" #k ", %9, p" #k ";\n\t"
/* The lds chase starts at the offset the host gives and reports the offset it ended at; chain k
 * of a lane's throughput run starts at word lane + 32 k. */
#define LDS_INIT                                                                                   \
	x0 = lane_addr, x1 = lane_addr + 128, x2 = lane_addr + 256, x3 = lane_addr + 384;          \
	x4 = lane_addr + 512, x5 = lane_addr + 640, x6 = lane_addr + 768, x7 = lane_addr + 896
#define LDS_FINI                                                                                   \
	x0 -= base, x1 -= base, x2 -= base, x3 -= base, x4 -= base, x5 -= base, x6 -= base, x7 -= base

/* Frames: the declarations, trip open / close and chain set-up around the steps. */
#define LAT_PLAIN(n, T, C, sh, op) LAT_KERNEL(n, T, C, "", STEP1(sh, op, ""), "", (void)0, (void)0)
#define TPUT_PLAIN(n, T, C, sh, op) TPUT_KERNEL(n, T, C, "", STEP8(sh, op, ""), "", (void)0, (void)0)
#define LAT_F32T(n, T, C, sh, op)                                                                  \
	LAT_KERNEL(n, T, C, ".reg .f32 t;\n\t", STEP1(sh, op, "t"), "", (void)0, (void)0)
#define TPUT_F32T(n, T, C, sh, op)                                                                 \
	TPUT_KERNEL(n, T, C, ".reg .f32 t<8>;\n\t", STEP8(sh, op, "t"), "", (void)0, (void)0)
#define LAT_PRED(n, T, C, sh, op)                                                                  \
	LAT_KERNEL(n, T, C, ".reg .pred p;\n\tsetp.ne.u32 p, %0, %2;\n\t", STEP1(sh, op, "p"),     \
		   "selp.u32 %0, 1, 0, p;\n\t", (void)0, (void)0)
#define TPUT_PRED(n, T, C, sh, op)                                                                 \
	TPUT_KERNEL(n, T, C, ".reg .pred p<8>;\n\t" E8(PRED_OPEN), STEP8(sh, op, "p"), E8(PRED_CLOSE), \
		    (void)0, (void)0)
#define LAT_CHASE(n, T, C, sh, op) LAT_KERNEL(n, T, C, "", STEP1(sh, op, ""), "", x += base, x -= base)
#define TPUT_CHASE(n, T, C, sh, op) TPUT_KERNEL(n, T, C, "", STEP8(sh, op, ""), "", LDS_INIT, LDS_FINI)
#define TPUT_STORE(n, T, C, sh, op)                                                                \
	TPUT_KERNEL(n, T, C, "", STEP8(sh, op, ""), "", lane_addr += 128u * (threadIdx.x / 32u), (void)0)

/* chain LT: both kernels; T: the throughput kernel only (a store has no result to chain on). */
#define KERNELS_LT(n, T, C, fr, sh, op) LAT_##fr(n, T, C, sh, op) TPUT_##fr(n, T, C, sh, op)
#define KERNELS_T(n, T, C, fr, sh, op) TPUT_##fr(n, T, C, sh, op)
#define INSN(name, sass, alt, rate, chain, type, check, frame, shape, ptx, ...)                    \
	KERNELS_##chain(name, CTYPE_##type, CON_##type, frame, shape, ptx)
#include "insn.list"
#undef INSN

/* ---------------------------------------------------------------- E010: LDS:FFMA mix
 * Eight accumulators; each group of R FFMAs takes its multiplicand from one shared load (the
 * register blocking of a GEMM inner loop: one loaded value, R uses). %8 = b, %9 = the load
 * address: this lane's word (distinct banks) or word 0 for every lane (broadcast). Every word
 * holds the same value, so the host knows each accumulator's sum exactly. */
#define MLD(g) "ld.volatile.shared.f32 t" #g ", [%9+" #g "*128];\n\t"
#define MF(k, g) "fma.rn.f32 %" #k ", t" #g ", %8, %" #k ";\n\t"
#define MIX_R1 MLD(0) MF(0, 0) MLD(1) MF(1, 1) MLD(2) MF(2, 2) MLD(3) MF(3, 3) \
	MLD(4) MF(4, 4) MLD(5) MF(5, 5) MLD(6) MF(6, 6) MLD(7) MF(7, 7)
#define MIX_R2 MLD(0) MF(0, 0) MF(1, 0) MLD(1) MF(2, 1) MF(3, 1) MLD(2) MF(4, 2) MF(5, 2) \
	MLD(3) MF(6, 3) MF(7, 3)
#define MIX_R4 MLD(0) MF(0, 0) MF(1, 0) MF(2, 0) MF(3, 0) MLD(1) MF(4, 1) MF(5, 1) MF(6, 1) MF(7, 1)
#define MIX_R8 MLD(0) MF(0, 0) MF(1, 0) MF(2, 0) MF(3, 0) MF(4, 0) MF(5, 0) MF(6, 0) MF(7, 0)

#define MIX_KERNEL(R)                                                                              \
	extern "C" __global__ void mix_ffma##R(float *out, const float *opnd, int iters, int broadcast, \
					       gp_clock_sample *cs)                                 \
	{                                                                                          \
		__shared__ float v[1024];                                                          \
		const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;                        \
		const float b = opnd[1];                                                           \
		float a0 = opnd[2], a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0; \
		for (unsigned i = threadIdx.x; i < 1024; i += blockDim.x)                          \
			v[i] = opnd[0];                                                            \
		__syncthreads();                                                                   \
		const unsigned addr = (unsigned)__cvta_generic_to_shared(v) +                      \
				      (broadcast ? 0u : 4u * (threadIdx.x % 32u));                 \
		gp_clock_begin(cs);                                                                \
		for (int i = 0; i < iters; i++)                                                    \
			asm volatile("{\n\t.reg .f32 t<8>;\n\t" GP_REP32(MIX_R##R) "}"             \
				     : "+f"(a0), "+f"(a1), "+f"(a2), "+f"(a3), "+f"(a4), "+f"(a5), \
				       "+f"(a6), "+f"(a7)                                          \
				     : "f"(b), "r"(addr));                                         \
		gp_clock_end_grid(cs);                                                             \
		out[tid] = a0 == a1 && a0 == a2 && a0 == a3 && a0 == a4 && a0 == a5 && a0 == a6 && \
				   a0 == a7 ? a0 : -1.0f;                                          \
	}

INSN_MIX_RATIOS(MIX_KERNEL)

/* ---------------------------------------------------------------- E004 style: warps per SM
 * Each block records its SM and clock64 at its start and end (after a barrier, so the window
 * spans all its warps); the host adds up operations per SM over that SM's own clock. ffma runs
 * ILP dependent chains per thread; lds_ffma the LDS -> FFMA chain of lat_ffma operand=smem
 * (the FFMA's result, a denormal whose bits are the next shared address, times 1 plus 0). The
 * dynamic shared memory (unused) only caps how many blocks fit on an SM. */
__device__ __forceinline__ unsigned gp_smid(void)
{
	unsigned s;
	asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
	return s;
}

#define OCC_BEGIN                                                                                  \
	__shared__ unsigned smem[INSN_SMEM_WORDS];                                                 \
	__shared__ unsigned long long t0;                                                          \
	const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;                                \
	const unsigned base = smem_fill(smem);                                                     \
	(void)base;                                                                                \
	gp_clock_begin(cs);                                                                        \
	if (threadIdx.x == 0)                                                                      \
		t0 = gp_clock();                                                                   \
	__syncthreads();
#define OCC_END                                                                                    \
	__syncthreads();                                                                           \
	if (threadIdx.x == 0) {                                                                    \
		blk[3 * blockIdx.x] = gp_smid();                                                   \
		blk[3 * blockIdx.x + 1] = t0;                                                      \
		blk[3 * blockIdx.x + 2] = gp_clock();                                              \
	}                                                                                          \
	gp_clock_end_grid(cs);

#define OF(k) "fma.rn.f32 %" #k ", %" #k ", %4, %5;\n\t"
extern "C" __global__ void occ_ffma(float *out, unsigned long long *blk, const float *opnd, int iters,
				    int ilp, gp_clock_sample *cs)
{
	const float a = opnd[0], b = opnd[1];
	float x0 = opnd[2], x1 = x0, x2 = x0, x3 = x0;
	OCC_BEGIN
	/* 256 FFMAs per trip whatever the ILP, so the trip count means the same work. */
	if (ilp == 1) {
		for (int i = 0; i < iters; i++)
			asm volatile(GP_REP256(OF(0)) : "+f"(x0), "+f"(x1), "+f"(x2), "+f"(x3) : "f"(a), "f"(b));
	} else if (ilp == 2) {
		for (int i = 0; i < iters; i++)
			asm volatile(GP_REP128(OF(0) OF(1)) : "+f"(x0), "+f"(x1), "+f"(x2), "+f"(x3) : "f"(a), "f"(b));
	} else {
		for (int i = 0; i < iters; i++)
			asm volatile(GP_REP64(OF(0) OF(1) OF(2) OF(3))
				     : "+f"(x0), "+f"(x1), "+f"(x2), "+f"(x3) : "f"(a), "f"(b));
	}
	OCC_END
	out[tid] = ilp == 1 ? x0 : ilp == 2 ? (x0 == x1 ? x0 : -1.0f)
				: (x0 == x1 && x0 == x2 && x0 == x3 ? x0 : -1.0f);
}

/* One step = LDS then FFMA; also lat_ffma's operand=smem chain (probes/arith.cu). */
#define LDS_FFMA "ld.shared.f32 t, [%0];\n\tfma.rn.f32 t, t, %1, %2;\n\tmov.b32 %0, t;\n\t"
extern "C" __global__ void occ_lds_ffma(float *out, unsigned long long *blk, const float *opnd,
					int iters, int ilp, gp_clock_sample *cs)
{
	const float one = opnd[0], zero = opnd[1];
	OCC_BEGIN
	unsigned x = base + 4u * (threadIdx.x % 32u);

	for (int i = 0; i < iters; i++)
		asm volatile("{\n\t.reg .f32 t;\n\t" GP_REP256(LDS_FFMA) "}" : "+r"(x) : "f"(one), "f"(zero));
	OCC_END
	out[tid] = __uint_as_float(x - base);
}
