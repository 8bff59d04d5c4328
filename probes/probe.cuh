/* probe.cuh — device-side helpers shared by every probe kernel.
 *
 * The clock sample: thread 0 of block 0 reads clock64 (CS2R SR_CLOCKLO) and %globaltimer (ns)
 * at the start and end of its work, so every kernel reports the SM clock it actually ran at
 * (cycles / ns), not the clock the datasheet promises. Both reads are asm volatile with a memory
 * clobber so the compiler cannot move them across the timed work. */
#ifndef GP_PROBE_CUH
#define GP_PROBE_CUH

struct gp_clock_sample {
	unsigned long long clk0, clk1, ns0, ns1;
};

__device__ __forceinline__ unsigned long long gp_clock(void)
{
	unsigned long long t;
	asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
	return t;
}

__device__ __forceinline__ unsigned long long gp_ns(void)
{
	unsigned long long t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
	return t;
}

__device__ __forceinline__ bool gp_is_clock_thread(void)
{
	return threadIdx.x == 0 && blockIdx.x == 0;
}

/* The clock sample's start and end where the clock thread alone takes them (a kernel whose
 * blocks end together; otherwise gp_clock_end_grid). */
__device__ __forceinline__ void gp_clock_begin(gp_clock_sample *cs)
{
	if (gp_is_clock_thread()) {
		cs->ns0 = gp_ns();
		cs->clk0 = gp_clock();
	}
}

__device__ __forceinline__ void gp_clock_end(gp_clock_sample *cs)
{
	if (gp_is_clock_thread()) {
		cs->clk1 = gp_clock();
		cs->ns1 = gp_ns();
	}
}

/* Start of a clock64-timed chain: the clock thread's start sample, two back-to-back reads (the
 * timer's own cost, o1 - o0, which the host subtracts) and the chain's start t0. */
__device__ __forceinline__ void gp_chain_start(unsigned long long *o0, unsigned long long *o1, unsigned long long *t0,
					       gp_clock_sample *cs)
{
	gp_clock_begin(cs);
	*o0 = gp_clock();
	*o1 = gp_clock();
	*t0 = gp_clock();
}

/* Blocks of this module's current launch that reached gp_clock_end_grid (one per module). */
__device__ unsigned gp_grid_done;

/* End of a grid-wide clock window: call it from every thread of every block, at the end of the
 * timed work. With many warps per SM the scheduler favours the oldest, so block 0 can finish long
 * before the kernel does and its own window says little about the clock during the rest. Every
 * block counts itself done; thread 0 of block 0 waits for the last one, takes the end sample and
 * resets the counter for the next launch. This cannot deadlock when not all blocks fit at once:
 * only block 0 waits, every other block finishes and frees its slot for the ones still queued. */
__device__ __forceinline__ void gp_clock_end_grid(gp_clock_sample *cs)
{
	__syncthreads();
	if (threadIdx.x != 0)
		return;
	__threadfence();
	atomicAdd(&gp_grid_done, 1u);
	if (blockIdx.x != 0)
		return;
	while (*(volatile unsigned *)&gp_grid_done < gridDim.x)
		;
	cs->clk1 = gp_clock();
	cs->ns1 = gp_ns();
	gp_grid_done = 0;
}

#define GP_REP2(x) x x
#define GP_REP4(x) GP_REP2(x) GP_REP2(x)
#define GP_REP8(x) GP_REP4(x) GP_REP4(x)
#define GP_REP16(x) GP_REP8(x) GP_REP8(x)
#define GP_REP32(x) GP_REP16(x) GP_REP16(x)
#define GP_REP64(x) GP_REP32(x) GP_REP32(x)
#define GP_REP128(x) GP_REP64(x) GP_REP64(x)
#define GP_REP256(x) GP_REP128(x) GP_REP128(x)

/* A one-thread chase, timed: `steps` dependent STEPs (a statement), 32 to a loop trip, from t0
 * to t1 inside the clock sample this thread takes; o1 - o0 is the timer's own cost, which the
 * host subtracts. The caller declares o0, o1, t0, t1 and the counter i. */
#define GP_CHASE_TIMED(steps, STEP)                                                                \
	o0 = gp_clock();                                                                           \
	o1 = gp_clock();                                                                           \
	cs->ns0 = gp_ns();                                                                         \
	cs->clk0 = gp_clock();                                                                     \
	t0 = gp_clock();                                                                           \
	for (i = 0; i + 32 <= (steps); i += 32) {                                                  \
		GP_REP32(STEP)                                                                     \
	}                                                                                          \
	for (; i < (steps); i++)                                                                   \
		STEP                                                                               \
	t1 = gp_clock();                                                                           \
	cs->clk1 = gp_clock();                                                                     \
	cs->ns1 = gp_ns()

#endif
