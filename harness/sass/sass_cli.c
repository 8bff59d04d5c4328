/* sass_cli.c — `gpuprobe sass dump|patch`: look at and edit the SASS of a cubin from the shell.
 *
 * dump prints one CSV row per instruction (header first) on stdout: the raw words, the form on
 * the cubin's sm (insn.h: "?" where the sm has no verified map) and every named field, so a
 * sweep script or a spreadsheet can find the instruction to patch. patch edits
 * one field of one instruction with the checks of patch.c and writes a new file through a
 * temporary name and a rename; it refuses to write over its input, so a template is never lost.
 * Numbers accept decimal or 0x-hex; register fields also take RZ, the predicate PT. */
#include "sass/cubin.h"
#include "sass/ffma.h"
#include "sass/insn.h"
#include "sass/patch.h"
#include "sass/sass.h"
#include "sass/solver.h"
#include "gp.h"

#include <csv.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

struct sass_opts {
	const char *cmd, *file, *kernel, *field, *value, *out, *index;
	int force, help;
};

static void usage(FILE *f)
{
	fputs("usage: gpuprobe sass dump FILE [--kernel K]\n"
	      "       gpuprobe sass solve CUBIN --kernel K[,K...] -o MAP.csv [--listing FILE] [--emit RAW] [--save-listing FILE] [--max-seconds S]\n"
	      "                               [--nvdisasm PATH] [--max-samples N]\n"
	      "       gpuprobe sass ffma CUBIN --kernel K [--banks N | --run DIR] [--no-reuse] [--no-rename] [--no-loop] [-o OUT]\n"
	      "       gpuprobe sass patch FILE --kernel K --index I --field NAME --value V [--force] -o OUT\n"
	      "fields:", f);
	for (int i = 0; i < GP_F_COUNT; i++)
		fprintf(f, " %s", gp_insn_fields[i].name);
	fputs("\n", f);
}

static int parse_args(int argc, char **argv, struct sass_opts *o)
{
	static const struct {
		const char *name;
		size_t off;
	} valued[] = {
		{ "--kernel", offsetof(struct sass_opts, kernel) },
		{ "--index", offsetof(struct sass_opts, index) },
		{ "--field", offsetof(struct sass_opts, field) },
		{ "--value", offsetof(struct sass_opts, value) },
		{ "-o", offsetof(struct sass_opts, out) },
		{ "--out", offsetof(struct sass_opts, out) },
	};

	memset(o, 0, sizeof *o);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		size_t v;

		if (!strcmp(a, "--force")) {
			o->force = 1;
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			o->help = 1;
			continue;
		}
		for (v = 0; v < GP_ARRAY_SIZE(valued); v++)
			if (!strcmp(a, valued[v].name))
				break;
		if (v < GP_ARRAY_SIZE(valued)) {
			if (i + 1 >= argc) {
				gp_err("sass: %s needs a value", a);
				return -1;
			}
			*(const char **)((char *)o + valued[v].off) = argv[++i];
			continue;
		}
		if (a[0] == '-' && a[1]) {
			gp_err("sass: unknown option '%s'", a);
			return -1;
		}
		if (!o->cmd)
			o->cmd = a;
		else if (!o->file)
			o->file = a;
		else {
			gp_err("sass: unexpected argument '%s'", a);
			return -1;
		}
	}
	return 0;
}

/* Field values: decimal or 0x-hex, RZ for registers, PT for the predicate. */
static int parse_value(const char *s, enum gp_insn_field f, uint32_t *out)
{
	char *end;
	unsigned long v;

	if (gp_insn_fields[f].is_reg && !strcasecmp(s, "RZ")) {
		*out = GP_REG_RZ;
		return 0;
	}
	if (f == GP_F_PRED && !strcasecmp(s, "PT")) {
		*out = GP_PRED_PT;
		return 0;
	}
	if (!*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static void put_name(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\r\n"))
		csv_fwrite(f, s, strlen(s));
	else
		fputs(s, f);
}

static void dump_kernel(FILE *f, const struct gp_cubin *c, const struct gp_cubin_kernel *k)
{
	const unsigned char *t = gp_cubin_text(c, k);

	for (size_t i = 0; i < k->ninsn; i++) {
		struct gp_insn w = gp_insn_load(t + i * GP_INSN_BYTES);

		put_name(f, k->name);
		fprintf(f, ",%zu,0x%04zx,0x%016llx,0x%016llx,%s", i, i * GP_INSN_BYTES,
			(unsigned long long)w.lo, (unsigned long long)w.hi,
			gp_insn_classes[gp_insn_classify_sm(c->sm, w)].name);
		for (int fi = 0; fi < GP_F_COUNT; fi++)
			fprintf(f, fi == GP_F_OPCODE ? ",0x%03x" : ",%u", gp_insn_get(w, (enum gp_insn_field)fi));
		fputc('\n', f);
	}
}

static int cmd_dump(struct gp_cubin *c, const struct sass_opts *o)
{
	const struct gp_cubin_kernel *only = NULL;

	if (c->sm < 70) {
		gp_err("sass: %s: sm_%d is not a 128-bit Volta-family instruction set", o->file, c->sm);
		return GP_EINPUT;
	}
	if (o->kernel && !(only = gp_cubin_kernel(c, o->kernel))) {
		gp_err("sass: %s: %s", o->file, gp_cubin_error(c));
		return GP_EUSAGE;
	}
	gp_info("%s: sm_%d, %zu kernels%s\n", o->file, c->sm, c->nkern,
		gp_insn_isa(c->sm) ? "" : " (no verified field map for this sm: fields at the sm_70-sm_90 positions, no form known)");
	fputs("kernel,index,offset,word0,word1,class", stdout);
	for (int fi = 0; fi < GP_F_COUNT; fi++)
		printf(",%s", gp_insn_fields[fi].name);
	fputc('\n', stdout);
	for (size_t i = 0; i < c->nkern; i++)
		if (!only || only == &c->kern[i])
			dump_kernel(stdout, c, &c->kern[i]);
	if (fflush(stdout) == EOF || ferror(stdout)) {
		gp_err("sass: writing stdout: %s", strerror(errno));
		return GP_EIO;
	}
	return GP_OK;
}

/* OUT must not be FILE, by name or by inode (a hard link or ./FILE). */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!strcmp(a, b))
		return 1;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static int cmd_patch(struct gp_cubin *c, const struct sass_opts *o)
{
	long index;
	int f;
	uint32_t value, old;
	struct gp_insn w;

	if (!o->kernel || !o->index || !o->field || !o->value || !o->out) {
		gp_err("sass patch: needs --kernel, --index, --field, --value and -o");
		return GP_EUSAGE;
	}
	if (gp_parse_long(o->index, 0, LONG_MAX, &index) < 0) {
		gp_err("sass patch: bad --index '%s'", o->index);
		return GP_EUSAGE;
	}
	if ((f = gp_insn_field_by_name(o->field)) < 0) {
		gp_err("sass patch: unknown field '%s' (see gpuprobe sass --help)", o->field);
		return GP_EUSAGE;
	}
	if (parse_value(o->value, (enum gp_insn_field)f, &value) < 0) {
		gp_err("sass patch: bad --value '%s'", o->value);
		return GP_EUSAGE;
	}
	if (same_file(o->file, o->out)) {
		gp_err("sass patch: -o %s is the input; write the patched cubin elsewhere", o->out);
		return GP_EUSAGE;
	}
	if (gp_sass_insn(c, o->kernel, (size_t)index, &w) < 0 ||
	    gp_sass_patch(c, o->kernel, (size_t)index, (enum gp_insn_field)f, value, o->force) < 0) {
		gp_err("sass patch: %s: %s", o->file, gp_cubin_error(c));
		return GP_EUSAGE;
	}
	old = gp_insn_get(w, (enum gp_insn_field)f);
	if (gp_cubin_save(c, o->out) < 0) {
		gp_err("sass patch: %s", gp_cubin_error(c));
		return GP_EIO;
	}
	gp_info("%s: %s[%ld].%s %u -> %u\n", o->out, o->kernel, index, gp_insn_fields[f].name, old, value);
	return GP_OK;
}

int gp_sass_main(int argc, char **argv)
{
	struct sass_opts o;
	struct gp_cubin c;
	int rc;

	if (argc > 1 && !strcmp(argv[1], "solve"))
		return gp_sass_solve_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "ffma"))
		return gp_sass_ffma_main(argc - 1, argv + 1);
	if (parse_args(argc, argv, &o) < 0)
		return GP_EUSAGE;
	if (o.help) {
		usage(stdout);
		return GP_OK;
	}
	if (!o.cmd || (strcmp(o.cmd, "dump") && strcmp(o.cmd, "patch"))) {
		gp_err("sass: %s (gpuprobe sass --help)", o.cmd ? "unknown command (dump, patch, solve, ffma)" : "missing command");
		return GP_EUSAGE;
	}
	if (!o.file) {
		gp_err("sass %s: missing FILE", o.cmd);
		return GP_EUSAGE;
	}
	if ((rc = gp_cubin_load_cmd(&c, o.file, "sass")))
		return rc;
	rc = !strcmp(o.cmd, "dump") ? cmd_dump(&c, &o) : cmd_patch(&c, &o);
	gp_cubin_close(&c);
	return rc;
}
