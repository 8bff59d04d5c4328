/* test_reference_keys.c — every published or paper value a report section asks for as required
 * (gp_reference, not gp_reference_opt) is in configs/reference.csv. Each experiment's section is
 * rendered from the committed reference run with the Hopper-era experiments where it has the
 * experiment's CSV, and from an empty table of the experiment's columns otherwise (an experiment
 * newer than the run): a section that looks a key up only beside data is still caught by the
 * committed run. A missing key would print "–" where the published number belongs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gp.h"
#include "analysis.h"
#include "experiment.h"

#define HOPPER_RUN "results/h100-80gb-hbm3/20261124-100211"

/* The experiment's table from the committed run, or an empty one of its columns. */
static struct gp_table *table_of(const struct gp_experiment *e, int *from_run)
{
	char path[512], err[160];
	struct gp_table *t;

	snprintf(path, sizeof path, "%s/%s.csv", HOPPER_RUN, e->name);
	*from_run = !access(path, R_OK);
	if (!*from_run)
		return gp_exp_table(e->impl);
	if (!(t = gp_table_load(path, err, sizeof err)))
		fail_msg("%s: %s", path, err);
	return t;
}

static void test_required_keys_exist(void **state)
{
	char err[160], missing[4096];
	struct gp_table *ref = gp_table_load("configs/reference.csv", err, sizeof err);
	int runs = 0;

	if (!ref)
		fail_msg("configs/reference.csv: %s (make test runs from the repository root)", err);
	if (access(HOPPER_RUN, R_OK))
		fail_msg("%s not readable (make test runs from the repository root)", HOPPER_RUN);
	gp_reference_reset();
	for (size_t i = 0; i < gp_nexperiments; i++) {
		const struct gp_analysis *a = gp_analysis_find(gp_experiments[i]->name);
		struct gp_table *t;
		char *md = NULL;
		size_t len = 0;
		FILE *f;
		int from_run;
		if (!a || !a->report)
			continue;
		t = table_of(gp_experiments[i], &from_run);
		assert_non_null(t);
		runs += from_run;
		assert_non_null(f = open_memstream(&md, &len));
		a->report(f, t, ref);
		fclose(f);
		free(md);
		gp_table_free(t);
	}
	print_message("%d of %zu sections rendered from %s\n", runs, gp_nexperiments, HOPPER_RUN);
	assert_true(runs > 30);
	if (gp_reference_missing(missing, sizeof missing))
		fail_msg("configs/reference.csv lacks keys the reports require:\n%s", missing);
	gp_table_free(ref);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_required_keys_exist),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
