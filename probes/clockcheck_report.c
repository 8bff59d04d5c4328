/* clockcheck_report.c — selftest_clock's section: the probes' clock beside the event-based one. */
#include "gp.h"
#include "analysis.h"

#include <math.h>

static void clock_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const cols[] = { "load", "window_us", "clock_MHz", "event_clock_MHz", "host_clock_MHz",
					    "globaltimer_per_host", "globaltimer_tick_ns", "max_clock_MHz", "status" };

	fprintf(md, "The SM clock as every probe measures it (clock64 over %%globaltimer) and the same cycles "
		    "over the CUDA-event time and over the host's monotonic clock around each launch (both "
		    "include a few microseconds of launch; CUDA events read the GPU's own timer, the host's "
		    "clock does not). `globaltimer_per_host` below 1 means the global timer runs slow, which "
		    "makes every clock_MHz read high; a clock above max_clock_MHz on all three means the SM "
		    "clock itself ran above the driver's maximum.\n\n");
	gp_md_head(md, cols, GP_ARRAY_SIZE(cols));
	gp_md_rows(md, t, cols, GP_ARRAY_SIZE(cols));
	fputc('\n', md);
}

/* The global timer's rate against the events over the longest idle window: the factor by which
 * a probe's clock_MHz would be off. */
static void clock_derive(struct gp_profile *prof, const struct gp_table *t)
{
	double best_w = 0, ratio = NAN;

	for (size_t r = 0; r < t->nrows; r++) {
		const double w = gp_table_num(t, r, "window_us");
		if (gp_table_row_ok(t, r) && w > best_w && !isnan(gp_table_num(t, r, "globaltimer_per_host"))) {
			best_w = w;
			ratio = gp_table_num(t, r, "globaltimer_per_host");
		}
	}
	if (!isnan(ratio))
		gp_profile_add(prof, "globaltimer_per_host", ratio, "ratio",
			       "%globaltimer delta over the host's monotonic time, longest window", "selftest_clock");
}

GP_ANALYSIS(selftest_clock, clock_derive, clock_report);
