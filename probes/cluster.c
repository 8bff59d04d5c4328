/* cluster.c — thread-block clusters and distributed shared memory (sm_90): lat_dsm, one thread
 * chasing a random cycle through its own shared memory (ld.shared), through its own cluster
 * window, or through the last rank's (another SM's) shared memory, checked to come back to its
 * start; lat_cluster_barrier, cycles per barrier.cluster arrive + wait against bar.sync. Every
 * kernel is launched as clusters by cuLaunchKernelEx from the launch hook; sizes above 8 need the
 * non-portable attribute and may not fit (cuOccupancyMaxActiveClusters = 0: n/a). Kernels in
 * cluster.cu, bw_dsm in cluster_bw.c, derive/report in cluster_report.c. */
#include "gp.h"
#include "experiment.h"
#include "measure.h"
#include "cluster.h"
#include "cluster_shape.h"
#include "mem_common.h"
#include "mem_model.h"

#include <string.h>

#define DSM_CHAIN_SEED 0x636c7573746572ull

/* ------------------------------------------------------------------ launch */

static void cluster_config(CUlaunchConfig *cfg, CUlaunchAttribute *at, unsigned grid, unsigned threads,
			   unsigned smem, unsigned csize)
{
	memset(at, 0, sizeof *at);
	at->id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
	at->value.clusterDim.x = csize;
	at->value.clusterDim.y = at->value.clusterDim.z = 1;
	*cfg = (CUlaunchConfig){ .gridDimX = grid, .gridDimY = 1, .gridDimZ = 1, .blockDimX = threads, .blockDimY = 1,
				 .blockDimZ = 1, .sharedMemBytes = smem, .hStream = NULL, .attrs = at, .numAttrs = 1 };
}

int cluster_na(struct gp_meas *m)
{
	if (m->dev->cc_major >= 9)
		return 0;
	return gp_meas_na(m, "thread-block clusters need compute capability 9.0, this GPU is %d.%d", m->dev->cc_major,
			  m->dev->cc_minor), 1;
}

int cluster_kernel(struct gp_meas *m, const char *name, unsigned csize, unsigned threads, unsigned smem, int *fit)
{
	CUlaunchAttribute at;
	CUlaunchConfig cfg;
	CUresult r;
	int rc;

	*fit = 0;
	if ((rc = gp_meas_kernel(m, "%s", name)))
		return rc;
	if (csize > 8)
		GP_CU(cuFuncSetAttribute(m->fn, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1));
	if (smem > 48 * 1024)
		GP_CU(cuFuncSetAttribute(m->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)smem));
	cluster_config(&cfg, &at, csize, threads, smem, csize);
	/* A cluster shape the GPU cannot form is refused here, not at the launch: n/a, not a fault. */
	if ((r = gp_cu.cuOccupancyMaxActiveClusters(fit, m->fn, &cfg)) != CUDA_SUCCESS) {
		*fit = 0;
		return gp_meas_na(m, "clusters of %u blocks: %s", csize, gp_cu_strerror(r));
	}
	if (!*fit)
		return gp_meas_na(m, "no cluster of %u blocks of %u threads with %u bytes of shared memory fits", csize,
				  threads, smem);
	return 0;
error:
	return GP_ECUDA;
}

int cluster_launch(struct gp_meas *m)
{
	const struct cluster_ctx *c = m->ctx;
	CUlaunchAttribute at;
	CUlaunchConfig cfg;

	cluster_config(&cfg, &at, m->grid, m->block, m->smem, c->csize);
	GP_CU(cuLaunchKernelEx(&cfg, m->fn, m->args, NULL));
	return 0;
error:
	return GP_ECUDA;
}

/* ------------------------------------------------------------------ lat_dsm */

#define DSM_SP_NAME(name, ...) " " #name
static const char dsm_chase_names[] = DSM_CHASES(DSM_SP_NAME);
static const char dsm_barrier_names[] = DSM_BARRIERS(DSM_SP_NAME);

static const struct gp_param lat_dsm_params[] = {
	{ "cluster", GP_PARAM_INT, 1, DSM_MAX_CLUSTER, NULL, "2 4 8 16", "blocks per cluster (above 8: non-portable)" },
	{ "what", GP_PARAM_NAME, 0, 0, dsm_chase_names + 1, dsm_chase_names + 1,
	  "ld.shared on the own block; generic loads through the own rank's cluster window; through the last rank's" },
	{ "footprint_bytes", GP_PARAM_INT, 16, 1L << 20, NULL, "16384", "shared bytes the chain spans" },
	{ "stride_bytes", GP_PARAM_INT, 8, 4096, NULL, "64", "slot spacing (multiple of 8)" },
	{ "loads", GP_PARAM_INT, 1024, 100000000, NULL, "16384", "timed loads (at least)" },
};

static const char *const lat_dsm_cols[] = {
	"cluster", "what", "target_rank", "pattern", "footprint_bytes", "stride_bytes", "slots", "loads",
	"cycles_per_load", "cycles_per_load_min", "cycles_per_load_max", "spread", "latency_ns",
	"timer_overhead_cycles", "clusters_fit", "clock_MHz", "status",
};

struct lat_dsm {
	struct cluster_ctx c;
	CUdeviceptr next, out;
	const unsigned long long *h_out;
	long long steps;
	int slots, stride, remote;
};

/* The chase `what` names: its kernel and whether it reads the last rank. */
static const char *dsm_chase(const char *what, int *remote)
{
#define DSM_CHASE_IS(name, kernel, remote_, sass)                                                  \
	if (!strcmp(what, #name))                                                                  \
		return *remote = (remote_), (kernel);
	DSM_CHASES(DSM_CHASE_IS)
#undef DSM_CHASE_IS
	return NULL;
}

/* The random cycle over the slots (Sattolo: one cycle), uploaded for rank 0 to lay out. */
static int lat_dsm_chain(struct gp_meas *m, struct lat_dsm *x)
{
	uint32_t *next = gp_meas_host(m, (size_t)x->slots * sizeof *next);
	int rc;

	if (!next)
		return GP_EFAIL;
	mem_chain_random(next, (size_t)x->slots, DSM_CHAIN_SEED);
	if ((rc = gp_meas_input(m, &x->next, next, (size_t)x->slots * sizeof *next)) ||
	    (rc = gp_meas_buf(m, &x->out, 3 * sizeof *x->h_out, GP_POISON_NAN)))
		return rc;
	x->h_out = gp_meas_readback(m, x->out, 3 * sizeof *x->h_out, GP_EVERY_REP);
	return 0;
}

static int lat_dsm_setup(struct gp_meas *m)
{
	struct lat_dsm *x = m->ctx;
	const long long fp = gp_meas_param(m, "footprint_bytes"), loads = gp_meas_param(m, "loads");
	const char *kernel = dsm_chase(gp_meas_param_str(m, "what"), &x->remote);
	int rc, fit;

	x->c.csize = (unsigned)gp_meas_param(m, "cluster");
	x->stride = (int)gp_meas_param(m, "stride_bytes");
	x->slots = (int)(fp / x->stride);
	x->steps = (loads + x->slots - 1) / (x->slots ? x->slots : 1) * x->slots;
	gp_meas_str(m, "pattern", "random");
	gp_meas_int(m, "target_rank", x->remote ? x->c.csize - 1 : 0);
	gp_meas_int(m, "slots", x->slots);
	gp_meas_int(m, "loads", x->steps);
	if (!kernel || x->stride % 8)
		return gp_meas_fail(m, "a %d-byte stride does not hold 8-byte addresses aligned", x->stride), 0;
	if (x->slots < 2)
		return gp_meas_na(m, "a %lld-byte footprint at a %d-byte stride holds %d slot(s); a chain needs 2", fp,
				  x->stride, x->slots);
	if (cluster_na(m))
		return 0;
	if (fp > m->dev->smem_per_block_optin)
		return gp_meas_na(m, "%lld bytes exceed the %d bytes of shared memory a block may have", fp,
				  m->dev->smem_per_block_optin);
	if ((rc = lat_dsm_chain(m, x)) || (rc = cluster_kernel(m, kernel, x->c.csize, 1, (unsigned)fp, &fit)) || !fit)
		return rc;
	gp_meas_int(m, "clusters_fit", fit);
	gp_meas_launch(m, x->c.csize, 1, (unsigned)fp);
	gp_meas_args(m, &x->next, &x->slots, &x->stride, &x->remote, &x->steps, &x->out, gp_meas_clock(m));
	return 0;
}

static void lat_dsm_sample(struct gp_meas *m)
{
	const struct lat_dsm *x = m->ctx;

	if (x->h_out[0] != 0)
		gp_meas_fail(m, "chain ended %lld bytes from its start: loads skipped or stale", (long long)x->h_out[0]);
	mem_chase_sample(m, x->h_out, x->steps);
}

/* Floor: no shared-memory load returns in fewer than 2 cycles. */
static void lat_dsm_finish(struct gp_meas *m)
{
	mem_chase_finish(m, 2);
}

static const struct gp_probe lat_dsm_probe = {
	.runner = GP_RUN_SYNC, .image = gp_image_probes_cluster, .setup = lat_dsm_setup, .launch = cluster_launch,
	.sample = lat_dsm_sample, .finish = lat_dsm_finish, .primary = "cycles_per_load", .ctx_size = sizeof(struct lat_dsm),
};

GP_EXP_PROBE(lat_dsm, lat_dsm_params, lat_dsm_cols, &lat_dsm_probe);

/* ------------------------------------------------------------------ lat_cluster_barrier */

static const struct gp_param cbar_params[] = {
	{ "cluster", GP_PARAM_INT, 1, DSM_MAX_CLUSTER, NULL, "2 4 8 16", "blocks per cluster (above 8: non-portable)" },
	{ "kind", GP_PARAM_NAME, 0, 0, dsm_barrier_names + 1, dsm_barrier_names + 1,
	  "barrier.cluster arrive + wait (release/acquire), with a relaxed arrive, or bar.sync" },
	{ "threads", GP_PARAM_INT, 32, 1024, NULL, "128", "threads per block (whole warps)" },
	{ "iters", GP_PARAM_INT, 1, 1000000, NULL, "256", "trips of 8 barriers" },
};

static const char *const cbar_cols[] = {
	"cluster", "kind", "threads", "iters", "barriers", "cycles_per_barrier", "cycles_per_barrier_min",
	"cycles_per_barrier_max", "spread", "ns_per_barrier", "clusters_fit", "clock_MHz", "status",
};

struct cbar {
	struct cluster_ctx c;
	CUdeviceptr out;
	const unsigned long long *h_out;
	int iters;
};

static int cbar_setup(struct gp_meas *m)
{
	struct cbar *b = m->ctx;
	const int threads = (int)gp_meas_param(m, "threads");
	char kernel[64];
	int rc, fit;

	b->c.csize = (unsigned)gp_meas_param(m, "cluster");
	b->iters = (int)gp_meas_param(m, "iters");
	gp_meas_int(m, "barriers", 8LL * b->iters);
	if (threads % 32)
		return gp_meas_fail(m, "a block of %d threads is not whole warps", threads), 0;
	if (cluster_na(m))
		return 0;
	snprintf(kernel, sizeof kernel, "lat_cbar_%s", gp_meas_param_str(m, "kind"));
	if ((rc = gp_meas_buf(m, &b->out, b->c.csize * sizeof *b->h_out, GP_POISON_NAN)) ||
	    (rc = cluster_kernel(m, kernel, b->c.csize, (unsigned)threads, 0, &fit)) || !fit)
		return rc;
	b->h_out = gp_meas_readback(m, b->out, b->c.csize * sizeof *b->h_out, GP_EVERY_REP);
	gp_meas_int(m, "clusters_fit", fit);
	gp_meas_launch(m, b->c.csize, (unsigned)threads, 0);
	gp_meas_args(m, &b->iters, &b->out, gp_meas_clock(m));
	return 0;
}

/* Rank 0's cycles per barrier; every block of the cluster must have passed them all. */
static void cbar_sample(struct gp_meas *m)
{
	const struct cbar *b = m->ctx;

	for (unsigned r = 0; r < b->c.csize; r++)
		if (b->h_out[r] == ~0ull)
			gp_meas_fail(m, "block %u of the cluster never finished its barriers", r);
	gp_sample(m, "cycles_per_barrier", (double)b->h_out[0] / (8.0 * b->iters));
}

/* Floor: a barrier takes at least a cycle. */
static void cbar_finish(struct gp_meas *m)
{
	const double cyc = gp_meas_stat(m, "cycles_per_barrier", GP_MEDIAN);

	gp_meas_num(m, "ns_per_barrier", cyc / gp_meas_mhz(m) * 1e3);
	gp_meas_floor(m, "a barrier", cyc, 1, 0, "cycles");
}

static const struct gp_probe cbar_probe = {
	.runner = GP_RUN_SYNC, .image = gp_image_probes_cluster, .setup = cbar_setup, .launch = cluster_launch,
	.sample = cbar_sample, .finish = cbar_finish, .primary = "cycles_per_barrier", .ctx_size = sizeof(struct cbar),
};

GP_EXP_PROBE(lat_cluster_barrier, cbar_params, cbar_cols, &cbar_probe);
