/* selftest.c — host side of selftest_fault: one point per mode; `ok` points must come back
 * valid after every failing one, which is what shows that a fault cost only its own point. */
#include "gp.h"
#include "experiment.h"
#include "analysis.h"
#include "measure.h"

#include <string.h>

extern const unsigned char gp_image_probes_selftest[];

static const struct gp_param selftest_params[] = {
	{ "mode", GP_PARAM_NAME, 0, 0, "ok trap oob hang", "ok trap ok oob ok hang ok",
	  "what the kernel does" },
};

static const char *const selftest_cols[] = { "mode", "sentinel", "status" };

static int selftest_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *t)
{
	static const char *const modes[] = { "ok", "trap", "oob", "hang" };
	const char *mode = gp_point_str(pt, "mode");
	CUdeviceptr d_out = 0, d_flag = 0;
	CUfunction fn;
	int m = 0, sentinel = 0, zero = 0, rc;
	char err[128];
	void *args[] = { &m, &d_out, &d_flag };

	for (int i = 0; i < (int)GP_ARRAY_SIZE(modes); i++)
		if (!strcmp(modes[i], mode))
			m = i;
	if ((rc = gp_kernel(run->dev, gp_image_probes_selftest, "selftest", &fn)) ||
	    (rc = gp_alloc(&d_out, 32 * sizeof(int))) || (rc = gp_alloc(&d_flag, sizeof(int))) ||
	    (rc = gp_upload(d_flag, &zero, sizeof zero)) || (rc = gp_launch(fn, 1, 32, 0, args, NULL)) ||
	    (rc = gp_download(&sentinel, d_out, sizeof sentinel)))
		goto done;
	gp_row_begin(t);
	gp_row_str(t, "mode", mode);
	gp_row_int(t, "sentinel", sentinel);
	gp_row_str(t, "status", sentinel == 0x600d ? "ok" : "sentinel not written");
	if (gp_row_end(t, err, sizeof err))
		rc = GP_EFAIL;
	else
		rc = sentinel == 0x600d ? 0 : GP_EVALID;
done:
	gp_free(d_out);
	gp_free(d_flag);
	return rc;
}

GP_EXP_IMPL(selftest_fault, selftest_params, selftest_cols, selftest_measure);
GP_ANALYSIS(selftest_fault, NULL, NULL);
