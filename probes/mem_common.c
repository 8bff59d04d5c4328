/* mem_common.c — see mem_common.h. */
#include "gp.h"
#include "mem_common.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int mem_ok(const char *status)
{
	return !strcmp(status, "ok");
}

void mem_fail(char *status, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!mem_ok(status))
		return;
	va_start(ap, fmt);
	vsnprintf(status, len, fmt, ap);
	va_end(ap);
}

int mem_alloc(CUdeviceptr *p, size_t bytes, char *status, size_t len)
{
	size_t free_b = 0, total_b = 0;
	CUresult r;

	*p = 0;
	if (gp_cu.cuMemGetInfo(&free_b, &total_b) == CUDA_SUCCESS) {
		if (bytes > total_b) {
			mem_fail(status, len, "refused: %zu bytes exceed the device's %zu bytes of memory", bytes,
				 total_b);
			return GP_EVALID;
		}
		if (bytes > free_b) {
			mem_fail(status, len, "refused: %zu bytes exceed the %zu bytes free on the device", bytes,
				 free_b);
			return GP_EVALID;
		}
	}
	r = gp_cu.cuMemAlloc(p, bytes);
	if (r == CUDA_ERROR_OUT_OF_MEMORY) {
		*p = 0;
		mem_fail(status, len, "allocation of %zu bytes failed: out of device memory", bytes);
		return GP_EVALID;
	}
	if (r != CUDA_SUCCESS) {
		*p = 0;
		gp_err("cuMemAlloc(%zu bytes) failed: %s", bytes, gp_cu_strerror(r));
		return GP_ECUDA;
	}
	return 0;
}

double mem_clock(struct gp_run *run, const struct gp_clock_sample *cs)
{
	const double own = cs ? gp_clock_mhz(cs) : 0;
	struct gp_clock_sample s;
	CUdeviceptr d_cs = 0;
	CUfunction fn;
	long long ns = 2000000;
	double mhz = 0;
	void *args[] = { &ns, &d_cs };

	if (own > 0)
		return own;
	if (gp_kernel(run->dev, gp_image_probes_smem, "mem_clock_spin", &fn) || gp_alloc(&d_cs, sizeof s))
		return 0;
	if (!gp_launch(fn, 1, 32, 0, args, NULL) && !gp_download(&s, d_cs, sizeof s))
		mhz = gp_clock_mhz(&s);
	gp_free(d_cs);
	return mhz;
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
