/* solve_cli.c — `gpuprobe sass solve`: sample instructions from a cubin, write every single-bit
 * flip of each as raw words, have nvdisasm disassemble them (jobs in parallel, under a deadline)
 * and hand the text to the solver (solver.c) for the field map. nvdisasm is run on the GPU
 * machine; a listing captured there can be fed back with --listing, which is how the host tests
 * run (tests/solver/). If nvdisasm rejects a batch (an invalid word can stop it), each sample and
 * then each word is retried alone, so one bad encoding costs only itself. */
#include "sass/solver.h"
#include "sass/cubin.h"
#include "gp.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

struct solve_opts {
	const char *file, *kernel, *out, *listing, *emit, *nvdisasm, *save;
	long max_samples, max_seconds;
};

/* Sample instructions: the first of every distinct opcode field value in the kernels (a
 * comma-separated list, taken in order); 0 and c->err when a kernel does not exist. */
static size_t pick_samples(struct gp_cubin *c, const char *kernels, struct gp_insn *s, size_t max)
{
	char name[256];
	size_t n = 0;

	for (const char *p = kernels; *p; p += *p == ',') {
		size_t len = strcspn(p, ",");
		const struct gp_cubin_kernel *k;
		const unsigned char *t;

		snprintf(name, sizeof name, "%.*s", (int)len, p);
		p += len;
		if (!(k = gp_cubin_kernel(c, name)))
			return 0;
		t = gp_cubin_text(c, k);
		for (size_t i = 0; i < k->ninsn && n < max; i++) {
			struct gp_insn w = gp_insn_load(t + i * GP_INSN_BYTES);
			int seen = 0;
			for (size_t j = 0; j < n && !seen; j++)
				seen = gp_insn_get(s[j], GP_F_OPCODE) == gp_insn_get(w, GP_F_OPCODE);
			if (!seen)
				s[n++] = w;
		}
	}
	return n;
}

static unsigned char *variants(const struct gp_insn *s, size_t n, size_t *len)
{
	unsigned char *buf = malloc(n * GP_SOLVE_VARIANTS * GP_INSN_BYTES);

	if (!buf)
		return NULL;
	for (size_t i = 0; i < n; i++)
		for (int j = -1; j < 128; j++) {
			struct gp_insn w = s[i];
			if (j >= 0)
				gp_insn_set_bits(&w, (unsigned)j, 1, !gp_insn_bits(w, (unsigned)j, 1));
			gp_insn_store(buf + (i * GP_SOLVE_VARIANTS + (size_t)(j + 1)) * GP_INSN_BYTES, w);
		}
	*len = n * GP_SOLVE_VARIANTS * GP_INSN_BYTES;
	return buf;
}

static int write_all(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	int ok = f && fwrite(p, 1, n, f) == n;

	if (f && fclose(f))
		ok = 0;
	return ok ? 0 : -1;
}

/* The disassembly the map was derived from, as a listing --listing reads back (one line per
 * variant that disassembled, at offset 16 x its index): a committed real nvdisasm output for the
 * host tests, and evidence beside the map. */
static int save_listing(const char *path, const char (*lines)[GP_SOLVE_TEXT], size_t n)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (lines[i][0])
			fprintf(f, "        /*%04zx*/ %s ;\n", i * 16, lines[i]);
	return fclose(f);
}

/* nvdisasm on raw words; the listing (malloc'd) or NULL when nvdisasm failed. */
static char *disasm(const char *nvdisasm, int sm, const void *words, size_t len)
{
	char path[] = "/tmp/gpuprobe-solve-XXXXXX", cmd[1024], *out = NULL;
	size_t n = 0, cap = 0;
	FILE *p;
	int fd = mkstemp(path), st;

	if (fd < 0)
		return NULL;
	close(fd);
	if (write_all(path, words, len) < 0)
		goto done;
	snprintf(cmd, sizeof cmd, "'%s' -b SM%d '%s' 2>/dev/null", nvdisasm, sm, path);
	if (!(p = popen(cmd, "r")))
		goto done;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			char *q = realloc(out, cap = cap * 2 + 8192);
			if (!q)
				break;
			out = q;
		}
		size_t got = fread(out + n, 1, 4096, p);
		if (!got)
			break;
		n += got;
	}
	st = pclose(p);
	if (out)
		out[n] = '\0';
	if (st != 0) {
		free(out);
		out = NULL;
	}
done:
	unlink(path);
	return out;
}

/* The fallback when nvdisasm rejects the batch: one chain of words per sample, up to SOLVE_JOBS
 * nvdisasm processes at once. nvdisasm stops at the first word it cannot decode and names its
 * address ("... at address 0x00000120"), so a rejected chain loses that word (unknown to the
 * solver: "rejected") and runs again without it: a sample costs one run per rejected flip, not
 * one per word (word by word, the first H100 attempt did not finish its 3096 words inside a
 * 10-minute call, and on sm_100 nvdisasm needs about half a second a word). A failure that names
 * no address splits the chain into single words. Words left when the time budget runs out are
 * unknown to the solver. */
#define SOLVE_JOBS 16

struct chain {
	size_t *word;           /* variant indices still to disassemble, in order */
	size_t n;
};

struct job {
	pid_t pid;
	struct chain ch;
	char in[32], out[32];
};

static int start_job(struct job *j, const char *nvdisasm, int sm, const unsigned char *buf)
{
	unsigned char *words = malloc(j->ch.n * GP_INSN_BYTES);
	char smname[16];
	int fd, rc = -1;

	snprintf(j->in, sizeof j->in, "/tmp/gpsolve-in-XXXXXX");
	snprintf(j->out, sizeof j->out, "/tmp/gpsolve-out-XXXXXX");
	if (!words || (fd = mkstemp(j->in)) < 0)
		goto done;
	close(fd);
	if ((fd = mkstemp(j->out)) < 0) {
		unlink(j->in);
		goto done;
	}
	close(fd);
	for (size_t i = 0; i < j->ch.n; i++)
		memcpy(words + i * GP_INSN_BYTES, buf + j->ch.word[i] * GP_INSN_BYTES, GP_INSN_BYTES);
	snprintf(smname, sizeof smname, "SM%d", sm);
	if (write_all(j->in, words, j->ch.n * GP_INSN_BYTES) < 0 || (j->pid = fork()) < 0) {
		unlink(j->in);
		unlink(j->out);
		goto done;
	}
	if (j->pid == 0) {
		int o = open(j->out, O_WRONLY | O_TRUNC);
		if (o >= 0) {
			dup2(o, STDOUT_FILENO);
			dup2(o, STDERR_FILENO);
		}
		execlp(nvdisasm, nvdisasm, "-b", smname, j->in, (char *)NULL);
		_exit(127);
	}
	rc = 0;
done:
	free(words);
	return rc;
}

/* The word an error names: its index in the chain, or -1 when the text names no address in it. */
static long bad_word(const char *text, size_t n)
{
	const char *a = text ? strstr(text, "at address 0x") : NULL;
	unsigned long off;
	char *end;

	if (!a)
		return -1;
	errno = 0;
	off = strtoul(a + strlen("at address 0x"), &end, 16);
	return errno || off % GP_INSN_BYTES || off / GP_INSN_BYTES >= n ? -1 : (long)(off / GP_INSN_BYTES);
}

/* A finished run: the chain's texts, or the chain again without its bad word (returns 1: run it
 * again), or split into single words (returns 2: *rest holds the words to queue one by one). */
static int finish_job(struct job *j, int status, char (*lines)[GP_SOLVE_TEXT], char *first_err, size_t errlen)
{
	char *t = gp_read_file(j->out, NULL), (*one)[GP_SOLVE_TEXT] = NULL;
	int again = 0;
	long bad;

	unlink(j->in);
	unlink(j->out);
	j->pid = 0;
	if (t && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		if ((one = calloc(j->ch.n, sizeof *one)))
			gp_solver_parse_listing(t, one, j->ch.n);
		for (size_t i = 0; one && i < j->ch.n; i++)
			memcpy(lines[j->ch.word[i]], one[i], GP_SOLVE_TEXT);
		j->ch.n = 0;
	} else if (j->ch.n > 1 && (bad = bad_word(t, j->ch.n)) >= 0) {
		memmove(j->ch.word + bad, j->ch.word + bad + 1, (j->ch.n - (size_t)bad - 1) * sizeof *j->ch.word);
		j->ch.n--;
		again = 1;
	} else if (j->ch.n > 1) {
		again = 2;
	} else {
		j->ch.n = 0;
	}
	if (t && !(WIFEXITED(status) && WEXITSTATUS(status) == 0) && !first_err[0]) {
		const char *e = strstr(t, "error");
		while (e && e > t && e[-1] != '\n')
			e--;
		e = e ? e : t;
		snprintf(first_err, errlen, "%.*s", (int)strcspn(e, "\n"), e);
	}
	free(one);
	free(t);
	return again;
}

static int per_chain(const struct solve_opts *o, int sm, const unsigned char *buf, size_t nwords,
		     char (*lines)[GP_SOLVE_TEXT])
{
	struct job jobs[SOLVE_JOBS] = { { 0 } };
	const double deadline = gp_now() + (double)o->max_seconds;
	/* Chains as (first word, length): the samples, then at most one requeue per dropped word and
	 * one single per word split off. */
	const size_t cap = 3 * nwords + 1;
	size_t *queue = malloc(2 * cap * sizeof *queue);
	size_t *words = malloc(nwords * sizeof *words), head = 0, tail = 0, running = 0, runs = 0, left = 0;
	char first_err[256] = "";

	if (!queue || !words) {
		free(queue);
		free(words);
		return -1;
	}
	for (size_t w = 0; w < nwords; w++)
		words[w] = w;
	for (size_t w = 0; w < nwords; w += GP_SOLVE_VARIANTS) {
		queue[2 * tail] = w;
		queue[2 * tail++ + 1] = nwords - w < GP_SOLVE_VARIANTS ? nwords - w : GP_SOLVE_VARIANTS;
	}
	for (;;) {
		for (size_t k = 0; k < SOLVE_JOBS && head < tail && gp_now() < deadline; k++) {
			struct job *j = &jobs[k];
			if (j->pid)
				continue;
			j->ch.word = words + queue[2 * head];
			j->ch.n = queue[2 * head + 1];
			if (start_job(j, o->nvdisasm, sm, buf) < 0)
				break;
			head++;
			running++;
			runs++;
		}
		if (!running)
			break;
		int st, again;
		pid_t pid = wait(&st);
		if (pid < 0)
			break;
		for (size_t k = 0; k < SOLVE_JOBS; k++) {
			struct job *j = &jobs[k];
			if (j->pid != pid)
				continue;
			running--;
			again = finish_job(j, st, lines, first_err, sizeof first_err);
			/* The chain (its words are a slice of `words`) goes back on the queue. */
			for (size_t i = 0; again && i < (again == 1 ? 1 : j->ch.n) && tail < cap; i++) {
				queue[2 * tail] = (size_t)(j->ch.word - words) + (again == 1 ? 0 : i);
				queue[2 * tail++ + 1] = again == 1 ? j->ch.n : 1;
			}
		}
	}
	for (size_t q = head; q < tail; q++)
		left += queue[2 * q + 1];
	if (first_err[0])
		gp_info("sass solve: nvdisasm refused some words, e.g.: %s\n", first_err);
	gp_info("sass solve: %zu nvdisasm runs over %zu words\n", runs, nwords);
	if (left)
		gp_err("sass solve: time budget of %ld s spent: %zu of %zu words not disassembled (raise --max-seconds)",
		       o->max_seconds, left, nwords);
	free(queue);
	free(words);
	return 0;
}

/* Listing text for every variant: one batch, else per word in parallel (offsets rebased). */
static int run_disasm(const struct solve_opts *o, int sm, const unsigned char *buf, size_t nwords,
		      char (*lines)[GP_SOLVE_TEXT])
{
	char *all = disasm(o->nvdisasm, sm, buf, nwords * GP_INSN_BYTES);
	char *probe;

	if (all) {
		gp_solver_parse_listing(all, lines, nwords);
		free(all);
		return 0;
	}
	/* The unmodified first sample must disassemble, or nvdisasm is missing or unusable. */
	probe = disasm(o->nvdisasm, sm, buf, GP_INSN_BYTES);
	if (!probe) {
		gp_err("sass solve: cannot run '%s -b SM%d' on an unmodified instruction (set --nvdisasm)",
		       o->nvdisasm, sm);
		return -1;
	}
	free(probe);
	gp_info("sass solve: nvdisasm rejected the batch; disassembling sample by sample (%d at a time)\n",
		SOLVE_JOBS);
	return per_chain(o, sm, buf, nwords, lines);
}

static int solve_args(int argc, char **argv, struct solve_opts *o)
{
	memset(o, 0, sizeof *o);
	o->nvdisasm = getenv("NVDISASM") && *getenv("NVDISASM") ? getenv("NVDISASM") : "nvdisasm";
	o->max_samples = 64;
	o->max_seconds = 180;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char **dst = !strcmp(a, "--kernel") ? &o->kernel
				   : !strcmp(a, "-o") || !strcmp(a, "--out") ? &o->out
				   : !strcmp(a, "--listing") ? &o->listing
				   : !strcmp(a, "--emit") ? &o->emit
				   : !strcmp(a, "--save-listing") ? &o->save
				   : !strcmp(a, "--nvdisasm") ? &o->nvdisasm : NULL;
		if (!strcmp(a, "--max-seconds")) {
			if (i + 1 >= argc || gp_parse_long(argv[++i], 1, 86400, &o->max_seconds) < 0) {
				gp_err("sass solve: --max-seconds needs a number of seconds");
				return -1;
			}
			continue;
		}
		if (!strcmp(a, "--max-samples")) {
			if (i + 1 >= argc || gp_parse_long(argv[++i], 1, 4096, &o->max_samples) < 0) {
				gp_err("sass solve: bad --max-samples");
				return -1;
			}
			continue;
		}
		if (dst) {
			if (i + 1 >= argc) {
				gp_err("sass solve: %s needs a value", a);
				return -1;
			}
			*dst = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			gp_err("sass solve: unknown option '%s'", a);
			return -1;
		} else if (!o->file) {
			o->file = a;
		} else {
			gp_err("sass solve: unexpected argument '%s'", a);
			return -1;
		}
	}
	if (!o->file || !o->kernel || (!o->out && !o->emit)) {
		gp_err("usage: gpuprobe sass solve CUBIN --kernel K[,K...] -o MAP.csv [--listing FILE] [--emit RAW] "
		       "[--save-listing FILE] [--nvdisasm PATH] [--max-samples N]");
		return -1;
	}
	return 0;
}

int gp_sass_solve_main(int argc, char **argv)
{
	struct solve_opts o;
	struct gp_cubin c;
	struct gp_insn *samples = NULL;
	unsigned char *buf = NULL;
	char (*lines)[GP_SOLVE_TEXT] = NULL, msg[2048];
	struct gp_field_row *rows = NULL;
	size_t ns, len, nrows = 0, cap, checked;
	int rc, bad;
	FILE *f;

	if (solve_args(argc, argv, &o) < 0)
		return GP_EUSAGE;
	if ((rc = gp_cubin_load_cmd(&c, o.file, "sass solve")))
		return rc;
	rc = GP_EFAIL;
	samples = malloc((size_t)o.max_samples * sizeof *samples);
	if (!samples)
		goto done;
	if (!(ns = pick_samples(&c, o.kernel, samples, (size_t)o.max_samples))) {
		gp_err("sass solve: %s", c.err[0] ? gp_cubin_error(&c) : "no instructions to sample");
		rc = GP_EUSAGE;
		goto done;
	}
	if (!(buf = variants(samples, ns, &len)))
		goto done;
	if (o.emit) {
		if (write_all(o.emit, buf, len) < 0) {
			gp_err("sass solve: writing %s: %s", o.emit, strerror(errno));
			rc = GP_EIO;
			goto done;
		}
		gp_info("%s: %zu samples x %d variants (raw words for nvdisasm -b SM%d)\n", o.emit, ns, GP_SOLVE_VARIANTS, c.sm);
		if (!o.out) {
			rc = GP_OK;
			goto done;
		}
	}
	lines = calloc(ns * GP_SOLVE_VARIANTS, sizeof *lines);
	rows = malloc((cap = ns * 160) * sizeof *rows);
	if (!lines || !rows)
		goto done;
	if (o.listing) {
		size_t tl;
		char *text = gp_read_file(o.listing, &tl);
		if (!text) {
			gp_err("sass solve: %s: %s", o.listing, strerror(errno));
			rc = GP_EIO;
			goto done;
		}
		gp_solver_parse_listing(text, lines, ns * GP_SOLVE_VARIANTS);
		free(text);
	} else if (run_disasm(&o, c.sm, buf, ns * GP_SOLVE_VARIANTS, lines) < 0) {
		rc = GP_EUSAGE;
		goto done;
	}
	if (o.save && save_listing(o.save, (const char(*)[GP_SOLVE_TEXT])lines, ns * GP_SOLVE_VARIANTS)) {
		gp_err("sass solve: writing %s: %s", o.save, strerror(errno));
		rc = GP_EIO;
		goto done;
	}
	for (size_t s = 0; s < ns; s++)
		nrows += gp_solver_derive((const char(*)[GP_SOLVE_TEXT])(lines + s * GP_SOLVE_VARIANTS), rows + nrows,
					  cap - nrows);
	bad = gp_solver_crosscheck(c.sm, rows, nrows, &checked, msg, sizeof msg);
	if (gp_insn_isa(c.sm))
		gp_info("sass solve: %zu samples, %zu field rows; codec cross-check (%s): %zu compared, %d disagree\n%s",
			ns, nrows, gp_insn_isa(c.sm)->name, checked, bad, msg);
	else
		gp_info("sass solve: %zu samples, %zu field rows; sm_%d has no verified map in the codec to cross-check "
			"(verified: %s)\n", ns, nrows, c.sm, gp_insn_isa_names());
	f = strcmp(o.out, "-") ? fopen(o.out, "w") : stdout;
	if (!f || gp_solver_write_csv(f, c.sm, rows, nrows) < 0 || (f != stdout && fclose(f))) {
		gp_err("sass solve: writing %s: %s", o.out, strerror(errno));
		rc = GP_EIO;
		goto done;
	}
	rc = bad ? GP_EVALID : GP_OK;
done:
	free(samples);
	free(buf);
	free(lines);
	free(rows);
	gp_cubin_close(&c);
	return rc;
}
