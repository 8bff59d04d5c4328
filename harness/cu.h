/* cu.h — the CUDA Driver API, loaded at run time.
 *
 * gpuprobe opens libcuda.so.1 with dlopen instead of linking it, so the same binary starts on a
 * machine without a driver (CI, a laptop) and says "no CUDA driver" in one line instead of
 * failing in the dynamic loader. Every entry point we use is listed once in GP_CU_FUNCS; the
 * versioned names that cuda.h's macros select (cuMemAlloc -> cuMemAlloc_v2) are the ones looked
 * up, because the table is built from the macro-expanded tokens. */
#ifndef GP_CU_H
#define GP_CU_H

#include <cuda.h>

#define GP_CU_FUNCS(X)                                                                              \
	X(cuInit) X(cuDriverGetVersion) X(cuDeviceGetCount) X(cuDeviceGet) X(cuDeviceGetName)       \
	X(cuDeviceGetAttribute) X(cuDeviceTotalMem) X(cuDeviceGetUuid)                             \
	X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease) X(cuCtxSetCurrent)                \
	X(cuCtxSynchronize) X(cuModuleLoadData) X(cuModuleUnload) X(cuModuleGetFunction)           \
	X(cuFuncGetAttribute) X(cuFuncSetAttribute) X(cuLaunchKernel) X(cuMemAlloc) X(cuMemFree)   \
	X(cuMemcpyHtoD) X(cuMemcpyDtoH) X(cuMemsetD8) X(cuEventCreate) X(cuEventDestroy)           \
	X(cuEventRecord) X(cuEventSynchronize) X(cuEventElapsedTime) X(cuGetErrorName)             \
	X(cuGetErrorString) X(cuOccupancyMaxActiveBlocksPerMultiprocessor) X(cuMemGetInfo)     \
	X(cuMemcpyDtoD) X(cuMemsetD32) X(cuMemsetD32Async) X(cuLaunchKernelEx)                      \
	X(cuTensorMapEncodeTiled) X(cuStreamCreate) X(cuStreamDestroy) X(cuStreamSynchronize)       \
	X(cuStreamBeginCapture) X(cuStreamEndCapture) X(cuGraphInstantiate) X(cuGraphLaunch)        \
	X(cuGraphExecDestroy) X(cuGraphDestroy) X(cuOccupancyMaxActiveClusters)                     \
	X(cuMemAllocHost) X(cuMemFreeHost) X(cuMemcpyHtoDAsync) X(cuMemcpyDtoHAsync)             \
	X(cuDeviceGetPCIBusId) X(cuDeviceGetP2PAttribute) X(cuDeviceCanAccessPeer)                   \
	X(cuCtxEnablePeerAccess) X(cuMemcpyPeerAsync) X(cuCtxCreate) X(cuCtxDestroy)

#define GP_CU_MEMBER(fn) __typeof__(fn) *fn;
struct gp_cu {
	GP_CU_FUNCS(GP_CU_MEMBER)
};
#undef GP_CU_MEMBER

/* The loaded table; valid after gp_cu_load() returned 0. */
extern struct gp_cu gp_cu;

/* The test stub (tests/stub/cuda_stub.c) exports this string; where the libcuda.so.1 loaded has
 * it, gp_cu_stub points to it (else NULL), and every result made through it is labelled: meta.csv's
 * stub_driver, the report's banner, `fleet`'s device column. */
#define GP_CU_STUB_SYMBOL gpuprobe_stub_driver
extern const char *gp_cu_stub;

/* Load libcuda and call cuInit. On failure writes a one-line reason to why and returns GP_ENOGPU. */
int gp_cu_load(char *why, size_t whylen);

/* "CUDA_ERROR_X (text)" for a result code. */
const char *gp_cu_strerror(CUresult r);

/* Check a driver call; on failure print the call, the decoded error, file and line, and jump. */
#define GP_CU(call)                                                                               \
	do {                                                                                      \
		CUresult gp_r_ = gp_cu.call;                                                      \
		if (gp_r_ != CUDA_SUCCESS) {                                                      \
			gp_err("%s failed: %s (%s:%d)", #call, gp_cu_strerror(gp_r_), __FILE__,   \
			       __LINE__);                                                         \
			goto error;                                                               \
		}                                                                                 \
	} while (0)

#endif
