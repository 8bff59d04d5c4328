/* analysis.h — what an experiment makes of its finished table, without the device: the profile
 * keys it derives (profile.csv) and its REPORT.md section, with the paper's and published numbers
 * from configs/reference.csv beside ours. Each family keeps these in its own *_report.c, which
 * links only table, IO and Markdown code. */
#ifndef GP_ANALYSIS_H
#define GP_ANALYSIS_H

#include <stdio.h>

#include "md.h"
#include "profile.h"
#include "reference.h"
#include "table.h"

struct gp_analysis {
	/* Profile entries from the finished table (may be NULL). */
	void (*derive)(struct gp_profile *p, const struct gp_table *t);
	/* The REPORT.md section in the paper's layout (may be NULL). */
	void (*report)(FILE *md, const struct gp_table *t, const struct gp_table *ref);
};

/* The descriptor every experiment's .def line also names (name##_analysis). */
#define GP_ANALYSIS(name, derive_, report_)                                                         \
	const struct gp_analysis name##_analysis = { .derive = derive_, .report = report_ }
/* The common case: the experiment's name_derive and name_report. */
#define GP_ANALYSIS_BY_NAME(name) GP_ANALYSIS(name, name##_derive, name##_report)

/* A row whose repetitions spread more than this ((max - min) / median) is bimodal or noisy: its
 * median is not a headline, and a ratio with it is flagged rather than published as a finding. */
#define GP_NOISY_SPREAD 0.05

/* By experiment name (build/gen/experiments.def); NULL for an unknown name. */
const struct gp_analysis *gp_analysis_find(const char *name);

#endif
