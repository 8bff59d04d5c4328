/* registry.c — the const experiment table, generated from every .def file in probes/ and bench/
 * (the Makefile concatenates them into build/gen/experiments.def, so each family owns its file). */
#include "gp.h"
#include "experiment.h"

#include <string.h>

#define GP_EXPERIMENT(n, id, paper, summary) extern const struct gp_exp_impl n##_impl;
#include "experiments.def"
#undef GP_EXPERIMENT

#define GP_EXPERIMENT(n, id_, paper_, summary_)                                                    \
	static const struct gp_experiment exp_##n = {                                              \
		.name = #n, .id = id_, .paper = paper_, .summary = summary_, .impl = &n##_impl };
#include "experiments.def"
#undef GP_EXPERIMENT

const struct gp_experiment *const gp_experiments[] = {
#define GP_EXPERIMENT(n, id, paper, summary) &exp_##n,
#include "experiments.def"
#undef GP_EXPERIMENT
};

const size_t gp_nexperiments = GP_ARRAY_SIZE(gp_experiments);

const struct gp_experiment *gp_experiment_find(const char *name)
{
	for (size_t i = 0; i < gp_nexperiments; i++)
		if (!strcmp(gp_experiments[i]->name, name))
			return gp_experiments[i];
	return NULL;
}
