/* topo.h — the host's GPU topology, as `nvidia-smi topo -m` shows it: for every GPU its PCI bus
 * id, host NUMA node, NVLinks and PCIe link; for every ordered pair whether one can map the
 * other's memory (the driver's P2P attributes), the PCIe path between them (NVML's common
 * ancestor) and the NVLinks joining them. device.c fills it from the driver, nvml.c adds what NVML
 * knows; everything here is plain data (tests/test_p2p.c builds hosts by hand). */
#ifndef GP_TOPO_H
#define GP_TOPO_H

#include <stddef.h>

#define GP_TOPO_MAX_GPUS 16
#define GP_TOPO_MAX_LINKS 18 /* NVML_NVLINK_MAX_LINKS */
#define GP_TOPO_BUS_LEN 24   /* "0000:18:00.0" */

/* NVML's nvmlGpuTopologyLevel_t values, and the names nvidia-smi topo -m gives them. */
enum gp_topo_level {
	GP_TOPO_UNKNOWN = -1,
	GP_TOPO_INTERNAL = 0,    /* two GPUs on one board */
	GP_TOPO_SINGLE = 10,     /* PIX: one PCIe switch */
	GP_TOPO_MULTIPLE = 20,   /* PXB: several PCIe switches, no host bridge */
	GP_TOPO_HOSTBRIDGE = 30, /* PHB: a PCIe host bridge */
	GP_TOPO_NODE = 40,       /* NODE: host bridges within one NUMA node */
	GP_TOPO_SYSTEM = 50,     /* SYS: across NUMA nodes (the SMP interconnect) */
};

struct gp_topo_gpu {
	char bus_id[GP_TOPO_BUS_LEN]; /* normalised: gp_topo_bus_norm */
	int cc_major, cc_minor;
	int numa;                     /* host NUMA node; -1: none or unknown */
	int nvlink_version;           /* as NVML reports it (nvmlNvlinkVersion_t); 0 unknown */
	int nlinks;                   /* active NVLinks */
	char remote[GP_TOPO_MAX_LINKS][GP_TOPO_BUS_LEN]; /* each active link's far end */
	int remote_switch[GP_TOPO_MAX_LINKS];            /* 1: that far end is an NVSwitch */
	int pcie_gen, pcie_width;     /* the GPU's PCIe link (NVML's maximum); 0 unknown */
};

struct gp_topo_pair {
	int access;   /* CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED; -1 unknown */
	int rank;     /* CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK; -1 unknown */
	int atomics;  /* CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED; -1 unknown */
	int level;    /* enum gp_topo_level */
	int nvlinks;  /* NVLinks between the two (gp_topo_links) */
};

struct gp_topo {
	int n;        /* GPUs the driver shows this process */
	int nvml;     /* 1: NVML filled its part */
	struct gp_topo_gpu gpu[GP_TOPO_MAX_GPUS];
	struct gp_topo_pair pair[GP_TOPO_MAX_GPUS][GP_TOPO_MAX_GPUS];
};

/* Every field "unknown" (n = 0). */
void gp_topo_init(struct gp_topo *t);
/* A PCI bus id in one spelling: "00000000:1B:00.0" (NVML) and "0000:1b:00.0" (CUDA) both become
 * "0000:1b:00.0". -1 (out unchanged) if in is not domain:bus:device.function. */
int gp_topo_bus_norm(const char *in, char *out, size_t len);
/* The GPU whose bus id is `bus` (any spelling), or -1. */
int gp_topo_find(const struct gp_topo *t, const char *bus);
/* The NVLinks of every pair from each GPU's links: a link whose far end is the other GPU counts
 * for that pair; links into NVSwitches reach every GPU that also has switch links, so such a pair
 * gets the smaller of the two GPUs' switch link counts (what nvidia-smi shows as NV18 on an HGX). */
void gp_topo_links(struct gp_topo *t);
/* The pair's link as nvidia-smi topo -m names it: "X" (i == j), "NV<k>", "PIX", "PXB", "PHB",
 * "NODE", "SYS", "internal", or "unknown" (no NVML and no NVLink). */
const char *gp_topo_link_name(const struct gp_topo *t, int i, int j, char *buf, size_t len);

/* Key/value pairs for meta.csv: topo_gpus, per GPU topo_gpu<i>_{pci_bus_id,numa_node,nvlink,pcie},
 * per ordered pair topo_link_<i>_<j> (the link name) and topo_p2p_<i>_<j> (the P2P attributes).
 * set(ctx, key, value) is called for each; returns how many. */
size_t gp_topo_describe(const struct gp_topo *t, void (*set)(void *ctx, const char *key, const char *value),
			void *ctx);
/* Keys gp_topo_describe gives for n GPUs (for sizing). */
size_t gp_topo_nkeys(int n);

#endif
