/* test_isolate.c — the measuring child without a GPU: the messages between it and the runner
 * (framing, the RUN job, what each outcome of a read means), and the whole protocol driven
 * through gp_isolation_start / gp_isolated_sweep with a stand-in backend (struct gp_iso_backend).
 *
 * The stand-in measures selftest_fault's points as their mode says: ok writes a row whose
 * sentinel is the measuring process's pid (so a test sees which child measured what) and whose
 * conditions cell counts the experiments that process finished before; trap reports a CUDA
 * error; oob dies by SIGSEGV without a word; hang never returns. What must hold:
 * one child serves experiment after experiment; an error, a death or a hang costs its point a
 * row and the child, and a fresh child measures the next point, in this experiment or the next;
 * a child that cannot open the GPU ends the sweep with GP_ENOGPU; an interrupt lets the point in
 * flight finish and writes no fault. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gp.h"
#include "experiment.h"
#include "ipc.h"
#include "isolate.h"
#include "suite.h"

/* ---------------------------------------------------------------- framing */

static void pair(int fds[2])
{
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
}

static void test_msg_round_trip(void **state)
{
	char *big = malloc(200000), *cells[4] = { "a,b", "", NULL, big };
	int fds[2];
	struct gp_msg m;
	pid_t pid;

	assert_non_null(big);
	memset(big, 'x', 199999);
	big[199999] = '\0';
	pair(fds);
	/* From another process: 200 KB does not fit the socket's buffer at once. */
	if ((pid = fork()) == 0)
		_exit(gp_msg_send(fds[1], GP_MSG_ROWS, 17, 5, cells, 4) ? 1 : 0);
	assert_int_equal(gp_msg_recv(fds[0], &m, gp_now() + 10, NULL), 0);
	assert_int_equal(m.h.type, GP_MSG_ROWS);
	assert_int_equal(m.h.point, 17);
	assert_int_equal(m.h.rc, 5);
	assert_int_equal(m.h.ncells, 4);
	assert_string_equal(m.cells[0], "a,b");
	assert_string_equal(m.cells[1], "");
	assert_string_equal(m.cells[2], ""); /* NULL goes as an empty cell */
	assert_string_equal(m.cells[3], big);
	gp_msg_free(&m);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	close(fds[1]);
	assert_int_equal(gp_msg_recv(fds[0], &m, gp_now() + 10, NULL), -1); /* EOF */
	close(fds[0]);
	free(big);
}

static void test_msg_blob(void **state)
{
	const unsigned char blob[] = { 0, 1, 0, 255, 0 };
	int fds[2];
	struct gp_msg m;

	pair(fds);
	assert_int_equal(gp_msg_send_blob(fds[1], GP_MSG_DESC, blob, sizeof blob), 0);
	assert_int_equal(gp_msg_recv(fds[0], &m, gp_now() + 10, NULL), 0);
	assert_int_equal(m.h.type, GP_MSG_DESC);
	assert_int_equal(m.h.ncells, 1);
	assert_memory_equal(m.cells[0], blob, sizeof blob);
	gp_msg_free(&m);
	close(fds[0]);
	close(fds[1]);
}

/* A message cut short, a cell longer than the limit: -1, never a half message. */
static void test_msg_malformed(void **state)
{
	struct gp_msg_hdr h = { GP_MSG_ROWS, 0, 0, 2 };
	uint32_t len = 3, huge = 1u << 30;
	int fds[2];
	struct gp_msg m;

	pair(fds);
	assert_int_equal(gp_write_fd(fds[1], &h, sizeof h), 0);
	assert_int_equal(gp_write_fd(fds[1], &len, sizeof len), 0);
	assert_int_equal(gp_write_fd(fds[1], "abc", 3), 0);
	close(fds[1]);
	assert_int_equal(gp_msg_recv(fds[0], &m, gp_now() + 10, NULL), -1);
	assert_null(m.cells);
	close(fds[0]);

	pair(fds);
	h.ncells = 1;
	assert_int_equal(gp_write_fd(fds[1], &h, sizeof h), 0);
	assert_int_equal(gp_write_fd(fds[1], &huge, sizeof huge), 0);
	assert_int_equal(gp_msg_recv(fds[0], &m, gp_now() + 10, NULL), -1);
	close(fds[0]);
	close(fds[1]);
}

/* Silence: -2 at the deadline, not before. A flag already set: -3 before reading a byte. A send
 * to a peer that is gone fails instead of raising SIGPIPE (which would end the runner). */
static void test_msg_deadline_interrupt_epipe(void **state)
{
	volatile sig_atomic_t flag = 1;
	char *cells[1] = { "x" };
	int fds[2];
	struct gp_msg m;
	double t0;

	pair(fds);
	t0 = gp_now();
	assert_int_equal(gp_msg_recv(fds[0], &m, t0 + 0.3, NULL), -2);
	assert_true(gp_now() - t0 >= 0.29);
	assert_int_equal(gp_msg_recv(fds[0], &m, gp_now() + 10, &flag), -3);
	close(fds[0]);
	assert_int_equal(gp_msg_send(fds[1], GP_MSG_ROWS, 0, 0, cells, 1), -1);
	close(fds[1]);
}

/* ---------------------------------------------------------------- the job */

static struct gp_suite_item item_of(const char *name, const char *const *values)
{
	struct gp_suite_item it = { .exp = gp_experiment_find(name) };

	assert_non_null(it.exp);
	for (size_t i = 0; values && i < it.exp->impl->nparams; i++)
		it.values[i] = (char *)values[i];
	return it;
}

/* What the child rebuilds is the runner's item: the same lists (none stays none, an empty one
 * stays empty) and so the same sweep, point for point. */
static void test_job_round_trip(void **state)
{
	const char *const vals[] = { "1 32 1:4:1", NULL, "" };
	struct gp_iso_job j = { .item = item_of("lat_ffma", vals), .first = 7, .done = 3, .total = 1000,
				.exp_index = 2, .nexp = 29 }, back;
	struct gp_sweep a, b;
	char err[256];
	int fds[2];
	struct gp_msg m;

	assert_true(j.item.exp->impl->nparams >= 3);
	pair(fds);
	assert_int_equal(gp_job_send(fds[1], &j), 0);
	assert_int_equal(gp_msg_recv(fds[0], &m, gp_now() + 10, NULL), 0);
	if (gp_job_decode(&m, &back, err, sizeof err))
		fail_msg("%s", err);
	gp_msg_free(&m);
	assert_ptr_equal(back.item.exp, j.item.exp);
	assert_int_equal(back.first, 7);
	assert_int_equal(back.done, 3);
	assert_int_equal(back.total, 1000);
	assert_int_equal(back.exp_index, 2);
	assert_int_equal(back.nexp, 29);
	assert_string_equal(back.item.values[0], "1 32 1:4:1");
	assert_null(back.item.values[1]);
	assert_non_null(back.item.values[2]);
	assert_string_equal(back.item.values[2], "");
	free(back.item.values[2]); /* an empty list fails the sweep; the rest must match */
	back.item.values[2] = NULL;
	j.item.values[2] = NULL;
	assert_int_equal(gp_sweep_init(&a, &j.item, err, sizeof err), 0);
	assert_int_equal(gp_sweep_init(&b, &back.item, err, sizeof err), 0);
	assert_int_equal(a.npoints, b.npoints);
	assert_int_equal(a.given, b.given);
	for (size_t p = 0; p < a.npoints; p++) {
		struct gp_point pa, pb;
		gp_sweep_point(&a, p, &pa);
		gp_sweep_point(&b, p, &pb);
		for (size_t k = 0; k < pa.nparams; k++)
			assert_string_equal(pa.str[k], pb.str[k]);
	}
	gp_sweep_free(&a);
	gp_sweep_free(&b);
	gp_job_free(&back);
	close(fds[0]);
	close(fds[1]);
}

static void expect_bad_job(uint32_t type, char *const *cells, uint32_t n, const char *want)
{
	struct gp_msg m = { { type, 0, 0, n }, (char **)cells };
	struct gp_iso_job j;
	char err[256] = "";

	assert_int_equal(gp_job_decode(&m, &j, err, sizeof err), -1);
	if (!strstr(err, want))
		fail_msg("error '%s' does not say '%s'", err, want);
}

static void test_job_rejected(void **state)
{
	char *unknown[] = { "no_such", "0", "1", "0", "1" };
	char *few[] = { "selftest_fault", "0", "1", "0", "1" };
	char *bad_value[] = { "selftest_fault", "0", "1", "0", "1", "", "ok" };
	char *bad_count[] = { "selftest_fault", "0", "-1", "0", "1", "", "=ok" };

	expect_bad_job(GP_MSG_ROWS, unknown, 5, "no job");
	expect_bad_job(GP_MSG_RUN, unknown, 5, "unknown experiment");
	expect_bad_job(GP_MSG_RUN, few, 5, "cells");
	expect_bad_job(GP_MSG_RUN, bad_value, 7, "bad value cell");
	expect_bad_job(GP_MSG_RUN, bad_count, 7, "bad count");
}

/* ---------------------------------------------------------------- classification */

static void test_classify(void **state)
{
	static const struct {
		int r;
		struct gp_msg_hdr h;
		size_t next;
		enum gp_iso_step want;
		int lives;
	} cases[] = {
		{ 0, { GP_MSG_ROWS, 4, 0, 18 }, 4, GP_ISO_ROWS, 1 },
		{ 0, { GP_MSG_ROWS, 4, 5, 0 }, 4, GP_ISO_ROWS, 1 },       /* a point without a row */
		{ 0, { GP_MSG_ROWS, 3, 0, 9 }, 4, GP_ISO_GARBAGE, 0 },    /* not the point in flight */
		{ 0, { GP_MSG_ROWS, 4, 0, 10 }, 4, GP_ISO_GARBAGE, 0 },   /* not whole rows */
		{ 0, { GP_MSG_ERROR, 4, GP_ECUDA, 1 }, 4, GP_ISO_FAULT, 0 },
		{ 0, { GP_MSG_ERROR, 4, GP_EFAIL, 1 }, 4, GP_ISO_FAULT, 0 },
		{ 0, { GP_MSG_ERROR, 0, GP_ENOGPU, 1 }, 4, GP_ISO_NOGPU, 0 },
		{ 0, { GP_MSG_DESC, 0, 0, 1 }, 4, GP_ISO_GARBAGE, 0 },
		{ 0, { GP_MSG_RUN, 4, 0, 6 }, 4, GP_ISO_GARBAGE, 0 },
		{ -1, { 0 }, 4, GP_ISO_DIED, 0 },
		{ -2, { 0 }, 4, GP_ISO_HANG, 0 },
		{ -3, { 0 }, 4, GP_ISO_INTERRUPT, 1 },
	};

	for (size_t i = 0; i < GP_ARRAY_SIZE(cases); i++) {
		enum gp_iso_step s = gp_iso_classify(cases[i].r, &cases[i].h, cases[i].next, 9);
		if (s != cases[i].want || gp_iso_child_lives(s) != cases[i].lives)
			fail_msg("case %zu: step %d (lives %d), want %d (lives %d)", i, s, gp_iso_child_lives(s),
				 cases[i].want, cases[i].lives);
	}
}

/* ---------------------------------------------------------------- the protocol, stand-in device */

static volatile sig_atomic_t intr;
static int ended; /* experiments this process finished (counted in the child) */
static int slow;  /* ok points take 0.4 s (set before the child starts) */

static int fake_open(struct gp_device *d, int ordinal, char *why, size_t whylen)
{
	memset(d, 0, sizeof *d);
	if (ordinal == 99) {
		snprintf(why, whylen, "no GPU 99 (stand-in)");
		return GP_ENOGPU;
	}
	snprintf(d->name, sizeof d->name, "Stand-in GPU");
	snprintf(d->slug, sizeof d->slug, "stand-in-gpu");
	d->sms = 7;
	return 0;
}

static void fake_close(struct gp_device *d)
{
}

static int fake_measure(struct gp_run *run, const struct gp_exp_impl *im, const struct gp_point *pt,
			struct gp_table *t)
{
	const char *mode = gp_point_str(pt, "mode");
	char err[128], cond[32];

	if (!strcmp(mode, "trap")) {
		gp_err("stand-in: illegal instruction");
		return GP_ECUDA;
	}
	if (!strcmp(mode, "oob")) {
		signal(SIGSEGV, SIG_DFL); /* cmocka's handler, inherited, would report it instead */
		raise(SIGSEGV);
	}
	while (!strcmp(mode, "hang"))
		pause();
	if (slow)
		nanosleep(&(struct timespec){ 0, 400000000 }, NULL);
	snprintf(cond, sizeof cond, "ended %d", ended);
	gp_row_begin(t);
	for (size_t c = 0; c < t->ncols; c++)
		gp_row_str(t, t->cols[c], "");
	gp_row_str(t, "process", gp_point_str(pt, "process")); /* as meas_row.c writes parameters */
	gp_row_str(t, "mode", mode);
	gp_row_int(t, "sentinel", getpid());
	gp_row_str(t, "status", "ok");
	gp_row_str(t, "conditions", cond);
	return gp_row_end(t, err, sizeof err) ? GP_EFAIL : 0;
}

static void fake_end(struct gp_run *run)
{
	ended++;
	gp_clear_error();
}

static const struct gp_iso_backend fake = { fake_open, fake_close, fake_measure, fake_end };

static struct gp_progress progress;

static struct gp_isolation stand_in(void)
{
	struct gp_isolation iso = { .reps = 1, .timeout_s = 1, .interrupted = &intr, .progress = &progress,
				    .backend = &fake, .fd = -1 };

	intr = 0;
	progress = (struct gp_progress){ .t0 = gp_now(), .total = 100, .nexp = 3 };
	return iso;
}

static void start(struct gp_isolation *iso)
{
	struct gp_kv kv[48];
	struct gp_device dev;
	char slug[64];
	size_t n = 0;
	int found = 0;

	assert_int_equal(gp_isolation_start(iso, kv, GP_ARRAY_SIZE(kv), &n, slug, sizeof slug, &dev), 0);
	assert_string_equal(slug, "stand-in-gpu");
	assert_string_equal(dev.name, "Stand-in GPU");
	assert_int_equal(dev.sms, 7);
	for (size_t i = 0; i < n; i++)
		found |= !strcmp(kv[i].key, "device_name") && !strcmp(kv[i].value, "Stand-in GPU");
	assert_true(found);
	assert_true(iso->child > 0);
}

/* Sweep selftest_fault over `processes` (NULL: its default, one) and `modes`; returns the
 * sweep's code, the table in *t. */
static int sweep_over(struct gp_isolation *iso, const char *processes, const char *modes, struct gp_table **t)
{
	const char *const vals[] = { processes, modes };
	const struct gp_suite_item it = item_of("selftest_fault", vals);

	*t = gp_exp_table(it.exp->impl);
	assert_non_null(*t);
	return gp_isolated_sweep(iso, &it, *t);
}

static int sweep(struct gp_isolation *iso, const char *modes, struct gp_table **t)
{
	return sweep_over(iso, NULL, modes, t);
}

static long pid_of(const struct gp_table *t, size_t r)
{
	assert_string_equal(gp_table_get(t, r, "status"), "ok");
	return atol(gp_table_get(t, r, "sentinel"));
}

static void expect_status(const struct gp_table *t, size_t r, const char *mode, const char *prefix)
{
	const char *st = gp_table_get(t, r, "status");

	assert_string_equal(gp_table_get(t, r, "mode"), mode);
	if (strncmp(st, prefix, strlen(prefix)))
		fail_msg("row %zu (%s): status '%s', want '%s…'", r, mode, st, prefix);
}

static void end(struct gp_isolation *iso)
{
	const pid_t pid = iso->child;

	gp_isolation_end(iso);
	assert_int_equal(iso->child, 0);
	if (pid > 0) /* reaped: no such child any more */
		assert_true(waitpid(pid, NULL, WNOHANG) < 0 && errno == ECHILD);
}

/* One child describes the device and measures three experiments, running the end hook between. */
static void test_one_child_for_the_run(void **state)
{
	struct gp_isolation iso = stand_in();
	struct gp_table *a, *b, *c;
	pid_t child;

	start(&iso);
	child = iso.child;
	assert_int_equal(sweep(&iso, "ok ok", &a), 0);
	assert_int_equal(sweep(&iso, "ok", &b), 0);
	assert_int_equal(sweep(&iso, "ok ok ok", &c), 0);
	assert_int_equal(a->nrows + b->nrows + c->nrows, 6);
	assert_int_equal(progress.done, 6);
	for (size_t r = 0; r < a->nrows; r++)
		assert_int_equal(pid_of(a, r), child);
	assert_int_equal(pid_of(b, 0), child);
	assert_int_equal(pid_of(c, 2), child);
	assert_string_equal(gp_table_get(a, 1, "conditions"), "ended 0");
	assert_string_equal(gp_table_get(b, 0, "conditions"), "ended 1");
	assert_string_equal(gp_table_get(c, 0, "conditions"), "ended 2");
	assert_int_not_equal(child, getpid());
	gp_table_free(a);
	gp_table_free(b);
	gp_table_free(c);
	end(&iso);
}

/* A process parameter: each value's points in one child, a fresh child for each value after the
 * first (the run's child measures the first), the rows in the sweep's order with the value; the
 * last value's child goes on with the next experiment. */
static void test_process_parameter(void **state)
{
	struct gp_isolation iso = stand_in();
	struct gp_table *t, *next;
	long pid[3];

	start(&iso);
	const pid_t first = iso.child;
	assert_int_equal(sweep_over(&iso, "1 2 3", "ok ok", &t), 0);
	assert_int_equal(t->nrows, 6);
	assert_int_equal(progress.done, 6);
	for (size_t v = 0; v < 3; v++) {
		char want[4];
		snprintf(want, sizeof want, "%zu", v + 1);
		pid[v] = pid_of(t, 2 * v);
		assert_int_equal(pid_of(t, 2 * v + 1), pid[v]); /* one process for the value's points */
		assert_string_equal(gp_table_get(t, 2 * v, "process"), want);
		assert_string_equal(gp_table_get(t, 2 * v + 1, "process"), want);
	}
	assert_int_equal(pid[0], first);
	assert_true(pid[1] != pid[0] && pid[2] != pid[0] && pid[2] != pid[1]);
	assert_int_equal(iso.child, pid[2]);
	assert_int_equal(sweep(&iso, "ok", &next), 0);
	assert_int_equal(pid_of(next, 0), pid[2]);
	/* The parameter's default, one value: the run's child measures it all. */
	gp_table_free(t);
	assert_int_equal(sweep_over(&iso, "4", "ok ok", &t), 0);
	assert_int_equal(pid_of(t, 0), pid[2]);
	assert_int_equal(pid_of(t, 1), pid[2]);
	gp_table_free(t);
	/* A fault inside a value's points: a fresh child finishes that value, another the next. */
	assert_int_equal(sweep_over(&iso, "1 2", "trap ok", &t), GP_ECUDA);
	assert_int_equal(t->nrows, 4);
	expect_status(t, 0, "trap", "fault:");
	expect_status(t, 2, "trap", "fault:");
	assert_true(pid_of(t, 1) != pid[2] && pid_of(t, 3) != pid_of(t, 1));
	gp_table_free(t);
	gp_table_free(next);
	end(&iso);
}

/* An experiment that sets fresh_process: measured by a child that has measured nothing before it
 * (a fresh one, unless the run's child has not measured yet); the next experiment stays with it. */
static void test_fresh_process(void **state)
{
	struct gp_isolation iso = stand_in();
	struct gp_experiment e = *gp_experiment_find("selftest_fault");
	struct gp_exp_impl im = *e.impl;
	const char *const vals[] = { NULL, "ok ok" };
	struct gp_suite_item it = item_of("selftest_fault", vals);
	struct gp_table *first_t, *plain, *fresh, *after;

	im.fresh_process = 1;
	e.impl = &im;
	it.exp = &e;
	start(&iso);
	const pid_t first = iso.child;
	assert_non_null(first_t = gp_exp_table(&im));
	assert_int_equal(gp_isolated_sweep(&iso, &it, first_t), 0); /* the run's child, untouched */
	assert_int_equal(pid_of(first_t, 0), first);
	assert_int_equal(pid_of(first_t, 1), first);
	assert_int_equal(sweep(&iso, "ok", &plain), 0);
	assert_int_equal(pid_of(plain, 0), first);
	assert_non_null(fresh = gp_exp_table(&im));
	assert_int_equal(gp_isolated_sweep(&iso, &it, fresh), 0);
	assert_int_equal(fresh->nrows, 2);
	assert_true(pid_of(fresh, 0) != first);
	assert_int_equal(pid_of(fresh, 1), pid_of(fresh, 0));
	assert_int_equal(waitpid(first, NULL, WNOHANG) < 0 && errno == ECHILD, 1); /* reaped */
	assert_int_equal(sweep(&iso, "ok", &after), 0);
	assert_int_equal(pid_of(after, 0), pid_of(fresh, 0));
	gp_table_free(first_t);
	gp_table_free(plain);
	gp_table_free(fresh);
	gp_table_free(after);
	end(&iso);
}

/* An error, a death and a hang each cost their point a row and the child; the points after them
 * are measured by fresh children, and the last of those goes on with the next experiment. */
static void test_faults_respawn(void **state)
{
	static const char *const want[][2] = {
		{ "ok", "ok" }, { "trap", "fault: stand-in: illegal instruction" }, { "ok", "ok" },
		{ "oob", "fault: the measuring process was killed by signal 11" }, { "ok", "ok" },
		{ "hang", "hang: no result within 1 s" }, { "ok", "ok" },
	};
	struct gp_isolation iso = stand_in();
	struct gp_table *t, *next;
	long pids[4];

	start(&iso);
	assert_int_equal(sweep(&iso, "ok trap ok oob ok hang ok", &t), GP_ECUDA);
	assert_int_equal(t->nrows, GP_ARRAY_SIZE(want));
	for (size_t r = 0; r < t->nrows; r++)
		expect_status(t, r, want[r][0], want[r][1]);
	for (size_t i = 0; i < 4; i++) {
		pids[i] = pid_of(t, 2 * i);
		for (size_t k = 0; k < i; k++)
			assert_int_not_equal(pids[i], pids[k]);
	}
	/* The failed rows keep their parameters and say they were not measured. */
	assert_string_equal(gp_table_get(t, 1, "sentinel"), "");
	assert_string_equal(gp_table_get(t, 1, "conditions"), "n/a: not measured");
	assert_int_equal(iso.child, pids[3]);
	assert_int_equal(sweep(&iso, "ok", &next), 0);
	assert_int_equal(pid_of(next, 0), pids[3]);
	assert_string_equal(gp_table_get(next, 0, "conditions"), "ended 1");
	gp_table_free(t);
	gp_table_free(next);
	end(&iso);
}

/* The middle experiment's last point faults: the one after it runs in a fresh child. */
static void test_fault_between_experiments(void **state)
{
	struct gp_isolation iso = stand_in();
	struct gp_table *a, *b, *c;

	start(&iso);
	assert_int_equal(sweep(&iso, "ok", &a), 0);
	assert_int_equal(sweep(&iso, "ok oob", &b), GP_ECUDA);
	assert_int_equal(iso.child, 0);
	assert_int_equal(sweep(&iso, "ok", &c), 0);
	expect_status(b, 1, "oob", "fault: the measuring process was killed by signal 11");
	assert_int_equal(pid_of(a, 0), pid_of(b, 0));
	assert_int_not_equal(pid_of(c, 0), pid_of(a, 0));
	assert_string_equal(gp_table_get(c, 0, "conditions"), "ended 0");
	gp_table_free(a);
	gp_table_free(b);
	gp_table_free(c);
	end(&iso);
}

/* A child that dies while idle costs no row: the next experiment gets a fresh one. */
static void test_idle_child_died(void **state)
{
	struct gp_isolation iso = stand_in();
	struct gp_table *t;
	pid_t first;

	start(&iso);
	first = iso.child;
	assert_int_equal(kill(first, SIGKILL), 0);
	usleep(100000);
	assert_int_equal(sweep(&iso, "ok", &t), 0);
	assert_int_equal(t->nrows, 1);
	assert_int_not_equal(pid_of(t, 0), first);
	gp_table_free(t);
	end(&iso);
}

/* No GPU: at the start, and for the fresh child after a fault (the sweep ends, no row for it). */
static void test_no_gpu(void **state)
{
	struct gp_isolation iso = stand_in();
	struct gp_kv kv[48];
	struct gp_device dev;
	struct gp_table *t;
	char slug[64];
	size_t n = 0;

	iso.device = 99;
	assert_int_equal(gp_isolation_start(&iso, kv, GP_ARRAY_SIZE(kv), &n, slug, sizeof slug, &dev), GP_ENOGPU);
	assert_int_equal(iso.child, 0);
	iso.device = 0;
	start(&iso);
	iso.device = 99; /* what the next child will find */
	assert_int_equal(sweep(&iso, "trap ok ok", &t), GP_ENOGPU);
	assert_int_equal(t->nrows, 1);
	expect_status(t, 0, "trap", "fault:");
	assert_int_equal(iso.child, 0);
	gp_table_free(t);
	end(&iso);
}

static void on_signal(int sig)
{
	intr = sig;
}

/* SIGTERM to the runner alone mid-point (here from a timer): the child is told, finishes the
 * point in flight, sends it and exits; no row says fault or hang, and nothing after it runs. */
static void test_interrupt(void **state)
{
	struct sigaction sa = { .sa_handler = on_signal }, old_term, old_alrm;
	struct itimerval at = { .it_value = { 1, 0 } }; /* the third point in flight */
	struct gp_isolation iso = stand_in();
	struct gp_table *t;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, &old_term); /* the child inherits it, as it inherits gp_catch_signals */
	sigaction(SIGALRM, &sa, &old_alrm);
	slow = 1;
	start(&iso);
	assert_int_equal(setitimer(ITIMER_REAL, &at, NULL), 0);
	assert_int_equal(sweep(&iso, "ok ok ok ok ok ok", &t), 0);
	slow = 0;
	assert_true(intr);
	assert_true(t->nrows >= 1 && t->nrows < 6);
	for (size_t r = 0; r < t->nrows; r++)
		expect_status(t, r, "ok", "ok");
	gp_table_free(t);
	/* Told to stop, the child is gone once its point is in. */
	assert_int_equal(iso.child, 0);
	end(&iso);
	/* An interrupted runner starts nothing more. */
	assert_int_equal(sweep(&iso, "ok", &t), 0);
	assert_int_equal(t->nrows, 0);
	assert_int_equal(iso.child, 0);
	gp_table_free(t);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGALRM, &old_alrm, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_msg_round_trip),
		cmocka_unit_test(test_msg_blob),
		cmocka_unit_test(test_msg_malformed),
		cmocka_unit_test(test_msg_deadline_interrupt_epipe),
		cmocka_unit_test(test_job_round_trip),
		cmocka_unit_test(test_job_rejected),
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_one_child_for_the_run),
		cmocka_unit_test(test_process_parameter),
		cmocka_unit_test(test_fresh_process),
		cmocka_unit_test(test_faults_respawn),
		cmocka_unit_test(test_fault_between_experiments),
		cmocka_unit_test(test_idle_child_died),
		cmocka_unit_test(test_no_gpu),
		cmocka_unit_test(test_interrupt),
	};

	gp_quiet = 1;
	return cmocka_run_group_tests_name("isolate", tests, NULL, NULL);
}
