/* clock.cu — the harness's own kernel: a spin of `ns` nanoseconds that samples the SM clock
 * (clock64 over %globaltimer) for a point whose kernels were each too short for their own clock
 * sample (measure.c). It measures the clock the SM is at right after the point, not during it. */
#include "probe.cuh"

extern "C" __global__ void gp_clock_spin(long long ns, gp_clock_sample *cs)
{
	const unsigned long long t0 = gp_ns(), c0 = gp_clock();
	unsigned long long t;

	do
		t = gp_ns();
	while ((long long)(t - t0) < ns);
	cs->clk1 = gp_clock();
	cs->ns1 = gp_ns();
	cs->clk0 = c0;
	cs->ns0 = t0;
}
