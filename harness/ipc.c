/* ipc.c — the runner's messages to and from its measuring child (ipc.h): framing, the RUN job's
 * encoding, and what each outcome of a read means for the child. */
#include "gp.h"
#include "ipc.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_CELL (1u << 20)
#define MAX_CELLS (1u << 20)
#define JOB_FIXED 5 /* experiment, done, total, exp_index, nexp; then one cell per parameter */

/* All n bytes. send() with MSG_NOSIGNAL: a child that died leaves EPIPE, not a SIGPIPE that
 * would end the runner; write() where fd is no socket. */
static int send_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	for (size_t done = 0; done < n;) {
		const ssize_t w = send(fd, p + done, n - done, MSG_NOSIGNAL);
		if (w < 0 && errno == ENOTSOCK)
			return gp_write_fd(fd, p + done, n - done);
		if (gp_io_moved(w, &done))
			return -1;
	}
	return 0;
}

int gp_msg_send(int fd, uint32_t type, uint32_t point, int32_t rc, char *const *cells, uint32_t n)
{
	struct gp_msg_hdr h = { type, point, rc, n };

	if (send_all(fd, &h, sizeof h))
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		const char *c = cells[i] ? cells[i] : "";
		uint32_t len = (uint32_t)strlen(c);
		if (send_all(fd, &len, sizeof len) || send_all(fd, c, len))
			return -1;
	}
	return 0;
}

int gp_msg_send_blob(int fd, uint32_t type, const void *p, uint32_t len)
{
	struct gp_msg_hdr h = { type, 1, 0, 1 };

	return send_all(fd, &h, sizeof h) || send_all(fd, &len, sizeof len) || send_all(fd, p, len) ? -1 : 0;
}

/* Exactly n bytes before the deadline: 0, -1 on EOF or error, -2 on timeout, -3 if interrupted
 * before the first byte (the caller decides what to do and calls again). */
static int read_all(int fd, void *buf, size_t n, double deadline, volatile sig_atomic_t *intr)
{
	for (size_t done = 0; done < n;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		double left = deadline - gp_now();
		int r;

		if (left <= 0)
			return -2;
		r = poll(&pfd, 1, left > 1.0 ? 1000 : (int)(left * 1000) + 1);
		if (r < 0 && errno != EINTR)
			return -1;
		if (intr && *intr && !done)
			return -3; /* only before the first byte: never lose half a message */
		if (r > 0 && gp_io_moved(read(fd, (char *)buf + done, n - done), &done))
			return -1;
	}
	return 0;
}

void gp_msg_free(struct gp_msg *m)
{
	for (uint32_t i = 0; m->cells && i < m->h.ncells; i++)
		free(m->cells[i]);
	free(m->cells);
	m->cells = NULL;
}

int gp_msg_recv(int fd, struct gp_msg *m, double deadline, volatile sig_atomic_t *intr)
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
		/* Once a message has begun, finish it even if interrupted: the other side is mid-write. */
		if (read_all(fd, &len, sizeof len, deadline, NULL) || len > MAX_CELL ||
		    !(m->cells[i] = malloc(len + 1)) || read_all(fd, m->cells[i], len, deadline, NULL)) {
			gp_msg_free(m);
			return -1;
		}
		m->cells[i][len] = '\0';
	}
	return 0;
}

/* ---------------------------------------------------------------- the job */

/* A parameter's cell: "" for its defaults (a NULL list), else "=" and the suite's list, so an
 * empty list stays apart from none. */
int gp_job_send(int fd, const struct gp_iso_job *j)
{
	const struct gp_exp_impl *im = j->item.exp->impl;
	char nums[4][24], *cells[JOB_FIXED + GP_MAX_PARAMS] = { (char *)j->item.exp->name };
	const size_t num[4] = { j->done, j->total, j->exp_index, j->nexp };
	int rc = -1;

	for (size_t i = 0; i < 4; i++) {
		snprintf(nums[i], sizeof nums[i], "%zu", num[i]);
		cells[1 + i] = nums[i];
	}
	for (size_t i = 0; i < im->nparams; i++) {
		const char *v = j->item.values[i];
		const size_t len = v ? strlen(v) + 2 : 0;
		if (v && !(cells[JOB_FIXED + i] = malloc(len)))
			goto out;
		if (v)
			snprintf(cells[JOB_FIXED + i], len, "=%s", v);
	}
	rc = gp_msg_send(fd, GP_MSG_RUN, (uint32_t)j->first, 0, cells, (uint32_t)(JOB_FIXED + im->nparams));
out:
	for (size_t i = 0; i < im->nparams; i++)
		free(cells[JOB_FIXED + i]);
	return rc;
}

int gp_job_decode(const struct gp_msg *m, struct gp_iso_job *j, char *err, size_t errlen)
{
	size_t *num[4] = { &j->done, &j->total, &j->exp_index, &j->nexp };
	const struct gp_exp_impl *im;

	memset(j, 0, sizeof *j);
	if (m->h.type != GP_MSG_RUN || m->h.ncells < JOB_FIXED) {
		snprintf(err, errlen, "message %u with %u cells is no job", m->h.type, m->h.ncells);
		return -1;
	}
	if (!(j->item.exp = gp_experiment_find(m->cells[0]))) {
		snprintf(err, errlen, "job for an unknown experiment '%.64s'", m->cells[0]);
		return -1;
	}
	im = j->item.exp->impl;
	if (m->h.ncells != JOB_FIXED + im->nparams) {
		snprintf(err, errlen, "job for %s with %u cells, not %zu", m->cells[0], m->h.ncells, JOB_FIXED + im->nparams);
		return -1;
	}
	for (size_t i = 0; i < 4; i++) {
		long v;
		if (gp_parse_long(m->cells[1 + i], 0, LONG_MAX, &v)) {
			snprintf(err, errlen, "job for %s: bad count '%.32s'", m->cells[0], m->cells[1 + i]);
			return -1;
		}
		*num[i] = (size_t)v;
	}
	j->first = m->h.point;
	for (size_t i = 0; i < im->nparams; i++) {
		const char *c = m->cells[JOB_FIXED + i];
		if (*c && (*c != '=' || !(j->item.values[i] = gp_strdup(c + 1)))) {
			snprintf(err, errlen, "job for %s: bad value cell for %s", m->cells[0], im->params[i].name);
			gp_job_free(j);
			return -1;
		}
	}
	return 0;
}

void gp_job_free(struct gp_iso_job *j)
{
	for (size_t i = 0; i < GP_MAX_PARAMS; i++) {
		free(j->item.values[i]);
		j->item.values[i] = NULL;
	}
}

/* ---------------------------------------------------------------- the runner's reading */

enum gp_iso_step gp_iso_classify(int r, const struct gp_msg_hdr *h, size_t next, size_t ncols)
{
	if (r == -3)
		return GP_ISO_INTERRUPT;
	if (r == -2)
		return GP_ISO_HANG;
	if (r)
		return GP_ISO_DIED;
	if (h->type == GP_MSG_ROWS && h->point == next && ncols && h->ncells % ncols == 0)
		return GP_ISO_ROWS;
	if (h->type == GP_MSG_ERROR)
		return h->rc == GP_ENOGPU ? GP_ISO_NOGPU : GP_ISO_FAULT;
	return GP_ISO_GARBAGE;
}

int gp_iso_child_lives(enum gp_iso_step s)
{
	return s == GP_ISO_ROWS || s == GP_ISO_INTERRUPT;
}
