/* profile.h — profile.csv: the numbers kernel tuning needs (key, value, unit, method, source
 * experiment), derived from a run's finished tables; no device code. */
#ifndef GP_PROFILE_H
#define GP_PROFILE_H

#include <stddef.h>

struct gp_profile_entry {
	char key[64], value[64], unit[32], method[512], source[64];
};

struct gp_profile {
	struct gp_profile_entry *e;
	size_t n, cap;
	/* What derivations need to know of the device (from the run's description). */
	double l2_bytes;
};

/* -1 when out of memory, or (an internal error, said on stderr) when a text does not fit its
 * field: the entry is then kept cut short. */
int gp_profile_add(struct gp_profile *p, const char *key, double value, const char *unit, const char *method,
		   const char *source);
/* A key whose value is a word, e.g. "none detected" where a level lacks the evidence. */
int gp_profile_add_text(struct gp_profile *p, const char *key, const char *value, const char *unit,
			const char *method, const char *source);
/* One key per ok row of t with a number in col: key_fmt over the row's cells of the key columns k1
 * and k2 (NULL: a format of one %s), e.g. "atomic_%s_%s_latency_cycles" over space and op. */
struct gp_table;
void gp_profile_rows(struct gp_profile *p, const struct gp_table *t, const char *col, const char *key_fmt,
		     const char *k1, const char *k2, const char *unit, const char *method, const char *source);
void gp_profile_free(struct gp_profile *p);
/* <dir>/profile.csv; 0, GP_EFAIL or GP_EIO. */
int gp_profile_write(const struct gp_profile *p, const char *dir);

/* The experiment's SM clock: the median of clock_MHz over its ok rows that sampled one (NAN where
 * none did). A profile key in ns divides its cycles by this, not by one point's sample: a short
 * kernel's window can catch a transient step of the clock above the card's maximum (results/
 * README.md, "The SM clock above the card's maximum") while the cycles agree to five digits. */
double gp_table_clock_median(const struct gp_table *t);
/* A run's SM clock: the median over its experiments' clocks (gp_table_clock_median of each table;
 * NULL tables and those without one left out), so that one experiment with thousands of rows
 * under one clock sample does not stand for the run. NAN where no table has one. */
double gp_tables_clock_median(struct gp_table *const *tables, size_t n);

#endif
