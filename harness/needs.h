/* needs.h — what each experiment needs of the GPU, from the registry (GP_NEEDS lines in the
 * families' .def files), and the guard the runner applies before a point is measured.
 *
 * GP_NEEDS(experiment, kind, sm, what): kind GP_NEED_SM, compute capability sm (x 10) or newer
 * (clusters, TMA: 90); GP_NEED_SM_EXACT, exactly sm, for kernels built for an arch-specific
 * target (sm_90a: wgmma, TMA multicast), whose image loads on no other GPU; GP_NEED_SASS, an sm
 * whose SASS field map is verified (harness/sass/insn.h), for the experiments that patch machine
 * code. A point of an experiment the GPU cannot run is the row "n/a: needs sm_XX (what); this GPU
 * is sm_YY", not a failure. Needs that depend on a point (an mma form, a warp operation, a GEMM
 * variant) stay with the experiment's own checks. Device-free: the registry's data only. */
#ifndef GP_NEEDS_H
#define GP_NEEDS_H

#include <stddef.h>

enum gp_need_kind { GP_NEED_SM, GP_NEED_SM_EXACT, GP_NEED_SASS };

struct gp_need {
	const char *exp;
	enum gp_need_kind kind;
	int sm;
	const char *what;
};

extern const struct gp_need gp_needs[];
extern const size_t gp_nneeds;

/* The need of an experiment by name, NULL if it runs on every supported GPU. */
const struct gp_need *gp_need_of(const char *exp);
/* 1 with the n/a status in buf when experiment `exp` cannot run on a GPU of compute capability
 * sm (major x 10 + minor), else 0. */
int gp_need_unmet(const char *exp, int sm, char *buf, size_t len);

#endif
