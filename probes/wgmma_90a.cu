/* wgmma_90a.cu — Hopper warpgroup MMA (wgmma.mma_async, sm_90a only): for every entry of
 * probes/wgmma.list a latency kernel wgmma_lat_<type>_n<N>_<ss|rs>[_sp] (one warpgroup: fence ->
 * mma -> commit -> wait 0, dependent through the accumulator, clock64 around the loop) and a
 * throughput kernel wgmma_tput_<...> (batches of WGMMA_TPUT_BATCH mma_async into one accumulator
 * per commit group, one batch left in flight: wait_group 1).
 * Each kernel's loop is ONE asm statement whose accumulators are PTX registers of its own (N/2
 * per thread, named by binary suffix: d0000000 …): nothing outside touches them between the
 * wgmma and its wait, which is what keeps ptxas from serializing the pipeline. Shared memory is
 * written by ordinary stores, so the async proxy that wgmma reads it through needs
 * fence.proxy.async before the barrier. A and B are K-major, no swizzle (wgmma_shape.h). After
 * the loop every thread reduces its accumulators to their min and max (NaN-propagating): the
 * host checks both against count x K, or, where that passes the type's exact range, against the
 * last trip's (the host's `reset` makes each trip's first instruction start afresh). */
#include "probe.cuh"
#include "wgmma_shape.h"

#define WG_STR_(x) #x
#define WG_STR(x) WG_STR_(x)
#define WG_CAT_(a, b) a##b
#define WG_CAT(a, b) WG_CAT_(a, b)

/* Register lists "p0, p1" … and statements f("p0") f("p1") … over 2^k names. */
#define WG_L2(p) p "0, " p "1"
#define WG_L4(p) WG_L2(p "0") ", " WG_L2(p "1")
#define WG_L8(p) WG_L4(p "0") ", " WG_L4(p "1")
#define WG_L16(p) WG_L8(p "0") ", " WG_L8(p "1")
#define WG_L32(p) WG_L16(p "0") ", " WG_L16(p "1")
#define WG_L64(p) WG_L32(p "0") ", " WG_L32(p "1")
#define WG_L128(p) WG_L64(p "0") ", " WG_L64(p "1")
#define WG_S2(f, p) f(p "0") f(p "1")
#define WG_S4(f, p) WG_S2(f, p "0") WG_S2(f, p "1")
#define WG_S8(f, p) WG_S4(f, p "0") WG_S4(f, p "1")
#define WG_S16(f, p) WG_S8(f, p "0") WG_S8(f, p "1")
#define WG_S32(f, p) WG_S16(f, p "0") WG_S16(f, p "1")
#define WG_S64(f, p) WG_S32(f, p "0") WG_S32(f, p "1")
#define WG_S128(f, p) WG_S64(f, p "0") WG_S64(f, p "1")

/* N -> its accumulator registers per thread (64 x N / 128 = N / 2). */
#define WG_REGS_8 4
#define WG_REGS_16 8
#define WG_REGS_32 16
#define WG_REGS_64 32
#define WG_REGS_128 64
#define WG_REGS_256 128
/* The most threads a throughput block may have: 4 warpgroups (ptxas then holds a thread to 128
 * registers); 3 at N = 128 and 2 at N = 256, whose accumulators (64, 128 registers a thread) and,
 * for A from registers, A's fragment need more: with too few ptxas serializes the wgmma pipeline
 * (warning C7511), which the probe must not measure. */
#define WG_MAXT_8 512
#define WG_MAXT_16 512
#define WG_MAXT_32 512
#define WG_MAXT_64 512
#define WG_MAXT_128 384
#define WG_MAXT_256 256
#define WG_DLIST(N) WG_CAT(WG_L, WG_REGS_##N)("d")
#define WG_DEACH(N, f) WG_CAT(WG_S, WG_REGS_##N)(f, "d")

/* The accumulator: F (f32) for the floating types, I (s32) for s8. */
#define WG_ACC_f16 F
#define WG_ACC_bf16 F
#define WG_ACC_tf32 F
#define WG_ACC_e4m3 F
#define WG_ACC_e5m2 F
#define WG_ACC_s8 I
#define WG_DT_F "f32"
#define WG_DT_I "s32"
#define WG_ZERO_F(r) "mov.f32 " r ", 0f00000000;\n\t"
#define WG_ZERO_I(r) "mov.s32 " r ", 0;\n\t"
#define WG_MINMAX_F(r) "min.NaN.f32 mn, mn, " r ";\n\tmax.NaN.f32 mx, mx, " r ";\n\t"
#define WG_MINMAX_I(r) "min.s32 mn, mn, " r ";\n\tmax.s32 mx, mx, " r ";\n\t"
#define WG_MMINIT_F "mov.f32 mn, 0f7f800000;\n\tmov.f32 mx, 0fff800000;\n\t"
#define WG_MMINIT_I "mov.s32 mn, 2147483647;\n\tmov.s32 mx, -2147483648;\n\t"
#define WG_DT(T) WG_CAT(WG_DT_, WG_ACC_##T)

/* The immediates after scale-d (a predicate: p, always true, D = A x B + D; or r, false where
 * the host asks for a fresh accumulator each loop trip, D = A x B): f16/bf16 take scale-a,
 * scale-b and transposes (0: K-major); tf32 and fp8 only the scales (K-major is their only
 * layout); s8 none. A from registers drops trans-a. */
#define WG_TAIL_ss_f16 ", 1, 1, 0, 0;\n\t"
#define WG_TAIL_rs_f16 ", 1, 1, 0;\n\t"
#define WG_TAIL_ss_bf16 WG_TAIL_ss_f16
#define WG_TAIL_rs_bf16 WG_TAIL_rs_f16
#define WG_TAIL_ss_tf32 ", 1, 1;\n\t"
#define WG_TAIL_rs_tf32 WG_TAIL_ss_tf32
#define WG_TAIL_ss_e4m3 WG_TAIL_ss_tf32
#define WG_TAIL_rs_e4m3 WG_TAIL_ss_tf32
#define WG_TAIL_ss_e5m2 WG_TAIL_ss_tf32
#define WG_TAIL_rs_e5m2 WG_TAIL_ss_tf32
#define WG_TAIL_ss_s8 ";\n\t"
#define WG_TAIL_rs_s8 WG_TAIL_ss_s8

/* asm operands: %0 cycles, %1 min, %2 max (outputs); %3 A's descriptor, %4 B's, %5 loop trips,
 * %6 the fill word (RS: every A register), %7 the sparse metadata, %8 reset (non-zero: the first
 * wgmma of each loop trip starts the accumulator afresh). */
#define WG_A_ss "%3"
#define WG_A_rs "{a0, a1, a2, a3}"
#define WG_SPQ_0 ""
#define WG_SPQ_1 ".sp"
#define WG_K_0(T) WG_STR(WGMMA_K_##T)
#define WG_K_1(T) WG_STR(WGMMA_KSP_##T)
#define WG_META_0 ""
#define WG_META_1 ", %7, 0"
#define WG_MMA(T, N, S, SP, P)                                                                     \
	"wgmma.mma_async" WG_SPQ_##SP ".sync.aligned.m64n" #N "k" WG_K_##SP(T) "." WG_DT(T) "." #T "." #T \
	" {" WG_DLIST(N) "}, " WG_A_##S ", %4" WG_META_##SP ", " P WG_TAIL_##S##_##T

/* Declarations and set-up of every loop: the accumulators at 0, p true, RS's A registers, the
 * trip count. */
#define WG_PROLOGUE(T, N)                                                                          \
	".reg .pred p, q, r;\n\t"                                                                  \
	".reg .b32 n, a0, a1, a2, a3;\n\t"                                                         \
	".reg .u64 t0, t1;\n\t"                                                                    \
	".reg ." WG_DT(T) " " WG_DLIST(N) ", mn, mx;\n\t" WG_DEACH(N, WG_CAT(WG_ZERO_, WG_ACC_##T)) \
	"mov.b32 n, 1;\n\tsetp.ne.b32 p, n, 0;\n\tsetp.eq.u32 r, %8, 0;\n\t"                       \
	"mov.b32 a0, %6;\n\tmov.b32 a1, %6;\n\tmov.b32 a2, %6;\n\tmov.b32 a3, %6;\n\t"            \
	"mov.b32 n, %5;\n\t"
#define WG_EPILOGUE(T, N)                                                                          \
	WG_CAT(WG_MMINIT_, WG_ACC_##T) WG_DEACH(N, WG_CAT(WG_MINMAX_, WG_ACC_##T))                 \
	"mov.b32 %1, mn;\n\tmov.b32 %2, mx;\n\t"
/* One latency sequence: fence -> mma -> commit -> wait 0. The second of a trip counts the trip
 * while its instruction is in flight, so only the branch follows the wait. */
#define WG_FIRST(T, N, S, SP)                                                                      \
	"wgmma.fence.sync.aligned;\n\t" WG_MMA(T, N, S, SP, "r") "wgmma.commit_group.sync.aligned;\n\t" \
	"wgmma.wait_group.sync.aligned 0;\n\t"
#define WG_LAST(T, N, S, SP)                                                                       \
	"wgmma.fence.sync.aligned;\n\t" WG_MMA(T, N, S, SP, "p") "wgmma.commit_group.sync.aligned;\n\t" \
	"sub.s32 n, n, 1;\n\tsetp.gt.s32 q, n, 0;\n\twgmma.wait_group.sync.aligned 0;\n\t"
static_assert(WGMMA_LAT_UNROLL == 2 && WGMMA_TPUT_BATCH == 16, "the loops below unroll 2 and 16");

/* Every block: shared memory filled with the word, the async proxy fenced, the descriptors of
 * B (shared by the block) and of this warpgroup's A tile. */
__device__ __forceinline__ unsigned long long wg_desc(const unsigned char *p, unsigned lbo, unsigned sbo)
{
	const unsigned a = (unsigned)__cvta_generic_to_shared(p);

	return (unsigned long long)((a & 0x3ffffu) >> 4) | (unsigned long long)(lbo >> 4) << 16 |
	       (unsigned long long)(sbo >> 4) << 32;
}

__device__ __forceinline__ void wg_setup(unsigned char *smem, unsigned fill, int sparse, unsigned long long *da,
					 unsigned long long *db)
{
	unsigned *w = (unsigned *)smem;

	for (unsigned i = threadIdx.x; i < WGMMA_SMEM_BYTES / 4; i += blockDim.x)
		w[i] = fill;
	asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
	__syncthreads();
	*db = wg_desc(smem, WGMMA_CORE_BYTES, WGMMA_CORE_BYTES * (sparse ? 4 : 2));
	*da = wg_desc(smem + WGMMA_B_BYTES + threadIdx.x / WGMMA_THREADS * WGMMA_A_BYTES, WGMMA_CORE_BYTES,
		      WGMMA_CORE_BYTES * 2);
}

#define WG_NAME_0(kind, T, N, S) wgmma_##kind##_##T##_n##N##_##S
#define WG_NAME_1(kind, T, N, S) wgmma_##kind##_##T##_n##N##_##S##_sp

/* One kernel: the loop between two clock64 reads in the asm statement; per thread its cycles
 * and its accumulators' min and max. */
#define WG_KERNEL(kind, T, N, S, SP, maxt, LOOP)                                                   \
	extern "C" __global__ void __launch_bounds__(maxt) WG_NAME_##SP(kind, T, N, S)(             \
		unsigned fill, unsigned meta, unsigned reset, int iters, unsigned long long *cyc,   \
		unsigned *res, gp_clock_sample *cs)                                                 \
	{                                                                                          \
		__shared__ __align__(128) unsigned char smem[WGMMA_SMEM_BYTES];                    \
		const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;                        \
		unsigned long long da, db, t;                                                      \
		unsigned mn, mx;                                                                   \
		wg_setup(smem, fill, SP, &da, &db);                                                \
		gp_clock_begin(cs);                                                                \
		asm volatile("{\n\t" WG_PROLOGUE(T, N) "mov.u64 t0, %%clock64;\n\t" LOOP           \
			     "mov.u64 t1, %%clock64;\n\tsub.u64 %0, t1, t0;\n\t" WG_EPILOGUE(T, N) "}" \
			     : "=l"(t), "=r"(mn), "=r"(mx)                                         \
			     : "l"(da), "l"(db), "r"(iters), "r"(fill), "r"(meta), "r"(reset)     \
			     : "memory");                                                          \
		gp_clock_end_grid(cs);                                                             \
		cyc[tid] = t;                                                                      \
		res[2 * tid] = mn;                                                                 \
		res[2 * tid + 1] = mx;                                                             \
	}

/* lat: WGMMA_LAT_UNROLL dependent sequences a trip. tput: a batch of WGMMA_TPUT_BATCH into the
 * one accumulator per commit group, the previous batch still in flight (wait_group 1). */
#define WG_LAT_LOOP(T, N, S, SP) "LAT:\n\t" WG_FIRST(T, N, S, SP) WG_LAST(T, N, S, SP) "@q bra LAT;\n\t"
#define WG_TPUT_MMA(T, N, S, SP) WG_MMA(T, N, S, SP, "p")
#define WG_TPUT_LOOP(T, N, S, SP)                                                                  \
	"TPUT:\n\twgmma.fence.sync.aligned;\n\t" WG_MMA(T, N, S, SP, "r") GP_REP8(WG_TPUT_MMA(T, N, S, SP)) \
	GP_REP4(WG_TPUT_MMA(T, N, S, SP)) GP_REP2(WG_TPUT_MMA(T, N, S, SP)) WG_TPUT_MMA(T, N, S, SP) \
	"wgmma.commit_group.sync.aligned;\n\tsub.s32 n, n, 1;\n\tsetp.gt.s32 q, n, 0;\n\t"          \
	"wgmma.wait_group.sync.aligned 1;\n\t@q bra TPUT;\n\twgmma.wait_group.sync.aligned 0;\n\t"

#define WGMMA(T, N, S, SP)                                                                         \
	WG_KERNEL(lat, T, N, S, SP, WGMMA_THREADS, WG_LAT_LOOP(T, N, S, SP))                       \
	WG_KERNEL(tput, T, N, S, SP, WG_MAXT_##N, WG_TPUT_LOOP(T, N, S, SP))
#include "wgmma.list"
#undef WGMMA
