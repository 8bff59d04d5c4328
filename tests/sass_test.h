/* sass_test.h — the real nvcc cubins the SASS codec tests work on (test_sass.c: reader, field codec,
 * malformed input; test_sass_patch.c: patcher and CLI): tests/sass/chains.cu and reloc.cu (-rdc)
 * for sm_75 … sm_120, each with its ptxas -v log. The Makefile compiles them once into
 * $GP_SASS_FIXTURES for every test pass (make test, asan, valgrind); run alone, a program
 * compiles them itself into a scratch directory with $NVCC. Each image is held in a buffer of
 * exactly its size, so a sanitizer build catches any read past the end. Without the cubins and
 * without nvcc every test skips and says why. Files a test writes go to fx.tmp, the program's
 * own scratch directory. Include after cmocka.h. */
#ifndef GP_SASS_TEST_H
#define GP_SASS_TEST_H

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gp.h"
#include "sass/cubin.h"
#include "sass/insn.h"

static const int sms[] = { 75, 80, 86, 89, 90, 100, 120 };
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
	int have_images;
	char why[600];
	char tmp[64];           /* this program's scratch directory */
	struct image chains[NSM], reloc[NSM];
} fx;

/* ---- fixtures: the cubins, built by make or compiled here once ---- */

/* "Compiling entry function 'k' for 'sm_90'" then "Used N registers". */
static __attribute__((unused)) void parse_ptxas_log(const char *path, struct image *im)
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

/* The image and its log from dir (made by the Makefile or by compile()). */
static __attribute__((unused)) int load_image(const char *dir, const char *base, int sm, struct image *im)
{
	char log[600];
	char *data;

	snprintf(im->path, sizeof im->path, "%s/%s_sm%d.cubin", dir, base, sm);
	snprintf(log, sizeof log, "%s.log", im->path);
	if (!(data = gp_read_file(im->path, &im->size))) {
		snprintf(fx.why, sizeof fx.why, "cannot read %.500s: %s", im->path, strerror(errno));
		return -1;
	}
	im->data = malloc(im->size ? im->size : 1);
	if (!im->data) {
		free(data);
		return -1;
	}
	memcpy(im->data, data, im->size);
	free(data);
	im->nregs = 0;
	parse_ptxas_log(log, im);
	return 0;
}

/* nvcc as the Makefile runs it (SASS_FIXTURES), into dir. */
static __attribute__((unused)) int compile(const char *nvcc, const char *dir, const char *base, const char *flags,
					    int sm)
{
	const char *file = __FILE__, *slash = strrchr(file, '/');
	const int len = slash ? (int)(slash - file) : 0;
	char cmd[2048];

	snprintf(cmd, sizeof cmd, "'%s' -cubin -O3 %s -Xptxas -v -arch=sm_%d -o '%s/%s_sm%d.cubin' '%.*s%ssass/%s.cu' 2>'%s/%s_sm%d.cubin.log'",
		 nvcc, flags, sm, dir, base, sm, len, file, slash ? "/" : "", base, dir, base, sm);
	if (system(cmd) != 0) {
		snprintf(fx.why, sizeof fx.why, "nvcc failed on tests/sass/%s.cu for sm_%d (log in %.300s)", base, sm, dir);
		return -1;
	}
	return 0;
}

static __attribute__((unused)) int rm_entry_sass(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	return remove(path);
}

static __attribute__((unused)) int sass_setup(void **state)
{
	const char *nvcc = getenv("NVCC") && *getenv("NVCC") ? getenv("NVCC") : "/usr/local/cuda/bin/nvcc";
	const char *built = getenv("GP_SASS_FIXTURES");
	const char *dir = built;

	(void)state;
	snprintf(fx.tmp, sizeof fx.tmp, "/tmp/gp_sass.XXXXXX");
	if (!mkdtemp(fx.tmp)) {
		fprintf(stderr, "cannot create a scratch directory: %s\n", strerror(errno));
		return -1;
	}
	if (!built || !*built) {
		if (access(nvcc, X_OK) < 0) {
			snprintf(fx.why, sizeof fx.why, "no cubins (GP_SASS_FIXTURES unset) and nvcc not found at %s (set NVCC)", nvcc);
			fprintf(stderr, "skipping: %s\n", fx.why);
			return 0;
		}
		dir = fx.tmp;
		for (int i = 0; i < NSM; i++)
			if (compile(nvcc, dir, "chains", "", sms[i]) || compile(nvcc, dir, "reloc", "-rdc=true", sms[i])) {
				fprintf(stderr, "%s\n", fx.why);
				return -1; /* nvcc exists but failed: that is a failure, not a skip */
			}
	}
	for (int i = 0; i < NSM; i++)
		if (load_image(dir, "chains", sms[i], &fx.chains[i]) || load_image(dir, "reloc", sms[i], &fx.reloc[i])) {
			fprintf(stderr, "%s\n", fx.why);
			return -1;
		}
	fx.have_images = 1;
	return 0;
}

static __attribute__((unused)) int sass_teardown(void **state)
{
	(void)state;
	for (int i = 0; i < NSM; i++) {
		free(fx.chains[i].data);
		free(fx.reloc[i].data);
	}
	nftw(fx.tmp, rm_entry_sass, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

#define NEED_IMAGES()                                                          \
	do {                                                                   \
		if (!fx.have_images) {                                         \
			fprintf(stderr, "skipped: %s\n", fx.why);              \
			skip();                                                \
		}                                                              \
	} while (0)

static __attribute__((unused)) void open_image(struct gp_cubin *c, const struct image *im)
{
	int rc = gp_cubin_open(c, im->data, im->size);
	if (rc < 0)
		fail_msg("%s: %s", im->path, gp_cubin_error(c));
}

static __attribute__((unused)) const struct gp_cubin_kernel *must_kernel(struct gp_cubin *c, const char *name)
{
	const struct gp_cubin_kernel *k = gp_cubin_kernel(c, name);
	if (!k)
		fail_msg("%s", gp_cubin_error(c));
	return k;
}

static __attribute__((unused)) struct gp_insn insn_at(const struct gp_cubin *c, const struct gp_cubin_kernel *k, size_t i)
{
	return gp_insn_load(gp_cubin_text(c, k) + i * GP_INSN_BYTES);
}

static __attribute__((unused)) size_t count_opcode(const struct gp_cubin *c, const struct gp_cubin_kernel *k, uint32_t op)
{
	size_t n = 0;

	for (size_t i = 0; i < k->ninsn; i++)
		n += gp_insn_get(insn_at(c, k, i), GP_F_OPCODE) == op;
	return n;
}

#endif
