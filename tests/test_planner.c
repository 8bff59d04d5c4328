/* test_planner.c — the Table 5 planner on seed 001's textbook case and the SASS distances of
 * the real sgemm_29_warptile, compiled here for sm_90 with nvcc (env NVCC; skipped if absent), or
 * read from $GP_TEST_SGEMM_CUBIN, the same compile the Makefile does once for every test pass.
 *
 * Textbook: 12 x 12, bk 4, a slot every 6 FFMAs, Kepler's 7 instructions per 4 clocks, LDS 28 and
 * LDG 120 cycles: 96 slots, minimum distances 49 and 210 (seed 001 E111), and the placement's
 * distances computed by hand below. SASS: opcodes LDS / LDG / STS confirmed by counting them in
 * kernels whose loops fix the count, LDS widths of every tile in the models' table checked
 * against the compiled code, achieved distances in a plausible range. */
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
#include "models.h"
#include "planner.h"
#include "sass/cubin.h"
#include "sass/insn.h"

#define RUN "results/h100-80gb-hbm3/20261124-100211"

static char cubin[256];
static char why[512];
static int own_cubin; /* compiled here, into a directory teardown removes */

static struct gp_plan_in textbook(void)
{
	struct gp_plan_in in;

	memset(&in, 0, sizeof in);
	in.rx = in.ry = 12;
	in.bk = 4;
	in.threads = 256;
	in.lds_bytes = 8;
	in.ldg_bytes = 16;
	in.sts_bytes = 8;
	in.every = 6;
	in.ipc = 7.0 / 4.0;
	in.lat_lds = 28;
	in.lat_ldg = 120;
	return in;
}

static void test_min_distance(void **state)
{
	(void)state;
	assert_int_equal(gp_plan_min_distance(28, 1.75), 49);
	assert_int_equal(gp_plan_min_distance(120, 1.75), 210);
	assert_int_equal(gp_plan_min_distance(23.0006, 1.0), 24);
	assert_int_equal(gp_plan_min_distance(23.0, 1.0), 23);
	assert_int_equal(gp_plan_slot_label(0, 6), 5);
	assert_int_equal(gp_plan_slot_label(23, 6), 143);
}

static const struct gp_plan_load *find(const struct gp_plan *p, const char *what, int iter, int slot)
{
	for (int k = 0; k < p->nload; k++)
		if (!strcmp(p->load[k].what, what) && p->load[k].iter == iter && p->load[k].slot == slot)
			return &p->load[k];
	return NULL;
}

static void test_textbook_plan(void **state)
{
	const struct gp_plan_in in = textbook();
	struct gp_plan *p = malloc(sizeof *p);
	char err[256];
	int lds = 0, ldg = 0, sts = 0;

	(void)state;
	assert_non_null(p);
	assert_int_equal(gp_plan_make(&in, p, err, sizeof err), 0);
	assert_int_equal(p->nslots, 24);                  /* 96 = 24 x 4 */
	assert_int_equal(p->nslots * in.bk, 96);
	assert_int_equal(p->d_lds, 49);
	assert_int_equal(p->d_ldg, 210);
	assert_int_equal(p->loop_len, 4 * 168);
	for (int j = 0; j < p->nslots; j++)
		for (int i = 0; i < in.bk; i++) {
			lds += !strncmp(p->cell[j][i], "LDS", 3);
			ldg += !strncmp(p->cell[j][i], "LDG", 3);
			sts += !strncmp(p->cell[j][i], "STS", 3);
		}
	/* 6 LDS.64 of A + 6 of B per iteration; 2 LDG.128 and 4 STS.64 per trip (seed Table 5). */
	assert_int_equal(lds, 48);
	assert_int_equal(ldg, 2);
	assert_int_equal(sts, 4);
	assert_string_equal(p->cell[23][2], "BAR.SYNC");
	assert_string_equal(p->cell[0][0], "ISETP P0");
	/* Iteration 0: A0 in slot 1 sits at 13, its use (FFMA 0 of iteration 1) at 168: 155.
	 * B0 in slot 7 at 55, its use at 168: 113. B5 in slot 12 at 90, use FFMA 10 at 179: 89. */
	assert_non_null(find(p, "LDS.64 smA", 0, 1));
	assert_int_equal(find(p, "LDS.64 smA", 0, 1)->distance, 155);
	assert_int_equal(find(p, "LDS.64 smB", 0, 7)->distance, 113);
	assert_int_equal(find(p, "LDS.64 smB", 0, 12)->distance, 89);
	/* LDG A in slot 13 (at 97) feeds the first STS (iteration 2, slot 19, at 475): 378. */
	assert_int_equal(find(p, "LDG.128 A", 0, 13)->distance, 378);
	assert_int_equal(p->nshort, 0);
	free(p);
}

static void test_plan_flags_short_distance(void **state)
{
	struct gp_plan_in in = textbook();
	struct gp_plan *p = malloc(sizeof *p);
	char err[256];

	(void)state;
	in.lat_lds = 80;      /* 140 instructions: B5's 89 and B0's 113 are too close */
	assert_int_equal(gp_plan_make(&in, p, err, sizeof err), 0);
	assert_true(p->nshort > 0);
	in.rx = 2;            /* 2 x 12 = 24 FFMAs: 4 slots cannot hold 1 + 6 LDS.64 */
	in.lat_lds = 28;
	assert_int_equal(gp_plan_make(&in, p, err, sizeof err), -1);
	assert_non_null(strstr(err, "slots"));
	free(p);
}

static void test_plan_from_committed_run(void **state)
{
	struct gp_plan_in in;
	char err[256];

	(void)state;
	memset(&in, 0, sizeof in);
	assert_int_equal(gp_plan_from_run(RUN, &in, err, sizeof err), 0);
	assert_true(in.ipc > 0.95 && in.ipc <= 1.0);       /* 126.4 / 128 */
	assert_true(in.lat_lds > 20 && in.lat_lds < 30);
	assert_true(in.lat_ldg > 250 && in.lat_ldg < 320);
	assert_int_equal(gp_plan_from_run("/nonexistent", &in, err, sizeof err), -1);
}

/* ------------------------------------------------------------------ SASS */

static int setup(void **state)
{
	const char *nvcc = getenv("NVCC") ? getenv("NVCC") : "/usr/local/cuda/bin/nvcc";
	const char *built = getenv("GP_TEST_SGEMM_CUBIN");
	char dir[] = "/tmp/gp_planner_XXXXXX", cmd[2048];

	(void)state;
	if (built && *built && !access(built, R_OK)) {
		snprintf(cubin, sizeof cubin, "%s", built);
		return 0;
	}
	if (access(nvcc, X_OK) < 0) {
		snprintf(why, sizeof why, "nvcc not found at %s (set NVCC)", nvcc);
		return 0;
	}
	if (!mkdtemp(dir))
		return -1;
	snprintf(cubin, sizeof cubin, "%s/sgemm.cubin", dir);
	own_cubin = 1;
	/* The SGEMM kernels are split over bench/sgemm_*.cu (a module each): one cubin of them all
	 * (not the sm_90a-only *_90a.cu, which -arch=sm_90 cannot compile). */
	snprintf(cmd, sizeof cmd,
		 "for f in bench/sgemm_*.cu; do case $f in *_90a.cu) continue ;; esac; "
		 "printf '#include \"%%s\"\\n' \"$f\"; done > '%s/all.cu' && "
		 "'%s' -cubin -O3 -std=c++17 -I. -Iprobes -Ibench -Iharness -arch=sm_90 -o '%s' '%s/all.cu'",
		 dir, nvcc, cubin, dir);
	if (system(cmd) != 0) {
		fprintf(stderr, "test_planner: nvcc failed: %s\n", cmd);
		return -1;   /* nvcc exists but failed: a failure, not a skip */
	}
	return 0;
}

static int teardown(void **state)
{
	char cmd[512];

	(void)state;
	if (own_cubin) {
		snprintf(cmd, sizeof cmd, "rm -rf \"$(dirname '%s')\"", cubin);
		if (system(cmd) != 0)
			return -1;
	}
	return 0;
}

#define NEED_CUBIN()                                                            \
	do {                                                                    \
		if (!cubin[0]) {                                                \
			fprintf(stderr, "test_planner: skipped: %s\n", why);    \
			skip();                                                 \
		}                                                               \
	} while (0)

static void test_sass_opcodes_confirmed(void **state)
{
	struct gp_sass_report r;
	char err[256];

	(void)state;
	NEED_CUBIN();
	/* sgemm_29: per tile 8 k steps x (2 + 2) LDS.128 fragments = 32, 8 x 8 x 8 = 512 FFMA;
	 * 1 LDG.128 of A + 1 of B per tile, in the prologue and in the loop = 4; STS: A as one
	 * STS.128 and B transposed as 4 STS.32, twice = 10. */
	assert_int_equal(gp_sass_distances(cubin, "sgemm_29_warptile", &r, err, sizeof err), 0);
	assert_int_equal(r.nffma, 512);
	assert_int_equal(r.nlds, 32);
	assert_int_equal(r.nldg, 4);
	assert_int_equal(r.nsts, 10);
	/* sgemm_16_k3 (64 x 64 x 16, 16 x 8 threads): 16 k x (4 + 8) LDS.32 = 192, 512 FFMA. */
	assert_int_equal(gp_sass_distances(cubin, "sgemm_16_k3", &r, err, sizeof err), 0);
	assert_int_equal(r.nlds, 192);
	assert_int_equal(r.nffma, 512);
	assert_int_equal(r.lds.width, 4);
	assert_int_equal(gp_sass_distances(cubin, "no_such_kernel", &r, err, sizeof err), -1);
}

static void test_sass_lds_widths_match_tiles(void **state)
{
	struct gp_sass_report r;
	char err[256];

	(void)state;
	NEED_CUBIN();
	/* The LDS width of the models' table is the most common one nvcc emitted. */
	for (unsigned i = 0; i < gp_ntiles; i++) {
		if (!gp_tiles[i].lds_bytes)
			continue;
		assert_int_equal(gp_sass_distances(cubin, gp_tiles[i].name, &r, err, sizeof err), 0);
		if (r.lds.width != gp_tiles[i].lds_bytes)
			fprintf(stderr, "%s: SASS LDS width %d, table %d\n", gp_tiles[i].name, r.lds.width,
				gp_tiles[i].lds_bytes);
		assert_int_equal(r.lds.width, gp_tiles[i].lds_bytes);
	}
}

static void test_sass_distances_warptile(void **state)
{
	struct gp_sass_report r;
	char err[256];

	(void)state;
	NEED_CUBIN();
	assert_int_equal(gp_sass_distances(cubin, "sgemm_29_warptile", &r, err, sizeof err), 0);
	/* Every inner-loop LDS feeds an FFMA: at least one instruction later and within one k step
	 * plus its slots (64 FFMA + a few); issue cycles at least the LDS latency's order. */
	assert_int_equal(r.lds.n, 32);
	assert_true(r.lds.min >= 1 && r.lds.max <= 200);
	assert_true(r.lds.min <= r.lds.median && r.lds.median <= r.lds.max);
	assert_true(r.lds.min_cycles >= r.lds.min);
	assert_int_equal(r.lds.width, 16);
	/* The register-staged loads cross most of a tile (8 x 64 FFMAs) before their STS. */
	assert_true(r.ldg.n >= 1);
	assert_true(r.ldg.min >= 64 && r.ldg.max <= 1000);
	assert_int_equal(r.ldg.width, 16);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_min_distance),
		cmocka_unit_test(test_textbook_plan),
		cmocka_unit_test(test_plan_flags_short_distance),
		cmocka_unit_test(test_plan_from_committed_run),
		cmocka_unit_test(test_sass_opcodes_confirmed),
		cmocka_unit_test(test_sass_lds_widths_match_tiles),
		cmocka_unit_test(test_sass_distances_warptile),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
