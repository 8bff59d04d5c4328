/* sass_listing.h — what the GPU tests read of the SASS the build embedded: `cuobjdump -sass` of
 * a family's fatbin (build/kernels/<dir>/<family>.fatbin; $BUILD overrides build), one kernel
 * at a time, as opcodes with modifiers and whole lines, and counts of an opcode (optionally with
 * an operand) or of an opcode pair. A test asks expect() for at least N of the instruction its
 * probe claims to time. cuobjdump ships with the CUDA toolkit on the GPU machine: without it a
 * test says so and skips (have_cuobjdump). The sm is "sm_90", or "sm_90a" for *_90a.cu sources.
 * Include after cmocka.h. */
#ifndef GP_SASS_LISTING_H
#define GP_SASS_LISTING_H

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sass_kernel {
	char name[64];
	char **ops; /* one opcode (with modifiers) per instruction, predicate stripped */
	char **lines;
	size_t n, cap;
};

static __attribute__((unused)) void kernel_free(struct sass_kernel *k)
{
	for (size_t i = 0; i < k->n; i++) {
		free(k->ops[i]);
		free(k->lines[i]);
	}
	free(k->ops);
	free(k->lines);
	memset(k, 0, sizeof *k);
}

/* cuobjdump's listing of a fatbin, read once per file (a family's fatbin holds dozens of kernels
 * and the test asks for each: one dump each took minutes), as a stream over the kept text. */
static __attribute__((unused)) FILE *sass_text(const char *fatbin, const char *cmd)
{
	static char path[512], *text;
	static size_t len;

	if (!text || strcmp(path, fatbin)) {
		FILE *p = popen(cmd, "r");
		size_t cap = 0;
		if (!p)
			return NULL;
		free(text);
		text = NULL;
		len = 0;
		for (;;) {
			if (len + 65536 > cap) {
				cap = 2 * cap + 65536;
				text = realloc(text, cap);
				assert_non_null(text);
			}
			size_t got = fread(text + len, 1, cap - len, p);
			if (!got)
				break;
			len += got;
		}
		pclose(p);
		snprintf(path, sizeof path, "%s", fatbin);
	}
	return len ? fmemopen(text, len, "r") : NULL;
}

/* Read the SASS of `kernel` for `sm` ("sm_90") from `cuobjdump -sass fatbin`. 0 when found. */
static __attribute__((unused)) int sass_read(const char *fatbin, const char *sm, const char *kernel, struct sass_kernel *k)
{
	char cmd[1024], line[1024], want_fn[128];
	int in_sm = 0, in_fn = 0;
	FILE *p;

	memset(k, 0, sizeof *k);
	snprintf(cmd, sizeof cmd, "cuobjdump -sass '%s' 2>/dev/null", fatbin);
	snprintf(want_fn, sizeof want_fn, "Function : %s", kernel);
	if (!(p = sass_text(fatbin, cmd)))
		return -1;
	while (fgets(line, sizeof line, p)) {
		char *s, op[96];
		if (strstr(line, "arch = sm_") || strstr(line, "code for sm_")) {
			in_sm = strstr(line, sm) != NULL && !isalnum((unsigned char)strstr(line, sm)[strlen(sm)]);
			in_fn = 0;
			continue;
		}
		if ((s = strstr(line, "Function : "))) {
			in_fn = in_sm && !strncmp(s, want_fn, strlen(want_fn)) &&
				(s[strlen(want_fn)] == '\n' || s[strlen(want_fn)] == ' ' || s[strlen(want_fn)] == '\r');
			continue;
		}
		if (!in_fn || !(s = strstr(line, "*/")) || !strstr(line, "/*"))
			continue;
		/* An instruction line: the address comment, an optional predicate, the opcode, operands,
		 * then the encoding comment, e.g. `@!P0 FFMA R7, R3, R7, R6 ;` after the address. */
		s += 2;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '@')
			while (*s && *s != ' ')
				s++;
		if (sscanf(s, " %95[A-Z0-9_.]", op) != 1)
			continue;
		if (k->n == k->cap) {
			k->cap = k->cap ? 2 * k->cap : 256;
			k->ops = realloc(k->ops, k->cap * sizeof *k->ops);
			k->lines = realloc(k->lines, k->cap * sizeof *k->lines);
			assert_non_null(k->ops);
			assert_non_null(k->lines);
		}
		k->ops[k->n] = strdup(op);
		k->lines[k->n] = strdup(s);
		k->n++;
	}
	fclose(p);
	snprintf(k->name, sizeof k->name, "%s", kernel);
	return k->n ? 0 : -1;
}

/* Instructions whose opcode starts with `prefix` followed by the end or a '.' (FFMA, not FFMA2),
 * and optionally whose operand text contains `operand`. */
static __attribute__((unused)) size_t count_op(const struct sass_kernel *k, const char *prefix, const char *operand)
{
	size_t n = 0, l = strlen(prefix);

	for (size_t i = 0; i < k->n; i++)
		if (!strncmp(k->ops[i], prefix, l) && (k->ops[i][l] == 0 || k->ops[i][l] == '.' || prefix[l - 1] == '.') &&
		    (!operand || strstr(k->lines[i], operand)))
			n++;
	return n;
}

static __attribute__((unused)) size_t count_pairs(const struct sass_kernel *k, const char *first, const char *second)
{
	size_t n = 0;

	for (size_t i = 0; i + 1 < k->n; i++)
		if (!strncmp(k->ops[i], first, strlen(first)) && !strncmp(k->ops[i + 1], second, strlen(second)))
			n++;
	return n;
}

static __attribute__((unused)) int have_cuobjdump(void)
{
	return system("command -v cuobjdump >/dev/null 2>&1") == 0;
}

/* In a test: skip (counted as skipped, with the reason) where cuobjdump is not on PATH. */
#define NEED_CUOBJDUMP()                                                                            \
	do {                                                                                        \
		if (!have_cuobjdump()) {                                                            \
			print_message("skipped: cuobjdump not on PATH (it ships with the CUDA toolkit on the GPU machine)\n"); \
			skip();                                                                     \
		}                                                                                   \
	} while (0)

/* family: "insn" (probes/insn.cu) or "bench/sgemm_tc3" (a directory named). */
static __attribute__((unused)) void fatbin_path(char *buf, size_t len, const char *family)
{
	const char *b = getenv("BUILD");

	snprintf(buf, len, "%s/kernels/%s%s.fatbin", b && *b ? b : "build", strchr(family, '/') ? "" : "probes/",
		 family);
}

static __attribute__((unused)) void expect(const char *family, const char *sm, const char *kernel, const char *op, const char *operand,
		   size_t min)
{
	char path[512];
	struct sass_kernel k;
	size_t n;

	fatbin_path(path, sizeof path, family);
	if (sass_read(path, sm, kernel, &k)) {
		print_error("no SASS for %s (%s) in %s\n", kernel, sm, path);
		fail();
	}
	/* "UR|c[": the constant operand, staged in a uniform register (ptxas for sm_90) or read
	 * straight from the bank (c[0x0][…]): either is the form the probe claims. */
	n = operand && !strcmp(operand, "UR|c[") ? count_op(&k, op, "UR") + count_op(&k, op, "c[")
						 : count_op(&k, op, operand);
	print_message("%-16s %-10s%s%s: %zu (want >= %zu)\n", kernel, op, operand ? " with " : "", operand ? operand : "",
		      n, min);
	if (n < min)
		fail_msg("%s: %zu %s, the probe claims at least %zu", kernel, n, op, min);
	kernel_free(&k);
}

#endif
