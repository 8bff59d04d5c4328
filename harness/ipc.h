/* ipc.h — the messages between the runner and its measuring child (isolate.c), and the runner's
 * reading of them. No device code: tests/test_isolate.c checks all of it without a GPU.
 *
 * Framing: a header {type, point, rc, ncells}, then ncells strings, each a u32 length and its
 * bytes, over one socket pair (both directions; the runner's writes never raise SIGPIPE). The
 * runner sends RUN (an experiment to measure from a point on); the child answers ROWS after every
 * point, ERROR when a point ends in an error (then exits), and DESC (the device) when it starts. */
#ifndef GP_IPC_H
#define GP_IPC_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "suite.h"

enum gp_msg_type { GP_MSG_ROWS = 1, GP_MSG_ERROR = 2, GP_MSG_DESC = 3, GP_MSG_RUN = 4 };

struct gp_msg_hdr {
	uint32_t type, point;
	int32_t rc;
	uint32_t ncells;
};

struct gp_msg {
	struct gp_msg_hdr h;
	char **cells; /* ncells NUL-terminated strings (a blob too: exactly its bytes, then a NUL) */
};

/* A message; a NULL cell goes as "". 0, or -1 (the other side is gone). */
int gp_msg_send(int fd, uint32_t type, uint32_t point, int32_t rc, char *const *cells, uint32_t n);
/* One cell of raw bytes (the device's attributes). */
int gp_msg_send_blob(int fd, uint32_t type, const void *p, uint32_t len);
/* The next message, by the monotonic deadline: 0; -1 on EOF, an error or a malformed message; -2
 * past the deadline; -3 when *intr is set before the message's first byte (a message that has
 * begun is always read whole). */
int gp_msg_recv(int fd, struct gp_msg *m, double deadline, volatile sig_atomic_t *intr);
void gp_msg_free(struct gp_msg *m);

/* An experiment for the child: what it needs beyond what it inherited at fork (run-wide
 * settings, the start time). */
struct gp_iso_job {
	struct gp_suite_item item;    /* the experiment and its value lists (NULL: its defaults) */
	size_t first;                 /* the sweep point to start from */
	size_t done, total, exp_index, nexp; /* progress so far, for the child's progress lines */
};

int gp_job_send(int fd, const struct gp_iso_job *j);
/* A RUN message back into a job (j->item.values allocated): 0, or -1 with why in err. */
int gp_job_decode(const struct gp_msg *m, struct gp_iso_job *j, char *err, size_t errlen);
void gp_job_free(struct gp_iso_job *j);

/* What the runner makes of one gp_msg_recv (r) while point `next` is in flight in a table of
 * ncols columns. */
enum gp_iso_step {
	GP_ISO_ROWS,      /* the point's rows: the child measures on */
	GP_ISO_INTERRUPT, /* interrupted before a message began: the child is told and read to its end */
	GP_ISO_FAULT,     /* the child reported the point's error and exits: a fault row */
	GP_ISO_NOGPU,     /* the child cannot open the GPU: nothing more can run */
	GP_ISO_HANG,      /* silent past the watchdog: killed, a hang row */
	GP_ISO_DIED,      /* gone without a word: a row with how it ended */
	GP_ISO_GARBAGE,   /* a message the protocol does not allow: killed, then as DIED */
};
enum gp_iso_step gp_iso_classify(int r, const struct gp_msg_hdr *h, size_t next, size_t ncols);
/* Whether the child outlives that step and can take the next point or experiment; otherwise it
 * is reaped, and a fresh one (a fresh CUDA context) starts when there is more to measure. */
int gp_iso_child_lives(enum gp_iso_step s);

#endif
