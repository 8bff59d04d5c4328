/* sgemm_patch.c — the SGEMM ladder's patched FFMA kernels (issue 20 item 2): the sm's cubin of
 * bench/sgemm_warp.cu (embedded by the Makefile as template "sgemm"), its base kernel improved in
 * place by harness/sass/ffma.c (reuse flags, registers renamed against the measured banks of
 * configs/sass-ffma.csv) and loaded with cuModuleLoadData, in the measuring child as every
 * point's module is. The base variant is loaded from the fatbin built from the same cubin, so the
 * two rows differ by the patch alone. */
#include "sgemm_patch.h"
#include "gp.h"
#include "measure.h"
#include "templates.h"
#include "sass/cubin.h"
#include "sass/ffma.h"

#include <string.h>

#define SG_TEMPLATE "sgemm" /* build/cubins/sgemm.sm_XX.cubin */

static void put_stats(struct gp_meas *m, const struct gp_ffma_stats *s)
{
	gp_meas_num(m, "sass_conflicts_per_ffma", gp_ffma_conflicts_per_ffma(s));
	gp_meas_num(m, "sass_reuse_share", gp_ffma_reuse_share(s));
	gp_meas_num(m, "sass_ffma_share", gp_ffma_loop_share(s));
}

void sg_sass_columns(struct gp_meas *m, const char *kernel)
{
	const int sm = m->dev->cc_major * 10 + m->dev->cc_minor;
	const struct gp_template_cubin *tc = gp_template_find(SG_TEMPLATE, sm);
	struct gp_ffma_stats s;
	struct gp_cubin c;
	char why[512];
	int banks;

	if (!tc || gp_ffma_banks_for_sm(sm, &banks, why, sizeof why))
		return;
	if (gp_cubin_open(&c, tc->start, (size_t)(tc->end - tc->start)) == 0 &&
	    gp_ffma_stats(&c, kernel, banks, &s) == 0)
		put_stats(m, &s);
	gp_cubin_close(&c);
}

int sg_patch_kernel(struct gp_meas *m, const struct sg_variant *v)
{
	const int sm = m->dev->cc_major * 10 + m->dev->cc_minor;
	const struct gp_template_cubin *tc = gp_template_find(SG_TEMPLATE, sm);
	const char *base = sg_patch_base(v);
	struct gp_ffma_opts o = { .reuse = 1, .rename = 1 };
	struct gp_ffma_stats s;
	struct gp_cubin c;
	char why[512];
	int rc = 0;

	if (!tc)
		return gp_meas_na(m, "no %s cubin for sm_%d in this build", SG_TEMPLATE, sm);
	if (gp_ffma_banks_for_sm(sm, &o.banks, why, sizeof why))
		return gp_meas_na(m, "%s", why);
	if (gp_cubin_open(&c, tc->start, (size_t)(tc->end - tc->start)) < 0)
		gp_meas_fail(m, "cubin %s: %s", SG_TEMPLATE, gp_cubin_error(&c));
	else if (gp_ffma_improve(&c, base, &o, &s) < 0)
		gp_meas_fail(m, "patch %s: %s", base, gp_cubin_error(&c));
	else {
		put_stats(m, &s);
		rc = gp_meas_kernel_image(m, c.image, base);
	}
	gp_cubin_close(&c);
	return rc;
}
