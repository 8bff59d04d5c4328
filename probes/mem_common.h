/* mem_common.h — helpers shared by the memory probes (probes/mem.c, probes/smem.c): allocation
 * that turns "too big" and "out of memory" into a row status instead of a crash, the clock of
 * a point whose own kernel is too short to sample, the HBM datasheet ceiling, percentiles. */
#ifndef GP_MEM_COMMON_H
#define GP_MEM_COMMON_H

#include <stddef.h>

#include "device.h"
#include "experiment.h"

extern const unsigned char gp_image_probes_mem[];
extern const unsigned char gp_image_probes_smem[];

/* cuMemAlloc with a clear refusal: sizes over the device's memory or over what is free, and an
 * out-of-memory failure, write `status` and return GP_EVALID; other driver errors GP_ECUDA. */
int mem_alloc(CUdeviceptr *p, size_t bytes, char *status, size_t len);

/* The SM clock of a point: from its own sample when that is long enough, else from a 2 ms
 * spin kernel run right after it. 0 if neither works. */
double mem_clock(struct gp_run *run, const struct gp_clock_sample *cs);

/* 2 x memory clock x bus width / 8: the HBM datasheet rate in GB/s. */
double mem_hbm_peak_GBps(const struct gp_device *dev);

/* p-th percentile (0..100) of v[0..n-1] (sorted in place), nearest rank. */
double mem_percentile(double *v, size_t n, double p);

/* Append one `status` problem unless one is already there. */
void mem_fail(char *status, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int mem_ok(const char *status);

#endif
