/* child_test.h — the gpuprobe binary as a child, for the tests of what a failed command leaves
 * behind (test_reliability.c) and of bad input (test_badinput.c). The child's stdout and stderr
 * are pipes, not files, so a file-size limit set for it (the full-disk simulation: RLIMIT_FSIZE
 * with SIGXFSZ ignored, writes fail with EFBIG) limits only what gpuprobe writes; it may lead its
 * own process group (a terminal's Ctrl-C) and is killed past CHILD_LIMIT_S. Also: a tree's
 * snapshot before and after, no temporary file left, a run directory as `run` leaves it.
 * Include after cmocka.h and cli_test.h. */
#ifndef GP_CHILD_TEST_H
#define GP_CHILD_TEST_H

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gp.h"
#include "experiment.h"
#include "run_dir_test.h"

#define SEED_CUBIN "fuzz/corpus/cubin/seed_sm90.cubin"
#define CHILD_LIMIT_S 120

struct spawn {
	const char *const *env; /* extra KEY=VALUE entries */
	long fsize;             /* RLIMIT_FSIZE in bytes for the child, < 0 for none */
	int own_group;          /* child leads its own process group (a terminal's Ctrl-C) */
};

struct proc {
	pid_t pid;
	int out, err;           /* read ends of the child's stdout / stderr */
};

static __attribute__((unused)) int no_gpu;
static __attribute__((unused)) int is_root;

static __attribute__((unused)) double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static __attribute__((unused)) struct proc start(const struct spawn *o, const char *const *args)
{
	const char *argv[32] = { binary() };
	int po[2], pe[2];
	struct proc p;
	size_t n = 1;

	for (; args[n - 1]; n++) {
		assert_true(n < GP_ARRAY_SIZE(argv) - 1);
		argv[n] = args[n - 1];
	}
	argv[n] = NULL;
	assert_int_equal(pipe(po), 0);
	assert_int_equal(pipe(pe), 0);
	fflush(NULL);
	p.pid = fork();
	assert_true(p.pid >= 0);
	if (p.pid == 0) {
		int in = open("/dev/null", O_RDONLY);
		if (in < 0 || dup2(in, 0) < 0 || dup2(po[1], 1) < 0 || dup2(pe[1], 2) < 0)
			_exit(126);
		close(po[0]);
		close(pe[0]);
		/* A test started from a background shell inherits SIGINT ignored; the child must see
		 * the signals it is sent. */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		if (o && o->own_group)
			setpgid(0, 0);
		if (o && o->fsize >= 0) {
			struct rlimit rl = { (rlim_t)o->fsize, (rlim_t)o->fsize };
			signal(SIGXFSZ, SIG_IGN); /* writes past the limit fail with EFBIG instead */
			if (setrlimit(RLIMIT_FSIZE, &rl))
				_exit(126);
		}
		for (size_t i = 0; o && o->env && o->env[i]; i++)
			putenv((char *)o->env[i]);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (o && o->own_group)
		setpgid(p.pid, p.pid); /* both sides, so a signal to the group cannot race the child */
	close(po[1]);
	close(pe[1]);
	p.out = po[0];
	p.err = pe[0];
	return p;
}

static __attribute__((unused)) void append(char **buf, size_t *len, const char *data, size_t n)
{
	char *nb = realloc(*buf, *len + n + 1);

	assert_non_null(nb);
	memcpy(nb + *len, data, n);
	*len += n;
	nb[*len] = '\0';
	*buf = nb;
}

/* The CPU seconds (user + system) the last child reaped by finish() used: what a test that
 * bounds the work of a command checks, since wall time also counts whatever else the machine
 * runs (CI runs test programs side by side, under sanitizers). */
static __attribute__((unused)) double child_cpu_seconds;

/* Read both pipes to their end, then reap the child; kill it if it outlives CHILD_LIMIT_S. */
static __attribute__((unused)) struct result finish(struct proc p, double t0)
{
	struct rusage ru;
	struct pollfd pf[2] = { { p.out, POLLIN, 0 }, { p.err, POLLIN, 0 } };
	struct result r = { 0 };
	size_t lo = 0, le = 0;
	int open_fds = 2, st;

	r.out = calloc(1, 1);
	r.err = calloc(1, 1);
	assert_true(r.out && r.err);
	while (open_fds) {
		char buf[4096];
		if (now() - t0 > CHILD_LIMIT_S) {
			kill(p.pid, SIGKILL);
			fail_msg("%s did not finish within %d s", binary(), CHILD_LIMIT_S);
		}
		if (poll(pf, 2, 1000) < 0 && errno != EINTR)
			fail_msg("poll: %s", strerror(errno));
		for (int i = 0; i < 2; i++) {
			if (pf[i].fd < 0 || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			ssize_t n = read(pf[i].fd, buf, sizeof buf);
			if (n > 0) {
				append(i ? &r.err : &r.out, i ? &le : &lo, buf, (size_t)n);
			} else {
				close(pf[i].fd);
				pf[i].fd = -1;
				open_fds--;
			}
		}
	}
	assert_int_equal(wait4(p.pid, &st, 0, &ru), p.pid);
	r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	r.seconds = now() - t0;
	child_cpu_seconds = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
			    (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
	return r;
}

static __attribute__((unused)) struct result run_opts(const struct spawn *o, const char *const *args)
{
	double t0 = now();

	return finish(start(o, args), t0);
}

#define RUN(...) run_opts(NULL, (const char *const[]){ __VA_ARGS__, NULL })
#define RUN_WITH(o, ...) run_opts((o), (const char *const[]){ __VA_ARGS__, NULL })

/* gnuplot replaced by /bin/true: charts "succeed" without files, so stderr holds only errors. */
static __attribute__((unused)) const char *const no_charts[] = { "GNUPLOT=/bin/true", NULL };
static __attribute__((unused)) const struct spawn quiet_charts = { no_charts, -1, 0 };

/* ---------------------------------------------------------------- files */

static __attribute__((unused)) int child_group_setup(void **state)
{
	void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);

	if (h)
		dlclose(h);
	no_gpu = !h;
	is_root = geteuid() == 0;
	if (access(binary(), X_OK) || access(SEED_CUBIN, R_OK)) {
		fprintf(stderr, "needs %s and %s (set GPUPROBE, run from the repository root after make)\n",
			binary(), SEED_CUBIN);
		return -1;
	}
	return 0;
}

static __attribute__((unused)) void assert_unchanged(const char *dir, const char *before, const struct result *r)
{
	char *after = snapshot(dir);

	if (strcmp(before, after)) {
		show(r);
		fail_msg("the command changed %s:\n--- before:\n%.3000s\n--- after:\n%.3000s", dir, before,
			 after);
	}
	free(after);
}

/* No *.tmp.* (gp_table_save, report) or *.tmpXXXXXX (cubin save) anywhere under dir. */
static __attribute__((unused)) int tmp_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	const char *base = path + ftw->base;

	if (strstr(base, ".tmp"))
		fail_msg("temporary file %s left behind", path);
	return 0;
}

static __attribute__((unused)) void assert_no_tmp(const char *dir)
{
	nftw(dir, tmp_entry, 16, FTW_PHYS);
}

#endif
