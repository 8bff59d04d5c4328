/* sgemm_patch.h — the ladder's SASS-patched variants (sgemm.list's SG_PATCHED lines). */
#ifndef SG_PATCH_H
#define SG_PATCH_H

#include "sgemm.h"

struct gp_meas;

/* The variant whose kernel v is a patch of; NULL if v is not a patched variant. */
const char *sg_patch_base(const struct sg_variant *v);
/* Load v's kernel into m->fn: the sm's embedded cubin of the warp kernels, improved in place by
 * gp_ffma_improve with the configured bank count. 0, a GP_E* code, or 0 with the row failed or
 * n/a (no cubin or bank count for this sm, a refused patch). */
int sg_patch_kernel(struct gp_meas *m, const struct sg_variant *v);

/* The columns sass_conflicts_per_ffma, sass_reuse_share, sass_ffma_share (ffma.h's statistics)
 * of a kernel of the embedded sgemm cubin, as compiled; nothing if there is no cubin or bank count
 * for this sm (the columns stay nan). sg_patch_kernel fills them for the patched kernel. */
void sg_sass_columns(struct gp_meas *m, const char *kernel);

#endif
