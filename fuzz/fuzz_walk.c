/* fuzz_walk.c — the two walks behind the fuzz targets and the regression replay (fuzz_walk.h).
 *
 * Cubin: after gp_cubin_open accepts the bytes, touch everything the header promises is safe:
 * every kernel's instructions through the field codec (as `sass dump` does), every .nv.info*
 * section record by record, the attribute and EXIT-offset lookups, the relocation lookup of every
 * instruction, and a patch check plus an in-memory patch (as `sass patch` does). CSV: parse, read
 * as a suite (sweeps expanded, first and last point formatted), look up reference numbers as the
 * report does, then write the table and parse what was written: the same header and cells must
 * come back, or a result file would not survive its own reader. Inputs are copied into a buffer
 * of exactly their size, so a read one byte past the end is an ASan report. */
#include "fuzz_walk.h"

#include "experiment.h"
#include "gp.h"
#include "reference.h"
#include "suite.h"
#include "table.h"
#include "sass/cubin.h"
#include "sass/insn.h"
#include "sass/patch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *sink(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "w");
	return f;
}

/* ---------------------------------------------------------------- cubin */

static const unsigned attrs[] = {
	GP_EIATTR_PARAM_CBANK, GP_EIATTR_FRAME_SIZE, GP_EIATTR_KPARAM_INFO, GP_EIATTR_CBANK_PARAM_SIZE,
	GP_EIATTR_MAXREG_COUNT, GP_EIATTR_EXIT_INSTR_OFFSETS, GP_EIATTR_REGCOUNT, GP_EIATTR_SW_WAR,
};

/* What `sass dump` prints for one kernel: every word, its class, every field. */
static void dump_kernel(FILE *f, const struct gp_cubin *c, const struct gp_cubin_kernel *k)
{
	const unsigned char *t = gp_cubin_text(c, k);

	for (size_t i = 0; i < k->ninsn; i++) {
		struct gp_insn w = gp_insn_load(t + i * GP_INSN_BYTES);

		fprintf(f, "%s,%zu,0x%016llx,0x%016llx,%s", k->name, i, (unsigned long long)w.lo,
			(unsigned long long)w.hi, gp_insn_classes[gp_insn_classify(w)].name);
		for (int fi = 0; fi < GP_F_COUNT; fi++)
			fprintf(f, ",%u", gp_insn_get(w, (enum gp_insn_field)fi));
		for (int fi = 0; fi < GP_F_COUNT; fi++)
			fprintf(f, ",%d", gp_insn_field_is_reg_operand(w, (enum gp_insn_field)fi));
		fputc('\n', f);
		gp_cubin_reloc_in(c, k->text, i * GP_INSN_BYTES, GP_INSN_BYTES);
	}
}

static void walk_nvinfo(FILE *f, const struct gp_cubin *c)
{
	for (size_t s = 0; s < c->nsec; s++) {
		struct gp_nvinfo r;
		size_t pos = 0;

		if (strncmp(c->sec[s].name, ".nv.info", 8))
			continue;
		while (gp_cubin_nvinfo_next(c, s, &pos, &r) == 1) {
			const char *n = gp_eiattr_name(r.attr);
			unsigned sum = 0;
			for (size_t i = 0; r.payload && i < r.len; i++)
				sum += r.payload[i];
			fprintf(f, "%s %u %u %u %zu %u\n", n ? n : "?", r.format, r.attr, r.value, r.len, sum);
		}
	}
}

static const char *walk_kernel(FILE *f, struct gp_cubin *c, size_t i)
{
	const struct gp_cubin_kernel *k = &c->kern[i];
	uint32_t exits[16];
	struct gp_nvinfo r;
	struct gp_insn w;

	/* Two .text.<k> of one name (never from nvcc) are accepted; by name, the first one wins. */
	const struct gp_cubin_kernel *named = gp_cubin_kernel(c, k->name);

	if (named == NULL)
		return "gp_cubin_kernel does not find a kernel the reader listed";
	for (size_t a = 0; a < sizeof attrs / sizeof attrs[0]; a++)
		if (gp_cubin_kernel_attr(c, k, attrs[a], &r) == 0 && r.payload)
			fprintf(f, "%u:%zu\n", attrs[a], r.len);
	size_t n = gp_cubin_exit_offsets(c, k, exits, sizeof exits / sizeof exits[0]);
	for (size_t e = 0; e < n && e < sizeof exits / sizeof exits[0]; e++)
		fprintf(f, "exit %u\n", exits[e]);
	if (c->sm >= 70)
		dump_kernel(f, c, k);
	if (gp_sass_insn(c, k->name, 0, &w) < 0)
		return NULL; /* no instructions, or not a 128-bit ISA: refused, which is fine */
	for (int fi = 0; fi < GP_F_COUNT; fi++) {
		gp_sass_patch_check(c, k->name, 0, (enum gp_insn_field)fi, gp_insn_get(w, (enum gp_insn_field)fi), 0);
		gp_sass_patch_check(c, k->name, named->ninsn ? named->ninsn - 1 : 0, (enum gp_insn_field)fi, 1, 1);
	}
	if (gp_sass_patch(c, k->name, 0, GP_F_RD, GP_REG_RZ, 0) == 0) {
		struct gp_insn p;
		if (gp_sass_insn(c, k->name, 0, &p) < 0 || gp_insn_get(p, GP_F_RD) != GP_REG_RZ)
			return "a patch that was accepted did not change the instruction";
	}
	if (gp_sass_insn(c, k->name, named->ninsn, &w) == 0)
		return "gp_sass_insn accepted an index one past the last instruction";
	return NULL;
}

const char *gp_fuzz_cubin(const uint8_t *data, size_t size)
{
	FILE *f = sink();
	struct gp_cubin c;
	const char *bad = NULL;

	if (gp_cubin_open(&c, data, size) == 0) {
		walk_nvinfo(f, &c);
		for (size_t i = 0; i < c.nkern && !bad; i++)
			bad = walk_kernel(f, &c, i);
		if (!bad && gp_cubin_kernel(&c, "no such kernel \x01") != NULL)
			bad = "gp_cubin_kernel found a kernel that does not exist";
	} else if (!c.err[0]) {
		bad = "gp_cubin_open failed without an error message";
	}
	gp_cubin_close(&c);
	return bad;
}

/* ---------------------------------------------------------------- csv */

static void walk_suite(FILE *f, const struct gp_table *t)
{
	struct gp_suite s;
	char err[512];

	if (gp_suite_parse(t, &s, err, sizeof err))
		return;
	for (size_t i = 0; i < s.n; i++) {
		struct gp_sweep sw;
		struct gp_point pt;
		char buf[512];

		if (gp_sweep_init(&sw, &s.items[i], err, sizeof err))
			continue;
		gp_sweep_point(&sw, 0, &pt);
		gp_point_format(&pt, buf, sizeof buf);
		fprintf(f, "%s %zu %s\n", sw.exp->name, sw.npoints, buf);
		gp_sweep_point(&sw, sw.npoints - 1, &pt);
		gp_point_format(&pt, buf, sizeof buf);
		fprintf(f, "%s\n", buf);
		gp_sweep_free(&sw);
	}
	gp_suite_free(&s);
}

/* What the report does with configs/reference.csv: look numbers up by experiment and key. */
static void walk_reference(FILE *f, const struct gp_table *t)
{
	const char *gpu = NULL, *src = NULL, *v;

	v = gp_reference(t, "lat_ffma", "latency", &gpu, &src);
	fprintf(f, "%s %s %s\n", v ? v : "-", gpu ? gpu : "-", src ? src : "-");
}

static const char *cell(const struct gp_table *t, size_t i)
{
	return t->cells[i] ? t->cells[i] : "";
}

static const char *round_trip(const struct gp_table *t)
{
	static char why[256];
	char *buf = NULL, err[512];
	size_t len = 0;
	struct gp_table *u;
	FILE *m = open_memstream(&buf, &len);
	const char *bad = NULL;

	if (!m)
		return NULL; /* out of memory is not a finding */
	if (gp_table_write(t, m) || fclose(m)) {
		free(buf);
		return "gp_table_write failed on a memory stream";
	}
	u = gp_table_parse(buf, len, err, sizeof err);
	if (!u) {
		snprintf(why, sizeof why, "written table does not parse back: %.200s", err);
		bad = why;
	} else if (u->ncols != t->ncols || u->nrows != t->nrows) {
		snprintf(why, sizeof why, "round trip changed the shape: %zux%zu -> %zux%zu", t->nrows,
			 t->ncols, u->nrows, u->ncols);
		bad = why;
	} else {
		for (size_t c = 0; c < t->ncols && !bad; c++)
			if (strcmp(t->cols[c], u->cols[c])) {
				snprintf(why, sizeof why, "round trip changed column %zu", c);
				bad = why;
			}
		for (size_t i = 0; i < t->nrows * t->ncols && !bad; i++)
			if (strcmp(cell(t, i), cell(u, i))) {
				snprintf(why, sizeof why, "round trip changed row %zu column %zu", i / t->ncols,
					 i % t->ncols);
				bad = why;
			}
	}
	gp_table_free(u);
	free(buf);
	return bad;
}

const char *gp_fuzz_csv(const uint8_t *data, size_t size)
{
	FILE *f = sink();
	char err[512] = "";
	struct gp_table *t = gp_table_parse((const char *)data, size, err, sizeof err);
	const char *bad;
	double x;

	if (!t)
		return err[0] ? NULL : "gp_table_parse failed without an error message";
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++)
			if (gp_table_get_double(t, r, t->cols[c], &x) == 0)
				fprintf(f, "%g %zu\n", x, gp_table_line(t, r));
	walk_suite(f, t);
#ifndef GP_FUZZ_SKIP_REFERENCE /* hunting past the known gp_reference crash (fuzz/README.md) */
	walk_reference(f, t);
#endif
	bad = round_trip(t);
	gp_table_free(t);
	return bad;
}
