/* test_sassprobe.c — the SASS probes' patch plans on real template cubins, their derivations,
 * and which of their points may fault on purpose.
 *
 * nvcc compiles probes/patch/stall.cu and regbank.cu for every supported sm at test time; the
 * tests assert that each plan edits exactly the intended fields of exactly the intended
 * instructions (every other byte of the image unchanged) and that the derivations (minimum safe
 * stall, bank count, reuse-cache entries) read the right answer from synthetic tables — and a
 * wrong one from tables built to mislead them. stall_wait's cleared-wait points are the only
 * ones whose fault is a result (issue 21); its report shows such a row. Without nvcc the cubin
 * tests skip. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gp.h"
#include "analysis.h"
#include "experiment.h"
#include "measure.h"
#include "sassprobe.h"
#include "sassprobe_shape.h"
#include "sass/patch.h"
#include "suite.h"
#include "table.h"

static const int sms[] = { 75, 80, 86, 89, 90 };
#define NSM ((int)GP_ARRAY_SIZE(sms))

struct image {
	char *data;
	size_t size;
};

static struct {
	int have;
	char why[512];
	struct image stall[NSM], bank[NSM];
} fx;

static const char *env_or(const char *name, const char *def)
{
	const char *v = getenv(name);
	return v && *v ? v : def;
}

static int compile(const char *nvcc, const char *tmp, const char *name, int sm, struct image *im)
{
	char cmd[2048], out[600], src[600];
	const char *file = __FILE__, *slash = strrchr(file, '/');
	int dir = slash ? (int)(slash - file) : 0;

	/* probes/patch/ sits next to tests/. */
	snprintf(src, sizeof src, "%.*s%s../probes/patch/%s.cu", dir, file, slash ? "/" : "", name);
	snprintf(out, sizeof out, "%s/%s_sm%d.cubin", tmp, name, sm);
	snprintf(cmd, sizeof cmd, "'%s' -cubin -O3 -std=c++17 -I'%.*s%s../probes' -arch=sm_%d -o '%s' '%s' 2>/dev/null",
		 nvcc, dir, file, slash ? "/" : "", sm, out, src);
	if (system(cmd) != 0) {
		snprintf(fx.why, sizeof fx.why, "nvcc failed on %.200s for sm_%d", src, sm);
		return -1;
	}
	im->data = gp_read_file(out, &im->size);
	return im->data ? 0 : -1;
}

static int group_setup(void **state)
{
	const char *nvcc = env_or("NVCC", "/usr/local/cuda/bin/nvcc");
	char tmp[512];

	(void)state;
	snprintf(tmp, sizeof tmp, "%s/tests/tmp", env_or("BUILD", "build"));
	if (access(nvcc, X_OK) < 0) {
		snprintf(fx.why, sizeof fx.why, "nvcc not found at %s (set NVCC)", nvcc);
		return 0;
	}
	mkdir(env_or("BUILD", "build"), 0777);
	{
		char t[512];
		snprintf(t, sizeof t, "%s/tests", env_or("BUILD", "build"));
		mkdir(t, 0777);
	}
	mkdir(tmp, 0777);
	for (int i = 0; i < NSM; i++)
		if (compile(nvcc, tmp, "stall", sms[i], &fx.stall[i]) < 0 ||
		    compile(nvcc, tmp, "regbank", sms[i], &fx.bank[i]) < 0) {
			fprintf(stderr, "test_sassprobe: %s\n", fx.why);
			return -1;
		}
	fx.have = 1;
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	for (int i = 0; i < NSM; i++) {
		free(fx.stall[i].data);
		free(fx.bank[i].data);
	}
	return 0;
}

#define NEED_NVCC()                                                                 \
	do {                                                                        \
		if (!fx.have) {                                                     \
			fprintf(stderr, "test_sassprobe: skipped: %s\n", fx.why);   \
			skip();                                                     \
		}                                                                   \
	} while (0)

static void open_im(struct gp_cubin *c, const struct image *im)
{
	if (gp_cubin_open(c, im->data, im->size) < 0)
		fail_msg("%s", gp_cubin_error(c));
}

static struct gp_insn insn(struct gp_cubin *c, const char *kernel, size_t i)
{
	struct gp_insn w;
	assert_int_equal(gp_sass_insn(c, kernel, i, &w), 0);
	return w;
}

/* Bits that differ between two words, as a 128-bit mask split in halves. */
static void diff(struct gp_insn a, struct gp_insn b, uint64_t *lo, uint64_t *hi)
{
	*lo = a.lo ^ b.lo;
	*hi = a.hi ^ b.hi;
}

static uint64_t field_mask_hi(enum gp_insn_field f)
{
	const struct gp_insn_field_desc *d = &gp_insn_fields[f];
	return (((uint64_t)1 << d->width) - 1) << (d->lo - 64);
}

/* ---- plans on real cubins ---- */

static void test_region_and_chain(void **state)
{
	(void)state;
	NEED_NVCC();
	for (int s = 0; s < NSM; s++) {
		struct gp_cubin c;
		struct sp_region r;
		size_t idx[SP_MAX_STREAM];

		open_im(&c, &fx.stall[s]);
		assert_int_equal(sp_timed_region(&c, "stall_dep", &r), 0);
		/* 256 chain FFMAs per loop trip, nothing unrolled further (#pragma unroll 1). */
		assert_int_equal(sp_find_opcode(&c, "stall_dep", &r, 0x223, idx, SP_MAX_STREAM), 256);
		/* Each chain FFMA reads the previous one's result (ptxas may put it in Ra or Rb). */
		for (size_t i = 1; i < 256; i++) {
			struct gp_insn p = insn(&c, "stall_dep", idx[i - 1]), w = insn(&c, "stall_dep", idx[i]);
			unsigned rd = gp_insn_get(p, GP_F_RD);
			assert_true(gp_insn_get(w, GP_F_RA) == rd || gp_insn_get(w, GP_F_RB) == rd);
		}
		assert_int_equal(sp_timed_region(&c, "stall_ind", &r), 0);
		assert_int_equal(sp_find_opcode(&c, "stall_ind", &r, 0x223, idx, SP_MAX_STREAM), 256);
		gp_cubin_close(&c);
	}
}

/* stall=3 yield=1 changes the stall/yield bits of the 256 chain FFMAs and nothing else. */
static void test_stall_plan_exact(void **state)
{
	static const unsigned cases[][2] = { { 3, 1 }, { 1, 0 }, { 0, 1 }, { 15, 0 } };

	(void)state;
	NEED_NVCC();
	for (int s = 0; s < NSM; s++)
		for (size_t k = 0; k < GP_ARRAY_SIZE(cases); k++) {
			struct gp_cubin c, o;
			struct sp_region r;
			size_t idx[SP_MAX_STREAM], n, j = 0;
			const uint64_t ctl = field_mask_hi(GP_F_STALL) | field_mask_hi(GP_F_YIELD);
			const struct gp_cubin_kernel *kk;

			open_im(&c, &fx.stall[s]);
			open_im(&o, &fx.stall[s]);
			assert_int_equal(sp_plan_stall(&c, "stall_dep", cases[k][0], cases[k][1]), 256);
			sp_timed_region(&o, "stall_dep", &r);
			n = sp_find_opcode(&o, "stall_dep", &r, 0x223, idx, SP_MAX_STREAM);
			kk = gp_cubin_kernel(&c, "stall_dep");
			for (size_t i = 0; i < kk->ninsn; i++) {
				struct gp_insn a = insn(&o, "stall_dep", i), b = insn(&c, "stall_dep", i);
				uint64_t dl, dh;
				diff(a, b, &dl, &dh);
				if (j < n && idx[j] == i) {
					j++;
					assert_int_equal(dl, 0);
					assert_int_equal(dh & ~ctl, 0);
					assert_int_equal(gp_insn_get(b, GP_F_STALL), cases[k][0]);
					assert_int_equal(gp_insn_get(b, GP_F_YIELD), cases[k][1]);
				} else {
					assert_true(dl == 0 && dh == 0);
				}
			}
			/* Outside the kernel's text nothing moved either. */
			{
				size_t off = (size_t)c.sec[kk->text].offset, len = kk->ninsn * GP_INSN_BYTES;
				assert_memory_equal(c.image, o.image, off);
				assert_memory_equal(c.image + off + len, o.image + off + len, c.size - off - len);
			}
			gp_cubin_close(&c);
			gp_cubin_close(&o);
		}
}

/* Clearing the wait bits touches one bit of each of the 16 consumers and only that. */
static void test_wait_plan(void **state)
{
	static const struct {
		const char *kernel;
		uint32_t op;
	} k[] = { { "stall_ldg", SP_OP_LDG }, { "stall_lds", SP_OP_LDS } };

	(void)state;
	NEED_NVCC();
	for (int s = 0; s < NSM; s++)
		for (size_t q = 0; q < GP_ARRAY_SIZE(k); q++) {
			struct gp_cubin c, o;
			const struct gp_cubin_kernel *kk;
			int changed = 0;

			open_im(&c, &fx.stall[s]);
			open_im(&o, &fx.stall[s]);
			assert_int_equal(sp_plan_wait(&o, k[q].kernel, k[q].op, 0), 16);
			assert_int_equal(sp_plan_wait(&c, k[q].kernel, k[q].op, 1), 16);
			kk = gp_cubin_kernel(&c, k[q].kernel);
			for (size_t i = 0; i < kk->ninsn; i++) {
				struct gp_insn a = insn(&o, k[q].kernel, i), b = insn(&c, k[q].kernel, i);
				uint64_t dl, dh;
				diff(a, b, &dl, &dh);
				if (!dl && !dh)
					continue;
				changed++;
				assert_int_equal(dl, 0);
				assert_int_equal(dh & ~field_mask_hi(GP_F_WAIT), 0);
				assert_int_equal(__builtin_popcountll(dh), 1);
				assert_true(gp_insn_get(b, GP_F_WAIT) < gp_insn_get(a, GP_F_WAIT));
			}
			assert_int_equal(changed, 16);
			gp_cubin_close(&c);
			gp_cubin_close(&o);
		}
}

/* The bank streams (every instruction of SP_BANK_OPS): 240 instructions, free registers never
 * written in the loop, and a source plan that rewrites only Ra/Rb/Rc/reuse of those 240. */
static void test_bank_plan(void **state)
{
#define BANK_OP_ROW(name, T, ptx, cons, mnemonic, cls, nsrc) { "bank_" #name, gp_insn_classes[cls].opcode, nsrc },
	const struct {
		const char *kernel;
		uint32_t op;
		int nsrc;
	} k[] = { SP_BANK_OPS(BANK_OP_ROW) };
#undef BANK_OP_ROW

	(void)state;
	NEED_NVCC();
	for (int s = 0; s < NSM; s++)
		for (size_t q = 0; q < GP_ARRAY_SIZE(k); q++) {
			struct gp_cubin c, o;
			struct sp_region r;
			uint8_t free_[256], taken[256] = { 0 };
			int src[2][3], nfree = 0;
			size_t idx[SP_MAX_STREAM], n;
			const struct gp_cubin_kernel *kk;

			open_im(&c, &fx.bank[s]);
			open_im(&o, &fx.bank[s]);
			kk = gp_cubin_kernel(&c, k[q].kernel);
			assert_int_equal(sp_timed_region(&c, k[q].kernel, &r), 0);
			n = sp_find_opcode(&c, k[q].kernel, &r, k[q].op, idx, SP_MAX_STREAM);
			assert_int_equal(n, 240);
			assert_int_equal(sp_free_regs(&c, k[q].kernel, &r, free_), 0);
			for (int reg = 0; reg < 256; reg++)
				nfree += free_[reg];
			assert_true(nfree >= 40);      /* the 64 live values */
			assert_true(kk->regcount >= 64);
			for (size_t i = r.lo; i < r.hi; i++)
				assert_false(free_[gp_insn_get(insn(&c, k[q].kernel, i), GP_F_RD)]);
			for (int a = 0; a < 2; a++)
				for (int b = 0; b < 3; b++)
					src[a][b] = b < k[q].nsrc ? sp_pick_reg(free_, taken, (unsigned)(a + 2 * b), 8) : -1;
			for (int a = 0; a < 2; a++)
				for (int b = 0; b < k[q].nsrc; b++) {
					assert_true(src[a][b] >= 0 && src[a][b] < kk->regcount);
					assert_int_equal(src[a][b] % 8, a + 2 * b);
				}
			assert_int_equal(sp_plan_sources(&c, k[q].kernel, k[q].op, (const int(*)[3])src, 2, 0), 240);
			for (size_t i = 0, j = 0; i < kk->ninsn; i++) {
				struct gp_insn a = insn(&o, k[q].kernel, i), b = insn(&c, k[q].kernel, i);
				if (j < n && idx[j] == i) {
					const int *p = src[j % 2];
					j++;
					assert_int_equal(gp_insn_get(b, GP_F_RA), p[0]);
					assert_int_equal(gp_insn_get(b, GP_F_RB), p[1]);
					if (k[q].nsrc > 2)
						assert_int_equal(gp_insn_get(b, GP_F_RC), p[2]);
					assert_int_equal(gp_insn_get(b, GP_F_REUSE), 0);
					assert_int_equal(gp_insn_get(b, GP_F_RD), gp_insn_get(a, GP_F_RD));
					assert_int_equal(gp_insn_get(b, GP_F_STALL), gp_insn_get(a, GP_F_STALL));
				} else {
					assert_true(a.lo == b.lo && a.hi == b.hi);
				}
			}
			gp_cubin_close(&c);
			gp_cubin_close(&o);
		}
}

/* A register at or above REGCOUNT is refused, never written. */
static void test_bank_plan_refuses_high_reg(void **state)
{
	struct gp_cubin c;
	const int bad[1][3] = { { 250, -1, -1 } };

	(void)state;
	NEED_NVCC();
	open_im(&c, &fx.bank[NSM - 1]);
	assert_int_equal(sp_plan_sources(&c, "bank_ffma", 0x223, bad, 1, 0), -1);
	assert_non_null(strstr(gp_cubin_error(&c), "register count"));
	gp_cubin_close(&c);
}

/* ---- derivations on synthetic tables ---- */

static struct gp_table *parse(const char *csv)
{
	char err[128];
	struct gp_table *t = gp_table_parse(csv, strlen(csv), err, sizeof err);
	if (!t)
		fail_msg("%s", err);
	return t;
}

static void test_min_safe_stall(void **state)
{
	struct gp_table *t;

	(void)state;
	/* Wrong below 4, right from 4 on (both yields), a fault at 0 is ignored. */
	t = parse("chain,stall,yield,correct,status\n"
		  "dep,0,1,-1,fault: illegal instruction\ndep,1,1,0,ok\ndep,2,1,0,ok\ndep,3,0,0,ok\ndep,3,1,0,ok\n"
		  "dep,4,0,1,ok\ndep,4,1,1,ok\ndep,5,1,1,ok\ndep,15,1,1,ok\nind,1,1,1,ok\n");
	assert_int_equal(sp_min_safe_stall(t), 4);
	gp_table_free(t);
	/* One wrong point above a right one: the safe stall is above it. */
	t = parse("chain,stall,yield,correct,status\ndep,3,1,1,ok\ndep,4,1,1,ok\ndep,5,0,0,ok\ndep,6,1,1,ok\n");
	assert_int_equal(sp_min_safe_stall(t), 6);
	gp_table_free(t);
	t = parse("chain,stall,yield,correct,status\nind,4,1,1,ok\n");
	assert_int_equal(sp_min_safe_stall(t), -1);
	gp_table_free(t);
	/* The H100's sweep: 1-3 wrong, 4-15 right without yield; 12-15 with yield do not stall
	 * (wrong): the yield-free rows decide, the safe stall is 4, not "none". */
	{
		char csv[4096];
		int len = snprintf(csv, sizeof csv, "chain,stall,yield,correct,status\n");
		for (int st = 0; st <= 15; st++)
			for (int y = 0; y <= 1; y++)
				len += snprintf(csv + len, sizeof csv - len, "dep,%d,%d,%d,ok\n", st, y,
						st == 0 ? 1 - y : st < 4 ? 0 : y && st >= 12 ? 0 : 1);
		t = parse(csv);
		assert_int_equal(sp_min_safe_stall(t), 4);
		gp_table_free(t);
	}
}

static void test_bank_count(void **state)
{
	char csv[4096];
	int len;
	double pen;
	struct gp_table *t;

	(void)state;
	/* Two banks by parity, 1 cycle penalty, in the pair form. */
	len = snprintf(csv, sizeof csv, "form,rb_offset,cycles_per_insn,status\n");
	for (int k = 0; k < 16; k++)
		len += snprintf(csv + len, sizeof csv - len, "pair,%d,%.3f,ok\n", k, k % 2 ? 1.01 : 2.02);
	t = parse(csv);
	assert_int_equal(sp_bank_count(t, &pen), 2);
	assert_true(fabs(pen - 1.01) < 1e-9);
	gp_table_free(t);
	/* Pair form flat (no two-way conflict), triple form shows mod-4 banks. */
	len = snprintf(csv, sizeof csv, "form,rb_offset,cycles_per_insn,status\n");
	for (int k = 0; k < 16; k++)
		len += snprintf(csv + len, sizeof csv - len, "pair,%d,1.00,ok\ntriple,%d,%.2f,ok\n", k, k,
				k % 4 ? 1.0 : 1.5);
	t = parse(csv);
	assert_int_equal(sp_bank_count(t, &pen), 4);
	assert_true(fabs(pen - 0.5) < 1e-9);
	gp_table_free(t);
	/* Kepler's mapping is not r mod p: inconsistent, 0 banks reported. */
	len = snprintf(csv, sizeof csv, "form,rb_offset,cycles_per_insn,status\n");
	for (int k = 0; k < 16; k++) {
		int bank = k % 2 + 2 * (k / 4 % 2);
		len += snprintf(csv + len, sizeof csv - len, "pair,%d,%.2f,ok\n", k, bank == 0 ? 2.0 : 1.0);
	}
	t = parse(csv);
	assert_int_equal(sp_bank_count(t, &pen), 0);
	gp_table_free(t);
}

static void test_reuse_entries(void **state)
{
	struct gp_table *t;

	(void)state;
	/* Miss 3 cycles, hit 2; slot a holds 2 values, slot b 1, slot c shows nothing. */
	t = parse("slot,distinct,reuse,cycles_per_insn,status\n"
		  "a,1,0,3.0,ok\na,1,1,2.0,ok\na,2,1,2.05,ok\na,3,1,2.9,ok\na,4,1,3.0,ok\n"
		  "b,1,0,3.0,ok\nb,1,1,2.0,ok\nb,2,1,3.0,ok\nb,3,1,2.0,ok\n"
		  "c,1,0,2.0,ok\nc,1,1,2.0,ok\nc,2,1,2.0,ok\n");
	assert_int_equal(sp_reuse_entries(t, "a", "one"), 2);
	assert_int_equal(sp_reuse_entries(t, "b", "one"), 1);
	assert_int_equal(sp_reuse_entries(t, "c", "one"), -1);
	assert_int_equal(sp_reuse_entries(t, "a", "mixed"), -1); /* a table from before layouts: all "one" */
	gp_table_free(t);
	/* Both layouts in one table: of one residue slot a keeps 1, of consecutive residues 2 (a cache
	 * by bank); each layout has its own hit and miss levels (mixed: miss 2, hit 1). */
	t = parse("slot,layout,distinct,reuse,cycles_per_insn,status\n"
		  "a,one,1,0,3.0,ok\na,one,1,1,2.0,ok\na,one,2,1,3.0,ok\n"
		  "a,mixed,1,0,2.0,ok\na,mixed,1,1,1.0,ok\na,mixed,2,1,1.02,ok\na,mixed,3,1,1.67,ok\n"
		  "a,mixed,4,1,2.0,ok\n");
	assert_int_equal(sp_reuse_entries(t, "a", "one"), 1);
	assert_int_equal(sp_reuse_entries(t, "a", "mixed"), 2);
	gp_table_free(t);
}

/* ---- expected faults ---- */

/* How many points of `name`'s default sweep the experiment expects to fault; each such point's
 * status passes (gp_status_rc) and says so, with the probe's reason. */
static size_t expected_faults(const char *name, const char *param, const char *value)
{
	const struct gp_experiment *e = gp_experiment_find(name);
	struct gp_suite_item item = { .exp = e };
	struct gp_sweep sw;
	char err[128], status[256];
	size_t n = 0;

	assert_non_null(e);
	assert_int_equal(gp_sweep_init(&sw, &item, err, sizeof err), 0);
	for (size_t p = 0; p < sw.npoints; p++) {
		struct gp_point pt;
		const char *why;
		gp_sweep_point(&sw, p, &pt);
		if (!(why = gp_expected_fault(e->impl, &pt)))
			continue;
		n++;
		if (param)
			assert_string_equal(gp_point_str(&pt, param), value);
		gp_status_fault(status, sizeof status, why, "CUDA_ERROR_ILLEGAL_ADDRESS");
		assert_int_equal(gp_status_rc(status), 0);
		assert_non_null(strstr(status, why));
	}
	gp_sweep_free(&sw);
	return n;
}

static void test_expected_faults(void **state)
{
	(void)state;
	/* ldg,clear and lds,clear: a consumer that no longer waits may fault; keep never may. */
	assert_int_equal(expected_faults("stall_wait", "wait", "clear"), 2);
	assert_int_equal(expected_faults("stall_ffma", NULL, NULL), 0);
	assert_int_equal(expected_faults("regbank_ffma", NULL, NULL), 0);
	/* The self-test's faults must stay failures: they are how the isolation is tested. */
	assert_int_equal(expected_faults("selftest_fault", NULL, NULL), 0);
}

/* The stall_wait section shows an expected fault as its result, next to a stale chase. */
static void test_stall_wait_report_shows_expected_fault(void **state)
{
	struct gp_table *t = parse("mem,wait,consumers_patched,cycles_per_step,correct,status\n"
				   "ldg,keep,16,47.0852,1,ok\n"
				   "ldg,clear,,,,expected-fault: the loads' consumers no longer wait for them: boom\n"
				   "lds,clear,16,0.00146484,0,ok\n");
	char *text = NULL;
	size_t len = 0;
	FILE *md = open_memstream(&text, &len);

	(void)state;
	assert_non_null(md);
	gp_analysis_find("stall_wait")->report(md, t, NULL);
	fclose(md);
	assert_non_null(strstr(text, "| ldg | keep | 16 | 47.09 | correct |"));
	assert_non_null(strstr(text, "| ldg | clear | – | – | expected-fault: the loads' consumers no longer wait "
				     "for them: boom |"));
	assert_non_null(strstr(text, "| lds | clear | 16 | 0.001465 | **stale / wrong** |"));
	free(text);
	gp_table_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_region_and_chain),
		cmocka_unit_test(test_stall_plan_exact),
		cmocka_unit_test(test_wait_plan),
		cmocka_unit_test(test_bank_plan),
		cmocka_unit_test(test_bank_plan_refuses_high_reg),
		cmocka_unit_test(test_min_safe_stall),
		cmocka_unit_test(test_bank_count),
		cmocka_unit_test(test_reuse_entries),
		cmocka_unit_test(test_expected_faults),
		cmocka_unit_test(test_stall_wait_report_shows_expected_fault),
	};
	return cmocka_run_group_tests_name("sassprobe", tests, group_setup, group_teardown);
}
