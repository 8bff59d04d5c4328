/* stub_test.h — the stub driver (tests/stub/cuda_stub.c) for the tests of the run path: the
 * environment that makes the gpuprobe child load it, and what its runs look like.
 *
 * GP_STUB_DIR names the directory of the stub's libcuda.so.1; `make test` sets it ($(BUILD)/stub)
 * because its binary, bin/gpuprobe, holds the kernels a run needs. The host-only binaries
 * (make test-host, make asan) hold none, so there it is unset and a stub test says it is skipped
 * and why. Include after cmocka.h and child_test.h. */
#ifndef GP_STUB_TEST_H
#define GP_STUB_TEST_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the stub's device name becomes as a results directory (gp_slugify). */
#define STUB_SLUG "gpuprobe-stub-driver-no-gpu"

/* "LD_LIBRARY_PATH=<stub dir>[:<the test's own>]", or "" where there is no stub. */
static char stub_ld_path[2 * PATH_MAX + 32];
static char no_stub_why[256];

static __attribute__((unused)) int stub_init(void)
{
	const char *dir = getenv("GP_STUB_DIR"), *old = getenv("LD_LIBRARY_PATH");
	char abs[PATH_MAX], lib[PATH_MAX + 16];

	stub_ld_path[0] = '\0';
	if (!dir || !*dir) {
		snprintf(no_stub_why, sizeof no_stub_why,
			 "GP_STUB_DIR is unset: the stub driver's runs need a binary with kernels (make test sets it)");
		return 0;
	}
	snprintf(lib, sizeof lib, "%s/libcuda.so.1", dir);
	if (!realpath(dir, abs) || access(lib, R_OK)) {
		/* Set but wrong is the build's fault, not a reason to skip. */
		fprintf(stderr, "GP_STUB_DIR=%s holds no readable libcuda.so.1 (make builds it)\n", dir);
		return -1;
	}
	snprintf(stub_ld_path, sizeof stub_ld_path, "LD_LIBRARY_PATH=%s%s%s", abs, old && *old ? ":" : "",
		 old && *old ? old : "");
	return 0;
}

#define NEED_STUB()                                                                                \
	do {                                                                                       \
		if (!stub_ld_path[0]) {                                                            \
			print_message("skipped: %s\n", no_stub_why);                               \
			skip();                                                                    \
		}                                                                                  \
	} while (0)

/* A value of a run directory's meta.csv ("" if absent); the caller frees the table. */
static __attribute__((unused)) const char *meta_value(struct gp_table **meta, const char *run, const char *key)
{
	char path[PATH_MAX], err[256];

	if (!*meta) {
		snprintf(path, sizeof path, "%s/meta.csv", run);
		*meta = gp_table_load(path, err, sizeof err);
		if (!*meta)
			fail_msg("%s: %s", path, err);
	}
	for (size_t r = 0; r < (*meta)->nrows; r++)
		if (!strcmp(gp_table_get(*meta, r, "key"), key))
			return gp_table_get(*meta, r, "value");
	return "";
}

#endif
