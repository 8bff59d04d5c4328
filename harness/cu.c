/* cu.c — dlopen libcuda.so.1 and resolve the entry points listed in cu.h. */
#include "gp.h"
#include "cu.h"

#include <dlfcn.h>
#include <stdio.h>

struct gp_cu gp_cu;
const char *gp_cu_stub;

#define GP_STR2(x) #x
#define GP_STR(x) GP_STR2(x)

int gp_cu_load(char *why, size_t whylen)
{
	static void *lib;
	CUresult r;
	int count = 0;

	if (!lib) {
		lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
		if (!lib) {
			snprintf(why, whylen, "no CUDA driver (libcuda.so.1 not loadable: %s)", dlerror());
			return GP_ENOGPU;
		}
#define GP_CU_RESOLVE(fn)                                                                          \
	gp_cu.fn = (__typeof__(fn) *)dlsym(lib, GP_STR(fn));                                      \
	if (!gp_cu.fn) {                                                                          \
		snprintf(why, whylen, "CUDA driver too old: no %s in libcuda.so.1", GP_STR(fn));   \
		dlclose(lib);                                                                     \
		lib = NULL;                                                                       \
		return GP_ENOGPU;                                                                 \
	}
		GP_CU_FUNCS(GP_CU_RESOLVE)
#undef GP_CU_RESOLVE
		gp_cu_stub = dlsym(lib, GP_STR(GP_CU_STUB_SYMBOL));
	}
	r = gp_cu.cuInit(0);
	if (r != CUDA_SUCCESS) {
		snprintf(why, whylen, "no usable CUDA GPU (cuInit: %s)", gp_cu_strerror(r));
		return GP_ENOGPU;
	}
	r = gp_cu.cuDeviceGetCount(&count);
	if (r != CUDA_SUCCESS || count == 0) {
		snprintf(why, whylen, "no CUDA GPU found (the driver reports %d devices)", count);
		return GP_ENOGPU;
	}
	return 0;
}

const char *gp_cu_strerror(CUresult r)
{
	static _Thread_local char buf[256];
	const char *name = NULL, *text = NULL;

	if (gp_cu.cuGetErrorName)
		gp_cu.cuGetErrorName(r, &name);
	if (gp_cu.cuGetErrorString)
		gp_cu.cuGetErrorString(r, &text);
	snprintf(buf, sizeof buf, "%s (%s)", name ? name : "CUDA_ERROR_UNKNOWN", text ? text : "no text");
	return buf;
}
