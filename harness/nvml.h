/* nvml.h — clocks, power, temperature and throttle reasons through NVML, loaded at run time like
 * libcuda (libnvidia-ml.so.1). Absent NVML is a warning and empty columns, never an error: the
 * measurements do not depend on it, only the account of the conditions they ran under. Read-only:
 * nothing here sets a clock, a limit or a mode. */
#ifndef GP_NVML_H
#define GP_NVML_H

#include <stddef.h>

struct gp_power {
	int valid;                /* 0: no NVML or the device was not found */
	double sm_MHz, mem_MHz;   /* current clocks */
	double power_W;           /* board power draw (the driver's recent average) */
	double temp_C;            /* GPU temperature */
	unsigned long long reasons; /* active clock-limiting reasons (NVML bit mask) */
};

/* Open NVML for the GPU with this UUID ("GPU-xxxxxxxx-…", as meta.csv's device_uuid). 0 on
 * success; -1 with a one-line reason otherwise. */
int gp_nvml_open(const char *uuid, char *why, size_t len);
void gp_nvml_close(void);
/* A sample now; s->valid = 0 when NVML is not open. */
void gp_nvml_sample(struct gp_power *s);
/* The reasons that limit performance (idle and the application-clock setting excluded), as
 * "none" or names joined by '+': "sw_power_cap+hw_slowdown". */
const char *gp_nvml_reasons(unsigned long long reasons, char *buf, size_t len);
/* Reasons that mean the clock was held below what the card would otherwise run at. */
unsigned long long gp_nvml_limiting(unsigned long long reasons);

/* The topology's NVML part (topo.h) for the GPUs whose bus ids t holds: each pair's PCIe path
 * (nvmlDeviceGetTopologyCommonAncestor), each GPU's active NVLinks and their far ends, its PCIe
 * link. Sets t->nvml = 1 when NVML answered; without NVML t is left as it was. */
struct gp_topo;
void gp_nvml_topology(struct gp_topo *t);

#endif
