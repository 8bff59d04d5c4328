/* cuda_stub.c — a stand-in libcuda.so.1 for machines without a GPU (CI). It reports fake GPUs
 * whose name says they are a stub, keeps "device" memory in host memory and runs no kernel, so the
 * whole run path (run directories, isolation, the watchdog, interruption, result files, the
 * report, the Slurm front end) can be exercised without a GPU. The binary finds it through
 * LD_LIBRARY_PATH=$(BUILD)/stub, ahead of any real driver (mk/stub.mk).
 *
 * Nothing it produces is a measurement. A kernel writes nothing, so every probe's host check of
 * its results fails and the row says so (a run through the stub exits 5); the exported string
 * gpuprobe_stub_driver tells the harness which driver it loaded (harness/cu.c), and meta.csv, the
 * report and `gpuprobe fleet` label the run with it.
 *
 * The one kernel it imitates is the fault self-test (probes/selftest.cu): `ok` writes the
 * sentinel, `trap` and `oob` leave a sticky error as a real fault does, and `hang` never returns,
 * so fault isolation and the watchdog are tested for real. Environment:
 *   GPUPROBE_STUB_GPUS       devices reported (default 1, at most 64)
 *   GPUPROBE_STUB_KERNEL_MS  every launch takes this long (default 0): points that last, for the
 *                            tests that interrupt a run while a point is in flight
 *   GPUPROBE_STUB_SM         the compute capability reported, x 10 (default 90): the registry's
 *                            capability guards on every architecture (tests/test_stub_needs.c) */
#include <cuda.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cu.h"
#include "selftest_modes.h"

#define STUB_NAME "gpuprobe stub driver (no GPU)"
#define STUB_MAX_FUNCS 4096

/* What the harness reads to know it loaded the stub (harness/cu.h). */
const char GP_CU_STUB_SYMBOL[] = "gpuprobe test stub (tests/stub/cuda_stub.c): no kernel ran, no value "
				    "is a measurement";

/* Every entry point the harness resolves is defined here: the table references each one, so a
 * name added to GP_CU_FUNCS without a stub is a link error (mk/stub.mk links with -z defs). */
#define STUB_REF(fn) (const void *)fn,
__attribute__((used)) static const void *const stub_entry_points[] = { GP_CU_FUNCS(STUB_REF) };
#undef STUB_REF

struct stub_event {
	double t;
};

/* "Device" allocations, so a copy to an address none covers fails as the driver's does
 * (CUDA_ERROR_INVALID_VALUE) instead of writing through a pointer a kernel never produced. */
struct stub_alloc {
	uintptr_t base;
	size_t bytes;
};
static struct stub_alloc *allocs;
static size_t nallocs, cap_allocs;

static CUresult sticky = CUDA_SUCCESS;
static char func_names[STUB_MAX_FUNCS][128];
static int nfuncs;
static int context, module, stream, graph, graph_exec;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long env_long(const char *name, long dflt, long max)
{
	const char *s = getenv(name);
	char *end;
	long v;

	if (!s || !*s)
		return dflt;
	v = strtol(s, &end, 10);
	return *end || v < 0 || v > max ? dflt : v;
}

static int ngpus(void)
{
	return (int)env_long("GPUPROBE_STUB_GPUS", 1, 64);
}

/* The kernel's duration: GPUPROBE_STUB_KERNEL_MS, slept in one piece. */
static void kernel_time(void)
{
	const long ms = env_long("GPUPROBE_STUB_KERNEL_MS", 0, 3600 * 1000);
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (ms && nanosleep(&ts, &ts))
		;
}

CUresult cuInit(unsigned flags)
{
	return CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int *v)
{
	*v = CUDA_VERSION;
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *n)
{
	*n = ngpus();
	return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *d, int ordinal)
{
	if (ordinal < 0 || ordinal >= ngpus())
		return CUDA_ERROR_INVALID_DEVICE;
	*d = ordinal;
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice d)
{
	snprintf(name, (size_t)len, "%s", STUB_NAME);
	return CUDA_SUCCESS;
}

/* A small Hopper-like shape, so every probe can form its points. */
CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d)
{
	switch (a) {
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = (int)env_long("GPUPROBE_STUB_SM", 90, 999) / 10; break;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = (int)env_long("GPUPROBE_STUB_SM", 90, 999) % 10; break;
	case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = 4; break;
	case CU_DEVICE_ATTRIBUTE_WARP_SIZE: *v = 32; break;
	case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: *v = 1000000; break;
	case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: *v = 1000000; break;
	case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: *v = 1024; break;
	case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: *v = 4 << 20; break;
	case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: *v = 228 << 10; break;
	case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: *v = 48 << 10; break;
	case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *v = 227 << 10; break;
	case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR: *v = 65536; break;
	case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK: *v = 65536; break;
	case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: *v = 2048; break;
	case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *v = 1024; break;
	case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR: *v = 32; break;
	case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID: *v = 0x1b + (int)d; break;
	default: *v = 0; break;
	}
	return CUDA_SUCCESS;
}

/* The bus ids follow CU_DEVICE_ATTRIBUTE_PCI_BUS_ID above. */
CUresult cuDeviceGetPCIBusId(char *bus, int len, CUdevice d)
{
	if (d < 0 || d >= ngpus())
		return CUDA_ERROR_INVALID_DEVICE;
	snprintf(bus, (size_t)len, "0000:%02x:00.0", 0x1b + (int)d);
	return CUDA_SUCCESS;
}

/* Every pair of stub GPUs can map each other's memory, as on an NVLink host. */
CUresult cuDeviceGetP2PAttribute(int *v, CUdevice_P2PAttribute a, CUdevice i, CUdevice j)
{
	if (i == j || i < 0 || j < 0 || i >= ngpus() || j >= ngpus())
		return CUDA_ERROR_INVALID_DEVICE;
	*v = a == CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK ? 0 : 1;
	return CUDA_SUCCESS;
}

CUresult cuDeviceCanAccessPeer(int *v, CUdevice i, CUdevice j)
{
	*v = i != j;
	return CUDA_SUCCESS;
}

CUresult cuCtxEnablePeerAccess(CUcontext peer, unsigned flags)
{
	return sticky;
}

CUresult cuDeviceTotalMem(size_t *bytes, CUdevice d)
{
	*bytes = (size_t)1 << 32;
	return CUDA_SUCCESS;
}

/* Distinct per device; the bytes spell "stub" so no real UUID is taken for it. */
CUresult cuDeviceGetUuid(CUuuid *u, CUdevice d)
{
	memset(u->bytes, 0, sizeof u->bytes);
	memcpy(u->bytes, "stub", 4);
	u->bytes[15] = (char)d;
	return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d)
{
	*c = (CUcontext)&context;
	return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease(CUdevice d)
{
	return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext c)
{
	return CUDA_SUCCESS;
}

/* Fresh contexts (gp_meas_contexts) are the one context again: the stub keeps no state per context. */
CUresult cuCtxCreate(CUcontext *c, CUctxCreateParams *params, unsigned int flags, CUdevice d)
{
	*c = (CUcontext)&context;
	return sticky;
}

CUresult cuCtxDestroy(CUcontext c)
{
	return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize(void)
{
	return sticky;
}

CUresult cuModuleLoadData(CUmodule *m, const void *image)
{
	*m = (CUmodule)&module;
	return sticky;
}

CUresult cuModuleUnload(CUmodule m)
{
	return CUDA_SUCCESS;
}

/* A function is its name, interned: the same name gives the same handle. */
CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name)
{
	int i = 0;

	while (i < nfuncs && strcmp(func_names[i], name))
		i++;
	if (i == nfuncs) {
		if (nfuncs == STUB_MAX_FUNCS || strlen(name) >= sizeof func_names[0])
			return CUDA_ERROR_OUT_OF_MEMORY;
		snprintf(func_names[nfuncs++], sizeof func_names[0], "%s", name);
	}
	*f = (CUfunction)func_names[i];
	return sticky;
}

CUresult cuFuncGetAttribute(int *v, CUfunction_attribute a, CUfunction f)
{
	*v = a == CU_FUNC_ATTRIBUTE_NUM_REGS ? 32 : a == CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK ? 1024 : 0;
	return CUDA_SUCCESS;
}

CUresult cuFuncSetAttribute(CUfunction f, CUfunction_attribute a, int v)
{
	return CUDA_SUCCESS;
}

/* No kernel runs, except the fault self-test's behaviours. */
static CUresult launch(CUfunction f, void **args)
{
	if (sticky)
		return sticky;
	kernel_time();
	if (strcmp((const char *)f, "selftest") || !args)
		return CUDA_SUCCESS;
	switch (*(const int *)args[0]) {
	case SELFTEST_ok:
		**(int **)args[1] = SELFTEST_SENTINEL;
		return CUDA_SUCCESS;
	case SELFTEST_trap:
		return sticky = CUDA_ERROR_LAUNCH_FAILED;
	case SELFTEST_oob:
		return sticky = CUDA_ERROR_ILLEGAL_ADDRESS;
	default:
		for (;;)
			pause(); /* a kernel that never returns */
	}
}

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
			unsigned bz, unsigned smem, CUstream s, void **args, void **extra)
{
	return launch(f, args);
}

CUresult cuLaunchKernelEx(const CUlaunchConfig *cfg, CUfunction f, void **args, void **extra)
{
	return launch(f, args);
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, CUfunction f, int block, size_t smem)
{
	*n = block > 0 ? 2048 / block : 0;
	return CUDA_SUCCESS;
}

CUresult cuOccupancyMaxActiveClusters(int *n, CUfunction f, const CUlaunchConfig *cfg)
{
	*n = 1;
	return CUDA_SUCCESS;
}

CUresult cuTensorMapEncodeTiled(CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank, void *addr,
				const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
				const cuuint32_t *elem_strides, CUtensorMapInterleave interleave,
				CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill fill)
{
	memset(map, 0, sizeof *map);
	return CUDA_SUCCESS;
}

/* The host address of [p, p + n) if one allocation holds it all, else NULL. */
static void *dev_range(CUdeviceptr p, size_t n)
{
	for (size_t i = 0; i < nallocs; i++)
		if (p >= allocs[i].base && n <= allocs[i].bytes && p - allocs[i].base <= allocs[i].bytes - n)
			return (void *)(uintptr_t)p;
	return NULL;
}

CUresult cuMemAlloc(CUdeviceptr *p, size_t bytes)
{
	void *h;

	if (sticky)
		return sticky;
	if (nallocs == cap_allocs) {
		const size_t cap = cap_allocs ? 2 * cap_allocs : 64;
		struct stub_alloc *a = realloc(allocs, cap * sizeof *a);
		if (!a)
			return CUDA_ERROR_OUT_OF_MEMORY;
		allocs = a;
		cap_allocs = cap;
	}
	if (!(h = calloc(1, bytes ? bytes : 1)))
		return CUDA_ERROR_OUT_OF_MEMORY;
	allocs[nallocs++] = (struct stub_alloc){ (uintptr_t)h, bytes };
	*p = (CUdeviceptr)(uintptr_t)h;
	return CUDA_SUCCESS;
}

CUresult cuMemFree(CUdeviceptr p)
{
	for (size_t i = 0; i < nallocs; i++)
		if (allocs[i].base == p) {
			free((void *)(uintptr_t)p);
			allocs[i] = allocs[--nallocs];
			return CUDA_SUCCESS;
		}
	return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuMemAllocHost(void **p, size_t bytes)
{
	*p = calloc(1, bytes ? bytes : 1);
	return *p ? sticky : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuMemFreeHost(void *p)
{
	free(p);
	return CUDA_SUCCESS;
}

CUresult cuMemGetInfo(size_t *free_b, size_t *total_b)
{
	*free_b = (size_t)1 << 31;
	*total_b = (size_t)1 << 32;
	return CUDA_SUCCESS;
}

CUresult cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t n)
{
	void *d = dev_range(dst, n);

	if (sticky || !d)
		return sticky ? sticky : CUDA_ERROR_INVALID_VALUE;
	memcpy(d, src, n);
	return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t n)
{
	const void *s = dev_range(src, n);

	if (sticky || !s)
		return sticky ? sticky : CUDA_ERROR_INVALID_VALUE;
	memcpy(dst, s, n);
	return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	void *d = dev_range(dst, n);
	const void *s = dev_range(src, n);

	if (sticky || !d || !s)
		return sticky ? sticky : CUDA_ERROR_INVALID_VALUE;
	memmove(d, s, n);
	return CUDA_SUCCESS;
}

/* One address space for every stub GPU (as UVA gives): a peer copy is a copy. */
CUresult cuMemcpyPeerAsync(CUdeviceptr dst, CUcontext dc, CUdeviceptr src, CUcontext sc, size_t n, CUstream s)
{
	return cuMemcpyDtoD(dst, src, n);
}

CUresult cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t n, CUstream s)
{
	return cuMemcpyHtoD(dst, src, n);
}

CUresult cuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t n, CUstream s)
{
	return cuMemcpyDtoH(dst, src, n);
}

CUresult cuMemsetD8(CUdeviceptr p, unsigned char v, size_t n)
{
	void *d = dev_range(p, n);

	if (sticky || !d)
		return sticky ? sticky : CUDA_ERROR_INVALID_VALUE;
	memset(d, v, n);
	return CUDA_SUCCESS;
}

CUresult cuMemsetD32(CUdeviceptr p, unsigned v, size_t n)
{
	unsigned *w = n <= SIZE_MAX / 4 ? dev_range(p, 4 * n) : NULL;

	if (sticky || !w)
		return sticky ? sticky : CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < n; i++)
		w[i] = v;
	return CUDA_SUCCESS;
}

CUresult cuMemsetD32Async(CUdeviceptr p, unsigned v, size_t n, CUstream s)
{
	return cuMemsetD32(p, v, n);
}

CUresult cuStreamCreate(CUstream *s, unsigned flags)
{
	*s = (CUstream)&stream;
	return sticky;
}

CUresult cuStreamDestroy(CUstream s)
{
	return CUDA_SUCCESS;
}

CUresult cuStreamSynchronize(CUstream s)
{
	return sticky;
}

/* Graphs: capture records nothing, and launching the graph runs nothing, as every launch here. */
CUresult cuStreamBeginCapture(CUstream s, CUstreamCaptureMode mode)
{
	return sticky;
}

CUresult cuStreamEndCapture(CUstream s, CUgraph *g)
{
	*g = (CUgraph)&graph;
	return sticky;
}

CUresult cuGraphInstantiate(CUgraphExec *e, CUgraph g, unsigned long long flags)
{
	*e = (CUgraphExec)&graph_exec;
	return sticky;
}

CUresult cuGraphLaunch(CUgraphExec e, CUstream s)
{
	if (!sticky)
		kernel_time();
	return sticky;
}

CUresult cuGraphExecDestroy(CUgraphExec e)
{
	return CUDA_SUCCESS;
}

CUresult cuGraphDestroy(CUgraph g)
{
	return CUDA_SUCCESS;
}

CUresult cuEventCreate(CUevent *e, unsigned flags)
{
	struct stub_event *ev = calloc(1, sizeof *ev);

	if (!ev)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*e = (CUevent)ev;
	return CUDA_SUCCESS;
}

CUresult cuEventDestroy(CUevent e)
{
	free(e);
	return CUDA_SUCCESS;
}

CUresult cuEventRecord(CUevent e, CUstream s)
{
	((struct stub_event *)e)->t = now();
	return sticky;
}

CUresult cuEventSynchronize(CUevent e)
{
	return sticky;
}

CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b)
{
	*ms = (float)((((struct stub_event *)b)->t - ((struct stub_event *)a)->t) * 1e3);
	return sticky;
}

CUresult cuGetErrorName(CUresult r, const char **s)
{
	switch (r) {
	case CUDA_SUCCESS: *s = "CUDA_SUCCESS"; break;
	case CUDA_ERROR_LAUNCH_FAILED: *s = "CUDA_ERROR_LAUNCH_FAILED"; break;
	case CUDA_ERROR_ILLEGAL_ADDRESS: *s = "CUDA_ERROR_ILLEGAL_ADDRESS"; break;
	case CUDA_ERROR_INVALID_DEVICE: *s = "CUDA_ERROR_INVALID_DEVICE"; break;
	case CUDA_ERROR_OUT_OF_MEMORY: *s = "CUDA_ERROR_OUT_OF_MEMORY"; break;
	case CUDA_ERROR_INVALID_VALUE: *s = "CUDA_ERROR_INVALID_VALUE"; break;
	default: *s = "CUDA_ERROR_UNKNOWN"; break;
	}
	return CUDA_SUCCESS;
}

CUresult cuGetErrorString(CUresult r, const char **s)
{
	*s = r == CUDA_SUCCESS ? "no error" : "error reported by the gpuprobe stub driver";
	return CUDA_SUCCESS;
}
