/* sgemm_clock.cu — the SM clock the GEMM experiments report: sampled right after a point's timed
 * launches under a dense FFMA load on every SM (the clock a GEMM's SMs hold), not during them. */
#include "probe.cuh"

/* One block per SM, a dependent FFMA chain per thread for `iters` x 64 steps (~1 ms at 4 cycles
 * per step): thread 0 of block 0 samples clock64 and %globaltimer around it. Run right after a
 * GEMM's timed batch, it gives the clock the SMs hold under a dense FFMA load. */
extern "C" __global__ void sg_clock(float *sink, int iters, gp_clock_sample *cs)
{
	float x = (float)threadIdx.x * 1e-3f, y = 1.0f - 0x1p-20f, z = 0x1p-19f;

	if (gp_is_clock_thread()) {
		cs->ns0 = gp_ns();
		cs->clk0 = gp_clock();
	}
	for (int i = 0; i < iters; i++) {
		GP_REP64(asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x) : "f"(y), "f"(z));)
	}
	if (gp_is_clock_thread()) {
		cs->clk1 = gp_clock();
		cs->ns1 = gp_ns();
	}
	if (x == 12345.0f)
		sink[threadIdx.x] = x;
}
