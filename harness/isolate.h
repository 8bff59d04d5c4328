/* isolate.h — measuring in a child process.
 *
 * A kernel that faults leaves its CUDA context unusable, and one that hangs never returns; a
 * patched SASS kernel may do either on purpose. So the runner never touches CUDA itself: one
 * forked child opens the device, describes it, and then measures experiment after experiment as
 * the runner hands them over (ipc.h), streaming each point's rows back. If the child dies
 * (signal, CUDA error) or stays silent past the watchdog, the point in flight becomes a row whose
 * status says what happened, and a fresh child (a fresh context) carries on from the next point,
 * in this experiment or the next. */
#ifndef GP_ISOLATE_H
#define GP_ISOLATE_H

#include <signal.h>
#include <sys/types.h>

#include "device.h"
#include "suite.h"

/* The device description in this process: dev is opened and stays open (in-process mode). */
int gp_inprocess_describe(int device, struct gp_kv *kv, size_t max, size_t *n, char *slug, size_t slen,
			  struct gp_device *dev);

struct gp_progress {
	double t0;           /* monotonic start of the run */
	size_t done, total;  /* points finished / in the whole suite */
	size_t exp_index, nexp;
};

/* What the measuring child calls: the GPU (NULL: gp_device_open, gp_device_close, gp_measure,
 * gp_measure_end), or stand-ins with which tests/test_isolate.c drives the protocol, the watchdog
 * and the respawns without a GPU. */
struct gp_iso_backend {
	int (*open)(struct gp_device *d, int ordinal, char *why, size_t whylen);
	void (*close)(struct gp_device *d);
	int (*measure)(struct gp_run *run, const struct gp_exp_impl *im, const struct gp_point *pt,
		       struct gp_table *t);
	void (*end)(struct gp_run *run); /* after an experiment's points */
};

struct gp_isolation {
	int device, reps, warmup;
	int reps_max;                        /* struct gp_run's adaptive repetitions */
	double target_rsd, max_point_s;
	/* In-process mode (--no-isolate): no child processes, for tools that must see the kernels
	 * themselves (compute-sanitizer does not follow a fork without exec). A fault then ends the
	 * run: the context is gone. dev is the opened device; dead is set after a fault. */
	int inprocess, dead;
	struct gp_device *dev;
	double timeout_s;                    /* watchdog per point */
	volatile sig_atomic_t *interrupted;  /* set by the parent's signal handler */
	struct gp_progress *progress;
	const struct gp_iso_backend *backend;
	/* The measuring child: its pid (0: none), the runner's end of its socket pair and the
	 * points it has measured (an experiment with fresh_process set takes a fresh child when
	 * this one has measured any). */
	pid_t child;
	int fd;
	size_t measured;
};

/* Start the measuring child and take the device description from it: key/value pairs for
 * meta.csv, the results slug, and the attributes (no CUDA handles) for derivations that run in
 * the parent. The child then waits for gp_isolated_sweep's experiments. */
int gp_isolation_start(struct gp_isolation *iso, struct gp_kv *kv, size_t max, size_t *n, char *slug, size_t slen,
		       struct gp_device *dev);
/* Let the child go (it exits when its socket closes) and reap it. */
void gp_isolation_end(struct gp_isolation *iso);

/* Measure every point of the suite item into t. Returns the worst gp_exit code of the points
 * (GP_ECUDA if any point faulted or hung, with a row saying so), or GP_ENOGPU / GP_EFAIL if
 * nothing could run. A point the experiment expects to fault (gp_probe.expect_fault) that does
 * gets the row "expected-fault: …" and does not count, except in-process, where the lost context
 * ends it. */
int gp_isolated_sweep(struct gp_isolation *iso, const struct gp_suite_item *it, struct gp_table *t);

#endif
