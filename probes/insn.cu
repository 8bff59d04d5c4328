/* insn.cu — instruction latency and throughput probes (E006 / E106 table, E010, E004 style).
 *
 * lat_<insn>: one warp runs one dependent chain x = op(x, a, b), 256 steps per loop trip inside
 * one asm volatile statement, clock64 around the loop, the timer's own cost measured beside it.
 * tput_<insn>: 8 independent chains per thread, 32 steps each per trip, all SMs full: the issue
 * or pipe rate. mix_ffma<R>: one shared load feeds R FFMAs (E010). occ_*: one dependent chain
 * per thread, a chosen number of warps per SM, each block timed with clock64 and tagged with its
 * SM (E004 style occupancy sweep). Pitfall: ptxas, not only nvcc, optimises PTX; every step is
 * written so that it maps to exactly one SASS instruction, which the GPU test checks. */
#include "probe.cuh"

#define INSN_LAT_UNROLL 256
#define INSN_TPUT_UNROLL 32

/* Register bits <-> 64-bit result words, so every chain type reports through one buffer. */
__device__ __forceinline__ unsigned long long bits64(float v) { return __float_as_uint(v); }
__device__ __forceinline__ unsigned long long bits64(unsigned v) { return v; }
__device__ __forceinline__ unsigned long long bits64(double v) { return (unsigned long long)__double_as_longlong(v); }
__device__ __forceinline__ void from64(float *v, unsigned long long w) { *v = __uint_as_float((unsigned)w); }
__device__ __forceinline__ void from64(unsigned *v, unsigned long long w) { *v = (unsigned)w; }
__device__ __forceinline__ void from64(double *v, unsigned long long w) { *v = __longlong_as_double((long long)w); }

/* Shared table for the shared-memory chains: lane l chases words l, l + 32, l + 64 … so every
 * lane stays in its own bank (conflict-free); word i holds the shared address of word i + 32,
 * on a ring of 63 x 32 words: 63 does not divide 256, so a skipped loop trip shows. */
#define SMEM_WORDS 2048
#define RING_WORDS 2016
__device__ __forceinline__ unsigned smem_fill(unsigned *buf)
{
	const unsigned base = (unsigned)__cvta_generic_to_shared(buf);

	for (unsigned i = threadIdx.x; i < SMEM_WORDS; i += blockDim.x)
		buf[i] = base + 4u * ((i + 32u) % RING_WORDS);
	__syncthreads();
	return base;
}

/* Operands: %0 the chain, %1 = a, %2 = b (both from global memory, so ptxas must keep them in
 * registers), %3 = a kernel parameter (the constant-bank operand of ffma_const). Steps that need
 * a predicate or a typed temporary declare it in the asm's own scope (PRE) and hand the value
 * back (POST); that costs one extra instruction per 256 steps, counted in the host. */
#define LAT_KERNEL(NAME, T, CX, CA, PRE, STEP, POST, INIT, FINI)                                              \
	extern "C" __global__ void lat_##NAME(unsigned long long *out, unsigned long long *cyc,   \
					      const unsigned long long *opnd, int iters, int tail,  \
					      gp_clock_sample *cs, float pconst)                    \
	{                                                                                          \
		__shared__ unsigned smem[SMEM_WORDS];                                              \
		const unsigned tid = threadIdx.x;                                                  \
		const unsigned base = smem_fill(smem);                                             \
		T x, a, b;                                                                         \
		unsigned long long o0, o1, t0, t1;                                                 \
		from64(&x, opnd[2 + tid % 7]);                                                     \
		from64(&a, opnd[0]);                                                               \
		from64(&b, opnd[1]);                                                               \
		INIT;                                                                              \
		if (gp_is_clock_thread()) {                                                        \
			cs->ns0 = gp_ns();                                                         \
			cs->clk0 = gp_clock();                                                     \
		}                                                                                  \
		o0 = gp_clock();                                                                   \
		o1 = gp_clock();                                                                   \
		t0 = gp_clock();                                                                   \
		for (int i = 0; i < iters; i++)                                                    \
			asm volatile("{\n\t" PRE GP_REP256(STEP) POST "}"                          \
				     : "+" CX(x) : CA(a), CA(b), "f"(pconst));                     \
		t1 = gp_clock();                                                                   \
		/* Untimed tail: lets the host see the result move with one more step. */          \
		for (int i = 0; i < tail; i++)                                                     \
			asm volatile("{\n\t" PRE STEP POST "}" : "+" CX(x) : CA(a), CA(b), "f"(pconst)); \
		gp_clock_end_grid(cs);                                               \
		FINI;                                                                              \
		cyc[2 * tid] = t1 - t0;                                                            \
		cyc[2 * tid + 1] = o1 - o0;                                                        \
		out[tid] = bits64(x);                                                              \
	}

/* Eight independent chains: operands %0..%7, a = %8, b = %9, the parameter %10, this lane's
 * conflict-free shared address %11. */
#define TPUT_KERNEL(NAME, T, CX, CA, PRE, STEP8, POST, INIT, FINI)                                            \
	extern "C" __global__ void tput_##NAME(unsigned long long *out, const unsigned long long *opnd, \
					       int iters, gp_clock_sample *cs, float pconst)        \
	{                                                                                          \
		__shared__ unsigned smem[SMEM_WORDS];                                              \
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
		if (gp_is_clock_thread()) {                                                        \
			cs->ns0 = gp_ns();                                                         \
			cs->clk0 = gp_clock();                                                     \
		}                                                                                  \
		for (int i = 0; i < iters; i++)                                                    \
			asm volatile("{\n\t" PRE GP_REP32(STEP8) POST "}"                          \
				     : "+" CX(x0), "+" CX(x1), "+" CX(x2), "+" CX(x3), "+" CX(x4), \
				       "+" CX(x5), "+" CX(x6), "+" CX(x7)                          \
				     : CA(a), CA(b), "f"(pconst), "r"(lane_addr));                \
		gp_clock_end_grid(cs);                                               \
		FINI;                                                                              \
		out[tid] = bits64(x0) ^ bits64(x1) ^ bits64(x2) ^ bits64(x3) ^ bits64(x4) ^        \
			   bits64(x5) ^ bits64(x6) ^ bits64(x7);                                   \
	}

/* Constraint letters as macros so "+" CX(x) pastes into "+f"(x). */
#define CF(v) "f"(v)
#define CR(v) "r"(v)
#define CD(v) "d"(v)
#define CF_ "f"
#define CR_ "r"
#define CD_ "d"

#define E8(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7)
#define NOPRE ""
#define NOPOST ""

/* -- each instruction: latency step on %0 (a = %1, b = %2, param = %3), throughput step on %k
 *    (a = %8, b = %9, param = %10). */
#define L_FFMA "fma.rn.f32 %0, %0, %1, %2;\n\t"
#define T_FFMA(k) "fma.rn.f32 %" #k ", %" #k ", %8, %9;\n\t"
#define L_FMUL "mul.rn.f32 %0, %0, %1;\n\t"
#define T_FMUL(k) "mul.rn.f32 %" #k ", %" #k ", %8;\n\t"
#define L_FADD "add.rn.f32 %0, %0, %2;\n\t"
#define T_FADD(k) "add.rn.f32 %" #k ", %" #k ", %9;\n\t"
/* The multiplier is a kernel parameter: ptxas reads it straight from constant bank 0. */
#define L_FFMAC "fma.rn.f32 %0, %0, %3, %2;\n\t"
#define T_FFMAC(k) "fma.rn.f32 %" #k ", %" #k ", %10, %9;\n\t"
#define L_HFMA2 "fma.rn.f16x2 %0, %0, %1, %2;\n\t"
#define T_HFMA2(k) "fma.rn.f16x2 %" #k ", %" #k ", %8, %9;\n\t"
#define L_DFMA "fma.rn.f64 %0, %0, %1, %2;\n\t"
#define T_DFMA(k) "fma.rn.f64 %" #k ", %" #k ", %8, %9;\n\t"
#define L_IMAD "mad.lo.u32 %0, %0, %1, %2;\n\t"
#define T_IMAD(k) "mad.lo.u32 %" #k ", %" #k ", %8, %9;\n\t"
/* x = x + a + b: one IADD3 with three sources; two adds could be fused by ptxas anyway. */
#define L_IADD3 "add.u32 %0, %0, %1;\n\tadd.u32 %0, %0, %2;\n\t"
#define T_IADD3(k) "add.u32 %" #k ", %" #k ", %8;\n\tadd.u32 %" #k ", %" #k ", %9;\n\t"
#define L_LOP3 "lop3.b32 %0, %0, %1, %2, 0x6c;\n\t"
#define T_LOP3(k) "lop3.b32 %" #k ", %" #k ", %8, %9, 0x6c;\n\t"
/* Funnel shift of x:b by a (a runtime amount): not a rotation, so steps cannot be merged. */
#define L_SHF "shf.l.wrap.b32 %0, %2, %0, %1;\n\t"
#define T_SHF(k) "shf.l.wrap.b32 %" #k ", %9, %" #k ", %8;\n\t"
/* ISETP chained through its predicate input: p = (x != a) ^ p. */
#define P_ISETP ".reg .pred p;\n\tsetp.ne.u32 p, %0, %2;\n\t"
#define L_ISETP "setp.ne.xor.u32 p, %0, %1, p;\n\t"
#define Q_ISETP "selp.u32 %0, 1, 0, p;\n\t"
#define PT_ISETP ".reg .pred p<8>;\n\t" E8(PT_ISETP1)
#define PT_ISETP1(k) "setp.ne.u32 p" #k ", %" #k ", %9;\n\t"
#define T_ISETP(k) "setp.ne.xor.u32 p" #k ", %" #k ", %8, p" #k ";\n\t"
#define QT_ISETP E8(QT_ISETP1)
#define QT_ISETP1(k) "selp.u32 %" #k ", %" #k ", %9, p" #k ";\n\t"
/* MUFU: the .ftz forms are one MUFU each (the non-ftz ones add denormal scaling). x = 1/x would
 * be folded away by ptxas (rcp(rcp(x)) = x): x = 1/(-x) keeps every MUFU.RCP (the negation is a
 * source modifier) and flips the sign each step, so the result shows the step count's parity. */
#define P_RCP ".reg .f32 t;\n\t"
#define L_RCP "neg.f32 t, %0;\n\trcp.approx.ftz.f32 %0, t;\n\t"
#define PT_RCP ".reg .f32 t<8>;\n\t"
#define T_RCP(k) "neg.f32 t" #k ", %" #k ";\n\trcp.approx.ftz.f32 %" #k ", t" #k ";\n\t"
#define L_SQRT "sqrt.approx.ftz.f32 %0, %0;\n\t"
#define T_SQRT(k) "sqrt.approx.ftz.f32 %" #k ", %" #k ";\n\t"
/* x = 2^-x: the negation folds into MUFU.EX2's source modifier; the chain stays finite. */
#define P_EX2 ".reg .f32 t;\n\t"
#define L_EX2 "neg.f32 t, %0;\n\tex2.approx.ftz.f32 %0, t;\n\t"
#define PT_EX2 ".reg .f32 t<8>;\n\t"
#define T_EX2(k) "neg.f32 t" #k ", %" #k ";\n\tex2.approx.ftz.f32 %" #k ", t" #k ";\n\t"
/* Conversions on a 32-bit register seen as int then as float bits (mov.b32 costs nothing). */
#define P_CVT ".reg .f32 t;\n\t"
#define L_I2F "cvt.rn.f32.s32 t, %0;\n\tmov.b32 %0, t;\n\t"
#define L_F2I "mov.b32 t, %0;\n\tcvt.rzi.s32.f32 %0, t;\n\t"
#define PT_CVT ".reg .f32 t<8>;\n\t"
#define T_I2F(k) "cvt.rn.f32.s32 t" #k ", %" #k ";\n\tmov.b32 %" #k ", t" #k ";\n\t"
#define T_F2I(k) "mov.b32 t" #k ", %" #k ";\n\tcvt.rzi.s32.f32 %" #k ", t" #k ";\n\t"
/* Shared memory: loads are pointer chases (x = [x]) in the lane's own bank: a load whose value
 * is never used is dropped by ptxas even when volatile, so throughput runs 8 chases per thread.
 * Stores go to conflict-free addresses. */
#define L_LDS "ld.volatile.shared.u32 %0, [%0];\n\t"
#define T_LDS(k) "ld.volatile.shared.u32 %" #k ", [%" #k "];\n\t"
/* Every store of a thread goes to its own word (the address sts's INIT makes): conflict-free like
 * the lane's word, and no two warps write one word, so racecheck has nothing to report. */
#define T_STS(k) "st.volatile.shared.u32 [%11], %" #k ";\n\t"

#define INSN(N, T, CX, CA, P, L, Q, PT, TS, QT)                                                    \
	LAT_KERNEL(N, T, CX, CA, P, L, Q, (void)0, (void)0)                                        \
	TPUT_KERNEL(N, T, CX, CA, PT, E8(TS), QT, (void)0, (void)0)

INSN(ffma, float, CF_, CF, NOPRE, L_FFMA, NOPOST, NOPRE, T_FFMA, NOPOST)
INSN(fmul, float, CF_, CF, NOPRE, L_FMUL, NOPOST, NOPRE, T_FMUL, NOPOST)
INSN(fadd, float, CF_, CF, NOPRE, L_FADD, NOPOST, NOPRE, T_FADD, NOPOST)
INSN(ffma_const, float, CF_, CF, NOPRE, L_FFMAC, NOPOST, NOPRE, T_FFMAC, NOPOST)
INSN(hfma2, unsigned, CR_, CR, NOPRE, L_HFMA2, NOPOST, NOPRE, T_HFMA2, NOPOST)
INSN(dfma, double, CD_, CD, NOPRE, L_DFMA, NOPOST, NOPRE, T_DFMA, NOPOST)
INSN(imad, unsigned, CR_, CR, NOPRE, L_IMAD, NOPOST, NOPRE, T_IMAD, NOPOST)
INSN(iadd3, unsigned, CR_, CR, NOPRE, L_IADD3, NOPOST, NOPRE, T_IADD3, NOPOST)
INSN(lop3, unsigned, CR_, CR, NOPRE, L_LOP3, NOPOST, NOPRE, T_LOP3, NOPOST)
INSN(shf, unsigned, CR_, CR, NOPRE, L_SHF, NOPOST, NOPRE, T_SHF, NOPOST)
INSN(isetp, unsigned, CR_, CR, P_ISETP, L_ISETP, Q_ISETP, PT_ISETP, T_ISETP, QT_ISETP)
INSN(mufu_rcp, float, CF_, CF, P_RCP, L_RCP, NOPOST, PT_RCP, T_RCP, NOPOST)
INSN(mufu_ex2, float, CF_, CF, P_EX2, L_EX2, NOPOST, PT_EX2, T_EX2, NOPOST)
INSN(mufu_sqrt, float, CF_, CF, NOPRE, L_SQRT, NOPOST, NOPRE, T_SQRT, NOPOST)
INSN(i2f, unsigned, CR_, CR, P_CVT, L_I2F, NOPOST, PT_CVT, T_I2F, NOPOST)
INSN(f2i, unsigned, CR_, CR, P_CVT, L_F2I, NOPOST, PT_CVT, T_F2I, NOPOST)
/* The chase starts at the offset the host gives and reports the offset it ended at. */
LAT_KERNEL(lds, unsigned, CR_, CR, NOPRE, L_LDS, NOPOST, x += base, x -= base)
/* Chain k of a lane starts at word lane + 32 k; the host gets offsets back. */
#define LDS_INIT                                                                                   \
	x0 = lane_addr, x1 = lane_addr + 128, x2 = lane_addr + 256, x3 = lane_addr + 384;          \
	x4 = lane_addr + 512, x5 = lane_addr + 640, x6 = lane_addr + 768, x7 = lane_addr + 896
#define LDS_FINI                                                                                   \
	x0 -= base, x1 -= base, x2 -= base, x3 -= base, x4 -= base, x5 -= base, x6 -= base, x7 -= base
TPUT_KERNEL(lds, unsigned, CR_, CR, NOPRE, E8(T_LDS), NOPOST, LDS_INIT, LDS_FINI)
TPUT_KERNEL(sts, unsigned, CR_, CR, NOPRE, E8(T_STS), NOPOST, lane_addr += 128u * (threadIdx.x / 32u), (void)0)

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
		if (gp_is_clock_thread()) {                                                        \
			cs->ns0 = gp_ns();                                                         \
			cs->clk0 = gp_clock();                                                     \
		}                                                                                  \
		for (int i = 0; i < iters; i++)                                                    \
			asm volatile("{\n\t.reg .f32 t<8>;\n\t" GP_REP32(MIX_R##R) "}"             \
				     : "+f"(a0), "+f"(a1), "+f"(a2), "+f"(a3), "+f"(a4), "+f"(a5), \
				       "+f"(a6), "+f"(a7)                                          \
				     : "f"(b), "r"(addr));                                         \
		gp_clock_end_grid(cs);                                               \
		out[tid] = a0 == a1 && a0 == a2 && a0 == a3 && a0 == a4 && a0 == a5 && a0 == a6 && \
				   a0 == a7 ? a0 : -1.0f;                                          \
	}

MIX_KERNEL(1)
MIX_KERNEL(2)
MIX_KERNEL(4)
MIX_KERNEL(8)

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
	__shared__ unsigned smem[SMEM_WORDS];                                                      \
	__shared__ unsigned long long t0;                                                          \
	const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;                                \
	const unsigned base = smem_fill(smem);                                                     \
	(void)base;                                                                                \
	if (gp_is_clock_thread()) {                                                                \
		cs->ns0 = gp_ns();                                                                 \
		cs->clk0 = gp_clock();                                                             \
	}                                                                                          \
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
