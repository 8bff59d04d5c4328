/* sgemm_patch.c — the SGEMM ladder's patched FFMA kernels (issue 20 item 2): the sm's cubin of
 * the base variant's image (bench/sgemm_warp.cu, embedded by the Makefile as template "sgemm";
 * bench/sgemm_tmaffma_90a.cu's sm_90a cubin, template "sgemm_tmaffma" for sm 90), its base kernel
 * improved in place by harness/sass/ffma.c (registers renamed against the measured banks of
 * configs/sass-ffma.csv, FFMA values renamed within the loop, reuse flags) and loaded with
 * cuModuleLoadData, in the measuring child as every point's module is. The base variant is
 * loaded from the fatbin built from the same cubin, so the two rows differ by the patch alone. */
#include "sgemm_patch.h"
#include "gp.h"
#include "measure.h"
#include "templates.h"
#include "sass/cubin.h"
#include "sass/ffma.h"

#include <string.h>

/* The template cubin holding FFMA variant v's kernel (NULL: none): build/cubins/NAME.sm_XX.cubin,
 * by the list line's form (its image): the TMA-fed ones' sm_90a cubin, else sgemm_warp's. */
static const char *template_of(const struct sg_variant *v)
{
	return !v || v->pipe != SG_FP32_FMA ? NULL : v->kind == SG_K_TMA ? "sgemm_tmaffma" : "sgemm";
}

static void put_stats(struct gp_meas *m, const struct gp_ffma_stats *s)
{
	gp_meas_num(m, "sass_conflicts_per_ffma", gp_ffma_conflicts_per_ffma(s));
	gp_meas_num(m, "sass_reuse_share", gp_ffma_reuse_share(s));
	gp_meas_num(m, "sass_ffma_share", gp_ffma_loop_share(s));
}

void sg_sass_columns(struct gp_meas *m, const char *kernel)
{
	const int sm = m->dev->cc_major * 10 + m->dev->cc_minor;
	const char *tname = template_of(sg_variant_find(kernel));
	const struct gp_template_cubin *tc = tname ? gp_template_find(tname, sm) : NULL;
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
	const char *base = sg_patch_base(v), *tname = template_of(sg_variant_find(base));
	const struct gp_template_cubin *tc = tname ? gp_template_find(tname, sm) : NULL;
	struct gp_ffma_opts o = { .reuse = 1, .rename = 1, .loop = 1 };
	struct gp_ffma_stats s;
	struct gp_cubin c;
	char why[512];
	int rc = 0;

	if (!tc)
		return gp_meas_na(m, "no %s cubin of %s for sm_%d in this build", tname ? tname : "template", base, sm);
	if (gp_ffma_banks_for_sm(sm, &o.banks, why, sizeof why))
		return gp_meas_na(m, "%s", why);
	if (gp_cubin_open(&c, tc->start, (size_t)(tc->end - tc->start)) < 0)
		gp_meas_fail(m, "cubin %s: %s", tname, gp_cubin_error(&c));
	else if (gp_ffma_improve(&c, base, &o, &s) < 0)
		gp_meas_fail(m, "patch %s: %s", base, gp_cubin_error(&c));
	else {
		put_stats(m, &s);
		rc = gp_meas_kernel_image(m, c.image, base);
	}
	gp_cubin_close(&c);
	return rc;
}
