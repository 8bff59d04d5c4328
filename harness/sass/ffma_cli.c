/* ffma_cli.c — `gpuprobe sass ffma CUBIN --kernel K [-o OUT]`: an FFMA kernel's register-bank
 * statistics before and after the in-place patch of ffma.h, as CSV on stdout (a row each), and
 * the patched cubin written to OUT through a temporary name (never over CUBIN).
 *
 * The register bank count is the suite's measurement, never a constant: --banks N, or --run DIR
 * (register_banks of DIR/profile.csv), or by default configs/sass-ffma.csv's row for the cubin's
 * sm (the run it was measured in is named in the row's source). */
#include "sass/ffma.h"
#include "sass/sass.h"
#include "gp.h"
#include "table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gp_ffma_banks_from(const char *path, const char *key_col, const char *key, const char *val_col, int *banks,
		       char *err, size_t len)
{
	struct gp_table *t = gp_table_load(path, err, len);
	long row;
	double v;

	if (!t)
		return -1;
	row = gp_table_find(t, 0, key_col, key, NULL);
	if (row < 0 || gp_table_get_double(t, (size_t)row, val_col, &v) < 0 || !(v >= 1 && v <= 64) || v != (int)v) {
		snprintf(err, len, "%s: no usable %s for %s = %s", path, val_col, key_col, key);
		gp_table_free(t);
		return -1;
	}
	*banks = (int)v;
	gp_table_free(t);
	return 0;
}

int gp_ffma_banks_for_sm(int sm, int *banks, char *err, size_t len)
{
	char key[16];

	snprintf(key, sizeof key, "%d", sm);
	return gp_ffma_banks_from(GP_FFMA_CONFIG, "sm", key, "register_banks", banks, err, len);
}

static void put_stats(const char *stage, const struct gp_ffma_stats *s, int banks)
{
	printf("%s,%d,%zu,%zu,%.4f,%.4f,%.4f,%.4f,%zu,%zu,%zu,%zu,%zu\n", stage, banks, s->insn, s->ffma,
	       gp_ffma_loop_share(s), gp_ffma_reuse_share(s), s->reads ? (double)s->served / (double)s->reads : 0,
	       gp_ffma_conflicts_per_ffma(s), s->movable, s->renamed, s->reuse_set, s->loop_values, s->loop_moved);
}

struct ffma_args {
	const char *file, *kernel, *out, *banks, *run;
	int reuse, rename, loop;
};

static int parse(int argc, char **argv, struct ffma_args *a)
{
	memset(a, 0, sizeof *a);
	a->reuse = a->rename = a->loop = 1;
	for (int i = 1; i < argc; i++) {
		const char **v = !strcmp(argv[i], "--kernel") ? &a->kernel : !strcmp(argv[i], "-o") ? &a->out
			       : !strcmp(argv[i], "--banks") ? &a->banks : !strcmp(argv[i], "--run") ? &a->run : NULL;

		if (v && i + 1 < argc)
			*v = argv[++i];
		else if (v)
			return gp_err("sass ffma: %s needs a value", argv[i]), -1;
		else if (!strcmp(argv[i], "--no-reuse"))
			a->reuse = 0;
		else if (!strcmp(argv[i], "--no-rename"))
			a->rename = 0;
		else if (!strcmp(argv[i], "--no-loop"))
			a->loop = 0;
		else if (argv[i][0] == '-' || a->file)
			return gp_err("sass ffma: unexpected argument '%s'", argv[i]), -1;
		else
			a->file = argv[i];
	}
	if (!a->file || !a->kernel)
		return gp_err("sass ffma: needs CUBIN and --kernel"), -1;
	if (a->out && !strcmp(a->out, a->file))
		return gp_err("sass ffma: -o %s is the input; write the patched cubin elsewhere", a->out), -1;
	return 0;
}

static int banks_of(const struct ffma_args *a, int sm, int *banks)
{
	char err[512], path[4096];
	long v;

	if (a->banks) {
		if (gp_parse_long(a->banks, 1, 64, &v) < 0)
			return gp_err("sass ffma: bad --banks '%s' (1-64)", a->banks), -1;
		*banks = (int)v;
		return 0;
	}
	if (a->run)
		snprintf(path, sizeof path, "%s/profile.csv", a->run);
	if (a->run ? gp_ffma_banks_from(path, "key", "register_banks", "value", banks, err, sizeof err)
		   : gp_ffma_banks_for_sm(sm, banks, err, sizeof err))
		return gp_err("sass ffma: %s", err), -1;
	return 0;
}

int gp_sass_ffma_main(int argc, char **argv)
{
	struct ffma_args a;
	struct gp_cubin c;
	struct gp_ffma_stats before, after;
	struct gp_ffma_opts o;
	int rc;

	if (parse(argc, argv, &a) < 0)
		return GP_EUSAGE;
	if ((rc = gp_cubin_load_cmd(&c, a.file, "sass ffma")))
		return rc;
	o = (struct gp_ffma_opts){ .reuse = a.reuse, .rename = a.rename, .loop = a.loop };
	if (banks_of(&a, c.sm, &o.banks) < 0)
		rc = GP_EUSAGE;
	else if (gp_ffma_stats(&c, a.kernel, o.banks, &before) < 0 || gp_ffma_improve(&c, a.kernel, &o, &after) < 0) {
		gp_err("sass ffma: %s: %s", a.file, gp_cubin_error(&c));
		rc = GP_EINPUT;
	} else {
		puts("stage,banks,insn,ffma,loop_ffma_share,reuse_share,served_share,conflicts_per_ffma,movable,renamed,reuse_set,loop_values,loop_moved");
		put_stats("nvcc", &before, o.banks);
		put_stats("patched", &after, o.banks);
		if (a.out && gp_cubin_save(&c, a.out) < 0) {
			gp_err("sass ffma: %s", gp_cubin_error(&c));
			rc = GP_EIO;
		}
	}
	gp_cubin_close(&c);
	return rc;
}
