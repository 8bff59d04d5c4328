/* test_sass_patch.c — the patcher and the `sass` command on real nvcc cubins (sass_test.h): a
 * patch changes exactly the field asked for, round-trips, refuses what nvcc never emits or what
 * a relocation covers, and the CLI writes the same bytes as the library, never over its input. */
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

/* ---- patcher ---- */

/* The first chain FFMA whose stall is 4 with yield bit 0: any field can be set validly there. */
static size_t chain_ffma_index(const struct gp_cubin *c, const struct gp_cubin_kernel *k)
{
	for (size_t i = 0; i < k->ninsn; i++) {
		struct gp_insn w = insn_at(c, k, i);
		if (gp_insn_classify(w) == GP_I_FFMA_RRR && gp_insn_get(w, GP_F_STALL) >= 2 &&
		    gp_insn_get(w, GP_F_YIELD) == 0)
			return i;
	}
	fail_msg("no chain FFMA with stall >= 2 and yield 0");
	return 0;
}

static uint32_t new_value(enum gp_insn_field f, uint32_t old)
{
	switch (f) {
	case GP_F_RD: case GP_F_RA: case GP_F_RB: case GP_F_RC:
		return old == 1 ? 2 : 1;
	case GP_F_STALL:
		return old == 3 ? 2 : 3;
	case GP_F_WBAR: case GP_F_RBAR:
		return old == 2 ? 3 : 2;
	default:
		return old ^ 1;
	}
}

static void test_patch_changes_only_the_field(void **state)
{
	static const enum gp_insn_field fields[] = {
		GP_F_PRED, GP_F_PNEG, GP_F_RD, GP_F_RA, GP_F_RB, GP_F_RC, GP_F_STALL, GP_F_YIELD,
		GP_F_WBAR, GP_F_RBAR, GP_F_WAIT, GP_F_REUSE,
	};

	(void)state;
	NEED_IMAGES();
	for (int s = 0; s < NSM; s++) {
		for (size_t fi = 0; fi < GP_ARRAY_SIZE(fields); fi++) {
			enum gp_insn_field f = fields[fi];
			const struct gp_insn_field_desc *d = &gp_insn_fields[f];
			struct gp_cubin c;

			open_image(&c, &fx.chains[s]);
			const struct gp_cubin_kernel *k = must_kernel(&c, "ffma_chain");
			size_t idx = chain_ffma_index(&c, k);
			struct gp_insn before = insn_at(&c, k, idx);
			uint32_t v = new_value(f, gp_insn_get(before, f));

			if (gp_sass_patch(&c, "ffma_chain", idx, f, v, 0) < 0)
				fail_msg("sm_%d %s=%u: %s", sms[s], d->name, v, gp_cubin_error(&c));
			struct gp_insn after = insn_at(&c, k, idx);
			assert_int_equal(gp_insn_get(after, f), v);
			/* exactly the field's bits differ inside the word … */
			for (unsigned b = 0; b < 128; b++) {
				int changed = gp_insn_bits(before, b, 1) != gp_insn_bits(after, b, 1);
				int inside = b >= d->lo && b < d->lo + d->width;
				if (changed && !inside)
					fail_msg("sm_%d %s: bit %u changed", sms[s], d->name, b);
			}
			/* … and nothing outside it */
			size_t woff = (size_t)c.sec[k->text].offset + idx * GP_INSN_BYTES;
			assert_int_equal(c.size, fx.chains[s].size);
			assert_memory_equal(c.image, fx.chains[s].data, woff);
			assert_memory_equal(c.image + woff + GP_INSN_BYTES, fx.chains[s].data + woff + GP_INSN_BYTES,
					    c.size - woff - GP_INSN_BYTES);
			assert_memory_not_equal(c.image + woff, fx.chains[s].data + woff, GP_INSN_BYTES);
			gp_cubin_close(&c);
		}
	}
}

static void test_round_trip(void **state)
{
	(void)state;
	NEED_IMAGES();
	for (int s = 0; s < NSM; s++) {
		const struct image *ims[] = { &fx.chains[s], &fx.reloc[s] };
		for (size_t m = 0; m < GP_ARRAY_SIZE(ims); m++) {
			struct gp_cubin c, d;
			char out[600];
			size_t n;
			int io;

			snprintf(out, sizeof out, "%s/%s.rt", fx.tmp, strrchr(ims[m]->path, '/') + 1);
			open_image(&c, ims[m]);
			assert_int_equal(gp_cubin_save(&c, out), 0);
			char *back = gp_read_file(out, &n);
			assert_non_null(back);
			assert_int_equal(n, ims[m]->size);
			assert_memory_equal(back, ims[m]->data, n);
			free(back);
			/* reading the written file gives the same tables */
			assert_int_equal(gp_cubin_load(&d, out, &io), 0);
			assert_int_equal(d.nkern, c.nkern);
			assert_int_equal(d.nrel, c.nrel);
			assert_int_equal(d.sm, c.sm);
			gp_cubin_close(&d);
			gp_cubin_close(&c);
			unlink(out);
		}
	}
}

static void assert_refused(struct gp_cubin *c, const unsigned char *orig, const char *kernel,
			   size_t idx, enum gp_insn_field f, uint32_t v, int force, const char *why)
{
	if (gp_sass_patch(c, kernel, idx, f, v, force) == 0)
		fail_msg("patch %s[%zu].%s=%u force=%d was allowed", kernel, idx, gp_insn_fields[f].name,
			 v, force);
	if (!strstr(c->err, why))
		fail_msg("error '%s' does not mention '%s'", c->err, why);
	assert_memory_equal(c->image, orig, c->size);
}

static void test_unsafe_patches_refused(void **state)
{
	(void)state;
	NEED_IMAGES();
	for (int s = 0; s < NSM; s++) {
		const unsigned char *orig = fx.chains[s].data;
		struct gp_cubin c;

		open_image(&c, &fx.chains[s]);
		const struct gp_cubin_kernel *k = must_kernel(&c, "ffma_chain");
		size_t idx = chain_ffma_index(&c, k);
		uint32_t rc = (uint32_t)k->regcount;

		assert_refused(&c, orig, "ffma_chain", idx, GP_F_RD, rc, 0, "register count");
		assert_refused(&c, orig, "ffma_chain", idx, GP_F_RA, 254, 0, "register count");
		assert_refused(&c, orig, "ffma_chain", idx, GP_F_STALL, 0, 0, "stall 0");
		assert_refused(&c, orig, "ffma_chain", idx, GP_F_STALL, 1, 0, "stall 1 with yield bit 0");
		assert_refused(&c, orig, "ffma_chain", idx, GP_F_STALL, 16, 1, "does not fit");
		assert_refused(&c, orig, "ffma_chain", idx, GP_F_WBAR, 6, 0, "scoreboard 6");
		assert_refused(&c, orig, "ffma_chain", k->ninsn, GP_F_STALL, 2, 1, "past the end");
		assert_refused(&c, orig, "ffma_chain", (size_t)-1, GP_F_STALL, 2, 1, "past the end");
		assert_refused(&c, orig, "no_such_kernel", 0, GP_F_STALL, 2, 1, "no kernel 'no_such_kernel'");

		/* Rb of FFMA R, R, imm, R is the immediate, not a register */
		const struct gp_cubin_kernel *ki = must_kernel(&c, "ffma_imm");
		size_t imm = ki->ninsn;
		for (size_t i = 0; i < ki->ninsn && imm == ki->ninsn; i++)
			if (gp_insn_classify(insn_at(&c, ki, i)) == GP_I_FFMA_RIR)
				imm = i;
		assert_true(imm < ki->ninsn);
		assert_refused(&c, orig, "ffma_imm", imm, GP_F_RB, 2, 0, "not a register operand");

		/* what force allows, and RZ always */
		assert_int_equal(gp_sass_patch(&c, "ffma_chain", idx, GP_F_RD, GP_REG_RZ, 0), 0);
		assert_int_equal(gp_sass_patch(&c, "ffma_chain", idx, GP_F_STALL, 0, 1), 0);
		assert_int_equal(gp_sass_patch(&c, "ffma_chain", idx, GP_F_RA, rc, 1), 0);
		assert_int_equal(gp_insn_get(insn_at(&c, k, idx), GP_F_RA), rc);
		gp_cubin_close(&c);
	}
}

static void test_relocation_refused(void **state)
{
	(void)state;
	NEED_IMAGES();
	for (int s = 0; s < NSM; s++) {
		struct gp_cubin c;
		size_t under = 0, free_idx = (size_t)-1;

		open_image(&c, &fx.reloc[s]);
		const struct gp_cubin_kernel *k = must_kernel(&c, "uses_reloc");
		for (size_t r = 0; r < c.nrel; r++)
			under += c.rel[r].target == k->text;
		assert_true(under >= 2);        /* g_table address and the call */
		for (size_t r = 0; r < c.nrel; r++) {
			if (c.rel[r].target != k->text)
				continue;
			size_t idx = (size_t)(c.rel[r].offset / GP_INSN_BYTES);
			assert_refused(&c, fx.reloc[s].data, "uses_reloc", idx, GP_F_STALL, 5, 1, "relocation");
		}
		for (size_t i = 0; i < k->ninsn && free_idx == (size_t)-1; i++)
			if (!gp_cubin_reloc_in(&c, k->text, i * GP_INSN_BYTES, GP_INSN_BYTES))
				free_idx = i;
		assert_int_equal(gp_sass_patch(&c, "uses_reloc", free_idx, GP_F_STALL, 5, 1), 0);
		gp_cubin_close(&c);
	}
}

/* ---- CLI ---- */

static int run_cli(const char *out_path, int n, ...)
{
	char *argv[16];
	va_list ap;
	int saved = -1, fd = -1, rc;

	va_start(ap, n);
	for (int i = 0; i < n; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	argv[n] = NULL;
	fflush(stdout);
	if (out_path) {
		fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		assert_true(fd >= 0);
		saved = dup(STDOUT_FILENO);
		dup2(fd, STDOUT_FILENO);
	}
	rc = gp_sass_main(n, argv);
	fflush(stdout);
	if (out_path) {
		dup2(saved, STDOUT_FILENO);
		close(saved);
		close(fd);
	}
	return rc;
}

static void test_cli(void **state)
{
	(void)state;
	NEED_IMAGES();
	const struct image *im = &fx.chains[NSM - 1];
	char csv[600], out[600], bad[600], idx[32];
	struct gp_cubin c, p;
	int io;

	snprintf(csv, sizeof csv, "%s/%s.dump.csv", fx.tmp, strrchr(im->path, '/') + 1);
	snprintf(out, sizeof out, "%s/%s.patched", fx.tmp, strrchr(im->path, '/') + 1);
	snprintf(bad, sizeof bad, "%s/%s.bad", fx.tmp, strrchr(im->path, '/') + 1);
	open_image(&c, im);
	const struct gp_cubin_kernel *k = must_kernel(&c, "ffma_chain");
	snprintf(idx, sizeof idx, "%zu", chain_ffma_index(&c, k));

	/* dump: a header and one row per instruction of the kernel */
	assert_int_equal(run_cli(csv, 4, "sass", "dump", im->path, "--kernel=x"), GP_EUSAGE);
	assert_int_equal(run_cli(csv, 5, "sass", "dump", im->path, "--kernel", "ffma_chain"), GP_OK);
	{
		size_t n;
		char *text = gp_read_file(csv, &n);
		size_t lines = 0;
		assert_non_null(text);
		for (size_t i = 0; i < n; i++)
			lines += text[i] == '\n';
		assert_int_equal(lines, k->ninsn + 1);
		assert_memory_equal(text, "kernel,index,offset,word0,word1,class,opcode,", 45);
		assert_non_null(strstr(text, ",FFMA,0x223,7,0,"));
		free(text);
	}

	/* patch: same bytes as the library's patch, input untouched */
	unlink(out);
	assert_int_equal(run_cli(NULL, 13, "sass", "patch", im->path, "--kernel", "ffma_chain", "--index", idx,
				 "--field", "stall", "--value", "0x2", "-o", out), GP_OK);
	assert_int_equal(gp_cubin_load(&p, out, &io), 0);
	assert_int_equal(gp_sass_patch(&c, "ffma_chain", (size_t)atol(idx), GP_F_STALL, 2, 0), 0);
	assert_int_equal(p.size, c.size);
	assert_memory_equal(p.image, c.image, c.size);
	gp_cubin_close(&p);
	{
		size_t n;
		char *again = gp_read_file(im->path, &n);
		assert_int_equal(n, im->size);
		assert_memory_equal(again, im->data, n);
		free(again);
	}

	/* errors: usage, refusal, same file, missing file, malformed file */
	assert_int_equal(run_cli(NULL, 3, "sass", "frobnicate", im->path), GP_EUSAGE);
	assert_int_equal(run_cli(NULL, 13, "sass", "patch", im->path, "--kernel", "ffma_chain", "--index", idx,
				 "--field", "colour", "--value", "1", "-o", out), GP_EUSAGE);
	assert_int_equal(run_cli(NULL, 13, "sass", "patch", im->path, "--kernel", "ffma_chain", "--index", idx,
				 "--field", "stall", "--value", "0", "-o", out), GP_EUSAGE);
	assert_int_equal(run_cli(NULL, 14, "sass", "patch", im->path, "--kernel", "ffma_chain", "--index", idx,
				 "--field", "stall", "--value", "0", "--force", "-o", out), GP_OK);
	assert_int_equal(run_cli(NULL, 13, "sass", "patch", im->path, "--kernel", "ffma_chain", "--index", idx,
				 "--field", "stall", "--value", "2", "-o", im->path), GP_EUSAGE);
	assert_int_equal(run_cli(NULL, 13, "sass", "patch", im->path, "--kernel", "ffma_chain", "--index", "-1",
				 "--field", "stall", "--value", "2", "-o", out), GP_EUSAGE);
	assert_int_equal(run_cli(NULL, 3, "sass", "dump", "/nonexistent/dir/x.cubin"), GP_EIO);
	{
		FILE *f = fopen(bad, "wb");
		assert_non_null(f);
		fwrite(im->data, 1, 100, f);
		fclose(f);
	}
	assert_int_equal(run_cli(NULL, 3, "sass", "dump", bad), GP_EINPUT);
	gp_cubin_close(&c);
	unlink(csv);
	unlink(out);
	unlink(bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_patch_changes_only_the_field),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_unsafe_patches_refused),
		cmocka_unit_test(test_relocation_refused),
		cmocka_unit_test(test_cli),
	};

	return cmocka_run_group_tests_name("sass_patch", tests, sass_setup, sass_teardown);
}

