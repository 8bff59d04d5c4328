/* clockcheck.cu — the clock every probe reports, checked against an independent timer (T002).
 *
 * Every probe turns its clock64 delta into MHz with %globaltimer. That is only as good as the
 * global timer: if it ran slow or stepped, every clock_MHz would read high. Here a window is
 * timed three ways at once: clock64 and %globaltimer in the kernel (the probes' method) and CUDA
 * events on the host side of the launch. idle: one warp spins until the global timer has moved
 * `ns`; ffma: every SM runs dependent FFMA chains for `iters` trips, sampled grid-wide; mma: the
 * same with TF32 tensor-core mma.sync chains (sm_80 and newer), the load after which the GEMM
 * benches' clock samples read above the card's maximum. The global timer's tick (its smallest
 * step) is measured by spinning until it changes. */
#include "probe.cuh"

extern "C" __global__ void clock_idle(long long ns, unsigned long long *tick, gp_clock_sample *cs)
{
	unsigned long long t0 = gp_ns(), c0 = gp_clock(), t, prev, step = ~0ull;

	prev = t0;
	do {
		t = gp_ns();
		if (t != prev) {
			step = t - prev < step ? t - prev : step;
			prev = t;
		}
	} while ((long long)(t - t0) < ns);
	cs->clk1 = gp_clock();
	cs->ns1 = gp_ns();
	cs->clk0 = c0;
	cs->ns0 = t0;
	*tick = step;
}

extern "C" __global__ void clock_ffma(int iters, float *out, gp_clock_sample *cs)
{
	float a = 1.0f + (float)(threadIdx.x % 7) * 0.125f, b = a + 0.5f;
	const float m = 1.0f - 0x1p-20f, c = 0x1p-19f;

	gp_clock_begin(cs);
	for (int i = 0; i < iters; i++) {
		GP_REP64(asm volatile("fma.rn.f32 %0, %0, %2, %3;\n\tfma.rn.f32 %1, %1, %2, %3;" : "+f"(a), "+f"(b) : "f"(m), "f"(c));)
	}
	gp_clock_end_grid(cs);
	out[blockIdx.x * blockDim.x + threadIdx.x] = a + b;
}

/* Four independent accumulator chains of m16n8k8 TF32 mma.sync per warp, `iters` trips of 16 each. */
extern "C" __global__ void clock_mma(int iters, float *out, gp_clock_sample *cs)
{
	float d[4][4] = {};
#if __CUDA_ARCH__ >= 800
	const unsigned a = 0x3a800000u + (threadIdx.x & 7), b = 0x3a800000u; /* ~2^-10: no overflow */

	gp_clock_begin(cs);
	for (int i = 0; i < iters; i++) {
		GP_REP16(
#pragma unroll
		for (int c = 0; c < 4; c++)
			asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
				     "{%8,%9}, {%0,%1,%2,%3};"
				     : "+f"(d[c][0]), "+f"(d[c][1]), "+f"(d[c][2]), "+f"(d[c][3])
				     : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b));)
	}
	gp_clock_end_grid(cs);
#endif
	out[blockIdx.x * blockDim.x + threadIdx.x] = d[0][0] + d[1][1] + d[2][2] + d[3][3];
}
