/* mem_common.h — helpers the memory probes share (probes/mem_lat.c, mem_bw.c, smem.c): the
 * module images, what every single-thread chase makes of its result, the HBM datasheet rate the
 * bandwidth ceilings use, and the order statistics of per-access and per-block samples.
 * Allocation, the clock sample and the row status are the harness's (measure.h). */
#ifndef GP_MEM_COMMON_H
#define GP_MEM_COMMON_H

#include <stddef.h>

#include "device.h"
#include "measure.h"

extern const unsigned char gp_image_probes_mem[];
extern const unsigned char gp_image_probes_smem[];

/* A chase kernel's out = {end, cycles of the timed loop, timer overhead}, the loop `steps` loads
 * long: the metrics cycles_per_load and timer_overhead_cycles of one repetition. */
void mem_chase_sample(struct gp_meas *m, const unsigned long long *out, long long steps);
/* latency_ns from the median cycles and the clock, and the floor (in cycles) that no dependent
 * load of this kind can beat: below it the probe is broken. */
void mem_chase_finish(struct gp_meas *m, double floor_cycles);

/* 2 x memory clock x bus width / 8: the HBM datasheet rate in GB/s. */
double mem_hbm_peak_GBps(const struct gp_device *dev);

/* p-th percentile (0..100) of v[0..n-1] (sorted in place), nearest rank; NaN for n = 0. */
double mem_percentile(double *v, size_t n, double p);
/* Median of v[0..n-1] (sorted in place) as gp_stats has it: the mean of the middle two for even
 * n; NaN for n = 0. */
double mem_median(double *v, size_t n);

#endif
