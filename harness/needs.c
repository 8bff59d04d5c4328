/* needs.c — the registry's capability data (GP_NEEDS lines of build/gen/experiments.def) and
 * the guard that turns an unmet need into an n/a status (needs.h). */
#include "gp.h"
#include "needs.h"
#include "sass/insn.h"

#include <stdio.h>
#include <string.h>

#define GP_EXPERIMENT(n, id, paper, summary)
#undef GP_NEEDS
#define GP_NEEDS(n, kind_, sm_, what_) { #n, kind_, sm_, what_ },
const struct gp_need gp_needs[] = {
#include "experiments.def"
	{ NULL, GP_NEED_SM, 0, NULL },
};
#undef GP_NEEDS
#undef GP_EXPERIMENT

const size_t gp_nneeds = GP_ARRAY_SIZE(gp_needs) - 1;

const struct gp_need *gp_need_of(const char *exp)
{
	for (size_t i = 0; i < gp_nneeds; i++)
		if (!strcmp(gp_needs[i].exp, exp))
			return &gp_needs[i];
	return NULL;
}

int gp_need_unmet(const char *exp, int sm, char *buf, size_t len)
{
	const struct gp_need *n = gp_need_of(exp);

	if (!n)
		return 0;
	switch (n->kind) {
	case GP_NEED_SM:
		if (sm >= n->sm)
			return 0;
		snprintf(buf, len, "n/a: needs sm_%d (%s); this GPU is sm_%d", n->sm, n->what, sm);
		return 1;
	case GP_NEED_SM_EXACT:
		if (sm == n->sm)
			return 0;
		snprintf(buf, len, "n/a: needs sm_%da (%s; its image loads on compute capability %d.%d only); this GPU is sm_%d",
			 n->sm, n->what, n->sm / 10, n->sm % 10, sm);
		return 1;
	case GP_NEED_SASS:
		if (gp_insn_isa(sm))
			return 0;
		snprintf(buf, len, "n/a: needs %s (%s); this GPU is sm_%d", gp_insn_isa_names(), n->what, sm);
		return 1;
	}
	return 0;
}
