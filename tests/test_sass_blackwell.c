/* test_sass_blackwell.c — the SASS layer on sm_100 and sm_120, offline, from committed fixtures
 * (tests/solver/sm100, sm120; tests/solver/README.md says how they were made): nvcc cubins of our
 * own kernels built on the development machine, and nvdisasm's listings of them and of the
 * solver's single-bit flips, run on the GPU machine (no Blackwell GPU is needed or available).
 *
 * - The solver re-derives both committed field maps per sm byte for byte from the listings, and
 *   they agree with the codec on that sm's instruction set; the maps of different generations
 *   are not interchangeable (each contradicts the others' codec).
 * - Every instruction of the four cubins per sm: nvdisasm printed it; the guard predicate the
 *   codec decodes is the listing's; decoding every field and encoding them again gives the word
 *   back bit for bit; an instruction the codec recognises is the listing's mnemonic with the
 *   listing's registers where the form puts them, and one the listing shows in a known form is
 *   recognised; and setting the guard and registers from the listing's text reproduces the word.
 * - The patcher edits sm_100/sm_120 cubins and refuses the same cubin relabelled sm_103 or
 *   sm_121 (no verified map) with one line naming the sm, force or not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gp.h"
#include "sass/cubin.h"
#include "sass/insn.h"
#include "sass/patch.h"
#include "sass/solver.h"

static const int sms[] = { 100, 120 };
static const char *const cubins[] = { "chains", "regbank", "l2map", "clockcheck" };
/* The solver's inputs: cubin, kernels, listing of the flips, the map derived from them. */
static const struct {
	const char *cubin, *kernels, *listing, *map;
	size_t samples;
} solves[] = {
	{ "regbank", "bank_ffma", "flips.nvdisasm.txt", "field_map.csv", 0 },
	{ "chains", "ffma_imm,fmul_fadd,iadd3_chain", "chains_flips.nvdisasm.txt", "chains_field_map.csv", 0 },
};

static void fixture(char *buf, size_t n, int sm, const char *name)
{
	const char *file = __FILE__, *slash = strrchr(file, '/');
	int dir = slash ? (int)(slash - file) : 0;

	snprintf(buf, n, "%.*s%ssolver/sm%d/%s", dir, file, slash ? "/" : "", sm, name);
}

static char *must_read(int sm, const char *name, size_t *len)
{
	char path[512], *t;

	fixture(path, sizeof path, sm, name);
	if (!(t = gp_read_file(path, len)))
		fail_msg("cannot read %s", path);
	return t;
}

static void load_cubin(struct gp_cubin *c, int sm, const char *name)
{
	char path[512], file[64];
	int io;

	snprintf(file, sizeof file, "%s.cubin", name);
	fixture(path, sizeof path, sm, file);
	if (gp_cubin_load(c, path, &io) < 0)
		fail_msg("%s: %s", path, gp_cubin_error(c));
	assert_int_equal(c->sm, sm);
}

static const char *tmpdir(void)
{
	static char dir[256];
	const char *build = getenv("BUILD") ? getenv("BUILD") : "build";

	snprintf(dir, sizeof dir, "%s/tests", build);
	mkdir(build, 0755);
	mkdir(dir, 0755);
	snprintf(dir, sizeof dir, "%s/tests/tmp", build);
	mkdir(dir, 0755);
	return dir;
}

/* ---- the maps ---- */

static void test_maps_rederived(void **state)
{
	(void)state;
	for (size_t s = 0; s < GP_ARRAY_SIZE(sms); s++)
		for (size_t i = 0; i < GP_ARRAY_SIZE(solves); i++) {
			char cubin[512], listing[512], out[512], file[64];
			char *a, *b;
			size_t la, lb;

			snprintf(file, sizeof file, "%s.cubin", solves[i].cubin);
			fixture(cubin, sizeof cubin, sms[s], file);
			fixture(listing, sizeof listing, sms[s], solves[i].listing);
			snprintf(out, sizeof out, "%s/blackwell_sm%d_%s", tmpdir(), sms[s], solves[i].map);
			char *argv[] = { "solve", cubin, "--kernel", (char *)solves[i].kernels, "-o", out, "--listing", listing };
			/* 0: written, and the codec cross-check on this sm is clean. */
			assert_int_equal(gp_sass_solve_main((int)GP_ARRAY_SIZE(argv), argv), GP_OK);
			a = gp_read_file(out, &la);
			b = must_read(sms[s], solves[i].map, &lb);
			assert_non_null(a);
			assert_int_equal(la, lb);
			assert_memory_equal(a, b, la);
			free(a);
			free(b);
		}
}

/* Every sample of a listing derived into rows (each sample is 129 lines). */
static size_t derive(int sm, const char *name, struct gp_field_row *rows, size_t max)
{
	static char lines[64 * GP_SOLVE_VARIANTS][GP_SOLVE_TEXT];
	size_t len, n = 0, ns = 0;
	char *t = must_read(sm, name, &len);

	gp_solver_parse_listing(t, lines, GP_ARRAY_SIZE(lines));
	free(t);
	while (ns < 64 && lines[ns * GP_SOLVE_VARIANTS][0])
		ns++;
	assert_true(ns >= 10);
	for (size_t s = 0; s < ns; s++)
		n += gp_solver_derive((const char(*)[GP_SOLVE_TEXT])(lines + s * GP_SOLVE_VARIANTS), rows + n, max - n);
	return n;
}

static void test_maps_per_generation(void **state)
{
	static struct gp_field_row rows[2048];
	char msg[4096];
	size_t checked;

	(void)state;
	for (size_t s = 0; s < GP_ARRAY_SIZE(sms); s++) {
		size_t n = derive(sms[s], "flips.nvdisasm.txt", rows, GP_ARRAY_SIZE(rows));
		n += derive(sms[s], "chains_flips.nvdisasm.txt", rows + n, GP_ARRAY_SIZE(rows) - n);
		assert_int_equal(gp_solver_crosscheck(sms[s], rows, n, &checked, msg, sizeof msg), 0);
		assert_true(checked >= 150);
		/* sm_90's codec: bit 81 would not tell FFMA from FHFMA, IADD3 would lose its predicates. */
		assert_true(gp_solver_crosscheck(90, rows, n, &checked, msg, sizeof msg) > 0);
		assert_non_null(strstr(msg, "FFMA R,R,R,R opcode: solved bits 81+1"));
		/* No verified map: nothing to compare with. */
		assert_int_equal(gp_solver_crosscheck(sms[s] + 3, rows, n, &checked, msg, sizeof msg), 0);
		assert_int_equal(checked, 0);
	}
	/* IADD3's bit 76 selects IADD.XOR on sm_100 only: sm_100's map contradicts sm_120's codec. */
	{
		size_t n = derive(100, "chains_flips.nvdisasm.txt", rows, GP_ARRAY_SIZE(rows));
		assert_true(gp_solver_crosscheck(120, rows, n, &checked, msg, sizeof msg) > 0);
		assert_non_null(strstr(msg, "IADD3 R,P,P,R,R,R opcode: solved bits 76+1, codec 76+0"));
	}
}

/* ---- the codec on every instruction of the cubins ---- */

/* The listing lines of one kernel: the text from its ".text.NAME:" label to the next section. */
static size_t kernel_lines(const char *listing, const char *kernel, char (*lines)[GP_SOLVE_TEXT], size_t n)
{
	char label[160], *sec;
	const char *p, *end;
	size_t got;

	snprintf(label, sizeof label, "\n.text.%s:", kernel);
	p = strstr(listing, label);
	if (!p)
		fail_msg("no section for %s in the listing", kernel);
	end = strstr(p + 1, "\n//----");
	sec = strndup(p, end ? (size_t)(end - p) : strlen(p));
	assert_non_null(sec);
	got = gp_solver_parse_listing(sec, lines, n);
	free(sec);
	return got;
}

static int reg_value(const char *op, unsigned *v)
{
	while (*op == '-' || *op == '|' || *op == '!' || *op == '~')
		op++;
	if (!strncmp(op, "RZ", 2)) {
		*v = GP_REG_RZ;
		return 0;
	}
	if (op[0] != 'R' || !isdigit((unsigned char)op[1]))
		return -1;
	*v = (unsigned)strtoul(op + 1, NULL, 10);
	return 0;
}

/* The guard as nvdisasm prints it: "" (PT), "@P3", "@!P0", "@!PT". */
static void guard(const char *pred, unsigned *p, unsigned *neg)
{
	*p = GP_PRED_PT;
	*neg = 0;
	if (!*pred)
		return;
	assert_int_equal(pred[0], '@');
	pred++;
	if (*pred == '!') {
		*neg = 1;
		pred++;
	}
	*p = !strcmp(pred, "PT") ? GP_PRED_PT : (unsigned)strtoul(pred + 1, NULL, 10);
}

struct tally {
	size_t insns, known, reencoded;
};

static int is_pred(const char *op)
{
	op += *op == '!';
	return op[0] == 'P' && (op[1] == 'T' || isdigit((unsigned char)op[1]));
}

/* A form the text is in, by its own look: the mnemonic (any modifiers: IADD3.X, FFMA.FTZ are
 * the same opcode with the same fields), register operands exactly where the form's syntax has a
 * register field, and past its syntax only predicates (IADD3.X's carry-ins). */
static enum gp_insn_class text_form(const struct gp_insn_isa *isa, const struct gp_sass_syntax *t)
{
	unsigned r;

	for (int k = 1; k < GP_I_COUNT; k++) {
		const char *name = gp_insn_classes[k].name;
		int ok = strlen(t->base) == strcspn(name, ".") && !strncmp(t->base, name, strlen(t->base)), i, n = 0;
		while (gp_insn_form_operand(isa, (enum gp_insn_class)k, n) != -2)
			n++;
		ok = ok && t->nops >= n;
		for (i = 0; ok && i < t->nops; i++) {
			int role = gp_insn_form_operand(isa, (enum gp_insn_class)k, i);
			const char *op = t->ops[i];
			if (role == -2) {
				ok = is_pred(op);
				continue;
			}
			/* A register where the form has one; elsewhere a number, label or predicate. */
			ok = (role >= 0) == !reg_value(op, &r) && !strchr(op, '[') &&
			     (role >= 0 || isdigit((unsigned char)op[0]) || op[0] == '-' || op[0] == '`' || is_pred(op));
		}
		if (ok)
			return (enum gp_insn_class)k;
	}
	return GP_I_UNKNOWN;
}

static void check_insn(int sm, const char *where, size_t idx, struct gp_insn w, const char *text, struct tally *t)
{
	const struct gp_insn_isa *isa = gp_insn_isa(sm);
	struct gp_sass_syntax s;
	struct gp_insn z = w, x = w;
	unsigned p, neg;
	enum gp_insn_class k = gp_insn_classify_sm(sm, w), kt;

	if (!text[0] || gp_sass_parse_text(text, &s) < 0)
		fail_msg("%s[%zu]: nvdisasm printed no instruction", where, idx);
	t->insns++;
	/* Every field out and back in: the word again, bit for bit. */
	for (int f = 0; f < GP_F_COUNT; f++)
		gp_insn_set_bits(&z, gp_insn_fields[f].lo, gp_insn_fields[f].width, 0);
	for (int f = 0; f < GP_F_COUNT; f++)
		assert_int_equal(gp_insn_set(&z, (enum gp_insn_field)f, gp_insn_get(w, (enum gp_insn_field)f)), 0);
	if (z.lo != w.lo || z.hi != w.hi)
		fail_msg("%s[%zu] '%s': fields do not encode back to the word", where, idx, text);
	/* The guard. */
	guard(s.pred, &p, &neg);
	if (gp_insn_get(w, GP_F_PRED) != p || gp_insn_get(w, GP_F_PNEG) != neg)
		fail_msg("%s[%zu] '%s': codec guard P%u neg %u", where, idx, text, gp_insn_get(w, GP_F_PRED),
			 gp_insn_get(w, GP_F_PNEG));
	gp_insn_set(&x, GP_F_PRED, 0);
	gp_insn_set(&x, GP_F_PNEG, 0);
	gp_insn_set(&x, GP_F_PRED, p);
	gp_insn_set(&x, GP_F_PNEG, neg);
	/* Recognised forms are the listing's, and the listing's known forms are recognised. */
	kt = text_form(isa, &s);
	if (k != kt)
		fail_msg("%s[%zu] '%s': codec says %s, the text reads as %s", where, idx, text, gp_insn_classes[k].name,
			 gp_insn_classes[kt].name);
	if (k != GP_I_UNKNOWN) {
		t->known++;
		for (int i = 0; i < s.nops; i++) {
			int role = gp_insn_form_operand(isa, k, i);
			unsigned v;
			if (role < 0)
				continue;
			assert_int_equal(reg_value(s.ops[i], &v), 0);
			if (gp_insn_get(w, (enum gp_insn_field)role) != v)
				fail_msg("%s[%zu] '%s': %s is R%u in the codec", where, idx, text, gp_insn_fields[role].name,
					 gp_insn_get(w, (enum gp_insn_field)role));
			gp_insn_set(&x, (enum gp_insn_field)role, 0);
			gp_insn_set(&x, (enum gp_insn_field)role, v);
		}
	}
	/* The text's guard and registers, set through the codec, give the word back. */
	if (x.lo != w.lo || x.hi != w.hi)
		fail_msg("%s[%zu] '%s': re-encoded from the text it differs", where, idx, text);
	t->reencoded++;
}

static void test_codec_on_cubins(void **state)
{
	static char lines[8192][GP_SOLVE_TEXT];

	(void)state;
	for (size_t s = 0; s < GP_ARRAY_SIZE(sms); s++) {
		struct tally t = { 0 };
		for (size_t f = 0; f < GP_ARRAY_SIZE(cubins); f++) {
			struct gp_cubin c;
			char name[64], where[160], *listing;
			size_t len;

			load_cubin(&c, sms[s], cubins[f]);
			snprintf(name, sizeof name, "%s.nvdisasm.txt", cubins[f]);
			listing = must_read(sms[s], name, &len);
			for (size_t k = 0; k < c.nkern; k++) {
				const struct gp_cubin_kernel *kn = &c.kern[k];
				const unsigned char *text = gp_cubin_text(&c, kn);
				assert_true(kn->ninsn <= GP_ARRAY_SIZE(lines));
				assert_int_equal(kernel_lines(listing, kn->name, lines, kn->ninsn), kn->ninsn);
				snprintf(where, sizeof where, "sm_%d %s %s", sms[s], cubins[f], kn->name);
				for (size_t i = 0; i < kn->ninsn; i++)
					check_insn(sms[s], where, i, gp_insn_load(text + i * GP_INSN_BYTES), lines[i], &t);
			}
			free(listing);
			gp_cubin_close(&c);
		}
		fprintf(stderr, "sm_%d: %zu instructions, %zu in a known form, %zu re-encoded from the listing\n",
			sms[s], t.insns, t.known, t.reencoded);
		assert_true(t.insns > 3000);
		assert_true(t.known > 1000);
		assert_int_equal(t.reencoded, t.insns);
	}
}

/* ---- the patcher ---- */

static size_t first_ffma(struct gp_cubin *c, const char *kernel)
{
	const struct gp_cubin_kernel *k = gp_cubin_kernel(c, kernel);

	assert_non_null(k);
	for (size_t i = 0; i < k->ninsn; i++)
		if (gp_insn_classify_sm(c->sm, gp_insn_load(gp_cubin_text(c, k) + i * GP_INSN_BYTES)) == GP_I_FFMA_RRR)
			return i;
	fail_msg("no FFMA in %s", kernel);
	return 0;
}

static void test_patcher(void **state)
{
	(void)state;
	for (size_t s = 0; s < GP_ARRAY_SIZE(sms); s++) {
		static const int unverified[] = { 103, 110, 121, 130 };
		struct gp_cubin c;
		struct gp_insn w;
		size_t i;

		load_cubin(&c, sms[s], "chains");
		i = first_ffma(&c, "ffma_chain");
		assert_int_equal(gp_sass_patch(&c, "ffma_chain", i, GP_F_STALL, 4, 0), 0);
		assert_int_equal(gp_sass_insn(&c, "ffma_chain", i, &w), 0);
		assert_int_equal(gp_insn_get(w, GP_F_STALL), 4);
		/* A register past REGCOUNT is still refused. */
		assert_int_equal(gp_sass_patch(&c, "ffma_chain", i, GP_F_RA, 200, 0), -1);
		for (size_t u = 0; u < GP_ARRAY_SIZE(unverified); u++) {
			char want[32];
			c.sm = unverified[u]; /* as an sm_1xx cubin of the same code would read */
			assert_null(gp_insn_isa(c.sm));
			assert_int_equal(gp_insn_classify_sm(c.sm, w), GP_I_UNKNOWN);
			for (int force = 0; force <= 1; force++) {
				assert_int_equal(gp_sass_patch(&c, "ffma_chain", i, GP_F_STALL, 5, force), -1);
				snprintf(want, sizeof want, "sm_%d: no verified", unverified[u]);
				assert_non_null(strstr(gp_cubin_error(&c), want));
				assert_null(strchr(gp_cubin_error(&c), '\n'));
			}
		}
		assert_int_equal(gp_sass_insn(&c, "ffma_chain", i, &w), 0);
		assert_int_equal(gp_insn_get(w, GP_F_STALL), 4);
		gp_cubin_close(&c);
	}
	assert_non_null(gp_insn_isa(90));
	assert_non_null(gp_insn_isa(75));
	assert_string_equal(gp_insn_isa_names(), "sm_70-sm_90, sm_100, sm_120");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_maps_rederived),
		cmocka_unit_test(test_maps_per_generation),
		cmocka_unit_test(test_codec_on_cubins),
		cmocka_unit_test(test_patcher),
	};
	return cmocka_run_group_tests_name("sass_blackwell", tests, NULL, NULL);
}
