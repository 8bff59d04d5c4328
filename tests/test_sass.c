/* test_sass.c — the cubin reader, the field codec and malformed input, on real nvcc cubins
 * (sass_test.h: the templates in tests/sass/ for sm_75 … sm_120). The tests assert what the
 * template source implies: instruction counts of the asm volatile chains, their dependent
 * registers, REGCOUNT equal to what ptxas reports with -v, EXIT where nvcc says the exits are.
 * Malformed images are cut and corrupted copies of the real ones. The patcher and the CLI are
 * test_sass_patch.c's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gp.h"
#include "sass/cubin.h"
#include "sass/insn.h"
#include "sass/patch.h"
#include "sass/sass.h"
#include "sass_test.h"

/* ---- reader ---- */

static void test_header_and_kernels(void **state)
{
	static const char *const names[] = { "ffma_chain", "ffma_imm", "fmul_fadd", "iadd3_chain" };

	(void)state;
	NEED_IMAGES();
	for (int s = 0; s < NSM; s++) {
		struct gp_cubin c;

		open_image(&c, &fx.chains[s]);
		assert_int_equal(c.sm, sms[s]);
		assert_int_equal(c.abi, 8);
		assert_int_equal(c.nkern, GP_ARRAY_SIZE(names));
		for (size_t i = 0; i < GP_ARRAY_SIZE(names); i++) {
			const struct gp_cubin_kernel *k = must_kernel(&c, names[i]);
			assert_true(k->symbol >= 0);
			assert_true(k->entry);
			assert_true(k->info >= 0);
			assert_true(k->ninsn > 0);
			assert_int_equal(c.sec[k->text].size, k->ninsn * GP_INSN_BYTES);
		}
		gp_cubin_close(&c);
	}
}

static void test_regcount_matches_ptxas(void **state)
{
	(void)state;
	NEED_IMAGES();
	for (int s = 0; s < NSM; s++) {
		const struct image *im = &fx.chains[s];
		struct gp_cubin c;

		open_image(&c, im);
		assert_int_equal(im->nregs, (int)c.nkern);
		for (int r = 0; r < im->nregs; r++) {
			const struct gp_cubin_kernel *k = must_kernel(&c, im->regs[r].name);
			assert_int_equal(k->regcount, im->regs[r].regs);
			/* and no register operand of a known form reaches it */
			for (size_t i = 0; i < k->ninsn; i++) {
				struct gp_insn w = insn_at(&c, k, i);
				for (int f = GP_F_RD; f <= GP_F_RC; f++) {
					uint32_t v = gp_insn_get(w, (enum gp_insn_field)f);
					if (gp_insn_field_is_reg_operand(w, (enum gp_insn_field)f) == 1 &&
					    v != GP_REG_RZ)
						assert_true(v < (uint32_t)k->regcount);
				}
			}
		}
		gp_cubin_close(&c);
	}
}

static void test_exit_offsets_and_tail(void **state)
{
	(void)state;
	NEED_IMAGES();
	for (int s = 0; s < NSM; s++) {
		struct gp_cubin c;

		open_image(&c, &fx.chains[s]);
		for (size_t ki = 0; ki < c.nkern; ki++) {
			const struct gp_cubin_kernel *k = &c.kern[ki];
			uint32_t off[16];
			size_t n = gp_cubin_exit_offsets(&c, k, off, 16), last;

			assert_true(n >= 1 && n <= 16);
			for (size_t e = 0; e < n; e++) {
				assert_true(off[e] % GP_INSN_BYTES == 0 && off[e] / GP_INSN_BYTES < k->ninsn);
				assert_int_equal(gp_insn_classify(insn_at(&c, k, off[e] / GP_INSN_BYTES)), GP_I_EXIT);
			}
			assert_int_equal(count_opcode(&c, k, gp_insn_classes[GP_I_EXIT].opcode), n);
			/* the code ends BRA-to-self, then NOP padding */
			last = k->ninsn;
			while (last > 0 && gp_insn_classify(insn_at(&c, k, last - 1)) == GP_I_NOP)
				last--;
			assert_true(last > 0);
			assert_int_equal(gp_insn_classify(insn_at(&c, k, last - 1)), GP_I_BRA);
		}
		gp_cubin_close(&c);
	}
}

/* ---- field codec on known chains ---- */

static void test_ffma_chain(void **state)
{
	(void)state;
	NEED_IMAGES();
	for (int s = 0; s < NSM; s++) {
		struct gp_cubin c;
		struct gp_insn f[CHAIN_LEN];
		size_t n = 0;

		open_image(&c, &fx.chains[s]);
		const struct gp_cubin_kernel *k = must_kernel(&c, "ffma_chain");
		for (size_t i = 0; i < k->ninsn; i++) {
			struct gp_insn w = insn_at(&c, k, i);
			if (gp_insn_classify(w) != GP_I_FFMA_RRR)
				continue;
			assert_true(n < CHAIN_LEN);
			f[n++] = w;
		}
		assert_int_equal(n, CHAIN_LEN);
		/* Each FFMA reads the previous one's Rd as a multiplicand (ptxas may commute a and x)
		 * and keeps the other multiplicand and the addend; the chain lives in one register
		 * except at its ends, where ptxas renames into the load and store registers. */
		uint32_t chain = gp_insn_get(f[1], GP_F_RD);
		uint32_t addend = gp_insn_get(f[1], GP_F_RC), mul = GP_REG_RZ;
		size_t same_rd = 0;
		for (size_t i = 1; i < n; i++) {
			uint32_t prev = gp_insn_get(f[i - 1], GP_F_RD);
			uint32_t ra = gp_insn_get(f[i], GP_F_RA), rb = gp_insn_get(f[i], GP_F_RB);
			uint32_t other = ra == prev ? rb : ra;

			assert_true(ra == prev || rb == prev);
			assert_int_not_equal(other, chain);
			if (i == 1)
				mul = other;
			assert_int_equal(other, mul);
			assert_int_equal(gp_insn_get(f[i], GP_F_RC), addend);
			same_rd += gp_insn_get(f[i], GP_F_RD) == chain;
			assert_int_equal(gp_insn_get(f[i], GP_F_PRED), GP_PRED_PT);
		}
		assert_true(same_rd >= CHAIN_LEN - 4);
		gp_cubin_close(&c);
	}
}

static void test_other_forms(void **state)
{
	static const struct {
		const char *kernel;
		enum gp_insn_class cls;
		size_t count;
	} want[] = {
		{ "ffma_imm", GP_I_FFMA_RIR, REP_LEN },
		{ "ffma_imm", GP_I_FFMA_RRI, REP_LEN },
		{ "fmul_fadd", GP_I_FMUL_RRR, REP_LEN },
		{ "fmul_fadd", GP_I_FADD_RRR, REP_LEN },
		{ "iadd3_chain", GP_I_IADD3_RRR, REP_LEN },
		{ "ffma_imm", GP_I_FFMA_RRR, 0 },
		{ "fmul_fadd", GP_I_FFMA_RRR, 0 },
	};

	(void)state;
	NEED_IMAGES();
	for (int s = 0; s < NSM; s++) {
		struct gp_cubin c;

		open_image(&c, &fx.chains[s]);
		for (size_t t = 0; t < GP_ARRAY_SIZE(want); t++) {
			const struct gp_cubin_kernel *k = must_kernel(&c, want[t].kernel);
			size_t n = 0;

			for (size_t i = 0; i < k->ninsn; i++) {
				struct gp_insn w = insn_at(&c, k, i);
				if (gp_insn_classify(w) != want[t].cls)
					continue;
				n++;
				/* both immediate forms carry the literal in bits 32-63 */
				if (want[t].cls == GP_I_FFMA_RIR || want[t].cls == GP_I_FFMA_RRI)
					assert_int_equal(gp_insn_bits(w, 32, 32), FFMA_IMM);
			}
			if (n != want[t].count)
				fail_msg("sm_%d %s: %zu x %s, want %zu", sms[s], want[t].kernel, n,
					 gp_insn_classes[want[t].cls].name, want[t].count);
		}
		gp_cubin_close(&c);
	}
}

/* Control fields of everything ptxas emits, up to the final self-branch, are in range. */
static void test_control_fields_plausible(void **state)
{
	(void)state;
	NEED_IMAGES();
	for (int s = 0; s < NSM; s++) {
		const struct image *ims[] = { &fx.chains[s], &fx.reloc[s] };
		for (size_t m = 0; m < GP_ARRAY_SIZE(ims); m++) {
			struct gp_cubin c;

			open_image(&c, ims[m]);
			for (size_t ki = 0; ki < c.nkern; ki++) {
				const struct gp_cubin_kernel *k = &c.kern[ki];
				size_t last = k->ninsn;

				while (last > 0 && gp_insn_classify(insn_at(&c, k, last - 1)) == GP_I_NOP)
					last--;
				for (size_t i = 0; i + 1 < last; i++) {
					struct gp_insn w = insn_at(&c, k, i);
					uint32_t wb = gp_insn_get(w, GP_F_WBAR), rb = gp_insn_get(w, GP_F_RBAR);
					if (!gp_sass_stall_yield_valid(gp_insn_get(w, GP_F_STALL), gp_insn_get(w, GP_F_YIELD)))
						fail_msg("sm_%d %s[%zu]: stall %u yield %u", sms[s], k->name, i,
							 gp_insn_get(w, GP_F_STALL), gp_insn_get(w, GP_F_YIELD));
					assert_true(wb < GP_SB_COUNT || wb == GP_SB_NONE);
					assert_true(rb < GP_SB_COUNT || rb == GP_SB_NONE);
					assert_int_equal(gp_insn_bits(w, 126, 2), 0);
				}
			}
			gp_cubin_close(&c);
		}
	}
}

static void test_field_codec(void **state)
{
	struct gp_insn w = { 0, 0 };

	(void)state;
	for (int f = 0; f < GP_F_COUNT; f++) {
		const struct gp_insn_field_desc *d = &gp_insn_fields[f];
		uint32_t all = (uint32_t)((1ull << d->width) - 1);
		struct gp_insn x = w;

		assert_int_equal(gp_insn_field_by_name(d->name), f);
		assert_int_equal(gp_insn_set(&x, (enum gp_insn_field)f, all), 0);
		assert_int_equal(gp_insn_get(x, (enum gp_insn_field)f), all);
		for (unsigned b = 0; b < 128; b++)
			assert_int_equal(gp_insn_bits(x, b, 1), b >= d->lo && b < d->lo + d->width);
		assert_int_equal(gp_insn_set(&x, (enum gp_insn_field)f, all + 1), -1);
	}
	/* the table's fields never overlap */
	for (int f = 0; f < GP_F_COUNT; f++)
		for (int g = f + 1; g < GP_F_COUNT; g++)
			assert_true(gp_insn_fields[f].lo + gp_insn_fields[f].width <= gp_insn_fields[g].lo ||
				    gp_insn_fields[g].lo + gp_insn_fields[g].width <= gp_insn_fields[f].lo);
	assert_int_equal(gp_insn_field_by_name("STALL"), GP_F_STALL);
	assert_int_equal(gp_insn_field_by_name("bogus"), -1);
}

/* ---- malformed input ---- */

/* Open an exact-size copy; returns the result, with err non-empty on failure. */
static int try_open(const unsigned char *data, size_t n, char *err, size_t errsz)
{
	unsigned char *copy = malloc(n ? n : 1);
	struct gp_cubin c;
	int rc;

	memcpy(copy, data, n);
	rc = gp_cubin_open(&c, copy, n);
	snprintf(err, errsz, "%s", rc < 0 ? c.err : "");
	/* whatever was accepted must be safe to walk */
	for (size_t k = 0; rc == 0 && k < c.nkern; k++) {
		struct gp_nvinfo r;
		size_t pos = 0;
		uint32_t off[4];
		if (c.kern[k].info >= 0)
			while (gp_cubin_nvinfo_next(&c, (size_t)c.kern[k].info, &pos, &r) == 1)
				;
		gp_cubin_exit_offsets(&c, &c.kern[k], off, 4);
		for (size_t i = 0; i < c.kern[k].ninsn; i++)
			(void)insn_at(&c, &c.kern[k], i);
	}
	gp_cubin_close(&c);
	free(copy);
	return rc;
}

static void put16(unsigned char *p, uint16_t v) { p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8); }
static void put64(unsigned char *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> 8 * i); }
static uint64_t get64(const unsigned char *p) { uint64_t v = 0; for (int i = 7; i >= 0; i--) v = v << 8 | p[i]; return v; }

static void expect_reject(const unsigned char *data, size_t n, const char *why)
{
	char err[256];

	if (try_open(data, n, err, sizeof err) == 0)
		fail_msg("accepted a cubin that should fail with '%s'", why);
	if (!strstr(err, why))
		fail_msg("error '%s' does not mention '%s'", err, why);
}

static void test_truncated(void **state)
{
	(void)state;
	NEED_IMAGES();
	const struct image *im = &fx.chains[NSM - 1];
	uint64_t shoff = get64(im->data + 40);
	size_t cuts[] = { 0, 1, 4, 16, 63, 64, 200, (size_t)shoff, (size_t)shoff + 64, im->size - 1 };
	char err[256];

	for (size_t i = 0; i < GP_ARRAY_SIZE(cuts); i++) {
		assert_true(cuts[i] < im->size);
		assert_int_equal(try_open(im->data, cuts[i], err, sizeof err), -1);
		assert_true(err[0] != '\0');
	}
	/* every length: no crash, and no prefix that drops a section's bytes is accepted */
	for (size_t n = 0; n < im->size; n++)
		if (try_open(im->data, n, err, sizeof err) == 0)
			fail_msg("accepted a cubin cut to %zu of %zu bytes", n, im->size);
}

static void test_corrupt_headers(void **state)
{
	(void)state;
	NEED_IMAGES();
	const struct image *im = &fx.chains[NSM - 1];
	unsigned char *b = malloc(im->size);
	uint64_t shoff = get64(im->data + 40);
	struct gp_cubin c;

	open_image(&c, im);
	const struct gp_cubin_kernel *k = must_kernel(&c, "ffma_chain");
	size_t text = k->text, info = (size_t)k->info;
	gp_cubin_close(&c);

#define FRESH() memcpy(b, im->data, im->size)
	FRESH(); put16(b + 18, 62);                        /* x86-64 */
	expect_reject(b, im->size, "e_machine 62");
	FRESH(); b[4] = 1;
	expect_reject(b, im->size, "ELF class 1");
	FRESH(); b[5] = 2;
	expect_reject(b, im->size, "little-endian");
	FRESH(); b[1] = 'X';
	expect_reject(b, im->size, "no ELF magic");
	FRESH(); put64(b + 40, im->size);
	expect_reject(b, im->size, "section table");
	FRESH(); put64(b + 40, UINT64_MAX - 8);
	expect_reject(b, im->size, "section table");
	FRESH(); put16(b + 62, 0xfff0);
	expect_reject(b, im->size, "name table index");
	FRESH(); put16(b + 58, 40);
	expect_reject(b, im->size, "section header size");
	/* a section's offset past the end, and an offset + size that wraps around */
	FRESH(); put64(b + shoff + text * 64 + 24, im->size + 16);
	expect_reject(b, im->size, "past the end");
	FRESH(); put64(b + shoff + text * 64 + 32, UINT64_MAX - 0x10);
	expect_reject(b, im->size, "past the end");
	/* a section name outside .shstrtab */
	FRESH(); b[shoff + text * 64 + 3] = 0x7f;
	expect_reject(b, im->size, "name offset");
	/* an .nv.info.<k> SVAL record claiming more payload than the section holds */
	FRESH();
	{
		uint64_t ioff = get64(im->data + shoff + info * 64 + 24);
		b[ioff] = GP_EIFMT_SVAL;
		put16(b + ioff + 2, 0xffff);
	}
	expect_reject(b, im->size, ".nv.info.ffma_chain");
	/* text that is not whole instructions */
	FRESH(); put64(b + shoff + text * 64 + 32, get64(im->data + shoff + text * 64 + 32) - 4);
	expect_reject(b, im->size, "not a multiple of 16");

	/* seeded random corruption of header and section table: errors, never crashes */
	srand(5);
	for (int t = 0; t < 4000; t++) {
		char err[256];
		FRESH();
		for (int j = 0; j < 1 + t % 4; j++) {
			size_t at = t & 1 ? (size_t)rand() % 64 : (size_t)(shoff + (size_t)rand() % (im->size - shoff));
			b[at] = (unsigned char)rand();
		}
		(void)try_open(b, im->size, err, sizeof err);
	}
#undef FRESH
	free(b);
}

static void test_unknown_kernel(void **state)
{
	(void)state;
	NEED_IMAGES();
	struct gp_cubin c;
	struct gp_insn w;

	open_image(&c, &fx.chains[0]);
	assert_null(gp_cubin_kernel(&c, "missing_kernel"));
	assert_non_null(strstr(c.err, "missing_kernel"));
	assert_int_equal(gp_sass_insn(&c, "ffma", 0, &w), -1);     /* a prefix is not a name */
	assert_int_equal(gp_sass_insn(&c, "ffma_chain", 0, &w), 0);
	gp_cubin_close(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_field_codec),
		cmocka_unit_test(test_header_and_kernels),
		cmocka_unit_test(test_regcount_matches_ptxas),
		cmocka_unit_test(test_exit_offsets_and_tail),
		cmocka_unit_test(test_ffma_chain),
		cmocka_unit_test(test_other_forms),
		cmocka_unit_test(test_control_fields_plausible),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_corrupt_headers),
		cmocka_unit_test(test_unknown_kernel),
	};

	return cmocka_run_group_tests_name("sass", tests, sass_setup, sass_teardown);
}

