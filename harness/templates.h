/* templates.h — cubins compiled per sm from the .cu files in probes/patch/ and embedded, for
 * the probes that edit SASS in place (harness/sass/) before loading the image with
 * cuModuleLoadData. A fatbin is no use there: the patcher works on one sm's machine code. */
#ifndef GP_TEMPLATES_H
#define GP_TEMPLATES_H

#include <stddef.h>

struct gp_template_cubin {
	const char *name; /* file name without .cu */
	int sm;           /* 90 for sm_90 */
	const unsigned char *start, *end;
};

extern const struct gp_template_cubin gp_template_cubins[];
extern const size_t gp_ntemplate_cubins;

/* The embedded cubin of template `name` for `sm`; NULL if it was not built for that sm. */
const struct gp_template_cubin *gp_template_find(const char *name, int sm);

#endif
