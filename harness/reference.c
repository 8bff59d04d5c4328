/* reference.c — lookups in configs/reference.csv (reference.h). */
#include "gp.h"
#include "reference.h"

#include <stdio.h>
#include <string.h>

static char missing[4096];
static size_t nmissing;

static const char *lookup(const struct gp_table *ref, const char *experiment, const char *key, const char **gpu,
			  const char **source)
{
	for (size_t r = 0; ref && r < ref->nrows; r++) {
		const char *e = gp_table_get(ref, r, "experiment"), *k = gp_table_get(ref, r, "key");
		if (!e || !k || strcmp(e, experiment) || strcmp(k, key))
			continue;
		if (gpu)
			*gpu = gp_table_get(ref, r, "gpu");
		if (source)
			*source = gp_table_get(ref, r, "source");
		return gp_table_get(ref, r, "value");
	}
	return NULL;
}

const char *gp_reference(const struct gp_table *ref, const char *experiment, const char *key, const char **gpu,
			 const char **source)
{
	const char *v = lookup(ref, experiment, key, gpu, source);

	if (!v && ref) {
		const size_t used = strlen(missing);
		snprintf(missing + used, sizeof missing - used, "%s/%s\n", experiment, key);
		nmissing++;
	}
	return v;
}

const char *gp_reference_opt(const struct gp_table *ref, const char *experiment, const char *key)
{
	return lookup(ref, experiment, key, NULL, NULL);
}

const char *gp_ref_or_dash(const struct gp_table *ref, const char *experiment, const char *key)
{
	const char *v = gp_reference(ref, experiment, key, NULL, NULL);

	return v && *v ? v : "–";
}

size_t gp_reference_missing(char *buf, size_t len)
{
	snprintf(buf, len, "%s", missing);
	return nmissing;
}

void gp_reference_reset(void)
{
	missing[0] = 0;
	nmissing = 0;
}
