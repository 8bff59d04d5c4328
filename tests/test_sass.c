/* test_sass.c — the cubin codec, field codec, patcher and CLI on real nvcc cubins.
 *
 * nvcc compiles the templates in tests/sass/ for sm_75 … sm_90 at test time (env NVCC, scratch under
 * $BUILD/tests/tmp); the tests then assert what the template source implies: instruction
 * counts of the asm volatile chains, their dependent registers, REGCOUNT equal to what ptxas
 * reports with -v, EXIT where nvcc says the exits are. Malformed images are cut and corrupted
 * copies of the real ones, each held in a buffer of exactly its size so that a sanitizer build
 * catches any read past the end. Without nvcc every test skips and says why. */
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

static const int sms[] = { 75, 80, 86, 89, 90 };
#define NSM ((int)GP_ARRAY_SIZE(sms))
#define CHAIN_LEN 64    /* REP64 in chains.cu */
#define REP_LEN 16      /* REP16 in chains.cu */
#define FFMA_IMM 0x3F800001u

struct ptxas_regs {
	char name[64];
	int regs;
};

struct image {
	unsigned char *data;
	size_t size;
	char path[512];
	struct ptxas_regs regs[8];
	int nregs;
};

static struct {
	int have_nvcc;
	char why[512];
	char tmp[512];
	struct image chains[NSM], reloc[NSM];
} fx;

/* ---- fixtures: compile the templates once ---- */

static const char *env_or(const char *name, const char *def)
{
	const char *v = getenv(name);
	return v && *v ? v : def;
}

static int mkdir_p(const char *path)
{
	char buf[512];

	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0777) < 0 && errno != EEXIST ? -1 : 0;
}

/* "Compiling entry function 'k' for 'sm_90'" then "Used N registers". */
static void parse_ptxas_log(const char *path, struct image *im)
{
	FILE *f = fopen(path, "r");
	char line[512], cur[64] = "";

	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		const char *p = strstr(line, "entry function '");
		int n;

		if (p) {
			snprintf(cur, sizeof cur, "%s", p + strlen("entry function '"));
			cur[strcspn(cur, "'")] = '\0';
		} else if ((p = strstr(line, "Used ")) && sscanf(p, "Used %d registers", &n) == 1 &&
			   im->nregs < (int)GP_ARRAY_SIZE(im->regs)) {
			snprintf(im->regs[im->nregs].name, sizeof im->regs[0].name, "%s", cur);
			im->regs[im->nregs++].regs = n;
		}
	}
	fclose(f);
}

static int compile(const char *nvcc, const char *src, const char *flags, int sm, struct image *im)
{
	char cmd[2048], log[600], base[64];
	int len;
	char *data;

	snprintf(base, sizeof base, "%s", strrchr(src, '/') ? strrchr(src, '/') + 1 : src);
	base[strcspn(base, ".")] = '\0';
	len = snprintf(im->path, sizeof im->path, "%s/%s_sm%d.cubin", fx.tmp, base, sm);
	if (len < 0 || (size_t)len >= sizeof im->path) {
		snprintf(fx.why, sizeof fx.why, "scratch path too long under %.400s", fx.tmp);
		return -1;
	}
	snprintf(log, sizeof log, "%s.log", im->path);
	snprintf(cmd, sizeof cmd, "'%s' -cubin -O3 %s -Xptxas -v -arch=sm_%d -o '%s' '%s' 2>'%s'", nvcc,
		 flags, sm, im->path, src, log);
	if (system(cmd) != 0) {
		snprintf(fx.why, sizeof fx.why, "nvcc failed on %.200s for sm_%d (log: %.200s)", src, sm, log);
		return -1;
	}
	parse_ptxas_log(log, im);
	data = gp_read_file(im->path, &im->size);
	if (!data)
		return -1;
	im->data = malloc(im->size ? im->size : 1);
	memcpy(im->data, data, im->size);
	free(data);
	return 0;
}

/* Templates sit next to this file: tests/sass/ relative to where the build runs. */
static void template_path(char *buf, size_t n, const char *name)
{
	const char *file = __FILE__, *slash = strrchr(file, '/');
	int dir = slash ? (int)(slash - file) : 0;

	snprintf(buf, n, "%.*s%ssass/%s", dir, file, slash ? "/" : "", name);
}

static int group_setup(void **state)
{
	const char *nvcc = env_or("NVCC", "/usr/local/cuda/bin/nvcc");
	char chains[512], reloc[512];

	(void)state;
	snprintf(fx.tmp, sizeof fx.tmp, "%s/tests/tmp", env_or("BUILD", "build"));
	if (access(nvcc, X_OK) < 0) {
		snprintf(fx.why, sizeof fx.why, "nvcc not found at %s (set NVCC)", nvcc);
		fprintf(stderr, "test_sass: skipping: %s\n", fx.why);
		return 0;
	}
	if (mkdir_p(fx.tmp) < 0) {
		fprintf(stderr, "test_sass: cannot create %s: %s\n", fx.tmp, strerror(errno));
		return -1;
	}
	template_path(chains, sizeof chains, "chains.cu");
	template_path(reloc, sizeof reloc, "reloc.cu");
	for (int i = 0; i < NSM; i++) {
		if (compile(nvcc, chains, "", sms[i], &fx.chains[i]) < 0 ||
		    compile(nvcc, reloc, "-rdc=true", sms[i], &fx.reloc[i]) < 0) {
			fprintf(stderr, "test_sass: %s\n", fx.why);
			return -1;     /* nvcc exists but failed: that is a failure, not a skip */
		}
	}
	fx.have_nvcc = 1;
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	for (int i = 0; i < NSM; i++) {
		free(fx.chains[i].data);
		free(fx.reloc[i].data);
	}
	return 0;
}

#define NEED_NVCC()                                                            \
	do {                                                                   \
		if (!fx.have_nvcc) {                                           \
			fprintf(stderr, "test_sass: skipped: %s\n", fx.why);   \
			skip();                                                \
		}                                                              \
	} while (0)

static void open_image(struct gp_cubin *c, const struct image *im)
{
	int rc = gp_cubin_open(c, im->data, im->size);
	if (rc < 0)
		fail_msg("%s: %s", im->path, gp_cubin_error(c));
}

static const struct gp_cubin_kernel *must_kernel(struct gp_cubin *c, const char *name)
{
	const struct gp_cubin_kernel *k = gp_cubin_kernel(c, name);
	if (!k)
		fail_msg("%s", gp_cubin_error(c));
	return k;
}

static struct gp_insn insn_at(const struct gp_cubin *c, const struct gp_cubin_kernel *k, size_t i)
{
	return gp_insn_load(gp_cubin_text(c, k) + i * GP_INSN_BYTES);
}

static size_t count_opcode(const struct gp_cubin *c, const struct gp_cubin_kernel *k, uint32_t op)
{
	size_t n = 0;

	for (size_t i = 0; i < k->ninsn; i++)
		n += gp_insn_get(insn_at(c, k, i), GP_F_OPCODE) == op;
	return n;
}

/* ---- reader ---- */

static void test_header_and_kernels(void **state)
{
	static const char *const names[] = { "ffma_chain", "ffma_imm", "fmul_fadd", "iadd3_chain" };

	(void)state;
	NEED_NVCC();
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
	NEED_NVCC();
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
	NEED_NVCC();
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
	NEED_NVCC();
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
	NEED_NVCC();
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
	NEED_NVCC();
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
	NEED_NVCC();
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
	NEED_NVCC();
	for (int s = 0; s < NSM; s++) {
		const struct image *ims[] = { &fx.chains[s], &fx.reloc[s] };
		for (size_t m = 0; m < GP_ARRAY_SIZE(ims); m++) {
			struct gp_cubin c, d;
			char out[600];
			size_t n;
			int io;

			snprintf(out, sizeof out, "%s.rt", ims[m]->path);
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
	NEED_NVCC();
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
	NEED_NVCC();
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
	NEED_NVCC();
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
	NEED_NVCC();
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
	NEED_NVCC();
	struct gp_cubin c;
	struct gp_insn w;

	open_image(&c, &fx.chains[0]);
	assert_null(gp_cubin_kernel(&c, "missing_kernel"));
	assert_non_null(strstr(c.err, "missing_kernel"));
	assert_int_equal(gp_sass_insn(&c, "ffma", 0, &w), -1);     /* a prefix is not a name */
	assert_int_equal(gp_sass_insn(&c, "ffma_chain", 0, &w), 0);
	gp_cubin_close(&c);
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
	NEED_NVCC();
	const struct image *im = &fx.chains[NSM - 1];
	char csv[600], out[600], bad[600], idx[32];
	struct gp_cubin c, p;
	int io;

	snprintf(csv, sizeof csv, "%s.dump.csv", im->path);
	snprintf(out, sizeof out, "%s.patched", im->path);
	snprintf(bad, sizeof bad, "%s.bad", im->path);
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
		cmocka_unit_test(test_field_codec),
		cmocka_unit_test(test_header_and_kernels),
		cmocka_unit_test(test_regcount_matches_ptxas),
		cmocka_unit_test(test_exit_offsets_and_tail),
		cmocka_unit_test(test_ffma_chain),
		cmocka_unit_test(test_other_forms),
		cmocka_unit_test(test_control_fields_plausible),
		cmocka_unit_test(test_patch_changes_only_the_field),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_unsafe_patches_refused),
		cmocka_unit_test(test_relocation_refused),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_corrupt_headers),
		cmocka_unit_test(test_unknown_kernel),
		cmocka_unit_test(test_cli),
	};

	return cmocka_run_group_tests_name("sass", tests, group_setup, group_teardown);
}
