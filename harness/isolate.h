/* isolate.h — measuring in child processes.
 *
 * A kernel that faults leaves its CUDA context unusable, and one that hangs never returns; a
 * patched SASS kernel may do either on purpose. So the runner never touches CUDA itself: each
 * experiment's points run in a forked child that opens the device, measures point after point
 * and streams the finished rows back over a pipe. If the child dies (signal, CUDA error) or stays
 * silent past the watchdog, the point in flight becomes a row whose status says what happened,
 * and a fresh child (fresh context) carries on from the next point. */
#ifndef GP_ISOLATE_H
#define GP_ISOLATE_H

#include <signal.h>

#include "device.h"
#include "suite.h"

/* Device description from a child: key/value pairs for meta.csv, the results slug, and the
 * attributes (no CUDA handles) for derivations that run in the parent. */
int gp_isolated_describe(int device, struct gp_kv *kv, size_t max, size_t *n, char *slug, size_t slen,
			 struct gp_device *dev);
/* The same in this process: dev is opened and stays open (in-process mode). */
int gp_inprocess_describe(int device, struct gp_kv *kv, size_t max, size_t *n, char *slug, size_t slen,
			  struct gp_device *dev);

struct gp_progress {
	double t0;           /* monotonic start of the run */
	size_t done, total;  /* points finished / in the whole suite */
	size_t exp_index, nexp;
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
};

/* Measure every point of sw into t. Returns the worst gp_exit code of the points (GP_ECUDA if any
 * point faulted or hung, with a row saying so), or GP_ENOGPU / GP_EFAIL if nothing could run. A
 * point the experiment expects to fault (gp_probe.expect_fault) that does gets the row
 * "expected-fault: …" and does not count, except in-process, where the lost context ends it. */
int gp_isolated_sweep(struct gp_isolation *iso, const struct gp_sweep *sw, struct gp_table *t);

#endif
