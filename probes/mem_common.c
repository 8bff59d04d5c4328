/* mem_common.c — see mem_common.h. */
#include "gp.h"
#include "mem_common.h"

#include <math.h>
#include <stdlib.h>

void mem_chase_sample(struct gp_meas *m, const unsigned long long *out, long long steps)
{
	gp_sample(m, "cycles_per_load", ((double)out[1] - (double)out[2]) / (double)steps);
	gp_sample(m, "timer_overhead_cycles", (double)out[2]);
}

void mem_chase_finish(struct gp_meas *m, double floor_cycles)
{
	const double cyc = gp_meas_latency_ns(m, "cycles_per_load");

	gp_meas_floor(m, "a dependent load", cyc, floor_cycles, 0, "cycles");
}

double mem_hbm_peak_GBps(const struct gp_device *dev)
{
	return 2.0 * dev->mem_clock_khz * 1e3 * dev->mem_bus_bits / 8 / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double mem_percentile(double *v, size_t n, double p)
{
	size_t k;

	if (!n)
		return NAN;
	qsort(v, n, sizeof *v, cmp_double);
	k = (size_t)ceil(p / 100.0 * (double)n);
	return v[k ? k - 1 : 0];
}

double mem_median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
