/* nvml.c — NVML loaded with dlopen (nvml.h). The prototypes are declared here with plain C types
 * rather than taken from nvml.h (which the toolkit here does not ship); the values are NVML's ABI:
 * NVML_SUCCESS 0, NVML_CLOCK_SM 1, NVML_CLOCK_MEM 2, NVML_TEMPERATURE_GPU 0, and the clock event
 * reason bits of nvmlClocksEventReasons (formerly ClocksThrottleReasons). */
#include "gp.h"
#include "nvml.h"
#include "topo.h"

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

/* ---------------------------------------------------------------- topology */

/* nvmlPciInfo_t (NVML's ABI): the v2 remote-PCI call fills it. */
struct gp_nvml_pci {
	char bus_id_legacy[16];
	unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
	char bus_id[32];
};

#define NVML_NVLINK_DEVICE_TYPE_SWITCH 2

static struct {
	int (*by_bus)(const char *, gp_nvml_device *);
	int (*ancestor)(gp_nvml_device, gp_nvml_device, int *);
	int (*link_state)(gp_nvml_device, unsigned, int *);
	int (*link_version)(gp_nvml_device, unsigned, unsigned *);
	int (*link_remote)(gp_nvml_device, unsigned, struct gp_nvml_pci *);
	int (*link_type)(gp_nvml_device, unsigned, int *);
	int (*pcie_gen)(gp_nvml_device, unsigned *);
	int (*pcie_width)(gp_nvml_device, unsigned *);
} tp;

static int topo_syms(void)
{
	if (!nv.lib && !(nv.lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL)))
		return -1;
	*(void **)&nv.init = dlsym(nv.lib, "nvmlInit_v2");
	*(void **)&nv.shutdown = dlsym(nv.lib, "nvmlShutdown");
	*(void **)&tp.by_bus = dlsym(nv.lib, "nvmlDeviceGetHandleByPciBusId_v2");
	*(void **)&tp.ancestor = dlsym(nv.lib, "nvmlDeviceGetTopologyCommonAncestor");
	*(void **)&tp.link_state = dlsym(nv.lib, "nvmlDeviceGetNvLinkState");
	*(void **)&tp.link_version = dlsym(nv.lib, "nvmlDeviceGetNvLinkVersion");
	*(void **)&tp.link_remote = dlsym(nv.lib, "nvmlDeviceGetNvLinkRemotePciInfo_v2");
	*(void **)&tp.link_type = dlsym(nv.lib, "nvmlDeviceGetNvLinkRemoteDeviceType");
	*(void **)&tp.pcie_gen = dlsym(nv.lib, "nvmlDeviceGetMaxPcieLinkGeneration");
	*(void **)&tp.pcie_width = dlsym(nv.lib, "nvmlDeviceGetMaxPcieLinkWidth");
	return nv.init && nv.shutdown && tp.by_bus && tp.ancestor ? 0 : -1;
}

/* Active links and their far ends. A far end NVML calls a switch, or (a driver without the
 * device-type call) one that is none of our GPUs, is a switch link. */
static void topo_links(struct gp_topo *t, int i, gp_nvml_device d)
{
	struct gp_topo_gpu *g = &t->gpu[i];

	if (!tp.link_state || !tp.link_remote)
		return;
	for (unsigned l = 0; l < GP_TOPO_MAX_LINKS; l++) {
		struct gp_nvml_pci pci;
		unsigned ver = 0;
		int active = 0, type = -1;
		if (tp.link_state(d, l, &active) || active != 1 || tp.link_remote(d, l, &pci))
			continue;
		if (gp_topo_bus_norm(pci.bus_id, g->remote[g->nlinks], sizeof g->remote[0]))
			snprintf(g->remote[g->nlinks], sizeof g->remote[0], "unknown");
		if (tp.link_type)
			tp.link_type(d, l, &type);
		g->remote_switch[g->nlinks] = type >= 0 ? type == NVML_NVLINK_DEVICE_TYPE_SWITCH
						       : gp_topo_find(t, g->remote[g->nlinks]) < 0;
		if (!g->nvlink_version && tp.link_version && !tp.link_version(d, l, &ver))
			g->nvlink_version = (int)ver;
		g->nlinks++;
	}
}

void gp_nvml_topology(struct gp_topo *t)
{
	gp_nvml_device d[GP_TOPO_MAX_GPUS] = { 0 };

	if (topo_syms() || nv.init())
		return;
	for (int i = 0; i < t->n; i++) {
		unsigned gen = 0, width = 0;
		if (tp.by_bus(t->gpu[i].bus_id, &d[i])) {
			d[i] = NULL;
			continue;
		}
		topo_links(t, i, d[i]);
		if (tp.pcie_gen && tp.pcie_width && !tp.pcie_gen(d[i], &gen) && !tp.pcie_width(d[i], &width)) {
			t->gpu[i].pcie_gen = (int)gen;
			t->gpu[i].pcie_width = (int)width;
		}
		t->nvml = 1;
	}
	for (int i = 0; i < t->n; i++)
		for (int j = 0; j < t->n; j++) {
			int level = -1;
			if (i != j && d[i] && d[j] && !tp.ancestor(d[i], d[j], &level))
				t->pair[i][j].level = level;
		}
	nv.shutdown();
}
