/* reference.h — published and paper numbers from configs/reference.csv (experiment, key, value,
 * unit, gpu, source): the only place such numbers live. Report sections ask for them by key. */
#ifndef GP_REFERENCE_H
#define GP_REFERENCE_H

#include <stddef.h>

#include "table.h"

/* The value of (experiment, key), or NULL; gpu and source (may be NULL) get its row's cells.
 * A key the table lacks is remembered (gp_reference_missing) unless asked with gp_reference_opt:
 * a test renders every committed run and requires that every required key exists. */
const char *gp_reference(const struct gp_table *ref, const char *experiment, const char *key,
			 const char **gpu, const char **source);
/* The same for keys that may be absent by design (a paper's table has no column for every point). */
const char *gp_reference_opt(const struct gp_table *ref, const char *experiment, const char *key);
/* The value, or "–" where there is none. */
const char *gp_ref_or_dash(const struct gp_table *ref, const char *experiment, const char *key);
/* "experiment/key" of each required key asked for and missing since the last reset, one per line
 * in buf; returns how many. */
size_t gp_reference_missing(char *buf, size_t len);
void gp_reference_reset(void);

#endif
