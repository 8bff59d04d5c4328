/* test_sass_ffma.c — `gpuprobe sass ffma` (harness/sass/ffma.c) on the real cubin the ladder
 * patches: $BUILD/cubins/sgemm.sm_90.cubin (make's copy of bench/sgemm_warp.cu for sm_90), else
 * $GP_TEST_SGEMM_CUBIN (the planner's fixture, the same kernels); skipped, with the reason, when
 * neither exists. The bank count is configs/sass-ffma.csv's measured sm_90 row.
 *
 * What must hold: the patch lowers the bank conflicts of sgemm_46's FFMAs and never removes a
 * reuse flag; it changes nothing but register fields and reuse bits (opcodes, control bits and
 * every other bit equal); the register change is one permutation, applied to every FFMA alike;
 * the reuse rule, run on sgemm_29 with its flags cleared, sets only flags ptxas itself set;
 * with one bank nothing can improve, so nothing is renamed; bad input is refused. And on the TMA-fed
 * FFMA kernels' cubin ($BUILD/cubins/sgemm_tmaffma.sm_90.cubin; skipped without it): the main
 * loop found is the k loop, and the loop pass lowers sgemm_54's conflicts by renaming FFMA values
 * whose writers every read still sees, with reuse bits that are safe. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sass/cubin.h"
#include "sass/ffma.h"
#include "sass/insn.h"
#include "sass/patch.h"

#define BASE "sgemm_46_warptile_scalarc"
#define LDG_STS "sgemm_29_warptile"

static char path[512], tf_path[512];

static int setup(void **state)
{
	const char *build = getenv("BUILD") ? getenv("BUILD") : "build";
	const char *fixture = getenv("GP_TEST_SGEMM_CUBIN");

	(void)state;
	snprintf(tf_path, sizeof tf_path, "%s/cubins/sgemm_tmaffma.sm_90.cubin", build);
	if (access(tf_path, R_OK))
		tf_path[0] = 0;
	snprintf(path, sizeof path, "%s/cubins/sgemm.sm_90.cubin", build);
	if (access(path, R_OK) == 0)
		return 0;
	if (fixture && *fixture && access(fixture, R_OK) == 0)
		snprintf(path, sizeof path, "%s", fixture);
	else
		path[0] = 0;
	return 0;
}

static void open_cubin(struct gp_cubin *c)
{
	int io;

	if (!path[0]) {
		fprintf(stderr, "test_sass_ffma: skipped: no sm_90 SGEMM cubin (build/cubins/sgemm.sm_90.cubin "
				"or GP_TEST_SGEMM_CUBIN; needs nvcc)\n");
		skip();
	}
	assert_int_equal(gp_cubin_load(c, path, &io), 0);
}

static int banks(void)
{
	char err[512];
	int b = 0;

	if (gp_ffma_banks_for_sm(90, &b, err, sizeof err))
		fail_msg("%s", err);
	return b;
}

static void words(struct gp_cubin *c, const char *kernel, struct gp_insn **w, size_t *n)
{
	const struct gp_cubin_kernel *k = gp_cubin_kernel(c, kernel);

	assert_non_null(k);
	*n = k->ninsn;
	*w = malloc(*n * sizeof **w);
	assert_non_null(*w);
	for (size_t i = 0; i < *n; i++)
		(*w)[i] = gp_insn_load(gp_cubin_text(c, k) + i * GP_INSN_BYTES);
}

static void test_config_banks(void **state)
{
	char err[512];
	int b;

	(void)state;
	assert_int_equal(banks(), 2); /* the H100 run's register_banks, as configured */
	assert_int_equal(gp_ffma_banks_for_sm(12, &b, err, sizeof err), -1);
	assert_non_null(strstr(err, GP_FFMA_CONFIG));
}

static void test_patch_lowers_conflicts(void **state)
{
	struct gp_cubin c;
	struct gp_ffma_stats before, after;
	struct gp_ffma_opts o = { .banks = banks(), .reuse = 1, .rename = 1 };

	(void)state;
	open_cubin(&c);
	assert_int_equal(gp_ffma_stats(&c, BASE, o.banks, &before), 0);
	assert_int_equal(before.ffma, 512); /* 8 x 8 per thread, 8 k steps a tile, unrolled */
	assert_true(before.conflicts > 0);
	assert_int_equal(gp_ffma_improve(&c, BASE, &o, &after), 0);
	print_message("sgemm_46: conflicts/FFMA %.3f -> %.3f, reuse share %.3f -> %.3f, %zu of %zu movable registers "
		      "renamed, %zu reuse bits added\n", gp_ffma_conflicts_per_ffma(&before),
		      gp_ffma_conflicts_per_ffma(&after), gp_ffma_reuse_share(&before), gp_ffma_reuse_share(&after),
		      after.renamed, after.movable, after.reuse_set);
	assert_true(after.conflicts * 10 < before.conflicts * 8); /* at least a fifth fewer */
	assert_true(after.renamed > 0);
	assert_true(after.reuse_ffma >= before.reuse_ffma);
	assert_int_equal(after.ffma, before.ffma);
	gp_cubin_close(&c);
}

/* Only register fields and reuse bits differ, by one permutation, and no reuse bit is lost. */
static void test_patch_is_a_renaming(void **state)
{
	struct gp_cubin a, b;
	struct gp_ffma_stats s;
	struct gp_ffma_opts o = { .banks = banks(), .reuse = 1, .rename = 1 };
	static const enum gp_insn_field reg[4] = { GP_F_RD, GP_F_RA, GP_F_RB, GP_F_RC };
	struct gp_insn *x, *y;
	size_t n, m;
	int fwd[256], back[256], moved = 0;

	(void)state;
	open_cubin(&a);
	open_cubin(&b);
	assert_int_equal(gp_ffma_improve(&b, BASE, &o, &s), 0);
	words(&a, BASE, &x, &n);
	words(&b, BASE, &y, &m);
	assert_int_equal(n, m);
	memset(fwd, -1, sizeof fwd);
	memset(back, -1, sizeof back);
	for (size_t i = 0; i < n; i++) {
		struct gp_insn p = x[i], q = y[i];
		const uint32_t r0 = gp_insn_get(p, GP_F_REUSE), r1 = gp_insn_get(q, GP_F_REUSE);

		assert_int_equal(r0 & ~r1, 0);
		for (int f = 0; f < 4; f++)
			gp_insn_set(&p, reg[f], 0), gp_insn_set(&q, reg[f], 0);
		gp_insn_set(&p, GP_F_REUSE, 0), gp_insn_set(&q, GP_F_REUSE, 0);
		assert_true(p.lo == q.lo && p.hi == q.hi);
		if (gp_insn_classify(x[i]) != GP_I_FFMA_RRR)
			continue;
		for (int f = 0; f < 4; f++) {
			const int u = (int)gp_insn_get(x[i], reg[f]), v = (int)gp_insn_get(y[i], reg[f]);

			assert_true(fwd[u] < 0 || fwd[u] == v);
			assert_true(back[v] < 0 || back[v] == u);
			fwd[u] = v, back[v] = u;
		}
	}
	for (int r = 0; r < 256; r++)
		moved += fwd[r] >= 0 && fwd[r] != r;
	assert_true(moved > 0);
	assert_int_equal(fwd[1] < 0 || fwd[1] == 1, 1); /* the stack pointer stays */
	free(x), free(y);
	gp_cubin_close(&a), gp_cubin_close(&b);
}

/* sgemm_29 with every reuse bit cleared: the rule sets a subset of what ptxas had set. */
static void test_reuse_rule_within_ptxas(void **state)
{
	struct gp_cubin a, b;
	struct gp_ffma_stats s;
	struct gp_ffma_opts o = { .banks = banks(), .reuse = 1, .rename = 0 };
	struct gp_insn *x, *y;
	size_t n, m, ours = 0, theirs = 0;

	(void)state;
	open_cubin(&a);
	open_cubin(&b);
	words(&a, LDG_STS, &x, &n);
	for (size_t i = 0; i < n; i++)
		if (gp_insn_get(x[i], GP_F_REUSE))
			assert_int_equal(gp_sass_patch(&b, LDG_STS, i, GP_F_REUSE, 0, 0), 0);
	assert_int_equal(gp_ffma_improve(&b, LDG_STS, &o, &s), 0);
	words(&b, LDG_STS, &y, &m);
	for (size_t i = 0; i < n; i++) {
		const uint32_t p = gp_insn_get(x[i], GP_F_REUSE), q = gp_insn_get(y[i], GP_F_REUSE);

		assert_int_equal(q & ~p, 0);
		ours += (size_t)__builtin_popcount(q), theirs += (size_t)__builtin_popcount(p);
	}
	print_message("sgemm_29: reuse rule sets %zu of ptxas's %zu bits\n", ours, theirs);
	assert_int_equal(ours, s.reuse_set);
	assert_true(ours * 2 > theirs);
	free(x), free(y);
	gp_cubin_close(&a), gp_cubin_close(&b);
}

static void test_one_bank_nothing_to_gain(void **state)
{
	struct gp_cubin c;
	struct gp_ffma_stats before, after;
	struct gp_ffma_opts o = { .banks = 1, .reuse = 0, .rename = 1 };

	(void)state;
	open_cubin(&c);
	assert_int_equal(gp_ffma_stats(&c, BASE, 1, &before), 0);
	assert_int_equal(gp_ffma_improve(&c, BASE, &o, &after), 0);
	assert_int_equal(after.conflicts, before.conflicts);
	assert_int_equal(after.renamed, 0);
	gp_cubin_close(&c);
}

/* ---- the TMA-fed FFMA kernels' cubin (template sgemm_tmaffma: bench/sgemm_tmaffma_90a.cu) */

#define TF_BASE "sgemm_53_tmaffma_128x128_split4"
#define TF_SNAKE "sgemm_54_tmaffma_snake"

static void open_tf(struct gp_cubin *c)
{
	int io;

	if (!tf_path[0]) {
		fprintf(stderr, "test_sass_ffma: skipped: no build/cubins/sgemm_tmaffma.sm_90.cubin (needs nvcc)\n");
		skip();
	}
	assert_int_equal(gp_cubin_load(c, tf_path, &io), 0);
}

/* The main loop is the k loop with all 512 FFMAs (8 x 16 a lane, 4 k steps of a quad, 8 quads
 * unrolled), not the retry path ptxas outlines after the EXIT, which branches back to just before
 * it: that needs the branch offset's low bits (bits 16-23). */
static void test_tf_loop_found(void **state)
{
	struct gp_cubin c;
	struct gp_ffma_stats s;

	(void)state;
	open_tf(&c);
	assert_int_equal(gp_ffma_stats(&c, TF_BASE, banks(), &s), 0);
	assert_int_equal(s.ffma, 512);
	assert_int_equal(s.loop_ffma, 512);
	assert_true(s.loop_insn < 600);
	gp_cubin_close(&c);
}

/* Which instruction wrote each register, walking [lo, hi] of w: FFMA Rd and the LDS data registers
 * (the only instructions the loop pass may rename around), every other instruction's Rd alike on
 * both sides; at each FFMA the writers of its sources into src[3 * i ...]. */
static void writers(const struct gp_insn *w, size_t lo, size_t hi, long *src, long *end)
{
	long at[256];

	for (int r = 0; r < 256; r++)
		at[r] = -1 - r;
	for (size_t i = lo; i <= hi; i++) {
		const uint32_t op = gp_insn_get(w[i], GP_F_OPCODE), rd = gp_insn_get(w[i], GP_F_RD);
		static const enum gp_insn_field f[3] = { GP_F_RA, GP_F_RB, GP_F_RC };
		unsigned span = 1;

		if (op == 0x223)
			for (int j = 0; j < 3; j++)
				src[3 * (i - lo) + j] = at[gp_insn_get(w[i], f[j])];
		if (op == 0x984)
			span = gp_insn_bits(w[i], 73, 3) == 6 ? 4 : gp_insn_bits(w[i], 73, 3) == 5 ? 2 : 1;
		for (unsigned q = 0; rd < 255 && q < span; q++)
			at[rd + q] = (long)i;
	}
	memcpy(end, at, sizeof at);
}

/* Does w read or write r? FFMA its four fields, LDS its data registers and address, anything else
 * its four fields four registers wide. */
static int touches_reg(struct gp_insn w, uint32_t r)
{
	static const enum gp_insn_field f[4] = { GP_F_RD, GP_F_RA, GP_F_RB, GP_F_RC };
	const uint32_t op = gp_insn_get(w, GP_F_OPCODE);

	for (int j = 0; j < 4; j++) {
		const uint32_t v = gp_insn_get(w, f[j]);
		const uint32_t span = op == 0x223 ? 1 : op == 0x984 && j == 0 ? (gp_insn_bits(w, 73, 3) == 6 ? 4 : 2) : 4;

		if (v < 255 && r >= v && r < v + span)
			return 1;
	}
	return 0;
}

/* The loop pass on sgemm_54 (the list's sgemm_55): fewer modelled conflicts; only FFMA register
 * fields and reuse bits change, inside the loop; every FFMA source is written by the same
 * instruction as before and the loop leaves every register as it did; and each reuse bit in the
 * loop is safe: the next instruction to touch its register is an FFMA reading it in that slot. */
static void test_tf_loop_pass(void **state)
{
	struct gp_cubin a, b;
	struct gp_ffma_stats before, after;
	struct gp_ffma_opts o = { .banks = banks(), .reuse = 1, .rename = 1, .loop = 1 };
	static const enum gp_insn_field f[3] = { GP_F_RA, GP_F_RB, GP_F_RC };
	struct gp_insn *x, *y;
	size_t n, m, lo = SIZE_MAX, hi = 0;
	long *sx, *sy, ex[256], ey[256];

	(void)state;
	open_tf(&a);
	open_tf(&b);
	assert_int_equal(gp_ffma_stats(&a, TF_SNAKE, o.banks, &before), 0);
	assert_int_equal(gp_ffma_improve(&b, TF_SNAKE, &o, &after), 0);
	print_message("sgemm_54: conflicts/FFMA %.4f -> %.4f, %zu of %zu loop values moved\n",
		      gp_ffma_conflicts_per_ffma(&before), gp_ffma_conflicts_per_ffma(&after), after.loop_moved,
		      after.loop_values);
	assert_true(after.conflicts < before.conflicts);
	assert_true(after.loop_moved > 0 && after.loop_values >= after.loop_moved);
	words(&a, TF_SNAKE, &x, &n);
	words(&b, TF_SNAKE, &y, &m);
	assert_int_equal(n, m);
	for (size_t i = 0; i < n; i++) {
		struct gp_insn p = x[i], q = y[i];
		static const enum gp_insn_field reg[4] = { GP_F_RD, GP_F_RA, GP_F_RB, GP_F_RC };

		if (!memcmp(&p, &q, sizeof p))
			continue;
		assert_int_equal(gp_insn_get(p, GP_F_OPCODE), 0x223);
		lo = i < lo ? i : lo, hi = i;
		for (int j = 0; j < 4; j++)
			gp_insn_set(&p, reg[j], 0), gp_insn_set(&q, reg[j], 0);
		gp_insn_set(&p, GP_F_REUSE, 0), gp_insn_set(&q, GP_F_REUSE, 0);
		assert_true(p.lo == q.lo && p.hi == q.hi);
	}
	assert_true(lo <= hi);
	while (lo > 0 && gp_insn_get(x[lo - 1], GP_F_OPCODE) != 0x947) /* the loop: from the last branch */
		lo--;
	while (hi + 1 < n && gp_insn_get(x[hi], GP_F_OPCODE) != 0x947) /* to its own */
		hi++;
	sx = calloc(3 * (hi - lo + 1), sizeof *sx);
	sy = calloc(3 * (hi - lo + 1), sizeof *sy);
	assert_true(sx && sy);
	writers(x, lo, hi, sx, ex);
	writers(y, lo, hi, sy, ey);
	assert_memory_equal(sx, sy, 3 * (hi - lo + 1) * sizeof *sx);
	assert_memory_equal(ex, ey, sizeof ex);
	for (size_t i = lo; i <= hi; i++)
		for (int s = 0; gp_insn_get(y[i], GP_F_OPCODE) == 0x223 && s < 3; s++) {
			const uint32_t r = gp_insn_get(y[i], f[s]);
			size_t j = i + 1;

			if (!(gp_insn_get(y[i], GP_F_REUSE) >> s & 1))
				continue;
			assert_true(gp_insn_get(y[i], GP_F_RD) != r);
			while (j <= hi && !touches_reg(y[j], r))
				j++;
			/* The next instruction to touch the register reads it, in that slot, an FFMA. */
			assert_true(j <= hi && gp_insn_get(y[j], GP_F_OPCODE) == 0x223);
			assert_int_equal(gp_insn_get(y[j], f[s]), r);
			assert_true(gp_insn_get(y[j], GP_F_RD) != r || gp_insn_get(y[j], f[s]) == r);
		}
	free(sx), free(sy), free(x), free(y);
	gp_cubin_close(&a), gp_cubin_close(&b);
}

static void test_bad_input(void **state)
{
	struct gp_cubin c;
	struct gp_ffma_stats s;
	struct gp_ffma_opts o = { .banks = 0, .reuse = 1, .rename = 1 };

	(void)state;
	open_cubin(&c);
	assert_int_equal(gp_ffma_improve(&c, BASE, &o, &s), -1);
	assert_non_null(strstr(gp_cubin_error(&c), "bank"));
	assert_int_equal(gp_ffma_stats(&c, "no_such_kernel", 2, &s), -1);
	gp_cubin_close(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_banks),
		cmocka_unit_test(test_patch_lowers_conflicts),
		cmocka_unit_test(test_patch_is_a_renaming),
		cmocka_unit_test(test_reuse_rule_within_ptxas),
		cmocka_unit_test(test_one_bank_nothing_to_gain),
		cmocka_unit_test(test_tf_loop_found),
		cmocka_unit_test(test_tf_loop_pass),
		cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
