/* p2p.c — bw_p2p (H070) and lat_p2p (H071): every ordered pair (src, dst) of the host's GPUs,
 * data moving from src's memory to dst's. bw_p2p: cuMemcpyPeerAsync issued on src (memcpy), the
 * same plus dst -> src on a second stream of src's context at once (memcpy_bidir), a kernel on dst
 * reading src's memory through the peer mapping (read) or one on src writing into dst's (write);
 * event time per repetition, every word that lands checked against the fill pattern. lat_p2p: one
 * thread on dst chases a random cycle of pointers in src's memory (p2p.cu). Each pair is one
 * gp_measure of the inner probe on the GPU that does the work (its context current, its modules),
 * and the pairs' rows are the point's rows. Held to the link's datasheet rate in each direction
 * (configs/reference.csv through p2p_link_rate), or the slower GPU's HBM rate where the link's is
 * unknown. A host of one GPU gives one row "n/a: one GPU". Pitfall: without peer access the
 * driver stages cuMemcpyPeer through host memory (p2p_access says which), and kernels cannot run. */
#include "gp.h"
#include "experiment.h"
#include "measure.h"
#include "p2p.h"
#include "p2p_run.h"
#include "p2p_shape.h"
#include "reference.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

extern const unsigned char gp_image_probes_p2p[];

/* ------------------------------------------------------------------ the host's GPUs */

/* Opened for the first point of an experiment, let go after its last (gp_meas_keep). */
static struct {
	int ready;
	CUcontext home; /* the run's GPU's context, current between pairs */
	struct gp_topo topo;
	struct gp_device own[GP_TOPO_MAX_GPUS];  /* the other GPUs, opened here */
	struct gp_device *gpu[GP_TOPO_MAX_GPUS]; /* every GPU: the run's device or own[i] */
	struct gp_table *ref;                    /* configs/reference.csv; NULL without it */
} host;

static void host_drop(void)
{
	for (int i = 0; i < GP_TOPO_MAX_GPUS; i++)
		if (host.gpu[i] == &host.own[i])
			gp_device_close(&host.own[i]);
	if (host.home)
		gp_cu.cuCtxSetCurrent(host.home);
	if (host.ref)
		gp_table_free(host.ref);
	memset(&host, 0, sizeof host);
}

int p2p_on(const struct gp_device *d)
{
	GP_CU(cuCtxSetCurrent(d->ctx));
	return 0;
error:
	return GP_ECUDA;
}

/* Peer access both ways for every pair the driver allows it (mapping each other's memory). */
static int peers_enable(void)
{
	for (int i = 0; i < host.topo.n; i++)
		for (int j = 0; j < host.topo.n; j++) {
			CUresult r;
			if (i == j || host.topo.pair[i][j].access != 1 || p2p_on(host.gpu[i]))
				continue;
			r = gp_cu.cuCtxEnablePeerAccess(host.gpu[j]->ctx, 0);
			if (r != CUDA_SUCCESS && r != CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED) {
				gp_err("cuCtxEnablePeerAccess(GPU %d -> GPU %d) failed: %s", i, j, gp_cu_strerror(r));
				return GP_ECUDA;
			}
		}
	return 0;
}

static int host_open(struct gp_run *run)
{
	char why[512], path[PATH_MAX];
	int rc = 0;

	if (host.ready)
		return 0;
	gp_meas_keep(host_drop);
	host.home = run->dev->ctx;
	if (gp_topo_read(&host.topo))
		return GP_ECUDA;
	snprintf(path, sizeof path, "%s/configs/reference.csv", gp_home());
	host.ref = gp_table_load(path, why, sizeof why);
	for (int i = 0; i < host.topo.n && !rc; i++) {
		if (i == run->dev->ordinal) {
			host.gpu[i] = run->dev;
		} else if (gp_device_open(&host.own[i], i, why, sizeof why)) {
			gp_err("%s", why);
			rc = GP_ECUDA;
		} else {
			host.gpu[i] = &host.own[i];
		}
	}
	host.ready = 1;
	if (!rc)
		rc = peers_enable();
	gp_cu.cuCtxSetCurrent(host.home);
	return rc;
}

/* ------------------------------------------------------------------ pairs */

/* The pair the inner probes measure; set around each gp_measure (measurement is single-threaded). */
static const struct p2p_pair *p2p_cur;

const struct p2p_pair *p2p_pair_now(void)
{
	return p2p_cur;
}

static double hbm_GBps(const struct gp_device *d)
{
	return 2.0 * d->mem_clock_khz * 1e3 * d->mem_bus_bits / 8 / 1e9;
}

static void pair_fill(struct p2p_pair *p, int s, int d)
{
	*p = (struct p2p_pair){ .src = s, .dst = d, .sdev = host.gpu[s], .ddev = host.gpu[d],
				.access = host.topo.pair[s][d].access == 1 && host.topo.pair[d][s].access == 1 };
	gp_topo_link_name(&host.topo, s, d, p->link, sizeof p->link);
	p->link_GBps = p2p_link_rate(&host.topo, s, d, host.ref, p->basis, sizeof p->basis);
	p->hbm_GBps = fmin(hbm_GBps(p->sdev), hbm_GBps(p->ddev));
}

/* The cells every row of both experiments has, n/a or not. */
void p2p_pair_cells(struct gp_meas *m, const struct p2p_pair *p)
{
	gp_meas_int(m, "src", p->src);
	if (p->dst >= 0)
		gp_meas_int(m, "dst", p->dst);
	else
		gp_meas_str(m, "dst", "");
	gp_meas_int(m, "exec", m->dev->ordinal);
	gp_meas_str(m, "link", p->dst >= 0 ? p->link : "none");
	gp_meas_str(m, "p2p_access", p->dst < 0 ? "" : p->access ? "yes" : "no");
	gp_meas_num(m, "link_GBps", p->link_GBps > 0 ? p->link_GBps : NAN);
	gp_meas_str(m, "link_basis", p->dst >= 0 ? p->basis : "");
}

static int pair_run(struct gp_run *run, const struct gp_point *pt, struct gp_table *in, const struct gp_exp_impl *inner,
		    const struct p2p_pair *p, struct gp_device *exec)
{
	struct gp_run sub = *run;
	int rc;

	sub.dev = exec;
	p2p_cur = p;
	rc = p2p_on(exec);
	if (!rc)
		rc = gp_measure(&sub, inner, pt, in);
	p2p_cur = NULL;
	gp_cu.cuCtxSetCurrent(run->dev->ctx);
	return rc;
}

/* The inner table's rows as the point's, in the experiment's own columns. */
static int copy_rows(const struct gp_table *in, struct gp_table *out)
{
	char err[128];

	for (size_t r = 0; r < in->nrows; r++) {
		gp_row_begin(out);
		for (size_t c = 0; c < out->ncols; c++)
			gp_row_str(out, out->cols[c], gp_table_get(in, r, out->cols[c]));
		if (gp_row_end(out, err, sizeof err)) {
			gp_err("internal: p2p row: %s", err);
			return GP_EFAIL;
		}
	}
	return 0;
}

/* Every pair the point asks for through `inner`, run on dst (exec_dst) or src. */
int p2p_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *out, const struct gp_exp_impl *inner,
		int exec_dst)
{
	int pairs[GP_TOPO_MAX_GPUS * GP_TOPO_MAX_GPUS][2], np = 0, rc, worst = 0;
	struct gp_table *in = gp_exp_table(inner);
	struct p2p_pair p = { .src = run->dev->ordinal, .dst = -1, .sdev = run->dev, .ddev = run->dev, .na = "one GPU" };

	if (!in)
		return GP_EFAIL;
	if (!(rc = host_open(run)) && host.topo.n < 2)
		worst = pair_run(run, pt, in, inner, &p, run->dev);
	else if (!rc)
		np = p2p_pairs(host.topo.n, run->dev->ordinal, !strcmp(gp_point_str(pt, "pairs"), "device"), pairs,
			       (int)GP_ARRAY_SIZE(pairs));
	for (int k = 0; k < np && !rc; k++) {
		pair_fill(&p, pairs[k][0], pairs[k][1]);
		rc = pair_run(run, pt, in, inner, &p, exec_dst ? p.ddev : p.sdev);
		worst = rc == GP_EVALID ? rc : worst;
		rc = rc == GP_EVALID ? 0 : rc;
	}
	if (copy_rows(in, out))
		rc = GP_EFAIL;
	gp_table_free(in);
	return rc ? rc : worst;
}

/* ------------------------------------------------------------------ buffers on any GPU */

int p2p_buf_on(struct gp_meas *m, struct p2p_bufs *b, const struct gp_device *d, CUdeviceptr *p, size_t bytes)
{
	CUresult r;

	if (b->n == P2P_MAX_BUFS || p2p_on(d))
		return GP_ECUDA;
	r = gp_cu.cuMemAlloc(p, bytes);
	if (p2p_on(m->dev))
		return GP_ECUDA;
	if (r == CUDA_ERROR_OUT_OF_MEMORY)
		return gp_meas_na(m, "%zu bytes do not fit on GPU %d", bytes, d->ordinal), 1;
	if (r != CUDA_SUCCESS) {
		gp_err("cuMemAlloc(%zu) on GPU %d failed: %s", bytes, d->ordinal, gp_cu_strerror(r));
		return GP_ECUDA;
	}
	b->d[b->n] = *p;
	b->owner[b->n++] = d;
	return 0;
}

void p2p_bufs_free(struct gp_meas *m, struct p2p_bufs *b)
{
	for (int i = 0; i < b->n; i++)
		if (!p2p_on(b->owner[i]))
			gp_cu.cuMemFree(b->d[i]);
	b->n = 0;
	p2p_on(m->dev);
}

int p2p_kernel_on(struct gp_meas *m, struct gp_device *d, const char *name, void **args, unsigned grid)
{
	CUfunction fn;
	int rc = p2p_on(d);

	if (!rc && !(rc = gp_kernel(d, gp_image_probes_p2p, name, &fn)))
		rc = gp_launch(fn, grid ? grid : (unsigned)(d->sms * P2P_BLOCKS_PER_SM), P2P_THREADS, 0, args, NULL);
	return p2p_on(m->dev) ? GP_ECUDA : rc;
}
