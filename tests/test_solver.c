/* test_solver.c — the ISA encoding solver on committed disassembler listings (tests/solver/).
 *
 * ffma_rrrr_sm90.txt is nvdisasm-style text for the 129 variants of one FFMA R7, R3, R7, R6 word
 * (the original, then each of the 128 bits flipped; rejected words print nothing). The solver
 * must place Rd/Ra/Rb/Rc, the predicate, its negation and the three reuse flags where the
 * codec's field table has them, keep opcode bits inside bits 0-11, and report modifier and
 * rejected bits; the cross-check must pass on the solved map and fail on a doctored one.
 * h100_flips_sm90.txt is the real listing nvdisasm printed on the H100 machine for the regbank
 * template's 24 x 129 words, h100_sm90_field_map.csv the map solved from it there; that test
 * reads the build's regbank cubin from $GP_TEMPLATE_DIR, else $BUILD/cubins, and skips without.
 * The fallback for a batch nvdisasm rejects runs against a stand-in nvdisasm (a shell script). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp.h"
#include "sass/insn.h"
#include "sass/solver.h"

static char lines[GP_SOLVE_VARIANTS][GP_SOLVE_TEXT];
static struct gp_field_row rows[256];
static size_t nrows;

static void fixture_path(char *buf, size_t n, const char *name)
{
	const char *file = __FILE__, *slash = strrchr(file, '/');
	int dir = slash ? (int)(slash - file) : 0;

	snprintf(buf, n, "%.*s%ssolver/%s", dir, file, slash ? "/" : "", name);
}

static int setup(void **state)
{
	char path[512], *text;
	size_t len;

	(void)state;
	fixture_path(path, sizeof path, "ffma_rrrr_sm90.txt");
	if (!(text = gp_read_file(path, &len))) {
		fprintf(stderr, "test_solver: cannot read %s\n", path);
		return -1;
	}
	gp_solver_parse_listing(text, lines, GP_SOLVE_VARIANTS);
	free(text);
	nrows = gp_solver_derive((const char(*)[GP_SOLVE_TEXT])lines, rows, GP_ARRAY_SIZE(rows));
	return 0;
}

static const struct gp_field_row *row(const char *field)
{
	for (size_t i = 0; i < nrows; i++)
		if (!strcmp(rows[i].field, field))
			return &rows[i];
	return NULL;
}

static void test_parse_text(void **state)
{
	struct gp_sass_syntax s;

	(void)state;
	assert_int_equal(gp_sass_parse_text("@!P0 LDG.E.64.SYS R2, desc[UR4][R2.64+0x10] ;", &s), 0);
	assert_string_equal(s.pred, "@!P0");
	assert_string_equal(s.base, "LDG");
	assert_string_equal(s.mods, ".E.64.SYS");
	assert_int_equal(s.nops, 2);
	assert_string_equal(s.ops[1], "desc[UR4][R2.64+0x10]");
	assert_int_equal(gp_sass_parse_text("FFMA R7, -R3.reuse, R7, R6", &s), 0);
	assert_int_equal(s.nops, 4);
	assert_string_equal(s.ops[1], "-R3.reuse");
	assert_int_equal(gp_sass_parse_text("EXIT ;", &s), 0);
	assert_int_equal(s.nops, 0);
	assert_int_equal(gp_sass_parse_text("  /* junk */", &s), -1);
	assert_int_equal(gp_sass_parse_text("", &s), -1);
}

static void test_listing(void **state)
{
	char l[4][GP_SOLVE_TEXT];
	const char *text = "        /*0000*/                   FFMA R7, R3, R7, R6 ;   /* 0x0000000703077223 */\n"
			   "                                                    /* 0x000fe20000000006 */\n"
			   "        /*0020*/              @P1 EXIT ;   /* 0x000000000000194d */\n"
			   "        /*0040*/  BRA 0x40;\n";
	(void)state;
	assert_int_equal(gp_solver_parse_listing(text, l, 3), 2);
	assert_string_equal(l[0], "FFMA R7, R3, R7, R6");
	assert_string_equal(l[1], "");
	assert_string_equal(l[2], "@P1 EXIT");
	/* The original and every flip that nvdisasm printed are there. */
	assert_string_equal(lines[0], "FFMA R7, R3, R7, R6");
}

static void expect(const char *field, unsigned lo, unsigned width)
{
	const struct gp_field_row *r = row(field);

	if (!r)
		fail_msg("no %s row among %zu", field, nrows);
	assert_int_equal(r->lo, lo);
	assert_int_equal(r->width, width);
	assert_string_equal(r->cls, "FFMA R,R,R,R");
}

static void test_operands_found(void **state)
{
	(void)state;
	expect("rd", 16, 8);
	expect("ra", 24, 8);
	expect("rb", 32, 8);
	expect("rc", 64, 8);
	expect("pred", 12, 3);
	expect("pneg", 15, 1);
	expect("reuse.ra", 122, 1);
	expect("reuse.rb", 123, 1);
	expect("reuse.rc", 124, 1);
}

static void test_opcode_modifier_invalid(void **state)
{
	int opcode_bits = 0, mod_bits = 0, invalid_bits = 0, hidden_bits = 0;

	(void)state;
	for (size_t i = 0; i < nrows; i++) {
		const struct gp_field_row *r = &rows[i];
		if (!strcmp(r->field, "opcode")) {
			assert_true(r->lo + r->width <= 12);
			opcode_bits += (int)r->width;
		} else if (!strcmp(r->field, "modifier")) {
			assert_true(r->lo >= 77 && r->lo + r->width <= 81);
			mod_bits += (int)r->width;
		} else if (!strcmp(r->field, "invalid")) {
			invalid_bits += (int)r->width;
		} else if (!strcmp(r->field, "hidden")) {
			hidden_bits += (int)r->width;
		}
	}
	assert_true(opcode_bits >= 3);
	assert_int_equal(mod_bits, 4);          /* .SAT, two rounding bits, .FTZ */
	assert_true(invalid_bits >= 5);         /* 84-86 and 126-127 at least */
	assert_true(hidden_bits >= 20);         /* stall, yield, barriers print nothing */
	/* The sign flips of Ra (bit 72) and Rc (bit 75) are operand-form bits, not value bits. */
	assert_non_null(row("ra.form"));
	assert_non_null(row("rc.form"));
}

static void test_crosscheck(void **state)
{
	struct gp_field_row bad[256];
	size_t checked;
	char msg[1024];

	(void)state;
	assert_int_equal(gp_solver_crosscheck(90, rows, nrows, &checked, msg, sizeof msg), 0);
	assert_true(checked >= 9);
	memcpy(bad, rows, nrows * sizeof *rows);
	for (size_t i = 0; i < nrows; i++)
		if (!strcmp(bad[i].field, "rd"))
			bad[i].lo = 17;
	assert_int_equal(gp_solver_crosscheck(90, bad, nrows, &checked, msg, sizeof msg), 1);
	assert_non_null(strstr(msg, "rd"));
}

static void test_csv(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_int_equal(gp_solver_write_csv(f, 90, rows, nrows), 0);
	fclose(f);
	assert_true(!strncmp(buf, "sm,class,field,lo,width,evidence\n", 33));
	assert_non_null(strstr(buf, "90,\"FFMA R,R,R,R\",rd,16,8,"));
	free(buf);
}

static void test_cli_usage(void **state)
{
	char *argv[] = { "solve", "--bogus" };
	char *argv2[] = { "solve", "x.cubin" };

	(void)state;
	assert_int_equal(gp_sass_solve_main(2, argv), GP_EUSAGE);
	assert_int_equal(gp_sass_solve_main(2, argv2), GP_EUSAGE);
}

/* The H100 session's real nvdisasm listing (h100_flips_sm90.txt: all 24 x 129 flipped words of
 * the regbank template, saved by `sass solve --save-listing`) re-derived offline from the cubin
 * this build compiled: the flipped words must be the ones the GPU machine disassembled (same
 * nvcc, same template), the map byte-identical to the committed one, and every register,
 * predicate and reuse position agree with the codec. */
static void test_h100_listing(void **state)
{
	char cubin[512], listing[512], want[512], out[512], emit[512], err[256];
	const char *build = getenv("BUILD") ? getenv("BUILD") : "build";
	const char *templates = getenv("GP_TEMPLATE_DIR"); /* the build's cubins, where not $BUILD's */
	char *a, *b;
	size_t la, lb, n = 0, checked = 0;
	static struct gp_field_row all[1024];
	static char lines_all[24 * GP_SOLVE_VARIANTS][GP_SOLVE_TEXT];

	(void)state;
	if (templates && *templates)
		snprintf(cubin, sizeof cubin, "%s/regbank.sm_90.cubin", templates);
	else
		snprintf(cubin, sizeof cubin, "%s/cubins/regbank.sm_90.cubin", build);
	if (access(cubin, R_OK)) {
		fprintf(stderr, "test_solver: skipped: %s not built (SM without 90)\n", cubin);
		skip();
	}
	fixture_path(listing, sizeof listing, "h100_flips_sm90.txt");
	fixture_path(want, sizeof want, "h100_sm90_field_map.csv");
	snprintf(out, sizeof out, "%s/tests/tmp/solver_h100_map.csv", build);
	snprintf(emit, sizeof emit, "%s/tests/tmp/solver_h100_flips.bin", build);
	mkdir(build, 0755);
	snprintf(err, sizeof err, "%s/tests", build);
	mkdir(err, 0755);
	snprintf(err, sizeof err, "%s/tests/tmp", build);
	mkdir(err, 0755);
	{
		char *argv[] = { "solve", cubin, "--kernel", "bank_ffma", "-o", out, "--listing", listing, "--emit", emit };
		assert_int_equal(gp_sass_solve_main((int)GP_ARRAY_SIZE(argv), argv), 0);
	}
	a = gp_read_file(out, &la);
	b = gp_read_file(want, &lb);
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(la, lb);
	assert_memory_equal(a, b, la);
	free(a);
	free(b);
	/* The same listing through the library: every sample derived, the codec cross-check clean. */
	a = gp_read_file(listing, &la);
	assert_non_null(a);
	/* Some flips are rejected by nvdisasm (no line), but never an unflipped original. */
	la = gp_solver_parse_listing(a, lines_all, 24 * GP_SOLVE_VARIANTS);
	assert_true(la > 24 && la < 24 * GP_SOLVE_VARIANTS);
	for (size_t smp = 0; smp < 24; smp++)
		assert_true(lines_all[smp * GP_SOLVE_VARIANTS][0] != 0);
	free(a);
	for (size_t smp = 0; smp < 24; smp++)
		n += gp_solver_derive((const char(*)[GP_SOLVE_TEXT])(lines_all + smp * GP_SOLVE_VARIANTS), all + n,
				      GP_ARRAY_SIZE(all) - n);
	assert_int_equal(n, 494);
	assert_int_equal(gp_solver_crosscheck(90, all, n, &checked, err, sizeof err), 0);
	assert_int_equal(checked, 99);
}

/* nvdisasm's fallback without nvdisasm: a stand-in (a shell script) that, like nvdisasm, stops
 * at the first word it cannot decode (here: bit 127 set) and names its address, and otherwise
 * prints one line per word. `sass solve` must end with a line for every word it accepts and none
 * for the others, whatever their place in the batch. */
static void test_fallback_drops_named_words(void **state)
{
	static const char script[] =
		"#!/bin/sh\n"
		"od -An -v -tx8 -w16 \"$3\" > \"$3.od\" || exit 2\n"
		"i=0\n"
		"while read lo hi; do\n"
		"\tcase $hi in [89a-f]*) printf 'nvdisasm error   : Unrecognized operation at address 0x%08x\\n' $((i * 16)) >&2;"
		" rm -f \"$3.od\"; exit 1 ;; esac\n"
		"\tprintf '        /*%04x*/                   MOV R%d, 0x%s ;\\n' $((i * 16)) $((0x$lo >> 16 & 255)) \"$hi\"\n"
		"\ti=$((i + 1))\n"
		"done < \"$3.od\"\n"
		"rm -f \"$3.od\"\n";
	char fake[512], cubin[512], out[512], listing[512], emit[512];
	const char *build = getenv("BUILD") ? getenv("BUILD") : "build";
	char *text, *words;
	size_t tl, wl, want = 0;
	static char got[64 * GP_SOLVE_VARIANTS][GP_SOLVE_TEXT];
	FILE *f;

	(void)state;
	mkdir(build, 0755);
	snprintf(fake, sizeof fake, "%s/tests", build);
	mkdir(fake, 0755);
	snprintf(fake, sizeof fake, "%s/tests/tmp", build);
	mkdir(fake, 0755);
	snprintf(fake, sizeof fake, "%s/tests/tmp/fake-nvdisasm", build);
	snprintf(out, sizeof out, "%s/tests/tmp/fake_map.csv", build);
	snprintf(listing, sizeof listing, "%s/tests/tmp/fake_listing.txt", build);
	snprintf(emit, sizeof emit, "%s/tests/tmp/fake_flips.bin", build);
	fixture_path(cubin, sizeof cubin, "sm100/regbank.cubin");
	assert_non_null(f = fopen(fake, "w"));
	fputs(script, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(fake, 0755), 0);
	{
		char *argv[] = { "solve", cubin, "--kernel", "bank_ffma", "-o", out, "--save-listing", listing,
				 "--emit", emit, "--nvdisasm", fake };
		assert_int_equal(gp_sass_solve_main((int)GP_ARRAY_SIZE(argv), argv), GP_OK);
	}
	words = gp_read_file(emit, &wl);
	text = gp_read_file(listing, &tl);
	assert_non_null(words);
	assert_non_null(text);
	assert_true(wl / GP_INSN_BYTES <= GP_ARRAY_SIZE(got));
	gp_solver_parse_listing(text, got, wl / GP_INSN_BYTES);
	for (size_t w = 0; w < wl / GP_INSN_BYTES; w++) {
		const int rejected = (unsigned char)words[w * GP_INSN_BYTES + 15] >> 7;
		want += !rejected;
		if (rejected != !got[w][0])
			fail_msg("word %zu (bit 127 %d): listing line '%s'", w, rejected, got[w]);
	}
	assert_true(want > 0 && want < wl / GP_INSN_BYTES);
	free(words);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_text),
		cmocka_unit_test(test_listing),
		cmocka_unit_test(test_operands_found),
		cmocka_unit_test(test_opcode_modifier_invalid),
		cmocka_unit_test(test_crosscheck),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_cli_usage),
		cmocka_unit_test(test_h100_listing),
		cmocka_unit_test(test_fallback_drops_named_words),
	};
	return cmocka_run_group_tests_name("solver", tests, setup, NULL);
}
