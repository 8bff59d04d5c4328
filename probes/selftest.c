/* selftest.c — selftest_fault, the harness's own test of fault isolation: one point per mode, a
 * kernel that writes its sentinel, traps, stores to an illegal address or spins for ever
 * (selftest.cu). The `ok` points after each failing one must come back valid: that shows that a
 * fault cost only its own point and the watchdog ended the hang. Its `process` parameter is the
 * harness's test of GP_PARAM_PROCESS (tests/test_isolate.c: each value in a process of its own). None of these faults is declared
 * expected (no expect_fault), so each fails the run: tests/test_gpu.c holds it to that. */
#include "gp.h"
#include "experiment.h"
#include "analysis.h"
#include "measure.h"
#include "selftest_modes.h"

#include <string.h>

extern const unsigned char gp_image_probes_selftest[];

#define SELFTEST_NAME(name) " " #name
static const char *const mode_names[] = {
#define SELFTEST_STR(name) #name,
	SELFTEST_MODES(SELFTEST_STR)
#undef SELFTEST_STR
};

static const struct gp_param selftest_params[] = {
	{ "process", GP_PARAM_PROCESS, 1, GP_MAX_PROCESSES, NULL, "1", "the measuring process" },
	/* The choices are the list's names; + 1 drops the leading space. */
	{ "mode", GP_PARAM_NAME, 0, 0, SELFTEST_MODES(SELFTEST_NAME) + 1, "ok trap ok oob ok hang ok",
	  "what the kernel does" },
};

static const char *const selftest_cols[] = { "process", "mode", "sentinel", "status" };

struct selftest {
	CUdeviceptr out, flag;
	const int *h_out;
	int mode;
};

static int selftest_setup(struct gp_meas *m)
{
	struct selftest *c = m->ctx;
	const char *mode = gp_meas_param_str(m, "mode");
	static const int zero = 0;
	int rc;

	while (c->mode < SELFTEST_NMODES && strcmp(mode_names[c->mode], mode))
		c->mode++;
	if ((rc = gp_meas_kernel(m, "selftest")) || (rc = gp_meas_buf(m, &c->out, 32 * sizeof(int), GP_NO_POISON)) ||
	    (rc = gp_meas_input(m, &c->flag, &zero, sizeof zero)))
		return rc;
	c->h_out = gp_meas_readback(m, c->out, sizeof(int), GP_LAST_REP);
	gp_meas_launch(m, 1, 32, 0);
	gp_meas_args(m, &c->mode, &c->out, &c->flag);
	return 0;
}

static void selftest_finish(struct gp_meas *m)
{
	const struct selftest *c = m->ctx;

	if (!c->h_out)
		return;
	gp_meas_int(m, "sentinel", *c->h_out);
	if (*c->h_out != SELFTEST_SENTINEL)
		gp_meas_fail(m, "sentinel not written");
}

static const struct gp_probe selftest_probe = {
	.runner = GP_RUN_SYNC, .image = gp_image_probes_selftest, .setup = selftest_setup,
	.finish = selftest_finish, .ctx_size = sizeof(struct selftest),
};

GP_EXP_PROBE(selftest_fault, selftest_params, selftest_cols, &selftest_probe);
GP_ANALYSIS(selftest_fault, NULL, NULL);
