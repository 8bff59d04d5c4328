/* cuda_stub.c — a stand-in libcuda.so.1 for machines without a GPU (CI): it reports one fake GPU
 * whose name says it is a stub, keeps "device" memory in host memory, and runs no kernel, so the
 * whole run path (run directories, isolation, the watchdog, interruption, result files, the report)
 * can be exercised without a GPU. Nothing it produces is a measurement: kernels do nothing, so
 * every probe's check fails and its row says so; the device name carries "stub" into meta.csv,
 * the report and the fleet comparison.
 *
 * The one kernel it imitates is the fault self-test (probes/selftest.cu, mode 0 ok, 1 trap,
 * 2 illegal address, 3 hang): ok writes the sentinel, trap and oob leave a sticky error as a real
 * fault does, and hang never returns, so fault and hang isolation are tested for real.
 * GPUPROBE_STUB_GPUS sets the number of devices (default 1). */
#include <cuda.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define STUB_NAME "gpuprobe stub GPU (no measurements)"

struct stub_fn {
	char name[128];
};

struct stub_event {
	double t;
};

static CUresult sticky = CUDA_SUCCESS;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int ngpus(void)
{
	const char *s = getenv("GPUPROBE_STUB_GPUS");
	const int n = s ? atoi(s) : 1;

	return n >= 0 && n <= 64 ? n : 1;
}

CUresult cuInit(unsigned flags)
{
	return CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int *v)
{
	*v = 13000;
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

/* A Hopper-like shape, so every probe can form its points. */
CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d)
{
	switch (a) {
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = 9; break;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = 0; break;
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

CUresult cuDeviceTotalMem(size_t *bytes, CUdevice d)
{
	*bytes = (size_t)1 << 32;
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetUuid(CUuuid *u, CUdevice d)
{
	memset(u->bytes, 0x5b, sizeof u->bytes);
	u->bytes[15] = (char)d;
	return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d)
{
	static int ctx;

	*c = (CUcontext)&ctx;
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

CUresult cuCtxSynchronize(void)
{
	return sticky;
}

CUresult cuModuleLoadData(CUmodule *m, const void *image)
{
	static int mod;

	*m = (CUmodule)&mod;
	return sticky;
}

CUresult cuModuleUnload(CUmodule m)
{
	return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name)
{
	struct stub_fn *fn = calloc(1, sizeof *fn); /* one per lookup; a test process is short */

	if (!fn)
		return CUDA_ERROR_OUT_OF_MEMORY;
	snprintf(fn->name, sizeof fn->name, "%s", name);
	*f = (CUfunction)fn;
	return CUDA_SUCCESS;
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
CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
			unsigned bz, unsigned smem, CUstream s, void **args, void **extra)
{
	const struct stub_fn *fn = (const struct stub_fn *)f;

	if (sticky)
		return sticky;
	if (strcmp(fn->name, "selftest") || !args)
		return CUDA_SUCCESS;
	switch (*(int *)args[0]) {
	case 0: **(int **)args[1] = 0x600d; return CUDA_SUCCESS;
	case 1: return sticky = CUDA_ERROR_LAUNCH_FAILED;
	case 2: return sticky = CUDA_ERROR_ILLEGAL_ADDRESS;
	default:
		for (;;)
			pause(); /* a kernel that never returns */
	}
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, CUfunction f, int block, size_t smem)
{
	*n = block > 0 ? 2048 / block : 0;
	return CUDA_SUCCESS;
}

CUresult cuMemAlloc(CUdeviceptr *p, size_t bytes)
{
	void *h = calloc(1, bytes ? bytes : 1);

	if (!h)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*p = (CUdeviceptr)(uintptr_t)h;
	return sticky;
}

CUresult cuMemFree(CUdeviceptr p)
{
	free((void *)(uintptr_t)p);
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
	if (!sticky)
		memcpy((void *)(uintptr_t)dst, src, n);
	return sticky;
}

CUresult cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t n)
{
	if (!sticky)
		memcpy(dst, (const void *)(uintptr_t)src, n);
	return sticky;
}

CUresult cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	if (!sticky)
		memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
	return sticky;
}

CUresult cuMemsetD8(CUdeviceptr p, unsigned char v, size_t n)
{
	if (!sticky)
		memset((void *)(uintptr_t)p, v, n);
	return sticky;
}

CUresult cuMemsetD32(CUdeviceptr p, unsigned v, size_t n)
{
	unsigned *w = (unsigned *)(uintptr_t)p;

	for (size_t i = 0; !sticky && i < n; i++)
		w[i] = v;
	return sticky;
}

CUresult cuMemsetD32Async(CUdeviceptr p, unsigned v, size_t n, CUstream s)
{
	return cuMemsetD32(p, v, n);
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
	*s = r == CUDA_SUCCESS ? "CUDA_SUCCESS" : r == CUDA_ERROR_LAUNCH_FAILED ? "CUDA_ERROR_LAUNCH_FAILED" :
	     r == CUDA_ERROR_ILLEGAL_ADDRESS ? "CUDA_ERROR_ILLEGAL_ADDRESS" : r == CUDA_ERROR_INVALID_DEVICE ?
	     "CUDA_ERROR_INVALID_DEVICE" : "CUDA_ERROR_UNKNOWN";
	return CUDA_SUCCESS;
}

CUresult cuGetErrorString(CUresult r, const char **s)
{
	*s = r == CUDA_SUCCESS ? "no error" : "error reported by the gpuprobe stub driver";
	return CUDA_SUCCESS;
}
