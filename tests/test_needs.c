/* test_needs.c — the registry's capability data (GP_NEEDS lines, harness/needs.h) against every
 * experiment and each of the twelve architectures nvcc 13 lists, without a GPU. Every need names
 * a registered experiment; every experiment whose kernels are an arch-specific sm_90a image
 * declares that it needs exactly sm_90 (its image loads nowhere else), and every *_90a.cu the tree
 * holds is such an image; on each sm the guard's verdict is the need's, in the one status format
 * "n/a: needs sm_XX (...); this GPU is sm_YY". The run path through the stub driver at each sm is
 * test_stub_needs.c's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp.h"
#include "experiment.h"
#include "measure.h"
#include "needs.h"
#include "sass/insn.h"

/* nvcc 13's --list-gpu-arch, as mk/kernels.mk's SM_ALL (the Makefile hands it over as GP_SM_ALL). */
static const int twelve[] = { 75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121 };

extern const unsigned char gp_image_probes_wgmma_90a[], gp_image_probes_tma_mc_90a[],
	gp_image_bench_sgemm_wgmma_90a[], gp_image_bench_sgemm_tmaffma_90a[];
static const void *const images_90a[] = { gp_image_probes_wgmma_90a, gp_image_probes_tma_mc_90a,
					  gp_image_bench_sgemm_wgmma_90a, gp_image_bench_sgemm_tmaffma_90a };

static void test_sm_list(void **state)
{
	const char *env = getenv("GP_SM_ALL");
	char want[128] = "";

	(void)state;
	for (size_t i = 0; i < GP_ARRAY_SIZE(twelve); i++)
		snprintf(want + strlen(want), sizeof want - strlen(want), "%s%d", i ? " " : "", twelve[i]);
	if (env && *env)
		assert_string_equal(env, want);
}

static void test_needs_name_experiments(void **state)
{
	(void)state;
	assert_true(gp_nneeds >= 13);
	for (size_t i = 0; i < gp_nneeds; i++) {
		const struct gp_need *n = &gp_needs[i];
		if (!gp_experiment_find(n->exp))
			fail_msg("GP_NEEDS(%s, ...): no such experiment", n->exp);
		assert_ptr_equal(gp_need_of(n->exp), n); /* one line per experiment */
		assert_true(n->what && *n->what);
		assert_true(n->kind == GP_NEED_SASS || (n->sm >= 75 && n->sm % 10 <= 9));
	}
}

static void test_arch_specific_images(void **state)
{
	glob_t g;
	size_t found = 0;

	(void)state;
	for (int d = 0; d < 3; d++) {
		static const char *const dirs[] = { "probes", "bench", "harness" };
		const char *file = __FILE__, *slash = strrchr(file, '/');
		char pattern[512];
		snprintf(pattern, sizeof pattern, "%.*s%s../%s/*_90a.cu", slash ? (int)(slash - file) : 0, file,
			 slash ? "/" : "", dirs[d]);
		glob(pattern, d ? GLOB_APPEND : 0, NULL, &g);
	}
	/* A new *_90a.cu belongs in images_90a (and its experiments in GP_NEEDS). */
	assert_int_equal(g.gl_pathc, GP_ARRAY_SIZE(images_90a));
	globfree(&g);
	for (size_t i = 0; i < gp_nexperiments; i++) {
		const struct gp_experiment *e = gp_experiments[i];
		const struct gp_need *n = gp_need_of(e->name);
		int arch_specific = 0;
		for (size_t k = 0; k < GP_ARRAY_SIZE(images_90a); k++)
			arch_specific |= e->impl->probe && e->impl->probe->image == images_90a[k];
		found += arch_specific;
		if (arch_specific && !(n && n->kind == GP_NEED_SM_EXACT && n->sm == 90))
			fail_msg("%s runs an sm_90a image but does not declare GP_NEED_SM_EXACT 90", e->name);
		if (n && n->kind == GP_NEED_SM_EXACT && !arch_specific)
			fail_msg("%s declares an arch-specific need but its probe's image is not one", e->name);
	}
	assert_int_equal(found, 3); /* lat_wgmma, tput_wgmma, bw_tma_mc (the GEMMs' are per variant) */
}

/* Every experiment on every sm: the verdict and the status. */
static void test_guard_every_experiment_every_sm(void **state)
{
	size_t unmet = 0;

	(void)state;
	for (size_t i = 0; i < gp_nexperiments; i++)
		for (size_t s = 0; s < GP_ARRAY_SIZE(twelve); s++) {
			const char *name = gp_experiments[i]->name;
			const struct gp_need *n = gp_need_of(name);
			const int sm = twelve[s];
			char why[256] = "", tail[32];
			int want = !n ? 0
				   : n->kind == GP_NEED_SM ? sm < n->sm
				   : n->kind == GP_NEED_SM_EXACT ? sm != n->sm
								  : !gp_insn_isa(sm);
			int got = gp_need_unmet(name, sm, why, sizeof why);

			if (got != want)
				fail_msg("%s on sm_%d: guard says %s", name, sm, got ? why : "runs");
			if (!got)
				continue;
			unmet++;
			snprintf(tail, sizeof tail, "; this GPU is sm_%d", sm);
			assert_true(!strncmp(why, "n/a: needs sm_", strlen("n/a: needs sm_")));
			assert_true(gp_status_na(why));
			assert_int_equal(gp_status_rc(why), 0);
			assert_string_equal(why + strlen(why) - strlen(tail), tail);
		}
	/* 6 sms below sm_90 x 5 (clusters, TMA), 11 sms x 3 (wgmma, multicast: sm_90a), the 3 sms
	 * without a verified SASS map x 5 (the patching experiments). */
	assert_int_equal(unmet, 6 * 5 + 11 * 3 + 3 * 5);
	/* The SASS experiments run where the codec has a verified map, nowhere else. */
	{
		char why[256];
		assert_int_equal(gp_need_unmet("stall_ffma", 100, why, sizeof why), 0);
		assert_int_equal(gp_need_unmet("stall_ffma", 121, why, sizeof why), 1);
		assert_string_equal(why, "n/a: needs sm_70-sm_90, sm_100, sm_120 (a verified SASS field map to patch); "
					 "this GPU is sm_121");
		assert_int_equal(gp_need_unmet("tput_wgmma", 100, why, sizeof why), 1);
		assert_non_null(strstr(why, "n/a: needs sm_90a (wgmma;"));
		assert_int_equal(gp_need_unmet("lat_ffma", 75, why, sizeof why), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sm_list),
		cmocka_unit_test(test_needs_name_experiments),
		cmocka_unit_test(test_arch_specific_images),
		cmocka_unit_test(test_guard_every_experiment_every_sm),
	};
	return cmocka_run_group_tests_name("needs", tests, NULL, NULL);
}
