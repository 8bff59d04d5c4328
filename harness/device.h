/* device.h — one GPU: its attributes, the shared primary context, modules from embedded images,
 * launches timed with events. */
#ifndef GP_DEVICE_H
#define GP_DEVICE_H

#include <stddef.h>

#include "arch.h"
#include "cu.h"
#include "stats.h"

#define GP_MAX_MODULES 32

struct gp_device {
	int ordinal;
	CUdevice dev;
	CUcontext ctx;
	char name[256];
	char slug[128]; /* directory name under results/: "h100-80gb-hbm3" */
	char uuid[64];
	int cc_major, cc_minor;
	int sms, warp_size;
	int clock_khz, mem_clock_khz, mem_bus_bits;
	int l2_bytes, smem_per_sm, smem_per_block, smem_per_block_optin;
	int regs_per_sm, regs_per_block, max_threads_per_sm, max_threads_per_block, max_blocks_per_sm;
	int pci_bus, pci_device, ecc;
	size_t mem_bytes;
	int driver_version; /* e.g. 13000 */
	struct {
		const void *image;
		CUmodule mod;
	} modules[GP_MAX_MODULES];
	size_t nmodules;
};

/* Load the driver, pick device `ordinal`, read its attributes and retain its primary context
 * (the one the CUDA runtime and cuBLAS use too). GP_ENOGPU with a one-line reason on failure. */
int gp_device_open(struct gp_device *d, int ordinal, char *why, size_t whylen);
void gp_device_close(struct gp_device *d);

/* Lower-case, dash-separated name without the vendor: "NVIDIA H100 80GB HBM3" -> "h100-80gb-hbm3". */
void gp_slugify(const char *name, char *out, size_t len);

/* Key/value pairs describing the device (for `info` and meta.csv). */
struct gp_kv {
	char key[48], value[320];
};
/* Room for a description: the device's keys and the topology of up to 16 GPUs (topo.h). */
#define GP_DESC_MAX 640
/* The device, then the host's GPU topology (gp_topo_read). */
size_t gp_device_describe(const struct gp_device *d, struct gp_kv *kv, size_t max);

/* The topology of every GPU this process sees (topo.h): bus ids, NUMA nodes and P2P attributes
 * from the driver, PCIe paths and NVLinks from NVML where it loads. 0, or GP_ENOGPU. */
struct gp_topo;
int gp_topo_read(struct gp_topo *t);

/* A kernel from an embedded image (module loaded once per device). A build without kernels (make
 * test-host) embeds GP_NO_IMAGE instead of each image: gp_kernel then says so, GP_EFAIL. */
#define GP_NO_IMAGE "gpuprobe: built without kernels"
int gp_kernel(struct gp_device *d, const void *image, const char *name, CUfunction *fn);

/* Launch and wait; with ms != NULL, time it with events. 0 or GP_ECUDA. */
int gp_launch(CUfunction fn, unsigned grid, unsigned block, unsigned smem, void **args, float *ms);

/* Two events for timing work on the default stream: gp_events_new creates both (NULL on
 * failure), gp_events_stop records the second, waits for it and gives the ms since the first was
 * recorded, gp_events_free destroys the ones that exist. 0 or GP_ECUDA. */
int gp_events_new(CUevent *e0, CUevent *e1);
int gp_events_stop(CUevent e0, CUevent e1, float *ms);
void gp_events_free(CUevent e0, CUevent e1);

/* Device buffer helpers. */
int gp_alloc(CUdeviceptr *p, size_t bytes);
void gp_free(CUdeviceptr p);
int gp_upload(CUdeviceptr dst, const void *src, size_t bytes);
int gp_download(void *dst, CUdeviceptr src, size_t bytes);

/* The clock sample every probe kernel writes (probes/probe.cuh): thread 0 of block 0 reads
 * clock64 and %globaltimer at the start and end of its work. */
struct gp_clock_sample {
	unsigned long long clk0, clk1, ns0, ns1;
};
/* SM clock in MHz from a sample, or 0 if the sample is too short to trust (< 100 us). */
double gp_clock_mhz(const struct gp_clock_sample *s);

#endif
