/* launch.c — lat_launch: what a kernel launch costs. mode sync: each empty kernel launched and
 * waited for (cuStreamSynchronize) before the next; async: `launches` back to back, then one
 * wait; graph: the same kernels captured once into a CUDA graph (stream capture) and launched as
 * one; queued: async behind a gate kernel that holds the stream until all are queued, so the GPU
 * runs them back to back at its own pace (async's gap is the host's issue time when the host
 * issues slower than the GPU starts kernels); its gap is the mean over the batch, below the
 * timer's tick. grid one: one block; full: every block the GPU holds at once. Host time per launch (wall,
 * gp_now, launch to the end of the wait), issue time (the launch calls alone), GPU time per
 * launch (events around the launches) and, from %globaltimer stamps the kernels write, the gap
 * between one kernel's end and the next one's start and a kernel's own span. Runs on a blocking
 * stream of its own (ordered after the harness's poisoning on the default stream, and capturable).
 * queued spreads its repetitions over `contexts` fresh contexts (gp_meas_contexts): the GPU's
 * pace is steady within a context's first few thousand launches and differs between contexts, so
 * gpu_gap_us_min, the lowest repetition, is the GPU's own gap and the median the contexts' mix;
 * more contexts steady it within a process, but part of it is the process's (docs/DESIGN.md,
 * "Points over several contexts", has the figures): `process` measures the points again in
 * processes of their own (GP_PARAM_PROCESS), and the report's keys take the lowest gap and the
 * median host times over them.
 * A launch takes some time, and the GPU cannot leave more time between two kernels than the host
 * spent per launch: either violated means broken timing. */
#include "gp.h"
#include "experiment.h"
#include "measure.h"
#include "stats.h"
#include "mem_common.h"

#include <math.h>
#include <string.h>

extern const unsigned char gp_image_probes_launch[];

enum { LAUNCH_SYNC, LAUNCH_ASYNC, LAUNCH_GRAPH, LAUNCH_QUEUED };

#define GATE_TIMEOUT_NS 200000000ull /* the gate lets the launches through after 0.2 s regardless */
#define GATE_MIN_QUEUED 16           /* fewer kernels queued behind the gate: no gap measured */
static const struct gp_param launch_params[] = {
	{ "process", GP_PARAM_PROCESS, 1, GP_MAX_PROCESSES, NULL, "1",
	  "the measuring process (the queued pace and the host's times are partly the process's)" },
	{ "mode", GP_PARAM_NAME, 0, 0, "sync async graph queued", "sync async graph queued",
	  "launch + wait each; back to back, then one wait; one CUDA graph of them; back to back behind a gate" },
	{ "grid", GP_PARAM_NAME, 0, 0, "one full", "one full", "one block, or every block the GPU holds at once" },
	{ "threads", GP_PARAM_INT, 32, 1024, NULL, "256", "threads per block" },
	{ "launches", GP_PARAM_INT, 2, 100000, NULL, "1000", "kernels per repetition" },
	{ "contexts", GP_PARAM_INT, 1, GP_MAX_CONTEXTS, NULL, "16",
	  "queued: the fresh contexts its repetitions are spread over (at least one repetition each)" },
};

static const char *const launch_cols[] = {
	"process", "mode", "grid", "threads", "launches", "contexts", "blocks", "host_us_per_launch", "host_us_per_launch_min",
	"host_us_per_launch_max", "spread", "issue_us_per_launch", "host_us_p50", "issue_us_p50", "gpu_us_per_launch",
	"gpu_gap_us", "gpu_gap_us_min",
	"kernel_gpu_us", "queued", "clock_MHz", "status",
};

struct launch {
	CUstream stream;
	CUevent e0, e1;
	CUgraph graph;
	CUgraphExec exec;
	CUdeviceptr start, end;
	const unsigned long long *h_start, *h_end;
	CUfunction gate;          /* queued: the kernel that holds the stream */
	unsigned *go;             /* queued: pinned host flag the gate waits on */
	CUdeviceptr go_d, timed_out;
	const unsigned *h_timed_out;
	unsigned long long timeout_ns;
	int queued; /* queued: kernels queued behind the gate before a launch call blocked (the
		     * host's queue full; the gate then times out): only their gaps are the GPU's */
	double *scratch;
	double *host_each, *issue_each; /* per launch: sync's launch + wait, every mode's launch call (s) */
	double t0, t_end, issue; /* this repetition's host times (s) */
	float gpu_ms;
	unsigned k, blocks, threads; /* k: the kernel's argument, its index in the repetition */
	int n, mode;
};

static CUresult launch_one(struct gp_meas *m, struct launch *x, unsigned k)
{
	x->k = k;
	return gp_cu.cuLaunchKernel(m->fn, x->blocks, 1, 1, x->threads, 1, 1, 0, x->stream, m->args, NULL);
}

/* The n launches captured once into a graph (a failed capture is ended, so the stream is usable). */
static int launch_capture(struct gp_meas *m, struct launch *x)
{
	CUgraph partial = NULL;

	GP_CU(cuStreamBeginCapture(x->stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
	for (int k = 0; k < x->n; k++)
		if (launch_one(m, x, (unsigned)k) != CUDA_SUCCESS) {
			gp_err("cuLaunchKernel failed during stream capture");
			if (gp_cu.cuStreamEndCapture(x->stream, &partial) == CUDA_SUCCESS && partial)
				gp_cu.cuGraphDestroy(partial);
			return GP_ECUDA;
		}
	GP_CU(cuStreamEndCapture(x->stream, &x->graph));
	GP_CU(cuGraphInstantiate(&x->exec, x->graph, 0));
	return 0;
error:
	return GP_ECUDA;
}

/* queued: the gate kernel, its pinned flag (device-visible at the same address: unified
 * addressing) and the word it sets when it gave up waiting. */
static int launch_gate_setup(struct gp_meas *m, struct launch *x)
{
	void *p = NULL;
	int rc;

	if ((rc = gp_kernel(m->dev, gp_image_probes_launch, "launch_gate", &x->gate)) ||
	    (rc = gp_meas_buf(m, &x->timed_out, sizeof *x->h_timed_out, 0)))
		return rc;
	x->h_timed_out = gp_meas_readback(m, x->timed_out, sizeof *x->h_timed_out, GP_EVERY_REP);
	GP_CU(cuMemAllocHost(&p, sizeof *x->go));
	x->go = p;
	x->go_d = (CUdeviceptr)(uintptr_t)p;
	x->timeout_ns = GATE_TIMEOUT_NS;
	return 0;
error:
	return GP_ECUDA;
}

/* queued: close the gate and put it first on the stream. */
static int launch_gate_close(struct launch *x)
{
	void *args[] = { &x->go_d, &x->timeout_ns, &x->timed_out };

	__atomic_store_n(x->go, 0u, __ATOMIC_SEQ_CST);
	GP_CU(cuLaunchKernel(x->gate, 1, 1, 1, 1, 1, 1, 0, x->stream, args, NULL));
	return 0;
error:
	return GP_ECUDA;
}

/* Every block the GPU holds at once, or one. */
static int launch_grid(struct gp_meas *m, struct launch *x, int full)
{
	int per_sm = 1;

	if (full)
		GP_CU(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, m->fn, (int)x->threads, 0));
	x->blocks = full ? (unsigned)(per_sm * m->dev->sms) : 1u;
	gp_meas_int(m, "blocks", x->blocks);
	return 0;
error:
	return GP_ECUDA;
}

static int launch_setup(struct gp_meas *m)
{
	struct launch *x = m->ctx;
	const char *mode = gp_meas_param_str(m, "mode");
	const size_t bytes = (size_t)gp_meas_param(m, "launches") * sizeof *x->h_start;
	int rc;

	x->mode = !strcmp(mode, "sync")	   ? LAUNCH_SYNC
		  : !strcmp(mode, "async") ? LAUNCH_ASYNC
		  : !strcmp(mode, "graph") ? LAUNCH_GRAPH
					   : LAUNCH_QUEUED;
	x->n = (int)gp_meas_param(m, "launches");
	x->threads = (unsigned)gp_meas_param(m, "threads");
	gp_meas_spin_clock(m);
	if ((rc = gp_meas_kernel(m, "launch_empty")) ||
	    (rc = launch_grid(m, x, !strcmp(gp_meas_param_str(m, "grid"), "full"))))
		return rc;
	if (!x->blocks)
		return gp_meas_na(m, "no block of %u threads fits an SM", x->threads);
	if ((rc = gp_meas_buf(m, &x->start, bytes, GP_POISON_NAN)) || (rc = gp_meas_buf(m, &x->end, bytes, GP_POISON_NAN)))
		return rc;
	x->h_start = gp_meas_readback(m, x->start, bytes, GP_EVERY_REP);
	x->h_end = gp_meas_readback(m, x->end, bytes, GP_EVERY_REP);
	if (!(x->scratch = gp_meas_host(m, (size_t)x->n * sizeof *x->scratch)) ||
	    !(x->host_each = gp_meas_host(m, (size_t)x->n * sizeof *x->host_each)) ||
	    !(x->issue_each = gp_meas_host(m, (size_t)x->n * sizeof *x->issue_each)))
		return GP_EFAIL;
	gp_meas_args(m, &x->k, &x->start, &x->end);
	if (x->mode == LAUNCH_QUEUED && (rc = launch_gate_setup(m, x)))
		return rc;
	if (x->mode == LAUNCH_QUEUED)
		gp_meas_contexts(m, (int)gp_meas_param(m, "contexts"));
	if (x->mode != LAUNCH_QUEUED) { /* neither applies */
		gp_meas_str(m, "queued", "");
		gp_meas_str(m, "contexts", "");
	}
	if (x->mode != LAUNCH_SYNC)
		gp_meas_str(m, "host_us_p50", "");
	if (x->mode == LAUNCH_GRAPH)
		gp_meas_str(m, "issue_us_p50", "");
	GP_CU(cuStreamCreate(&x->stream, CU_STREAM_DEFAULT));
	if (gp_events_new(&x->e0, &x->e1))
		return GP_ECUDA;
	return x->mode == LAUNCH_GRAPH ? launch_capture(m, x) : 0;
error:
	return GP_ECUDA;
}

/* One repetition: the launches as the mode says, between two events on the stream. */
static int launch_rep(struct gp_meas *m)
{
	struct launch *x = m->ctx;

	x->issue = 0;
	x->queued = x->n;
	if (x->mode == LAUNCH_QUEUED && launch_gate_close(x))
		goto error;
	x->t0 = gp_now();
	GP_CU(cuEventRecord(x->e0, x->stream));
	if (x->mode == LAUNCH_GRAPH)
		GP_CU(cuGraphLaunch(x->exec, x->stream));
	for (int k = 0; x->mode != LAUNCH_GRAPH && k < x->n; k++) {
		const double t = gp_now();
		if (launch_one(m, x, (unsigned)k) != CUDA_SUCCESS)
			goto error;
		x->issue_each[k] = gp_now() - t;
		if (x->mode == LAUNCH_QUEUED && x->queued == x->n && x->issue_each[k] > x->timeout_ns / 2e9)
			x->queued = k;
		if (x->mode == LAUNCH_SYNC) {
			x->issue += x->issue_each[k];
			GP_CU(cuStreamSynchronize(x->stream));
			x->host_each[k] = gp_now() - t;
		}
	}
	if (x->mode != LAUNCH_SYNC)
		x->issue = gp_now() - x->t0;
	if (x->mode == LAUNCH_QUEUED)
		__atomic_store_n(x->go, 1u, __ATOMIC_SEQ_CST);
	GP_CU(cuEventRecord(x->e1, x->stream));
	GP_CU(cuStreamSynchronize(x->stream));
	x->t_end = gp_now();
	GP_CU(cuEventElapsedTime(&x->gpu_ms, x->e0, x->e1));
	return 0;
error:
	gp_err("lat_launch: a launch, wait or event failed");
	return GP_ECUDA;
}

/* Every kernel stamped, in order: each ends after it starts and starts after the previous one
 * ended (1 us of slack for the timer's tick and for a full grid's last block, which may start
 * before block 0). 0, or 1 + the first kernel that broke it. */
static int launch_stamps_bad(const struct launch *x)
{
	for (int k = 0; k < x->n; k++) {
		const unsigned long long s = x->h_start[k], e = x->h_end[k];
		if (s == ~0ull || e == ~0ull || e + 1000 < s || (k && s + 1000 < x->h_end[k - 1]))
			return k + 1;
	}
	return 0;
}

static void launch_sample(struct gp_meas *m)
{
	const struct launch *x = m->ctx;
	const int bad = launch_stamps_bad(x);

	if (bad) {
		gp_meas_fail(m, "kernel %d of %d left no stamps or overlapped its neighbour: a launch did not run", bad, x->n);
		return;
	}
	if (x->mode == LAUNCH_QUEUED && *x->h_timed_out && x->queued < GATE_MIN_QUEUED) {
		gp_meas_fail(m, "the gate timed out with %d of %d launches queued behind it: no back-to-back gap", x->queued,
			     x->n);
		return;
	}
	if (x->mode == LAUNCH_QUEUED)
		gp_sample(m, "queued", x->queued);
	gp_sample(m, "host_us_per_launch", (x->t_end - x->t0) * 1e6 / x->n);
	gp_sample(m, "issue_us_per_launch", x->issue * 1e6 / x->n);
	gp_sample(m, "gpu_us_per_launch", x->gpu_ms * 1e3 / x->n);
	if (x->mode != LAUNCH_GRAPH) { /* the typical launch, robust to the host's occasional stalls */
		gp_sample(m, "issue_us_p50", mem_median(x->issue_each, (size_t)x->n) * 1e6);
		if (x->mode == LAUNCH_SYNC)
			gp_sample(m, "host_us_p50", mem_median(x->host_each, (size_t)x->n) * 1e6);
	}
	for (int k = 1; k < x->n; k++)
		x->scratch[k - 1] = ((double)x->h_start[k] - (double)x->h_end[k - 1]) / 1e3;
	if (x->mode == LAUNCH_QUEUED) {
		struct gp_stats st;
		if (!gp_stats(x->scratch, (size_t)x->queued - 1, &st))
			gp_sample(m, "gpu_gap_us", st.mean);
	} else
		gp_sample(m, "gpu_gap_us", mem_median(x->scratch, (size_t)x->n - 1));
	for (int k = 0; k < x->n; k++)
		x->scratch[k] = ((double)x->h_end[k] - (double)x->h_start[k]) / 1e3;
	gp_sample(m, "kernel_gpu_us", mem_median(x->scratch, (size_t)x->n));
}

/* Floors: a launch takes time; neither the GPU's time per launch nor its gap between two kernels
 * can exceed the host's time per launch, which spans them (5 % for the two clocks). */
static void launch_finish(struct gp_meas *m)
{
	const double host = gp_meas_stat(m, "host_us_per_launch", GP_MEDIAN);
	const double gpu = gp_meas_stat(m, "gpu_us_per_launch", GP_MEDIAN), gap = gp_meas_stat(m, "gpu_gap_us", GP_MEDIAN);

	gp_meas_num(m, "gpu_gap_us_min", gp_meas_stat(m, "gpu_gap_us", GP_MIN));
	gp_meas_floor(m, "host time per launch", host, 0.001, 0, "us");
	gp_meas_floor(m, "GPU time per launch", gpu, 0.001, 0, "us");
	if (gpu > 1.05 * host || gap > 1.05 * host)
		gp_meas_fail(m, "the GPU's %.3g us per launch (gap %.3g us) exceed the host's %.3g us: broken timing", gpu, gap,
			     host);
}

static void launch_cleanup(struct gp_meas *m)
{
	struct launch *x = m->ctx;

	if (x->exec)
		gp_cu.cuGraphExecDestroy(x->exec);
	if (x->graph)
		gp_cu.cuGraphDestroy(x->graph);
	gp_events_free(x->e0, x->e1);
	if (x->stream)
		gp_cu.cuStreamDestroy(x->stream);
	if (x->go)
		gp_cu.cuMemFreeHost(x->go);
}

static const struct gp_probe launch_probe = {
	.runner = GP_RUN_SYNC, .image = gp_image_probes_launch, .setup = launch_setup, .launch = launch_rep,
	.sample = launch_sample, .finish = launch_finish, .cleanup = launch_cleanup,
	.primary = "host_us_per_launch", .ctx_size = sizeof(struct launch),
};

GP_EXP_PROBE(lat_launch, launch_params, launch_cols, &launch_probe);
