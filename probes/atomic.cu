/* atomic.cu — atomic-operation latency and throughput kernels, generated from probes/atomic.list.
 *
 * lat_<op>_<space>: one thread, one slot, a dependent chain x = atom(p, x): each step's result is
 * the next step's operand, so no two atomics overlap; 64 steps a trip in one asm statement, clock64
 * around it. Global atomics execute at L2 (the slot's line stays there), shared ones in the SM.
 * tput_<op>_<space>_<atom|red>: every thread issues 8 independent atomics a trip on the address of
 * its group of k threads (t / k), atom (each result XOR-ed into a sink the host checks) or red (no
 * result). Shared slots are zeroed by the block and copied out after; global ones are zeroed by the
 * harness's poison before every repetition. Pitfall: an atom whose result is unused is a red to
 * ptxas; the GPU test checks the SASS. */
#include "probe.cuh"
#include "atomic_shape.h"

static_assert(ATOM_LAT_UNROLL == 64 && ATOM_TPUT_UNROLL == 8, "the kernels unroll with GP_REP64 and eight atomics");

#define CT_R32 unsigned
#define CT_R64 unsigned long long
#define CT_F32 float
#define CT_F64 double
#define CN_R32 "r"
#define CN_R64 "l"
#define CN_F32 "f"
#define CN_F64 "d"

__device__ __forceinline__ unsigned long long bits64(unsigned v) { return v; }
__device__ __forceinline__ unsigned long long bits64(unsigned long long v) { return v; }
__device__ __forceinline__ unsigned long long bits64(float v) { return __float_as_uint(v); }
__device__ __forceinline__ unsigned long long bits64(double v) { return (unsigned long long)__double_as_longlong(v); }
__device__ __forceinline__ void from64(unsigned *v, unsigned long long w) { *v = (unsigned)w; }
__device__ __forceinline__ void from64(unsigned long long *v, unsigned long long w) { *v = w; }
__device__ __forceinline__ void from64(float *v, unsigned long long w) { *v = __uint_as_float((unsigned)w); }
__device__ __forceinline__ void from64(double *v, unsigned long long w) { *v = __longlong_as_double((long long)w); }

/* The space: which slot a kernel uses and how its address enters the asm (a global address in a
 * 64-bit register; a shared-window address in a 32-bit one). */
#define SP_SHARED_global 0
#define SP_SHARED_shared 1
/* base: the kernel's slots (n of them in shared memory; the buffer g in global memory). */
#define SP_BASE_global(T, n) T *const base = g;
#define SP_BASE_shared(T, n)                                                                       \
	__shared__ T slots_[n];                                                                    \
	T *const base = slots_;
#define ACON_global(p) "l"(p)
#define ACON_shared(p) "r"((unsigned)__cvta_generic_to_shared(p))

/* ---------------------------------------------------------------- latency
 * %0 the chain, %1 the slot's address, %2 CAS's swap value. */
#define LAT_STEP_OP2(sp, ptx) "atom." sp "." ptx " %0, [%1], %0;\n\t"
#define LAT_STEP_OP3(sp, ptx) "atom." sp "." ptx " %0, [%1], %0, %2;\n\t"

#define LAT_KERNEL(name, sp, ptx, reg, shape)                                                      \
	extern "C" __global__ void lat_##name##_##sp(CT_##reg *g, unsigned long long *out,          \
						     const unsigned long long *in, int iters,       \
						     gp_clock_sample *cs)                           \
	{                                                                                          \
		SP_BASE_##sp(CT_##reg, 1)                                                          \
		/* in[3] = 0: an address ptxas cannot prove warp-uniform, or it aggregates a       \
		 * warp's adds (VOTE, SHFL.UP, one atomic) around every step. */                  \
		CT_##reg *const p = base + (threadIdx.x & (unsigned)in[3]);                        \
		CT_##reg s0, x, y;                                                                 \
		unsigned long long o0, o1, t0, t1;                                                 \
		from64(&s0, in[0]);                                                                \
		from64(&x, in[1]);                                                                 \
		from64(&y, in[2]);                                                                 \
		*(volatile CT_##reg *)p = s0;                                                      \
		__threadfence();                                                                   \
		gp_chain_start(&o0, &o1, &t0, cs);                                                 \
		for (int i = 0; i < iters; i++)                                                    \
			asm volatile(GP_REP64(LAT_STEP_##shape(#sp, ptx))                          \
				     : "+" CN_##reg(x) : ACON_##sp(p), CN_##reg(y) : "memory");    \
		t1 = gp_clock();                                                                   \
		out[0] = bits64(x);                                                                \
		out[1] = bits64(*(volatile CT_##reg *)p);                                          \
		out[2] = t1 - t0;                                                                  \
		out[3] = o1 - o0;                                                                  \
		gp_clock_end_grid(cs);                                                             \
	}

/* ---------------------------------------------------------------- throughput
 * atom: %0..%7 the eight results, %8 the address, %9 = b, %10 = CAS's c; red: %0 the address,
 * %1 = b. */
#define E8(M, sp, ptx) M(0, sp, ptx) M(1, sp, ptx) M(2, sp, ptx) M(3, sp, ptx) M(4, sp, ptx) \
	M(5, sp, ptx) M(6, sp, ptx) M(7, sp, ptx)
#define ATOM_K_OP2(k, sp, ptx) "atom." sp "." ptx " %" #k ", [%8], %9;\n\t"
#define ATOM_K_OP3(k, sp, ptx) "atom." sp "." ptx " %" #k ", [%8], %9, %10;\n\t"
#define RED_K(k, sp, ptx) "red." sp "." ptx " [%0], %1;\n\t"

#define BODY_atom(sp, ptx, reg, shape)                                                             \
	{                                                                                          \
		CT_##reg r0, r1, r2, r3, r4, r5, r6, r7;                                           \
		asm volatile(E8(ATOM_K_##shape, #sp, ptx)                                          \
			     : "=" CN_##reg(r0), "=" CN_##reg(r1), "=" CN_##reg(r2), "=" CN_##reg(r3), \
			       "=" CN_##reg(r4), "=" CN_##reg(r5), "=" CN_##reg(r6), "=" CN_##reg(r7) \
			     : ACON_##sp(p), CN_##reg(v), CN_##reg(w) : "memory");                 \
		acc ^= bits64(r0) ^ bits64(r1) ^ bits64(r2) ^ bits64(r3) ^ bits64(r4) ^ bits64(r5) ^ \
		       bits64(r6) ^ bits64(r7);                                                    \
	}
#define BODY_red(sp, ptx, reg, shape) asm volatile(E8(RED_K, #sp, ptx) : : ACON_##sp(p), CN_##reg(v) : "memory");

/* g: the global slots; acc_out: each thread's XOR of its results; fin: each block's shared slots
 * after the run; k threads share an address; stride: elements between two addresses; u = 1, the
 * operands' unit (atomic.list's tv, tw), unknown to ptxas. */
#define TPUT_KERNEL(name, sp, ret, ptx, reg, shape, TV, TW)                                        \
	extern "C" __global__ void tput_##name##_##sp##_##ret(CT_##reg *g, unsigned long long *acc_out, \
							      CT_##reg *fin, int trips, unsigned k, \
							      unsigned stride, unsigned u,          \
							      gp_clock_sample *cs)                  \
	{                                                                                          \
		SP_BASE_##sp(CT_##reg, ATOM_SMEM_SLOTS)                                            \
		const unsigned gt = blockIdx.x * blockDim.x + threadIdx.x;                         \
		const unsigned t = SP_SHARED_##sp ? threadIdx.x : gt;                              \
		const unsigned nslots = blockDim.x / k;                                            \
		unsigned long long acc = 0;                                                        \
		if (SP_SHARED_##sp) {                                                              \
			for (unsigned i = threadIdx.x; i < nslots; i += blockDim.x)                \
				base[i] = 0;                                                       \
			__syncthreads();                                                           \
		}                                                                                  \
		CT_##reg *const p = base + (size_t)(t / k) * stride;                               \
		const CT_##reg v = TV, w = TW;                                                     \
		(void)w;                                                                           \
		gp_clock_begin(cs);                                                                \
		for (int i = 0; i < trips; i++)                                                    \
			BODY_##ret(sp, ptx, reg, shape)                                            \
		if (SP_SHARED_##sp) {                                                              \
			__syncthreads();                                                           \
			for (unsigned i = threadIdx.x; i < nslots; i += blockDim.x)                \
				fin[(size_t)blockIdx.x * nslots + i] = base[i];                    \
		}                                                                                  \
		acc_out[gt] = acc;                                                                 \
		gp_clock_end_grid(cs);                                                             \
	}

/* ---------------------------------------------------------------- the list's kernels */
#define TPUT_RED(name, ptx, reg, shape, TV, TW)                                                    \
	TPUT_KERNEL(name, global, red, ptx, reg, shape, TV, TW)                                    \
	TPUT_KERNEL(name, shared, red, ptx, reg, shape, TV, TW)
#define TPUT_NORED(name, ptx, reg, shape, TV, TW)
#define ATOMIC(name, ptx, reg, red, shape, sg, ss, sr, s0, x0, y, step, kind, tv, tw, what)       \
	LAT_KERNEL(name, global, ptx, reg, shape)                                                  \
	LAT_KERNEL(name, shared, ptx, reg, shape)                                                  \
	TPUT_KERNEL(name, global, atom, ptx, reg, shape, tv, tw)                                   \
	TPUT_KERNEL(name, shared, atom, ptx, reg, shape, tv, tw)                                   \
	TPUT_##red(name, ptx, reg, shape, tv, tw)
#include "atomic.list"
#undef ATOMIC
