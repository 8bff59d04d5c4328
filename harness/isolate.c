/* isolate.c — the measuring child, the runner's side of it, the watchdog.
 *
 * One child per run, not per experiment: a CUDA context costs about 0.4 s to make, once per
 * experiment that was a third of the quick suite. The child opens the device, sends its
 * description, then takes experiments (RUN: the suite item, the first point, the progress so far)
 * over its socket pair and answers each point with ROWS, or ERROR and exits (ipc.h). Between
 * experiments it lets go of what one kept (gp_measure_end), so each starts as in a fresh process.
 * A child that reports an error, dies or hangs is reaped (killed first if need be); the next
 * point, of this experiment or the next, starts a fresh one. An experiment whose first parameter
 * names a process (GP_PARAM_PROCESS) gets a fresh child for each of its values after the first:
 * the child stops at the end of its value's points (gp_sweep_process_end) and the runner reaps
 * it. An experiment that sets fresh_process (experiment.h) starts in a fresh child when the
 * current one has measured anything. The runner never calls CUDA: a context made before fork() is
 * unusable in the child. */
#include "gp.h"
#include "ipc.h"
#include "isolate.h"
#include "measure.h"
#include "needs.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static const struct gp_iso_backend gpu_backend = {
	.open = gp_device_open, .close = gp_device_close, .measure = gp_measure, .end = gp_measure_end,
};

static const struct gp_iso_backend *backend(const struct gp_isolation *iso)
{
	return iso->backend ? iso->backend : &gpu_backend;
}

static void point_row(struct gp_table *t, const struct gp_point *pt, const char *why)
{
	char err[128];

	gp_row_begin(t);
	for (size_t c = 0; c < t->ncols; c++)
		gp_row_str(t, t->cols[c], "");
	for (size_t k = 0; k < pt->nparams; k++)
		if (gp_table_col(t, pt->params[k].name) >= 0)
			gp_row_str(t, pt->params[k].name, pt->str[k]);
	gp_row_str(t, "status", why);
	if (gp_table_col(t, "conditions") >= 0)
		gp_row_str(t, "conditions", "n/a: not measured");
	if (gp_table_col(t, "throttle") >= 0)
		gp_row_str(t, "throttle", "n/a: not measured");
	if (gp_row_end(t, err, sizeof err))
		gp_err("internal: failed row: %s", err);
}

/* One point: the n/a row of the registry's guard when the GPU lacks what the experiment needs
 * (needs.h: an older sm, another sm than an arch-specific image's, no verified SASS map), else
 * the measurement. */
static int measure_point(const struct gp_isolation *iso, struct gp_run *run, const struct gp_experiment *e,
			 const struct gp_point *pt, struct gp_table *t)
{
	char why[256];

	if (gp_need_unmet(e->name, run->dev->cc_major * 10 + run->dev->cc_minor, why, sizeof why)) {
		point_row(t, pt, why);
		return 0;
	}
	return backend(iso)->measure(run, e->impl, pt, t);
}

static void progress_line(const struct gp_progress *pr, const struct gp_sweep *sw, size_t p, const char *desc)
{
	double el = gp_now() - pr->t0;

	gp_info("[%zu/%zu] %s %s (%zu/%zu)  %.1f s elapsed, ~%.0f s left\n", pr->exp_index + 1, pr->nexp,
		sw->exp->name, desc, p + 1, sw->npoints, el,
		pr->done ? el / (double)pr->done * (double)(pr->total - pr->done) : 0.0);
}

/* ---------------------------------------------------------------- the child */

/* The job's points from its first on; exits on an error (the context may be gone). */
static void child_sweep(const struct gp_isolation *iso, struct gp_run *run, const struct gp_iso_job *j, int fd)
{
	struct gp_progress pr = { iso->progress->t0, j->done, j->total, j->exp_index, j->nexp };
	const struct gp_exp_impl *im = j->item.exp->impl;
	struct gp_sweep sw;
	char why[512], *cells[1] = { why };
	size_t end;
	int rc;

	if (gp_sweep_init(&sw, &j->item, why, sizeof why)) {
		gp_err("internal: the job for %s: %s", j->item.exp->name, why);
		_exit(GP_EFAIL);
	}
	end = gp_sweep_process_end(&sw, j->first); /* the points after it are another process's */
	for (size_t p = j->first; p < end && !*iso->interrupted; p++) {
		struct gp_table *t = gp_exp_table(im);
		struct gp_point pt;
		char desc[256];

		if (!t)
			_exit(GP_EFAIL);
		gp_sweep_point(&sw, p, &pt);
		gp_point_format(&pt, desc, sizeof desc);
		progress_line(&pr, &sw, p, desc);
		rc = measure_point(iso, run, j->item.exp, &pt, t);
		pr.done++;
		if (rc == GP_ECUDA || rc == GP_EFAIL || rc == GP_ENOGPU) {
			snprintf(why, sizeof why, "%s", gp_last_error()[0] ? gp_last_error() : "error");
			gp_msg_send(fd, GP_MSG_ERROR, (uint32_t)p, rc, cells, 1);
			_exit(rc);
		}
		if (gp_msg_send(fd, GP_MSG_ROWS, (uint32_t)p, rc, t->cells, (uint32_t)(t->nrows * t->ncols)))
			_exit(GP_EIO);
		gp_table_free(t);
	}
	gp_sweep_free(&sw);
}

/* Open the device (and describe it, for the first child of a run), then measure each job the
 * runner sends until it closes the socket or a signal asks us to stop. */
static __attribute__((noreturn)) void child_main(const struct gp_isolation *iso, int fd, int describe)
{
	const struct gp_iso_backend *be = backend(iso);
	struct gp_device dev;
	struct gp_run run = { .dev = &dev, .reps = iso->reps, .warmup = iso->warmup, .reps_max = iso->reps_max,
			      .target_rsd = iso->target_rsd, .max_point_s = iso->max_point_s };
	char why[512], *cells[2 * GP_DESC_MAX + 1] = { why };
	struct gp_msg m;
	int rc;

	if ((rc = be->open(&dev, iso->device, why, sizeof why))) {
		gp_msg_send(fd, GP_MSG_ERROR, 0, rc, cells, 1);
		_exit(rc);
	}
	if (describe) {
		struct gp_kv *d = calloc(GP_DESC_MAX, sizeof *d);
		size_t k = d ? gp_device_describe(&dev, d, GP_DESC_MAX) : 0;
		cells[0] = dev.slug;
		for (size_t i = 0; i < k; i++) {
			cells[1 + 2 * i] = d[i].key;
			cells[2 + 2 * i] = d[i].value;
		}
		if (gp_msg_send(fd, GP_MSG_DESC, 0, 0, cells, (uint32_t)(1 + 2 * k)) ||
		    gp_msg_send_blob(fd, GP_MSG_DESC, &dev, sizeof dev))
			_exit(GP_EIO);
		free(d);
	}
	/* Idle, it waits without a deadline: the runner's watchdog times points, not the gaps. */
	while (!*iso->interrupted && !gp_msg_recv(fd, &m, HUGE_VAL, iso->interrupted)) {
		struct gp_iso_job j;
		if (gp_job_decode(&m, &j, why, sizeof why)) {
			gp_err("internal: %s", why);
			_exit(GP_EFAIL);
		}
		gp_msg_free(&m);
		child_sweep(iso, &run, &j, fd);
		gp_job_free(&j);
		be->end(&run);
	}
	be->close(&dev);
	_exit(0);
}

/* A child and the runner's end of its socket pair in iso; describe: it sends the device's
 * description first. stdio is flushed first so no buffered output is written twice. */
static int spawn(struct gp_isolation *iso, int describe)
{
	int fds[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds)) {
		gp_err("cannot make the measuring process's socket: %s", strerror(errno));
		return GP_EFAIL;
	}
	fflush(NULL);
	if ((pid = fork()) < 0) {
		gp_err("cannot start the measuring process: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return GP_EFAIL;
	}
	if (pid == 0) {
		close(fds[0]);
		child_main(iso, fds[1], describe);
	}
	close(fds[1]);
	iso->child = pid;
	iso->fd = fds[0];
	iso->measured = 0;
	return 0;
}

/* Close our end and wait for the child: it exits on its own (EOF, error or signal) or was
 * killed. Its wait status, or 0 when there was none. */
static int reap(struct gp_isolation *iso)
{
	int st = 0;

	if (iso->child <= 0)
		return 0;
	close(iso->fd);
	while (waitpid(iso->child, &st, 0) < 0 && errno == EINTR)
		;
	iso->child = 0;
	iso->fd = -1;
	return st;
}

void gp_isolation_end(struct gp_isolation *iso)
{
	reap(iso);
}

/* ---------------------------------------------------------------- describe */

int gp_isolation_start(struct gp_isolation *iso, struct gp_kv *kv, size_t max, size_t *n, char *slug, size_t slen,
		       struct gp_device *dev_out)
{
	int rc = GP_EFAIL;
	struct gp_msg m;

	if (spawn(iso, 1))
		return GP_EFAIL;
	if (gp_msg_recv(iso->fd, &m, gp_now() + 120, NULL)) {
		gp_err("the device probe process died before reporting (driver problem?)");
	} else if (m.h.type == GP_MSG_ERROR) {
		gp_err("%s", m.h.ncells ? m.cells[0] : "cannot open the GPU");
		rc = m.h.rc;
	} else if (m.h.type == GP_MSG_DESC && m.h.ncells >= 1) {
		snprintf(slug, slen, "%s", m.cells[0]);
		*n = 0;
		for (uint32_t i = 1; i + 1 < m.h.ncells && *n < max; i += 2, (*n)++) {
			snprintf(kv[*n].key, sizeof kv[*n].key, "%s", m.cells[i]);
			snprintf(kv[*n].value, sizeof kv[*n].value, "%s", m.cells[i + 1]);
		}
		gp_msg_free(&m);
		if (gp_msg_recv(iso->fd, &m, gp_now() + 120, NULL) || m.h.type != GP_MSG_DESC || m.h.ncells != 1) {
			gp_err("the device probe process sent no attributes");
		} else {
			/* gp_msg_recv allocated len + 1 bytes; the blob is exactly the struct */
			memcpy(dev_out, m.cells[0], sizeof *dev_out);
			dev_out->ctx = NULL;
			dev_out->nmodules = 0;
			rc = 0;
		}
	}
	gp_msg_free(&m);
	if (rc)
		reap(iso);
	return rc;
}

int gp_inprocess_describe(int device, struct gp_kv *kv, size_t max, size_t *n, char *slug, size_t slen,
			  struct gp_device *dev)
{
	char why[512];
	int rc = gp_device_open(dev, device, why, sizeof why);

	if (rc) {
		gp_err("%s", why);
		return rc;
	}
	*n = gp_device_describe(dev, kv, max);
	snprintf(slug, slen, "%s", dev->slug);
	return 0;
}

/* ---------------------------------------------------------------- the runner's side */

/* A row for a point that produced none: its parameter columns, empty measurements, and why. */
static void failed_row(struct gp_table *t, const struct gp_sweep *sw, size_t p, const char *why)
{
	struct gp_point pt;

	gp_sweep_point(sw, p, &pt);
	point_row(t, &pt, why);
}


/* The status of point p, which ended in error rc (`what` happened): an expected fault where the
 * error is a CUDA one and the experiment declared that the point may fault on purpose
 * (gp_probe.expect_fault), else a fault. Returns 1 when it was expected. */
static int fault_status(const struct gp_sweep *sw, size_t p, int rc, const char *what, char *buf, size_t len)
{
	const char *why = NULL;
	struct gp_point pt;

	if (rc == GP_ECUDA) {
		gp_sweep_point(sw, p, &pt);
		why = gp_expected_fault(sw->exp->impl, &pt);
	}
	gp_status_fault(buf, len, why, what);
	if (why) /* the measuring process reported the error as it saw it */
		gp_info("gpuprobe: %s: that fault was expected (%s)\n", sw->exp->name, why);
	return why != NULL;
}

static void describe_exit(int st, char *buf, size_t len)
{
	if (WIFSIGNALED(st))
		snprintf(buf, len, "fault: the measuring process was killed by signal %d (%s)", WTERMSIG(st),
			 strsignal(WTERMSIG(st)));
	else if (WIFEXITED(st))
		snprintf(buf, len, "fault: the measuring process exited with status %d", WEXITSTATUS(st));
	else
		snprintf(buf, len, "fault: the measuring process ended abnormally");
}

static int inprocess_sweep(struct gp_isolation *iso, const struct gp_sweep *sw, struct gp_table *t)
{
	struct gp_run run = { .dev = iso->dev, .reps = iso->reps, .warmup = iso->warmup, .reps_max = iso->reps_max,
			      .target_rsd = iso->target_rsd, .max_point_s = iso->max_point_s };
	int worst = 0;

	for (size_t p = 0; p < sw->npoints && !*iso->interrupted; p++) {
		struct gp_point pt;
		char desc[256], why[600];
		const size_t before = t->nrows;
		int rc;

		gp_sweep_point(sw, p, &pt);
		gp_point_format(&pt, desc, sizeof desc);
		progress_line(iso->progress, sw, p, desc);
		rc = measure_point(iso, &run, sw->exp, &pt, t);
		iso->progress->done++;
		if (rc == GP_ECUDA || rc == GP_EFAIL || rc == GP_ENOGPU) {
			/* Expected or not, the fault took the context: the run ends here. */
			fault_status(sw, p, rc, gp_last_error()[0] ? gp_last_error() : "error", why, sizeof why);
			if (t->nrows == before)
				failed_row(t, sw, p, why);
			iso->dead = 1; /* the context is unusable: nothing more can be measured */
			return rc == GP_ENOGPU ? GP_ENOGPU : GP_ECUDA;
		}
		if (rc > worst)
			worst = rc;
	}
	gp_measure_end(&run);
	return worst;
}

/* Read the child's answers to a job until its points up to `end` are done (the child waits for
 * the next job) or the child has ended (reaped: a fresh one takes the next point). The row for a
 * point that failed is written here; *worst takes its code. 0, or GP_ENOGPU. */
static int follow(struct gp_isolation *iso, const struct gp_sweep *sw, struct gp_table *t, size_t *next, size_t end,
		  int *worst)
{
	char why[768];
	int forwarded = 0;

	while (*next < end) {
		struct gp_msg m;
		/* Once the child has been told to stop, only read: it finishes its point, sends it and
		 * exits (checking the flag again would return before reading a byte, for ever: the
		 * first H100 run of the interrupt test hung exactly so). */
		int r = gp_msg_recv(iso->fd, &m, gp_now() + iso->timeout_s, forwarded ? NULL : iso->interrupted);
		enum gp_iso_step s = gp_iso_classify(r, &m.h, *next, t->ncols);

		switch (s) {
		case GP_ISO_INTERRUPT:
			/* Let the child finish its point and stop; it got SIGINT too if it came from the
			 * terminal, but not a SIGTERM sent to us alone. */
			kill(iso->child, SIGTERM);
			forwarded = 1;
			break;
		case GP_ISO_ROWS:
			for (uint32_t i = 0; i < m.h.ncells; i += (uint32_t)t->ncols)
				gp_table_append(t, &m.cells[i]);
			*worst = m.h.rc > *worst ? m.h.rc : *worst;
			++*next;
			iso->measured++;
			iso->progress->done++;
			break;
		case GP_ISO_NOGPU:
			gp_err("%s", m.h.ncells ? m.cells[0] : "no GPU");
			gp_msg_free(&m);
			reap(iso);
			return GP_ENOGPU;
		case GP_ISO_FAULT:
			/* The child's context died with the point; a fresh child goes on either way. */
			if (!fault_status(sw, *next, m.h.rc, m.h.ncells ? m.cells[0] : "CUDA error", why, sizeof why))
				*worst = *worst > GP_ECUDA ? *worst : GP_ECUDA;
			failed_row(t, sw, (*next)++, why);
			iso->progress->done++;
			break;
		case GP_ISO_HANG:
			kill(iso->child, SIGKILL);
			snprintf(why, sizeof why, "hang: no result within %.0f s; the watchdog killed the process",
				 iso->timeout_s);
			failed_row(t, sw, (*next)++, why);
			*worst = *worst > GP_ECUDA ? *worst : GP_ECUDA;
			iso->progress->done++;
			break;
		case GP_ISO_GARBAGE:
			gp_err("internal: unexpected message %u for point %u from the measuring process", m.h.type,
			       m.h.point);
			kill(iso->child, SIGKILL);
			break;
		case GP_ISO_DIED:
			break;
		}
		gp_msg_free(&m);
		if (gp_iso_child_lives(s))
			continue;
		const int st = reap(iso);
		if ((s == GP_ISO_DIED || s == GP_ISO_GARBAGE) && *next < end && !*iso->interrupted) {
			/* Died without a word: a signal (a kernel fault can kill it) or an exit. */
			describe_exit(st, why, sizeof why);
			gp_err("%s %s", sw->exp->name, why);
			failed_row(t, sw, (*next)++, why);
			*worst = *worst > GP_ECUDA ? *worst : GP_ECUDA;
			iso->progress->done++;
		}
		break;
	}
	return 0;
}

/* The idle child from the last experiment, if it is still there; one that died between
 * experiments (nothing of ours was in flight) is said and replaced without a row. */
static void check_idle(struct gp_isolation *iso)
{
	int st;
	pid_t r;

	if (iso->child <= 0 || (r = waitpid(iso->child, &st, WNOHANG)) == 0)
		return;
	close(iso->fd);
	iso->child = 0;
	iso->fd = -1;
	if (r > 0 && !*iso->interrupted) {
		char why[256];
		describe_exit(st, why, sizeof why);
		gp_err("between experiments: %s; a fresh one takes over", why + strlen("fault: "));
	}
}

int gp_isolated_sweep(struct gp_isolation *iso, const struct gp_suite_item *it, struct gp_table *t)
{
	struct gp_iso_job job = { .item = *it, .total = iso->progress->total, .nexp = iso->progress->nexp };
	struct gp_sweep sw;
	char why[512];
	int worst = 0, rc = 0;

	if (gp_sweep_init(&sw, it, why, sizeof why)) {
		gp_err("internal: %s: %s", it->exp->name, why);
		return GP_EFAIL;
	}
	if (iso->inprocess) {
		rc = inprocess_sweep(iso, &sw, t);
		gp_sweep_free(&sw);
		return rc;
	}
	check_idle(iso);
	if (it->exp->impl->fresh_process && iso->measured)
		reap(iso); /* a process that has measured nothing before this experiment */
	while (job.first < sw.npoints && !*iso->interrupted) {
		const size_t end = gp_sweep_process_end(&sw, job.first);
		if (iso->child <= 0 && (rc = spawn(iso, 0)))
			break;
		job.done = iso->progress->done;
		job.exp_index = iso->progress->exp_index;
		/* A send to a child that just died fails; reading then says how it ended. */
		gp_job_send(iso->fd, &job);
		if ((rc = follow(iso, &sw, t, &job.first, end, &worst)))
			break;
		if (job.first == end && end < sw.npoints)
			reap(iso); /* the process parameter's next value: a process of its own */
	}
	gp_sweep_free(&sw);
	return rc ? rc : worst;
}
