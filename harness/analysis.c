/* analysis.c — the table of every experiment's analysis (analysis.h), from the same .def files as
 * the registry but without its measurement side, so the report links without device code. */
#include "gp.h"
#include "analysis.h"

#define GP_EXPERIMENT(n, id, paper, summary) extern const struct gp_analysis n##_analysis;
#include "experiments.def"
#undef GP_EXPERIMENT

static const struct named_analysis {
	const char *name;
	const struct gp_analysis *a;
} analyses[] = {
#define GP_EXPERIMENT(n, id, paper, summary) { #n, &n##_analysis },
#include "experiments.def"
#undef GP_EXPERIMENT
};

const struct gp_analysis *gp_analysis_find(const char *name)
{
	const struct named_analysis *e = GP_FIND_NAME(analyses, GP_ARRAY_SIZE(analyses), name);

	return e ? e->a : NULL;
}
