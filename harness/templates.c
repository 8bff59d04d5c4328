/* templates.c — lookup in the table of embedded per-sm template cubins. */
#include "templates.h"

#include <string.h>

const struct gp_template_cubin *gp_template_find(const char *name, int sm)
{
	for (size_t i = 0; i < gp_ntemplate_cubins; i++)
		if (gp_template_cubins[i].sm == sm && !strcmp(gp_template_cubins[i].name, name))
			return &gp_template_cubins[i];
	return NULL;
}
