/* cli_test.h — what the tests that run bin/gpuprobe as a child share: a fresh temporary directory
 * per test (removed even when a test fails, read-only directories included), the captured result
 * of a run, the "exit code and exactly one 'gpuprobe: ' line on stderr" check, small file helpers,
 * a row appended to a CSV, and a snapshot of a directory tree (paths, modes, contents) to prove
 * earlier results untouched. Include after cmocka.h. */
#ifndef GP_CLI_TEST_H
#define GP_CLI_TEST_H

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gp.h"
#include "table.h"

struct result {
	int status;             /* exit status, or 128 + signal */
	char *out, *err;
	double seconds;
};

static __attribute__((unused)) const char *binary(void)
{
	const char *b = getenv("GPUPROBE");

	return b && *b ? b : "bin/gpuprobe";
}

static __attribute__((unused)) char *slurp(const char *path)
{
	char *s = gp_read_file(path, NULL);

	assert_non_null(s);
	return s;
}

/* Run the binary with args (NULL-terminated) and extra "KEY=VALUE" environment entries;
 * stdout and stderr are captured through files in dir. */
static __attribute__((unused)) struct result run_env(const char *dir, const char *const *env,
						      const char *const *args)
{
	char outp[PATH_MAX], errp[PATH_MAX];
	const char *argv[32] = { binary() };
	struct result r = { 0 };
	size_t n = 1;
	pid_t pid;
	int st;

	for (; args[n - 1]; n++) {
		assert_true(n < GP_ARRAY_SIZE(argv) - 1);
		argv[n] = args[n - 1];
	}
	argv[n] = NULL;
	snprintf(outp, sizeof outp, "%s/.stdout", dir);
	snprintf(errp, sizeof errp, "%s/.stderr", dir);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int in = open("/dev/null", O_RDONLY);
		int o = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int e = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (in < 0 || o < 0 || e < 0 || dup2(in, 0) < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(126);
		for (size_t i = 0; env && env[i]; i++)
			putenv((char *)env[i]);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	r.out = slurp(outp);
	r.err = slurp(errp);
	unlink(outp);
	unlink(errp);
	return r;
}



static __attribute__((unused)) void result_free(struct result *r)
{
	free(r->out);
	free(r->err);
}

static __attribute__((unused)) void show(const struct result *r)
{
	print_error("exit %d after %.2f s\n--- stdout:\n%s--- stderr:\n%s---\n", r->status, r->seconds,
		    r->out, r->err);
}

/* Exit status code and exactly one diagnostic line "gpuprobe: ...", holding want if given. */
static __attribute__((unused)) void one_line_error(const struct result *r, int code, const char *want)
{
	const char *nl = strchr(r->err, '\n');

	if (r->status != code || strncmp(r->err, "gpuprobe: ", 10) || !nl || nl[1] ||
	    (want && !strstr(r->err, want))) {
		show(r);
		fail_msg("expected exit %d and exactly one line 'gpuprobe: ...'%s%s on stderr", code,
			 want ? " naming " : "", want ? want : "");
	}
}

static __attribute__((unused)) int rm_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	if (type == FTW_DP || type == FTW_D)
		chmod(path, 0700); /* a test may leave a directory read-only */
	return remove(path);
}

static __attribute__((unused)) int chmod_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	if (type == FTW_D)
		chmod(path, 0700);
	return 0;
}

static __attribute__((unused)) int tmp_setup(void **state)
{
	char tmpl[] = "/tmp/gp_test.XXXXXX";
	char *d = mkdtemp(tmpl);

	if (!d)
		return -1;
	*state = gp_strdup(d);
	return *state ? 0 : -1;
}

static __attribute__((unused)) int tmp_teardown(void **state)
{
	nftw(*state, chmod_entry, 16, FTW_PHYS);
	nftw(*state, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(*state);
	return 0;
}

static __attribute__((unused)) void write_bytes(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static __attribute__((unused)) void write_file(const char *path, const char *text)
{
	write_bytes(path, text, strlen(text));
}

static __attribute__((unused)) int exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

static __attribute__((unused)) void snapshot_into(FILE *f, const char *dir)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort);

	assert_true(n >= 0);
	for (int i = 0; i < n; i++) {
		char p[PATH_MAX];
		struct stat st;

		if (strcmp(ents[i]->d_name, ".") && strcmp(ents[i]->d_name, "..")) {
			snprintf(p, sizeof p, "%s/%s", dir, ents[i]->d_name);
			assert_int_equal(lstat(p, &st), 0);
			if (S_ISDIR(st.st_mode)) {
				fprintf(f, "D %s %o\n", p, (unsigned)(st.st_mode & 07777));
				snapshot_into(f, p);
			} else {
				size_t len;
				char *c = gp_read_file(p, &len);
				assert_non_null(c);
				fprintf(f, "F %s %zu\n", p, len);
				fwrite(c, 1, len, f);
				fputc('\n', f);
				free(c);
			}
		}
		free(ents[i]);
	}
	free(ents);
}

/* Every path under dir with its type and content, in sorted order, as one string. */
static __attribute__((unused)) char *snapshot(const char *dir)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	snapshot_into(f, dir);
	fclose(f);
	return buf;
}

/* One row more in the CSV at path: each named column (pairs of column and value, NULL-terminated)
 * gets its value, every other column stays empty. It gives a copy of a committed run a row in a
 * state no current run has an example of (a point that faulted, one n/a at a size the suite
 * names), never a measured number. */
static __attribute__((unused)) void append_row(const char *path, const char *const *cells)
{
	char err[256], **row;
	struct gp_table *t = gp_table_load(path, err, sizeof err);

	if (!t)
		fail_msg("%s", err);
	row = calloc(t->ncols, sizeof *row);
	assert_non_null(row);
	for (size_t i = 0; cells[i]; i += 2) {
		const int c = gp_table_col(t, cells[i]);
		if (c < 0)
			fail_msg("%s has no column %s", path, cells[i]);
		row[c] = (char *)cells[i + 1];
	}
	assert_int_equal(gp_table_append(t, row), 0);
	assert_int_equal(gp_table_save(t, path), 0);
	free(row);
	gp_table_free(t);
}

#endif
