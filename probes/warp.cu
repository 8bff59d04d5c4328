/* warp.cu — warp-synchronous operation kernels (generated from probes/warp.list) and the block
 * barrier kernels of lat_barrier.
 *
 * lat_warp_<op>: one warp, one dependent chain per lane (each step's result is its next input),
 * 256 steps a trip in one asm statement (LOOP_ below: how the trip loop unrolls), clock64 per
 * lane around it. tput_warp_<op>: 8 independent
 * chains per thread, 32 steps each a trip, every SM full. Every lane's last value goes to the host,
 * which replays the warp. lat_bar_sync / lat_mbarrier: one block; thread 0's clock64 around
 * 32 x iters barriers (bar.sync 0, or mbarrier.arrive + a wait on the phase's parity by every
 * thread); untimed rounds after them check what the barrier guarantees. Pitfall: ptxas may drop
 * a full-mask bar.warp.sync in converged code; the GPU test reads the SASS. */
#include "probe.cuh"
#include "warp_shape.h"

static_assert(WARP_LAT_UNROLL == 256 && WARP_TPUT_STEPS == 32 && WARP_TPUT_ILP == 8 && BAR_UNROLL == 32,
	      "the kernels unroll with GP_REP256, GP_REP32, eight chains and GP_REP32 barriers");

/* Shapes: one step on the chain X (L the source-lane register, Q a predicate temporary, P the
 * chain predicate). */
#define SH_IDX(op, X, L, Q, P) op " " X ", " X ", " L ", 0x1f, 0xffffffff;\n\t"
#define SH_UP(op, X, L, Q, P) op " " X ", " X ", 1, 0, 0xffffffff;\n\t"
#define SH_DN(op, X, L, Q, P) op " " X ", " X ", 1, 0x1f, 0xffffffff;\n\t"
#define SH_XM(op, X, L, Q, P) op " " X ", " X ", 0xffffffff;\n\t"
#define SH_BALLOT(op, X, L, Q, P) "setp.ne.u32 " Q ", " X ", 0;\n\t" op " " X ", " Q ", 0xffffffff;\n\t"
#define SH_VP(op, X, L, Q, P) op " " P ", " P ", 0xffffffff;\n\t"
#define SH_BAR(op, X, L, Q, P) op " 0xffffffff;\n\t"
/* redux.sync is sm_80's: older targets get a placeholder the host never launches (n/a by cc). */
#if __CUDA_ARCH__ >= 800
#define SH_RDX(op, X, L, Q, P) SH_XM(op, X, L, Q, P)
#else
#define SH_RDX(op, X, L, Q, P) "mov.b32 " X ", " X ";\n\t"
#endif

/* The trip loop: a C loop around one asm trip (`unroll 1`: cicc's default copies each trip four
 * times, quintupling ptxas's work on sm_75..89) where a trip's own cost hides under its steps;
 * cicc's default for the one-cycle bar.warp.sync (BAR), whose lat/tput moved 2-5 % on an H100 with
 * one trip a loop pass. The predicate chains (VP) loop inside their asm (ASM): ptxas sees 256
 * predicate steps at a time instead of cicc's four copies (over 1000 in one block took ptxas 2-3 s
 * a kernel on sm_75..89), and only the counter and the branch lie between trips. The latency
 * chain stays a predicate from the first trip to the last (the C loop converted it at each trip's
 * ends: 13.029 cycles a step on an H100 against 13.003 now); the throughput kernel's eighth chain
 * cannot (below), which costs it 0.8 % on an H100 (59.6 against 60.1 ops/clk/SM). */
#define LOOP_IDX C1
#define LOOP_UP C1
#define LOOP_DN C1
#define LOOP_XM C1
#define LOOP_BALLOT C1
#define LOOP_RDX C1
#define LOOP_VP ASM
#define LOOP_BAR C
#define PRAGMA_C1 _Pragma("unroll 1")
#define PRAGMA_C
/* The asm loop's frame: n the trips left (%iters), lq its test; no trip where iters < 1. */
#define ASM_LOOP_OPEN(iters)                                                                       \
	".reg .b32 n;\n\t.reg .pred lq;\n\tmov.b32 n, " iters ";\n\tsetp.lt.s32 lq, n, 1;\n\t"    \
	"@lq bra DONE;\nTRIP:\n\t"
#define ASM_LOOP_CLOSE "sub.s32 n, n, 1;\n\tsetp.gt.s32 lq, n, 0;\n\t@lq bra TRIP;\nDONE:\n\t"

#define E8(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7)
/* One latency step (%0 the chain, %1 the source lane); eight throughput steps (chain k on %k,
 * the source lane %8). */
#define STEP1(sh, op) SH_##sh(op, "%0", "%1", "q", "p")
#define STEPK(sh, op, k) SH_##sh(op, "%" #k, "%8", "q" #k, "p" #k)
#define STEP8(sh, op)                                                                              \
	STEPK(sh, op, 0) STEPK(sh, op, 1) STEPK(sh, op, 2) STEPK(sh, op, 3) STEPK(sh, op, 4)       \
	STEPK(sh, op, 5) STEPK(sh, op, 6) STEPK(sh, op, 7)

/* Frames: the asm's declarations, trip opening and closing. */
#define PRE1_PLAIN ""
#define POST1_PLAIN ""
#define PRE1_QTMP ".reg .pred q;\n\t"
#define POST1_QTMP ""
#define PRE1_PRED ".reg .pred p;\n\tsetp.ne.u32 p, %0, 0;\n\t"
#define POST1_PRED "selp.u32 %0, 1, 0, p;\n\t"
#define PRED_OPEN(k) "setp.ne.u32 p" #k ", %" #k ", 0;\n\t"
#define PRED_CLOSE(k) "selp.u32 %" #k ", 1, 0, p" #k ";\n\t"
#define PRE8_PLAIN ""
#define POST8_PLAIN ""
#define PRE8_QTMP ".reg .pred q<8>;\n\t"
#define POST8_QTMP ""
#define DECL8_PRED ".reg .pred p<8>;\n\t"
#define OPEN8_PRED E8(PRED_OPEN)
/* The asm loop's eight predicate chains: six stay predicates from the first trip to the last;
 * two become registers at each trip's end (seven predicate registers: with all eight and the
 * loop's test live across trips, ptxas spills them every few steps). */
#define ACROSS_OPEN_PRED PRED_OPEN(0) PRED_OPEN(1) PRED_OPEN(2) PRED_OPEN(3) PRED_OPEN(4) PRED_OPEN(5)
#define ACROSS_CLOSE_PRED PRED_CLOSE(0) PRED_CLOSE(1) PRED_CLOSE(2) PRED_CLOSE(3) PRED_CLOSE(4) PRED_CLOSE(5)
#define TRIP_OPEN_PRED PRED_OPEN(6) PRED_OPEN(7)
#define TRIP_CLOSE_PRED PRED_CLOSE(6) PRED_CLOSE(7)
#define PRE8_PRED DECL8_PRED OPEN8_PRED
#define POST8_PRED E8(PRED_CLOSE)

__device__ __forceinline__ unsigned lane_id(void)
{
	unsigned l;
	asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
	return l;
}

/* The timed loops: iters trips of 256 dependent steps (LAT) or of 32 steps on each of eight chains
 * (TPUT), as a C loop (C, C1) or inside the asm (ASM); x the chain(s), src the source lane. */
#define LAT_LOOP(kind, frame, sh, op) LAT_LOOP_(kind, frame, sh, op)
#define LAT_LOOP_(kind, frame, sh, op) LAT_LOOP_##kind(kind, frame, sh, op)
#define LAT_LOOP_C(kind, frame, sh, op)                                                            \
	PRAGMA_##kind for (int i = 0; i < iters; i++)                                              \
		asm volatile("{\n\t" PRE1_##frame GP_REP256(STEP1(sh, op)) POST1_##frame "}"         \
			     : "+r"(x) : "r"(src) : "memory")
#define LAT_LOOP_C1 LAT_LOOP_C
#define LAT_LOOP_ASM(kind, frame, sh, op)                                                          \
	asm volatile("{\n\t" PRE1_##frame ASM_LOOP_OPEN("%2") GP_REP256(STEP1(sh, op)) ASM_LOOP_CLOSE \
		     POST1_##frame "}"                                                             \
		     : "+r"(x) : "r"(src), "r"(iters) : "memory")
#define TPUT_LOOP(kind, frame, sh, op) TPUT_LOOP_(kind, frame, sh, op)
#define TPUT_LOOP_(kind, frame, sh, op) TPUT_LOOP_##kind(kind, frame, sh, op)
#define TPUT_LOOP_C(kind, frame, sh, op)                                                           \
	PRAGMA_##kind for (int i = 0; i < iters; i++)                                              \
		asm volatile("{\n\t" PRE8_##frame GP_REP32(STEP8(sh, op)) POST8_##frame "}"         \
			     : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3), "+r"(x4), "+r"(x5), "+r"(x6), \
			       "+r"(x7)                                                            \
			     : "r"(src) : "memory")
#define TPUT_LOOP_C1 TPUT_LOOP_C
#define TPUT_LOOP_ASM(kind, frame, sh, op)                                                         \
	asm volatile("{\n\t" DECL8_##frame ACROSS_OPEN_##frame ASM_LOOP_OPEN("%9") TRIP_OPEN_##frame  \
		     GP_REP32(STEP8(sh, op)) TRIP_CLOSE_##frame ASM_LOOP_CLOSE ACROSS_CLOSE_##frame "}" \
		     : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3), "+r"(x4), "+r"(x5), "+r"(x6), "+r"(x7) \
		     : "r"(src), "r"(iters) : "memory")

/* out: every lane's last value; cyc: per lane, the cycles of the timed loop and the timer's cost. */
#define LAT_KERNEL(name, frame, sh, op, START)                                                     \
	extern "C" __global__ void lat_warp_##name(unsigned *out, unsigned long long *cyc, int iters, \
						   gp_clock_sample *cs)                             \
	{                                                                                          \
		const unsigned l = lane_id(), src = (l + 1u) & 31u;                                \
		unsigned x = START(l, 0u);                                                         \
		unsigned long long o0, o1, t0, t1;                                                 \
		gp_chain_start(&o0, &o1, &t0, cs);                                                 \
		LAT_LOOP(LOOP_##sh, frame, sh, op);                                                \
		t1 = gp_clock();                                                                   \
		out[threadIdx.x] = x;                                                              \
		cyc[2 * threadIdx.x] = t1 - t0;                                                    \
		cyc[2 * threadIdx.x + 1] = o1 - o0;                                                \
		gp_clock_end_grid(cs);                                                             \
	}

/* out: each thread's XOR of its eight chains. */
#define TPUT_KERNEL(name, frame, sh, op, START)                                                    \
	extern "C" __global__ void tput_warp_##name(unsigned *out, int iters, gp_clock_sample *cs) \
	{                                                                                          \
		const unsigned l = lane_id(), src = (l + 1u) & 31u;                                \
		unsigned x0 = START(l, 0u), x1 = START(l, 1u), x2 = START(l, 2u), x3 = START(l, 3u); \
		unsigned x4 = START(l, 4u), x5 = START(l, 5u), x6 = START(l, 6u), x7 = START(l, 7u); \
		gp_clock_begin(cs);                                                                \
		TPUT_LOOP(LOOP_##sh, frame, sh, op);                                               \
		gp_clock_end_grid(cs);                                                             \
		out[blockIdx.x * blockDim.x + threadIdx.x] = x0 ^ x1 ^ x2 ^ x3 ^ x4 ^ x5 ^ x6 ^ x7; \
	}

#define WARP(name, sass, cc, frame, shape, ptx, start, step, what)                                 \
	LAT_KERNEL(name, frame, shape, ptx, WARP_START_##start)                                    \
	TPUT_KERNEL(name, frame, shape, ptx, WARP_START_##start)
#include "warp.list"
#undef WARP

/* ---------------------------------------------------------------- lat_barrier
 * out[0], out[1]: thread 0's cycles over the timed barriers and the timer's cost; bad[t]: how many
 * of thread t's checks failed. */
/* bar.sync 0 (__syncthreads). The check: each round every thread writes its word, waits, reads its
 * neighbour's (another warp's, where there is one), waits again before the next round's write. */
extern "C" __global__ void lat_bar_sync(unsigned long long *out, unsigned *bad, int iters, gp_clock_sample *cs)
{
	__shared__ unsigned word[1024];
	const unsigned t = threadIdx.x, next = (t + 32u) % blockDim.x;
	unsigned long long o0, o1, t0, t1;
	unsigned fails = 0;

	gp_chain_start(&o0, &o1, &t0, cs);
	for (int i = 0; i < iters; i++)
		asm volatile(GP_REP32("bar.sync 0;\n\t") ::: "memory");
	t1 = gp_clock();
	for (unsigned r = 0; r < BAR_CHECK_TRIPS; r++) {
		word[t] = r * 1024u + t;
		__syncthreads();
		fails += word[next] != r * 1024u + next;
		__syncthreads();
	}
	bad[t] = fails;
	if (t == 0) {
		out[0] = t1 - t0;
		out[1] = o1 - o0;
	}
	gp_clock_end_grid(cs);
}

#if __CUDA_ARCH__ >= 800
/* One phase: every thread arrives, then waits until the phase of this parity has completed
 * (try_wait suspends in hardware on sm_90; test_wait is polled on sm_80). */
__device__ __forceinline__ void mbar_phase(unsigned bar, unsigned parity)
{
	unsigned done;

	asm volatile("{\n\t.reg .b64 state;\n\tmbarrier.arrive.shared.b64 state, [%0];\n\t}" ::"r"(bar) : "memory");
	do {
#if __CUDA_ARCH__ >= 900
		asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared.b64 p, [%1], %2;\n\t"
			     "selp.u32 %0, 1, 0, p;\n\t}"
			     : "=r"(done) : "r"(bar), "r"(parity) : "memory");
#else
		asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.parity.shared.b64 p, [%1], %2;\n\t"
			     "selp.u32 %0, 1, 0, p;\n\t}"
			     : "=r"(done) : "r"(bar), "r"(parity) : "memory");
#endif
	} while (!done);
}

__device__ __forceinline__ unsigned mbar_test(unsigned bar, unsigned parity)
{
	unsigned done;

	asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.parity.shared.b64 p, [%1], %2;\n\t"
		     "selp.u32 %0, 1, 0, p;\n\t}"
		     : "=r"(done) : "r"(bar), "r"(parity) : "memory");
	return done;
}
#endif

/* mbarrier with an arrival count of the block: 32 x iters phases timed; the check is that the
 * barrier stands exactly after that many phases (the last one's parity completed, the next's not),
 * with no shared data touched, so racecheck has nothing to model. */
extern "C" __global__ void lat_mbarrier(unsigned long long *out, unsigned *bad, int iters, gp_clock_sample *cs)
{
#if __CUDA_ARCH__ >= 800
	__shared__ unsigned long long mbar;
	const unsigned bar = (unsigned)__cvta_generic_to_shared(&mbar);
	unsigned long long o0, o1, t0, t1;
	unsigned phase = 0;

	if (threadIdx.x == 0)
		asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(bar), "r"(blockDim.x) : "memory");
	__syncthreads();
	gp_chain_start(&o0, &o1, &t0, cs);
	for (int i = 0; i < iters; i++) {
#pragma unroll
		for (int k = 0; k < BAR_UNROLL; k++, phase++)
			mbar_phase(bar, phase & 1u);
	}
	t1 = gp_clock();
	bad[threadIdx.x] = !(phase == 0 || mbar_test(bar, (phase - 1u) & 1u)) + mbar_test(bar, phase & 1u);
	if (threadIdx.x == 0) {
		out[0] = t1 - t0;
		out[1] = o1 - o0;
	}
	gp_clock_end_grid(cs);
#endif
}
