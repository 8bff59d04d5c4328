/* nvml.c — NVML loaded with dlopen (nvml.h). The prototypes are declared here with plain C types
 * rather than taken from nvml.h (which the toolkit here does not ship); the values are NVML's ABI:
 * NVML_SUCCESS 0, NVML_CLOCK_SM 1, NVML_CLOCK_MEM 2, NVML_TEMPERATURE_GPU 0, and the clock event
 * reason bits of nvmlClocksEventReasons (formerly ClocksThrottleReasons). */
#include "gp.h"
#include "nvml.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef struct gp_nvml_dev *gp_nvml_device;

static struct {
	void *lib;
	gp_nvml_device dev;
	int (*init)(void);
	int (*shutdown)(void);
	int (*by_uuid)(const char *, gp_nvml_device *);
	int (*clock)(gp_nvml_device, int, unsigned *);
	int (*power)(gp_nvml_device, unsigned *);
	int (*temp)(gp_nvml_device, int, unsigned *);
	int (*reasons)(gp_nvml_device, unsigned long long *);
} nv;

static const struct {
	unsigned long long bit;
	const char *name;
	int limiting;
} reason_names[] = {
	{ 0x1, "gpu_idle", 0 },
	{ 0x2, "applications_clocks", 0 },
	{ 0x4, "sw_power_cap", 1 },
	{ 0x8, "hw_slowdown", 1 },
	{ 0x10, "sync_boost", 1 },
	{ 0x20, "sw_thermal", 1 },
	{ 0x40, "hw_thermal", 1 },
	{ 0x80, "hw_power_brake", 1 },
	{ 0x100, "display_clocks", 1 },
};

static void say(char *why, size_t len, const char *what)
{
	if (why && len)
		snprintf(why, len, "%s: no clock, power or throttle columns", what);
}

static int open_nvml(const char *uuid, char *why, size_t len)
{
	if (!nv.lib && !(nv.lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL))) {
		say(why, len, "NVML (libnvidia-ml.so.1) not loadable");
		return -1;
	}
	*(void **)&nv.init = dlsym(nv.lib, "nvmlInit_v2");
	*(void **)&nv.shutdown = dlsym(nv.lib, "nvmlShutdown");
	*(void **)&nv.by_uuid = dlsym(nv.lib, "nvmlDeviceGetHandleByUUID");
	*(void **)&nv.clock = dlsym(nv.lib, "nvmlDeviceGetClockInfo");
	*(void **)&nv.power = dlsym(nv.lib, "nvmlDeviceGetPowerUsage");
	*(void **)&nv.temp = dlsym(nv.lib, "nvmlDeviceGetTemperature");
	*(void **)&nv.reasons = dlsym(nv.lib, "nvmlDeviceGetCurrentClocksEventReasons");
	if (!nv.reasons)
		*(void **)&nv.reasons = dlsym(nv.lib, "nvmlDeviceGetCurrentClocksThrottleReasons");
	if (!nv.init || !nv.by_uuid || !nv.clock || !nv.power || !nv.temp || !nv.reasons) {
		say(why, len, "NVML lacks an entry point gpuprobe uses");
		return -1;
	}
	if (nv.init()) {
		say(why, len, "nvmlInit failed");
		return -1;
	}
	if (!uuid || !*uuid || nv.by_uuid(uuid, &nv.dev)) {
		say(why, len, "NVML does not know this GPU");
		nv.dev = NULL;
		return -1;
	}
	return 0;
}

/* A failure is final for the process (and the children it forks): the sweep asks at every point. */
int gp_nvml_open(const char *uuid, char *why, size_t len)
{
	static int failed;

	if (nv.dev)
		return 0;
	if (failed) {
		say(why, len, "NVML unavailable");
		return -1;
	}
	failed = open_nvml(uuid, why, len) != 0;
	return failed ? -1 : 0;
}

void gp_nvml_close(void)
{
	if (nv.dev && nv.shutdown)
		nv.shutdown();
	nv.dev = NULL;
}

void gp_nvml_sample(struct gp_power *s)
{
	unsigned sm = 0, mem = 0, mw = 0, t = 0;

	memset(s, 0, sizeof *s);
	if (!nv.dev)
		return;
	s->valid = !nv.clock(nv.dev, 1, &sm) & !nv.clock(nv.dev, 2, &mem) & !nv.power(nv.dev, &mw) &
		   !nv.temp(nv.dev, 0, &t) & !nv.reasons(nv.dev, &s->reasons);
	s->sm_MHz = sm;
	s->mem_MHz = mem;
	s->power_W = mw / 1e3;
	s->temp_C = t;
}

unsigned long long gp_nvml_limiting(unsigned long long reasons)
{
	unsigned long long m = 0;

	for (size_t i = 0; i < GP_ARRAY_SIZE(reason_names); i++)
		if (reason_names[i].limiting)
			m |= reason_names[i].bit;
	return reasons & m;
}

const char *gp_nvml_reasons(unsigned long long reasons, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = 0;
	reasons = gp_nvml_limiting(reasons);
	for (size_t i = 0; i < GP_ARRAY_SIZE(reason_names); i++)
		if (reasons & reason_names[i].bit && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "+" : "", reason_names[i].name);
	if (!used)
		snprintf(buf, len, "none");
	return buf;
}
