/* device.c — device attributes, primary context, embedded modules, launches and events. */
#include "gp.h"
#include "device.h"
#include "nvml.h"
#include "topo.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int attr(const struct gp_device *d, CUdevice_attribute a)
{
	int v = 0;

	if (gp_cu.cuDeviceGetAttribute(&v, a, d->dev) != CUDA_SUCCESS)
		return -1;
	return v;
}

void gp_slugify(const char *name, char *out, size_t len)
{
	size_t o = 0;
	int dash = 0;

	if (!strncasecmp(name, "nvidia ", 7))
		name += 7;
	for (const char *p = name; *p && o + 1 < len; p++) {
		if (isalnum((unsigned char)*p)) {
			if (dash && o) {
				if (o + 2 >= len)
					break; /* no room for the dash and a character after it */
				out[o++] = '-';
			}
			if (o + 1 < len)
				out[o++] = (char)tolower((unsigned char)*p);
			dash = 0;
		} else {
			dash = 1;
		}
	}
	if (o == 0 && len > 4)
		o = (size_t)snprintf(out, len, "gpu");
	out[o < len ? o : len - 1] = '\0';
}

int gp_device_open(struct gp_device *d, int ordinal, char *why, size_t whylen)
{
	int count = 0, rc;
	CUresult r;
	CUuuid u;

	memset(d, 0, sizeof *d);
	if ((rc = gp_cu_load(why, whylen)))
		return rc;
	gp_cu.cuDeviceGetCount(&count);
	if (ordinal < 0 || ordinal >= count) {
		snprintf(why, whylen, "no GPU %d (this machine has %d)", ordinal, count);
		return GP_ENOGPU;
	}
	d->ordinal = ordinal;
	if ((r = gp_cu.cuDeviceGet(&d->dev, ordinal)) != CUDA_SUCCESS ||
	    (r = gp_cu.cuDeviceGetName(d->name, sizeof d->name, d->dev)) != CUDA_SUCCESS ||
	    (r = gp_cu.cuDeviceTotalMem(&d->mem_bytes, d->dev)) != CUDA_SUCCESS ||
	    (r = gp_cu.cuDriverGetVersion(&d->driver_version)) != CUDA_SUCCESS ||
	    (r = gp_cu.cuDevicePrimaryCtxRetain(&d->ctx, d->dev)) != CUDA_SUCCESS ||
	    (r = gp_cu.cuCtxSetCurrent(d->ctx)) != CUDA_SUCCESS) {
		snprintf(why, whylen, "cannot open GPU %d: %s", ordinal, gp_cu_strerror(r));
		return GP_ENOGPU;
	}
	gp_slugify(d->name, d->slug, sizeof d->slug);
	if (gp_cu.cuDeviceGetUuid(&u, d->dev) == CUDA_SUCCESS) {
		const unsigned char *b = (const unsigned char *)u.bytes;
		snprintf(d->uuid, sizeof d->uuid,
			 "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
			 b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
	}
	d->cc_major = attr(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
	d->cc_minor = attr(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
	d->sms = attr(d, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
	d->warp_size = attr(d, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
	d->clock_khz = attr(d, CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
	d->mem_clock_khz = attr(d, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
	d->mem_bus_bits = attr(d, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
	d->l2_bytes = attr(d, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
	d->smem_per_sm = attr(d, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
	d->smem_per_block = attr(d, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
	d->smem_per_block_optin = attr(d, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
	d->regs_per_sm = attr(d, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
	d->regs_per_block = attr(d, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
	d->max_threads_per_sm = attr(d, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
	d->max_threads_per_block = attr(d, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
	d->max_blocks_per_sm = attr(d, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
	d->pci_bus = attr(d, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID);
	d->pci_device = attr(d, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID);
	d->ecc = attr(d, CU_DEVICE_ATTRIBUTE_ECC_ENABLED);
	return 0;
}

void gp_device_close(struct gp_device *d)
{
	for (size_t i = 0; i < d->nmodules; i++)
		gp_cu.cuModuleUnload(d->modules[i].mod);
	d->nmodules = 0;
	if (d->ctx)
		gp_cu.cuDevicePrimaryCtxRelease(d->dev);
	d->ctx = NULL;
}

#define KV(k, ...)                                                                                 \
	do {                                                                                       \
		if (n < max) {                                                                     \
			snprintf(kv[n].key, sizeof kv[n].key, "%s", k);                            \
			snprintf(kv[n].value, sizeof kv[n].value, __VA_ARGS__);                    \
			n++;                                                                       \
		}                                                                                  \
	} while (0)

/* The host NUMA node of a GPU: the driver's (-1 where it has none), else sysfs's. */
static int numa_node(CUdevice dev, const char *bus)
{
	char path[96];
	int v = -1;
	FILE *f;

	if (gp_cu.cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID, dev) == CUDA_SUCCESS && v >= 0)
		return v;
	snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/numa_node", bus);
	if ((f = fopen(path, "r"))) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v < 0 ? -1 : v;
}

static int p2p_attr(CUdevice_P2PAttribute a, CUdevice i, CUdevice j)
{
	int v = -1;

	return gp_cu.cuDeviceGetP2PAttribute(&v, a, i, j) == CUDA_SUCCESS ? v : -1;
}

int gp_topo_read(struct gp_topo *t)
{
	CUdevice dev[GP_TOPO_MAX_GPUS];
	char bus[GP_TOPO_BUS_LEN];
	int count = 0;

	gp_topo_init(t);
	/* A device that did not come from the driver (test_isolate's stand-in) has no topology. */
	if (!gp_cu.cuDeviceGetCount || gp_cu.cuDeviceGetCount(&count) != CUDA_SUCCESS || count < 1)
		return GP_ENOGPU;
	t->n = count < GP_TOPO_MAX_GPUS ? count : GP_TOPO_MAX_GPUS;
	for (int i = 0; i < t->n; i++) {
		struct gp_topo_gpu *g = &t->gpu[i];
		if (gp_cu.cuDeviceGet(&dev[i], i) != CUDA_SUCCESS)
			return GP_ENOGPU;
		if (gp_cu.cuDeviceGetPCIBusId(bus, sizeof bus, dev[i]) != CUDA_SUCCESS ||
		    gp_topo_bus_norm(bus, g->bus_id, sizeof g->bus_id))
			snprintf(g->bus_id, sizeof g->bus_id, "unknown");
		gp_cu.cuDeviceGetAttribute(&g->cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev[i]);
		gp_cu.cuDeviceGetAttribute(&g->cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev[i]);
		g->numa = numa_node(dev[i], g->bus_id);
	}
	for (int i = 0; i < t->n; i++)
		for (int j = 0; j < t->n; j++) {
			struct gp_topo_pair *p = &t->pair[i][j];
			if (i == j)
				continue;
			p->access = p2p_attr(CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, dev[i], dev[j]);
			p->rank = p2p_attr(CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK, dev[i], dev[j]);
			p->atomics = p2p_attr(CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED, dev[i], dev[j]);
		}
	gp_nvml_topology(t);
	gp_topo_links(t);
	return 0;
}

struct kv_sink {
	struct gp_kv *kv;
	size_t n, max;
};

static void kv_set(void *ctx, const char *key, const char *value)
{
	struct kv_sink *s = ctx;

	if (s->n < s->max) {
		snprintf(s->kv[s->n].key, sizeof s->kv[s->n].key, "%s", key);
		snprintf(s->kv[s->n].value, sizeof s->kv[s->n].value, "%s", value);
		s->n++;
	}
}

static size_t describe_topo(struct gp_kv *kv, size_t max)
{
	struct gp_topo *t = malloc(sizeof *t);
	struct kv_sink s = { kv, 0, max };

	if (t && !gp_topo_read(t))
		gp_topo_describe(t, kv_set, &s);
	free(t);
	return s.n;
}

size_t gp_device_describe(const struct gp_device *d, struct gp_kv *kv, size_t max)
{
	size_t n = 0;

	KV("device_ordinal", "%d", d->ordinal);
	KV("device_name", "%s", d->name);
	if (gp_cu_stub)
		KV("stub_driver", "%s", gp_cu_stub);
	KV("device_uuid", "%s", d->uuid);
	KV("compute_capability", "%d.%d", d->cc_major, d->cc_minor);
	KV("sm_count", "%d", d->sms);
	KV("warp_size", "%d", d->warp_size);
	KV("sm_clock_max_MHz", "%d", d->clock_khz / 1000);
	KV("mem_clock_max_MHz", "%d", d->mem_clock_khz / 1000);
	KV("mem_bus_width_bits", "%d", d->mem_bus_bits);
	/* DDR: two transfers per memory clock. */
	KV("mem_bandwidth_theoretical_GBps", "%.1f", 2.0 * d->mem_clock_khz * 1e3 * d->mem_bus_bits / 8 / 1e9);
	KV("mem_total_MiB", "%zu", d->mem_bytes >> 20);
	KV("l2_bytes", "%d", d->l2_bytes);
	KV("smem_per_sm_bytes", "%d", d->smem_per_sm);
	KV("smem_per_block_bytes", "%d", d->smem_per_block);
	KV("smem_per_block_optin_bytes", "%d", d->smem_per_block_optin);
	KV("regs_per_sm", "%d", d->regs_per_sm);
	KV("regs_per_block", "%d", d->regs_per_block);
	KV("max_threads_per_sm", "%d", d->max_threads_per_sm);
	KV("max_threads_per_block", "%d", d->max_threads_per_block);
	KV("max_blocks_per_sm", "%d", d->max_blocks_per_sm);
	KV("fp32_lanes_per_sm", "%d", gp_fp32_lanes_per_sm(d->cc_major, d->cc_minor));
	KV("fp32_peak_at_max_clock_TFLOPs", "%.2f",
	   2.0 * gp_fp32_lanes_per_sm(d->cc_major, d->cc_minor) * d->sms * d->clock_khz * 1e3 / 1e12);
	KV("pci_bus_id", "%02x:%02x", d->pci_bus, d->pci_device);
	KV("ecc_enabled", "%d", d->ecc);
	KV("driver_version", "%d.%d", d->driver_version / 1000, (d->driver_version % 1000) / 10);
	KV("toolkit_version", "%d.%d", CUDA_VERSION / 1000, (CUDA_VERSION % 1000) / 10);
	return n + describe_topo(kv + n, max - n);
}

int gp_kernel(struct gp_device *d, const void *image, const char *name, CUfunction *fn)
{
	CUmodule mod = NULL;

	if (!memcmp(image, GP_NO_IMAGE, sizeof GP_NO_IMAGE)) {
		gp_err("this gpuprobe was built without kernels (make test-host): build it with make");
		return GP_EFAIL;
	}
	for (size_t i = 0; i < d->nmodules; i++)
		if (d->modules[i].image == image)
			mod = d->modules[i].mod;
	if (!mod) {
		if (d->nmodules == GP_MAX_MODULES) {
			gp_err("internal: more than %d modules", GP_MAX_MODULES);
			return GP_EFAIL;
		}
		GP_CU(cuModuleLoadData(&mod, image));
		d->modules[d->nmodules].image = image;
		d->modules[d->nmodules++].mod = mod;
	}
	GP_CU(cuModuleGetFunction(fn, mod, name));
	return 0;
error:
	return GP_ECUDA;
}

int gp_events_new(CUevent *e0, CUevent *e1)
{
	*e0 = *e1 = NULL;
	GP_CU(cuEventCreate(e0, CU_EVENT_DEFAULT));
	GP_CU(cuEventCreate(e1, CU_EVENT_DEFAULT));
	return 0;
error:
	return GP_ECUDA;
}

int gp_events_stop(CUevent e0, CUevent e1, float *ms)
{
	GP_CU(cuEventRecord(e1, NULL));
	GP_CU(cuEventSynchronize(e1));
	GP_CU(cuEventElapsedTime(ms, e0, e1));
	return 0;
error:
	return GP_ECUDA;
}

void gp_events_free(CUevent e0, CUevent e1)
{
	if (e0)
		gp_cu.cuEventDestroy(e0);
	if (e1)
		gp_cu.cuEventDestroy(e1);
}

int gp_launch(CUfunction fn, unsigned grid, unsigned block, unsigned smem, void **args, float *ms)
{
	CUevent e0 = NULL, e1 = NULL;
	int rc = GP_ECUDA;

	if (ms) {
		if (gp_events_new(&e0, &e1))
			goto error;
		GP_CU(cuEventRecord(e0, NULL));
	}
	if (smem > 48 * 1024)
		GP_CU(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)smem));
	GP_CU(cuLaunchKernel(fn, grid, 1, 1, block, 1, 1, smem, NULL, args, NULL));
	if (ms && gp_events_stop(e0, e1, ms))
		goto error;
	/* Also surfaces a fault inside the kernel (sticky error) here, next to its launch. */
	GP_CU(cuCtxSynchronize());
	rc = 0;
error:
	gp_events_free(e0, e1);
	return rc;
}

int gp_alloc(CUdeviceptr *p, size_t bytes)
{
	GP_CU(cuMemAlloc(p, bytes));
	return 0;
error:
	*p = 0;
	return GP_ECUDA;
}

void gp_free(CUdeviceptr p)
{
	if (p)
		gp_cu.cuMemFree(p);
}

int gp_upload(CUdeviceptr dst, const void *src, size_t bytes)
{
	GP_CU(cuMemcpyHtoD(dst, src, bytes));
	return 0;
error:
	return GP_ECUDA;
}

int gp_download(void *dst, CUdeviceptr src, size_t bytes)
{
	GP_CU(cuMemcpyDtoH(dst, src, bytes));
	return 0;
error:
	return GP_ECUDA;
}

double gp_clock_mhz(const struct gp_clock_sample *s)
{
	if (s->ns1 <= s->ns0 || s->clk1 <= s->clk0 || s->ns1 - s->ns0 < 100000)
		return 0;
	return (double)(s->clk1 - s->clk0) / (double)(s->ns1 - s->ns0) * 1e3;
}
