/* isolate.c — child processes, the pipe protocol between them and the runner, the watchdog.
 *
 * Protocol: each message is a header {type, point, rc, ncells} and ncells strings, each a u32
 * length and its bytes. The child sends ROWS after every point (the rows it produced), ERROR when
 * a point ends in a CUDA error (then exits), DESC for the device description. The parent never
 * calls CUDA: a context made before fork() is unusable in the child. */
#include "gp.h"
#include "isolate.h"
#include "measure.h"

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { MSG_ROWS = 1, MSG_ERROR = 2, MSG_DESC = 3 };

#define MAX_CELL (1u << 20)
#define MAX_CELLS (1u << 20)

struct msg_hdr {
	uint32_t type, point;
	int32_t rc;
	uint32_t ncells;
};

static int send_msg(int fd, uint32_t type, uint32_t point, int32_t rc, char *const *cells, uint32_t n)
{
	struct msg_hdr h = { type, point, rc, n };

	if (gp_write_fd(fd, &h, sizeof h))
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t len = (uint32_t)strlen(cells[i] ? cells[i] : "");
		if (gp_write_fd(fd, &len, sizeof len) || gp_write_fd(fd, cells[i] ? cells[i] : "", len))
			return -1;
	}
	return 0;
}

/* Read exactly n bytes before the deadline: 0, -1 on EOF or error, -2 on timeout, -3 if
 * interrupted (the caller decides what to do and calls again). */
static int read_all(int fd, void *buf, size_t n, double deadline, volatile sig_atomic_t *intr)
{
	char *p = buf;

	while (n) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		double left = deadline - gp_now();
		int r;

		if (left <= 0)
			return -2;
		r = poll(&pfd, 1, left > 1.0 ? 1000 : (int)(left * 1000) + 1);
		if (r < 0 && errno != EINTR)
			return -1;
		if (intr && *intr && p == buf)
			return -3; /* only before the first byte: never lose half a message */
		if (r <= 0)
			continue;
		ssize_t got = read(fd, p, n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return -1;
		p += got;
		n -= (size_t)got;
	}
	return 0;
}

struct msg {
	struct msg_hdr h;
	char **cells;
};

static void msg_free(struct msg *m)
{
	for (uint32_t i = 0; m->cells && i < m->h.ncells; i++)
		free(m->cells[i]);
	free(m->cells);
	m->cells = NULL;
}

/* 0 on a message, -1 EOF/garbage, -2 timeout, -3 interrupted before any byte of it. */
static int recv_msg(int fd, struct msg *m, double deadline, volatile sig_atomic_t *intr)
{
	int r;

	memset(m, 0, sizeof *m);
	if ((r = read_all(fd, &m->h, sizeof m->h, deadline, intr)))
		return r;
	if (m->h.ncells > MAX_CELLS)
		return -1;
	m->cells = calloc(m->h.ncells ? m->h.ncells : 1, sizeof *m->cells);
	if (!m->cells)
		return -1;
	for (uint32_t i = 0; i < m->h.ncells; i++) {
		uint32_t len;
		/* Once a message has begun, finish it even if interrupted: the child is mid-write. */
		if (read_all(fd, &len, sizeof len, deadline, NULL) || len > MAX_CELL ||
		    !(m->cells[i] = malloc(len + 1)) || read_all(fd, m->cells[i], len, deadline, NULL)) {
			msg_free(m);
			return -1;
		}
		m->cells[i][len] = '\0';
	}
	return 0;
}

/* A pipe and a child: the child's pid in the parent, 0 in the child, -1 (nothing left open) on
 * failure. stdio is flushed first so no buffered output is written twice. */
static pid_t spawn(int fds[2])
{
	pid_t pid;

	if (pipe(fds))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
	}
	return pid;
}

/* ---------------------------------------------------------------- describe */

/* The device's attributes as raw bytes, for derivations in the parent (no CUDA handles: the
 * context and modules are cleared on arrival). */
static int send_blob(int fd, const void *p, uint32_t len)
{
	struct msg_hdr h = { MSG_DESC, 1, 0, 1 };

	return gp_write_fd(fd, &h, sizeof h) || gp_write_fd(fd, &len, sizeof len) || gp_write_fd(fd, p, len);
}

int gp_isolated_describe(int device, struct gp_kv *kv, size_t max, size_t *n, char *slug, size_t slen,
			 struct gp_device *dev_out)
{
	int fds[2], st, rc = GP_EFAIL;
	struct msg m;
	pid_t pid;

	if ((pid = spawn(fds)) < 0)
		return GP_EFAIL;
	if (pid == 0) {
		struct gp_device dev;
		struct gp_kv d[48];
		char why[512], *cells[2 * 48 + 1];
		size_t k;

		close(fds[0]);
		if ((rc = gp_device_open(&dev, device, why, sizeof why))) {
			cells[0] = why;
			send_msg(fds[1], MSG_ERROR, 0, rc, cells, 1);
			_exit(rc);
		}
		k = gp_device_describe(&dev, d, GP_ARRAY_SIZE(d));
		cells[0] = dev.slug;
		for (size_t i = 0; i < k; i++) {
			cells[1 + 2 * i] = d[i].key;
			cells[2 + 2 * i] = d[i].value;
		}
		if (send_msg(fds[1], MSG_DESC, 0, 0, cells, (uint32_t)(1 + 2 * k)) ||
		    send_blob(fds[1], &dev, sizeof dev))
			_exit(GP_EIO);
		gp_device_close(&dev);
		_exit(0);
	}
	close(fds[1]);
	if (recv_msg(fds[0], &m, gp_now() + 120, NULL)) {
		gp_err("the device probe process died before reporting (driver problem?)");
	} else if (m.h.type == MSG_ERROR) {
		gp_err("%s", m.h.ncells ? m.cells[0] : "cannot open the GPU");
		rc = m.h.rc;
	} else if (m.h.type == MSG_DESC && m.h.ncells >= 1) {
		snprintf(slug, slen, "%s", m.cells[0]);
		*n = 0;
		for (uint32_t i = 1; i + 1 < m.h.ncells && *n < max; i += 2, (*n)++) {
			snprintf(kv[*n].key, sizeof kv[*n].key, "%s", m.cells[i]);
			snprintf(kv[*n].value, sizeof kv[*n].value, "%s", m.cells[i + 1]);
		}
		msg_free(&m);
		if (recv_msg(fds[0], &m, gp_now() + 120, NULL) || m.h.type != MSG_DESC || m.h.ncells != 1) {
			gp_err("the device probe process sent no attributes");
		} else {
			/* recv_msg allocated len + 1 bytes; the blob is exactly the struct */
			memcpy(dev_out, m.cells[0], sizeof *dev_out);
			dev_out->ctx = NULL;
			dev_out->nmodules = 0;
			rc = 0;
		}
	}
	msg_free(&m);
	close(fds[0]);
	waitpid(pid, &st, 0);
	return rc;
}

/* ---------------------------------------------------------------- sweeps */

static void progress_line(const struct gp_progress *pr, const struct gp_sweep *sw, size_t p, const char *desc)
{
	double el = gp_now() - pr->t0;

	gp_info("[%zu/%zu] %s %s (%zu/%zu)  %.1f s elapsed, ~%.0f s left\n", pr->exp_index + 1, pr->nexp,
		sw->exp->name, desc, p + 1, sw->npoints, el,
		pr->done ? el / (double)pr->done * (double)(pr->total - pr->done) : 0.0);
}

static void child_sweep(const struct gp_isolation *iso, const struct gp_sweep *sw, size_t first, int wfd)
{
	const struct gp_exp_impl *im = sw->exp->impl;
	struct gp_progress pr = *iso->progress;
	struct gp_device dev;
	struct gp_run run = { .dev = &dev, .reps = iso->reps, .warmup = iso->warmup, .reps_max = iso->reps_max,
			      .target_rsd = iso->target_rsd, .max_point_s = iso->max_point_s };
	char why[512], *cells[1] = { why };
	int rc;

	if ((rc = gp_device_open(&dev, iso->device, why, sizeof why))) {
		send_msg(wfd, MSG_ERROR, (uint32_t)first, rc, cells, 1);
		_exit(rc);
	}
	for (size_t p = first; p < sw->npoints && !*iso->interrupted; p++) {
		struct gp_table *t = gp_exp_table(im);
		struct gp_point pt;
		char desc[256];

		if (!t)
			_exit(GP_EFAIL);
		gp_sweep_point(sw, p, &pt);
		gp_point_format(&pt, desc, sizeof desc);
		progress_line(&pr, sw, p, desc);
		rc = gp_measure(&run, im, &pt, t);
		pr.done++;
		if (rc == GP_ECUDA || rc == GP_EFAIL || rc == GP_ENOGPU) {
			snprintf(why, sizeof why, "%s", gp_last_error()[0] ? gp_last_error() : "error");
			send_msg(wfd, MSG_ERROR, (uint32_t)p, rc, cells, 1);
			_exit(rc);
		}
		if (send_msg(wfd, MSG_ROWS, (uint32_t)p, rc, t->cells, (uint32_t)(t->nrows * t->ncols)))
			_exit(GP_EIO);
		gp_table_free(t);
	}
	gp_device_close(&dev);
	_exit(0);
}

/* A row for a point that produced none: its parameter columns, empty measurements, and why. */
static void failed_row(struct gp_table *t, const struct gp_sweep *sw, size_t p, const char *why)
{
	struct gp_point pt;
	char err[128];

	gp_sweep_point(sw, p, &pt);
	gp_row_begin(t);
	for (size_t c = 0; c < t->ncols; c++)
		gp_row_str(t, t->cols[c], "");
	for (size_t k = 0; k < pt.nparams; k++)
		if (gp_table_col(t, pt.params[k].name) >= 0)
			gp_row_str(t, pt.params[k].name, pt.str[k]);
	gp_row_str(t, "status", why);
	if (gp_table_col(t, "conditions") >= 0)
		gp_row_str(t, "conditions", "n/a: not measured");
	if (gp_table_col(t, "throttle") >= 0)
		gp_row_str(t, "throttle", "n/a: not measured");
	if (gp_row_end(t, err, sizeof err))
		gp_err("internal: failed row: %s", err);
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
		rc = gp_measure(&run, sw->exp->impl, &pt, t);
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
	return worst;
}

int gp_isolated_sweep(struct gp_isolation *iso, const struct gp_sweep *sw, struct gp_table *t)
{
	size_t next = 0;
	int worst = 0;

	if (iso->inprocess)
		return inprocess_sweep(iso, sw, t);

	while (next < sw->npoints && !*iso->interrupted) {
		int fds[2], st = 0, ended = 0, forwarded = 0;
		char why[768];
		pid_t pid;

		if ((pid = spawn(fds)) < 0)
			return GP_EFAIL;
		if (pid == 0) {
			close(fds[0]);
			child_sweep(iso, sw, next, fds[1]);
		}
		close(fds[1]);
		while (!ended) {
			struct msg m;
			/* Once the child has been told to stop, only read: it finishes its point, sends
			 * it and exits (checking the flag again would return before reading a byte, for
			 * ever: the first H100 run of the interrupt test hung exactly so). */
			int r = recv_msg(fds[0], &m, gp_now() + iso->timeout_s, forwarded ? NULL : iso->interrupted);

			if (r == -3) {
				/* Let the child finish its point and stop; it got SIGINT too if it came from
				 * the terminal, but not a SIGTERM sent to us alone. */
				if (!forwarded)
					kill(pid, SIGTERM);
				forwarded = 1;
				continue;
			}
			if (r == -2) {
				kill(pid, SIGKILL);
				snprintf(why, sizeof why, "hang: no result within %.0f s; the watchdog killed the process",
					 iso->timeout_s);
				failed_row(t, sw, next++, why);
				worst = worst > GP_ECUDA ? worst : GP_ECUDA;
				iso->progress->done++;
				ended = 2;
				break;
			}
			if (r == -1) {
				ended = 1;
				break;
			}
			if (m.h.type == MSG_ROWS && m.h.point == next && m.h.ncells % t->ncols == 0) {
				for (uint32_t i = 0; i < m.h.ncells; i += (uint32_t)t->ncols)
					gp_table_append(t, &m.cells[i]);
				if (m.h.rc > worst)
					worst = m.h.rc;
				next++;
				iso->progress->done++;
			} else if (m.h.type == MSG_ERROR) {
				if (m.h.rc == GP_ENOGPU) {
					gp_err("%s", m.h.ncells ? m.cells[0] : "no GPU");
					msg_free(&m);
					close(fds[0]);
					waitpid(pid, &st, 0);
					return GP_ENOGPU;
				}
				/* The child's context died with the point; a fresh child goes on either way. */
				if (!fault_status(sw, next, m.h.rc, m.h.ncells ? m.cells[0] : "CUDA error", why,
						  sizeof why))
					worst = worst > GP_ECUDA ? worst : GP_ECUDA;
				failed_row(t, sw, next++, why);
				iso->progress->done++;
				ended = 2;
			} else {
				gp_err("internal: unexpected message %u for point %u from the measuring process",
				       m.h.type, m.h.point);
				kill(pid, SIGKILL);
				ended = 1;
			}
			msg_free(&m);
		}
		close(fds[0]);
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		if (ended == 1 && next < sw->npoints && !*iso->interrupted) {
			/* Died without a word: a signal (a kernel fault can kill it) or an exit. */
			describe_exit(st, why, sizeof why);
			gp_err("%s %s", sw->exp->name, why);
			failed_row(t, sw, next++, why);
			worst = worst > GP_ECUDA ? worst : GP_ECUDA;
			iso->progress->done++;
		}
	}
	return worst;
}
