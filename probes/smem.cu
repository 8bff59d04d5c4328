/* smem.cu — on-chip memory probes: shared-memory latency (chase), constant-cache latency
 * (chase), shared-memory bandwidth by width (E107, seed 001 Figure 4) and bank conflicts.
 *
 * Chases: one thread follows 32-bit addresses (ld.shared / ld.const [r]) so each load's address
 * is the previous load's value. Bandwidth: every warp loads 8 independent vectors per trip at
 * immediate offsets (no address arithmetic in the loop), conflict-free (lane l at l * width) or
 * broadcast (every lane the same address), timed per block with clock64 between barriers.
 * Pitfall: LDS results are consumed (xor into a sink) so none can be dropped, but not between
 * the 8 loads of a trip, which keeps 8 per warp in flight. */
#include "probe.cuh"
#include "smem_shape.h"

typedef unsigned long long u64;

/* ------------------------------------------------------------------ shared-memory chase */

/* slots n at `stride` bytes in dynamic shared memory, sequential cycle. out: final address minus
 * the base (0 when the chain closed), cycles, timer overhead. */
extern "C" __global__ void lat_smem(int n, int stride, long long steps, u64 *out, gp_clock_sample *cs)
{
	extern __shared__ unsigned char s_buf[];
	const unsigned base = (unsigned)__cvta_generic_to_shared(s_buf);
	unsigned p = base;
	u64 o0, o1, t0, t1;
	long long i;

	for (int k = 0; k < n; k++)
		*(unsigned *)(s_buf + (size_t)k * stride) = base + (unsigned)(((k + 1) % n) * stride);
	__syncthreads();
	for (int k = 0; k < n; k++) /* warm-up: one trip round the chain */
		asm volatile("ld.shared.u32 %0, [%0];" : "+r"(p)::"memory");
	GP_CHASE_TIMED(steps, asm volatile("ld.shared.u32 %0, [%0];" : "+r"(p)::"memory"););
	out[0] = p - base;
	out[1] = t1 - t0;
	out[2] = o1 - o0;
}

/* ------------------------------------------------------------------ constant-cache chase */

__constant__ unsigned gp_cchain[CCHAIN_BYTES / 4];

/* Where the host must write the chain: the generic (global) address backing gp_cchain, and its
 * address in the constant state space, which is what ld.const takes. */
extern "C" __global__ void lat_const_addr(u64 *out)
{
	unsigned a;

	asm("mov.u32 %0, gp_cchain;" : "=r"(a));
	out[0] = (u64)(const void *)gp_cchain;
	out[1] = a;
}

extern "C" __global__ void lat_const(unsigned start, long long warm, long long steps, u64 *out,
				     gp_clock_sample *cs)
{
	unsigned p = start;
	u64 o0, o1, t0, t1;
	long long i;

	for (i = 0; i < warm; i++)
		asm volatile("ld.const.u32 %0, [%0];" : "+r"(p)::"memory");
	GP_CHASE_TIMED(steps, asm volatile("ld.const.u32 %0, [%0];" : "+r"(p)::"memory"););
	out[0] = p;
	out[1] = t1 - t0;
	out[2] = o1 - o0;
}

/* ------------------------------------------------------------------ shared-memory bandwidth */

/* Per warp a region of 8 x 32 x width bytes; trip j of 8 reads lane l's element at
 * (j * 32 + l) * width (conflict-free) or j * width (broadcast). */
/* .volatile: asm volatile only binds the front end; ptxas may still merge identical shared loads
 * and hoist loop-invariant ones (seen on the H100: 8 loads of one address per trip measured 0.06
 * cycles each). A volatile access is issued every time, as the LDS/STS the probe claims to time. */
#define LDS32(off) "ld.volatile.shared.u32 %0, [%1+" #off "];"
#define LDS64(off) "ld.volatile.shared.v2.u32 {%0, %1}, [%2+" #off "];"
#define LDS128(off) "ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4+" #off "];"
#define STS32(off) "st.volatile.shared.u32 [%0+" #off "], %1;"
#define STS64(off) "st.volatile.shared.v2.u32 [%0+" #off "], {%1, %2};"
#define STS128(off) "st.volatile.shared.v4.u32 [%0+" #off "], {%1, %2, %3, %4};"

#define OFFS(W, J, B) ((J) * (B ? 1 : 32) * (W))

/* The loop body for one width: 8 loads or stores at offsets j * step, step = 32 * W
 * (conflict-free) or W (broadcast), passed as a string of literal offsets. */
#define BW_LD32(o0, o1, o2, o3, o4, o5, o6, o7)                                                    \
	asm volatile(LDS32(o0) : "=r"(v[0]) : "r"(a) : "memory");                                  \
	asm volatile(LDS32(o1) : "=r"(v[1]) : "r"(a) : "memory");                                  \
	asm volatile(LDS32(o2) : "=r"(v[2]) : "r"(a) : "memory");                                  \
	asm volatile(LDS32(o3) : "=r"(v[3]) : "r"(a) : "memory");                                  \
	asm volatile(LDS32(o4) : "=r"(v[4]) : "r"(a) : "memory");                                  \
	asm volatile(LDS32(o5) : "=r"(v[5]) : "r"(a) : "memory");                                  \
	asm volatile(LDS32(o6) : "=r"(v[6]) : "r"(a) : "memory");                                  \
	asm volatile(LDS32(o7) : "=r"(v[7]) : "r"(a) : "memory");                                  \
	acc ^= v[0] ^ v[1] ^ v[2] ^ v[3] ^ v[4] ^ v[5] ^ v[6] ^ v[7];
#define LD64_1(o, k) asm volatile(LDS64(o) : "=r"(v[2 * k]), "=r"(v[2 * k + 1]) : "r"(a) : "memory");
#define BW_LD64(o0, o1, o2, o3, o4, o5, o6, o7)                                                    \
	LD64_1(o0, 0) LD64_1(o1, 1) LD64_1(o2, 2) LD64_1(o3, 3) LD64_1(o4, 4) LD64_1(o5, 5)        \
	LD64_1(o6, 6) LD64_1(o7, 7)                                                                \
	for (int q = 0; q < 16; q++)                                                               \
		acc ^= v[q];
#define LD128_1(o, k)                                                                              \
	asm volatile(LDS128(o) : "=r"(v[4 * k]), "=r"(v[4 * k + 1]), "=r"(v[4 * k + 2]), "=r"(v[4 * k + 3]) \
		     : "r"(a) : "memory");
#define BW_LD128(o0, o1, o2, o3, o4, o5, o6, o7)                                                   \
	LD128_1(o0, 0) LD128_1(o1, 1) LD128_1(o2, 2) LD128_1(o3, 3) LD128_1(o4, 4) LD128_1(o5, 5)  \
	LD128_1(o6, 6) LD128_1(o7, 7)                                                              \
	for (int q = 0; q < 32; q++)                                                               \
		acc ^= v[q];
#define ST_1(S, o) asm volatile(S(o) ::"r"(a), "r"(acc) : "memory");
#define BW_ST32(o0, o1, o2, o3, o4, o5, o6, o7)                                                    \
	ST_1(STS32, o0) ST_1(STS32, o1) ST_1(STS32, o2) ST_1(STS32, o3) ST_1(STS32, o4)            \
	ST_1(STS32, o5) ST_1(STS32, o6) ST_1(STS32, o7) acc += 1;
#define ST64_1(o) asm volatile(STS64(o) ::"r"(a), "r"(acc), "r"(acc) : "memory");
#define BW_ST64(o0, o1, o2, o3, o4, o5, o6, o7)                                                    \
	ST64_1(o0) ST64_1(o1) ST64_1(o2) ST64_1(o3) ST64_1(o4) ST64_1(o5) ST64_1(o6) ST64_1(o7) acc += 1;
#define ST128_1(o) asm volatile(STS128(o) ::"r"(a), "r"(acc), "r"(acc), "r"(acc), "r"(acc) : "memory");
#define BW_ST128(o0, o1, o2, o3, o4, o5, o6, o7)                                                   \
	ST128_1(o0) ST128_1(o1) ST128_1(o2) ST128_1(o3) ST128_1(o4) ST128_1(o5) ST128_1(o6)        \
	ST128_1(o7) acc += 1;

/* Offsets as literals: conflict-free steps 32 W, broadcast steps W. */
#define OFF_CF4 0, 128, 256, 384, 512, 640, 768, 896
#define OFF_CF8 0, 256, 512, 768, 1024, 1280, 1536, 1792
#define OFF_CF16 0, 512, 1024, 1536, 2048, 2560, 3072, 3584
#define OFF_BC4 0, 4, 8, 12, 16, 20, 24, 28
#define OFF_BC8 0, 8, 16, 24, 32, 40, 48, 56
#define OFF_BC16 0, 16, 32, 48, 64, 80, 96, 112
#define APPLY(M, ...) M(__VA_ARGS__)

/* Block of warps; warp w owns bytes [w * 256 W, (w + 1) * 256 W); lane offset l * W when
 * conflict-free, 0 when broadcast. out[block] = cycles between the barriers. */
#define BW_SMEM_KERNEL(NAME, W, BODY, OFFS, LANE)                                                  \
	extern "C" __global__ void NAME(int iters, u64 *cycles, unsigned *sink, gp_clock_sample *cs) \
	{                                                                                          \
		extern __shared__ unsigned char s_buf[];                                           \
		const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;                   \
		const unsigned a = (unsigned)__cvta_generic_to_shared(s_buf) + warp * SMEM_WARP_BYTES(W) + \
				   (LANE ? lane * (W) : 0u);                                       \
		unsigned v[32] = {}, acc = threadIdx.x;                                                 \
		u64 t0, t1;                                                                        \
		for (unsigned i = threadIdx.x; i < blockDim.x * 2u * (W); i += blockDim.x)       \
			((unsigned *)s_buf)[i] = i * 2654435761u;                                  \
		gp_clock_begin(cs);                                                                \
		/* every warp starts its loads after t0: no warp is ahead of the timer */          \
		__syncthreads();                                                                   \
		t0 = gp_clock();                                                                   \
		for (int it = 0; it < iters; it++) {                                               \
			APPLY(BODY, OFFS)                                                          \
		}                                                                                  \
		/* A barrier does not wait for stores to drain: a dependent load of this thread's  \
		 * own address, consumed before the barrier, ends its window after its accesses. */ \
		{                                                                                  \
			unsigned w_;                                                               \
			asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(w_) : "r"(a) : "memory"); \
			asm volatile("add.u32 %0, %0, %1;" : "+r"(acc) : "r"(w_) : "memory");      \
		}                                                                                  \
		__syncthreads();                                                                   \
		t1 = gp_clock();                                                                   \
		gp_clock_end(cs);                                                                  \
		if (threadIdx.x == 0)                                                              \
			cycles[blockIdx.x] = t1 - t0;                                              \
		if (acc == 0x9e3779b9u) /* practically never: keeps acc live */                   \
			sink[blockIdx.x] = acc + v[0];                                             \
	}

/* bw_<op><bits>_<cf|bc> at every width of smem_shape.h's list. */
#define BW_LDS_CF(b, B) BW_SMEM_KERNEL(bw_lds##b##_cf, B, BW_LD##b, OFF_CF##B, 1)
#define BW_LDS_BC(b, B) BW_SMEM_KERNEL(bw_lds##b##_bc, B, BW_LD##b, OFF_BC##B, 0)
#define BW_STS_CF(b, B) BW_SMEM_KERNEL(bw_sts##b##_cf, B, BW_ST##b, OFF_CF##B, 1)
#define BW_STS_BC(b, B) BW_SMEM_KERNEL(bw_sts##b##_bc, B, BW_ST##b, OFF_BC##B, 0)
SMEM_WIDTHS(BW_LDS_CF)
SMEM_WIDTHS(BW_LDS_BC)
SMEM_WIDTHS(BW_STS_CF)
SMEM_WIDTHS(BW_STS_BC)

/* ------------------------------------------------------------------ bank conflicts */

/* Every warp: lane l accesses the element at byte offset offs[l] (host: mem_bank layout),
 * 8 independent loads per trip, all to the same address, so every LDS has the same bank
 * pattern. out[0] = cycles between the barriers. */
#define BANK_KERNEL(NAME, BODY, OFFS)                                                              \
	extern "C" __global__ void NAME(const unsigned *offs, int iters, u64 *cycles, unsigned *sink,  \
					gp_clock_sample *cs)                                           \
	{                                                                                          \
		extern __shared__ unsigned char s_buf[];                                           \
		const unsigned a = (unsigned)__cvta_generic_to_shared(s_buf) + offs[threadIdx.x & 31]; \
		unsigned v[32] = {}, acc = threadIdx.x;                                                 \
		u64 t0, t1;                                                                        \
		for (unsigned i = threadIdx.x; i < BANK_SMEM_BYTES / 4u; i += blockDim.x)      \
			((unsigned *)s_buf)[i] = i;                                                \
		cs->ns0 = gp_ns();                                                                 \
		cs->clk0 = gp_clock();                                                             \
		__syncthreads();                                                                   \
		t0 = gp_clock();                                                                   \
		for (int it = 0; it < iters; it++) {                                               \
			APPLY(BODY, OFFS)                                                          \
		}                                                                                  \
		__syncthreads();                                                                   \
		t1 = gp_clock();                                                                   \
		cs->clk1 = gp_clock();                                                             \
		cs->ns1 = gp_ns();                                                                 \
		if (threadIdx.x == 0)                                                              \
			cycles[0] = t1 - t0;                                                       \
		if (acc == 0x9e3779b9u)                                                            \
			sink[threadIdx.x] = acc + v[0];                                            \
	}

#define OFF_SAME 0, 0, 0, 0, 0, 0, 0, 0
#define BANK_WIDTH(b, B) BANK_KERNEL(bank_lds##b, BW_LD##b, OFF_SAME)
SMEM_WIDTHS(BANK_WIDTH)
