/* p2p_bw.c — bw_p2p's probe (p2p.c runs it once per pair on the GPU that does the work). The
 * source is filled once with p2p.cu's pattern, each destination poisoned before every repetition
 * and checked by its owner after it; the event time covers the copies alone. */
#include "gp.h"
#include "experiment.h"
#include "measure.h"
#include "p2p_run.h"
#include "p2p_shape.h"

#include <math.h>
#include <string.h>

enum { BW_MEMCPY, BW_BIDIR, BW_READ, BW_WRITE };

static const struct gp_param bw_p2p_params[] = {
	{ "mode", GP_PARAM_NAME, 0, 0, "memcpy memcpy_bidir read write", "memcpy memcpy_bidir read write",
	  "cuMemcpyPeer src -> dst; both ways at once; a kernel on dst reading src; one on src writing dst" },
	{ "bytes", GP_PARAM_INT, 1L << 20, 1L << 34, NULL, "268435456", "bytes one direction moves per repetition (16-byte multiple)" },
	{ "pairs", GP_PARAM_NAME, 0, 0, "all device", "all", "every ordered pair of GPUs, or those with the run's GPU" },
};

static const char *const bw_p2p_cols[] = {
	"mode", "bytes", "pairs", "src", "dst", "exec", "link", "p2p_access", "GBps", "GBps_min", "GBps_max",
	"spread", "time_ms", "link_GBps", "pct_of_link", "ceiling_GBps", "link_basis", "reps", "status",
};

struct bw {
	const struct p2p_pair *p;
	struct p2p_bufs b;
	int mode, dirs;
	unsigned long long bytes, n16, words, bad_words, seen_words;
	CUdeviceptr from, to, back_from, back_to, bad[2];
	CUstream s[2];
};

/* The buffers: `from` on src -> `to` on dst, and back for memcpy_bidir; a counter on each
 * destination's GPU. 0, 1 (n/a) or an error. */
static int bw_buffers(struct gp_meas *m, struct bw *x)
{
	const struct p2p_pair *p = x->p;
	unsigned seed = P2P_SEED, back = ~P2P_SEED;
	void *fa[] = { &x->from, &x->words, &seed }, *fb[] = { &x->back_from, &x->words, &back };
	int rc;

	if ((rc = p2p_buf_on(m, &x->b, p->sdev, &x->from, x->bytes)) ||
	    (rc = p2p_buf_on(m, &x->b, p->ddev, &x->to, x->bytes)) ||
	    (rc = p2p_buf_on(m, &x->b, p->ddev, &x->bad[0], 2 * sizeof(unsigned long long))) ||
	    (rc = p2p_kernel_on(m, p->sdev, "p2p_fill", fa, 0)))
		return rc;
	if (x->mode != BW_BIDIR)
		return 0;
	if ((rc = p2p_buf_on(m, &x->b, p->ddev, &x->back_from, x->bytes)) ||
	    (rc = p2p_buf_on(m, &x->b, p->sdev, &x->back_to, x->bytes)) ||
	    (rc = p2p_buf_on(m, &x->b, p->sdev, &x->bad[1], 2 * sizeof(unsigned long long))))
		return rc;
	return p2p_kernel_on(m, p->ddev, "p2p_fill", fb, 0);
}

static int bw_p2p_setup(struct gp_meas *m)
{
	static const char *const modes[] = { "memcpy", "memcpy_bidir", "read", "write" };
	struct bw *x = m->ctx;
	int rc;

	x->p = p2p_pair_now();
	for (int k = 0; k < 4; k++)
		x->mode = strcmp(gp_meas_param_str(m, "mode"), modes[k]) ? x->mode : k;
	x->dirs = x->mode == BW_BIDIR ? 2 : 1;
	x->bytes = (unsigned long long)gp_meas_param(m, "bytes");
	x->n16 = x->bytes / 16;
	x->words = x->bytes / 4;
	p2p_pair_cells(m, x->p);
	if (x->p->na)
		return gp_meas_na(m, "%s", x->p->na);
	if (x->bytes % 16)
		return gp_meas_na(m, "bytes is not a multiple of 16");
	if (x->mode >= BW_READ && !x->p->access)
		return gp_meas_na(m, "no peer access between GPU %d and GPU %d", x->p->src, x->p->dst);
	if ((rc = bw_buffers(m, x)))
		return rc > 0 ? 0 : rc;
	if (x->mode == BW_BIDIR && (gp_cu.cuStreamCreate(&x->s[0], CU_STREAM_DEFAULT) != CUDA_SUCCESS ||
				    gp_cu.cuStreamCreate(&x->s[1], CU_STREAM_DEFAULT) != CUDA_SUCCESS))
		return GP_ECUDA;
	if (x->mode >= BW_READ && (rc = gp_meas_kernel(m, "p2p_copy")))
		return rc;
	gp_meas_launch(m, (unsigned)(m->dev->sms * P2P_BLOCKS_PER_SM), P2P_THREADS, 0);
	gp_meas_args(m, &x->from, &x->to, &x->n16);
	return 0;
}

/* One repetition: the copies (blocking streams of the working GPU's context, so the harness's
 * events on its default stream enclose them) or the kernel. */
static int bw_p2p_launch(struct gp_meas *m)
{
	struct bw *x = m->ctx;
	CUcontext sc = x->p->sdev->ctx, dc = x->p->ddev->ctx;

	if (x->mode == BW_MEMCPY)
		GP_CU(cuMemcpyPeerAsync(x->to, dc, x->from, sc, x->bytes, NULL));
	if (x->mode == BW_BIDIR) {
		GP_CU(cuMemcpyPeerAsync(x->to, dc, x->from, sc, x->bytes, x->s[0]));
		GP_CU(cuMemcpyPeerAsync(x->back_to, sc, x->back_from, dc, x->bytes, x->s[1]));
	}
	if (x->mode >= BW_READ)
		GP_CU(cuLaunchKernel(m->fn, m->grid, 1, 1, m->block, 1, 1, 0, NULL, m->args, NULL));
	return 0;
error:
	return GP_ECUDA;
}

/* Poison each destination (on its owner, finished before the copy starts). */
static int bw_p2p_before(struct gp_meas *m)
{
	struct bw *x = m->ctx;
	const struct gp_device *owner[2] = { x->p->ddev, x->p->sdev };
	const CUdeviceptr dst[2] = { x->to, x->back_to };

	for (int k = 0; k < x->dirs; k++) {
		if (p2p_on(owner[k]))
			return GP_ECUDA;
		GP_CU(cuMemsetD8(dst[k], 0xff, x->bytes));
		GP_CU(cuMemsetD8(x->bad[k], 0, 2 * sizeof(unsigned long long)));
		GP_CU(cuCtxSynchronize());
	}
	return p2p_on(m->dev);
error:
	p2p_on(m->dev);
	return GP_ECUDA;
}

/* Count the words of each destination that differ from its source's pattern. */
static int bw_p2p_after(struct gp_meas *m)
{
	struct bw *x = m->ctx;
	struct gp_device *owner[2] = { x->p->ddev, x->p->sdev };
	unsigned seed[2] = { P2P_SEED, ~P2P_SEED };
	unsigned long long res[2];
	int rc;

	x->bad_words = x->seen_words = 0;
	for (int k = 0; k < x->dirs; k++) {
		CUdeviceptr dst = k ? x->back_to : x->to;
		void *args[] = { &dst, &x->words, &seed[k], &x->bad[k] };
		if ((rc = p2p_kernel_on(m, owner[k], "p2p_check", args, 0)))
			return rc;
		if ((rc = p2p_on(owner[k])) || (rc = gp_download(res, x->bad[k], sizeof res)) || (rc = p2p_on(m->dev)))
			return rc;
		x->bad_words += res[0];
		x->seen_words += res[1];
	}
	return 0;
}

static void bw_p2p_sample(struct gp_meas *m)
{
	struct bw *x = m->ctx;

	if (x->seen_words != x->dirs * x->words)
		gp_meas_fail(m, "the check saw %llu of %llu words", x->seen_words, x->dirs * x->words);
	else if (x->bad_words)
		gp_meas_fail(m, "%llu of %llu words arrived wrong", x->bad_words, x->dirs * x->words);
	if (m->rep_ms > 0)
		gp_sample(m, "GBps", (double)x->dirs * (double)x->bytes / (m->rep_ms * 1e6));
}

/* Held to the link's datasheet rate in each direction, or the slower GPU's HBM where it is unknown. */
static void bw_p2p_finish(struct gp_meas *m)
{
	const struct bw *x = m->ctx;
	const double v = gp_meas_stat(m, "GBps", GP_MEDIAN), vmax = gp_meas_stat(m, "GBps", GP_MAX);
	const double link = x->dirs * x->p->link_GBps, ceiling = link > 0 ? link : x->dirs * x->p->hbm_GBps;

	gp_meas_num(m, "pct_of_link", link > 0 ? 100 * v / link : NAN);
	gp_meas_num(m, "ceiling_GBps", ceiling);
	if (link <= 0) {
		char b[192];
		snprintf(b, sizeof b, "%s; held to the slower GPU's HBM rate", x->p->basis);
		gp_meas_str(m, "link_basis", b);
	}
	gp_meas_ceiling(m, link > 0 ? "the link's datasheet rate" : "the HBM rate", vmax, ceiling, 0.01, "GB/s");
}

static void bw_p2p_cleanup(struct gp_meas *m)
{
	struct bw *x = m->ctx;

	for (int k = 0; k < 2; k++)
		if (x->s[k])
			gp_cu.cuStreamDestroy(x->s[k]);
	p2p_bufs_free(m, &x->b);
}

static const struct gp_probe bw_p2p_probe = {
	.runner = GP_RUN_EVENT, .image = gp_image_probes_p2p, .setup = bw_p2p_setup, .launch = bw_p2p_launch,
	.before = bw_p2p_before, .after = bw_p2p_after, .sample = bw_p2p_sample, .finish = bw_p2p_finish,
	.cleanup = bw_p2p_cleanup, .primary = "GBps", .ctx_size = sizeof(struct bw),
};

/* The rows of one pair; bw_p2p's own measure() gathers every pair's. */
static const struct gp_exp_impl bw_p2p_pair = {
	.params = bw_p2p_params, .nparams = GP_ARRAY_SIZE(bw_p2p_params), .columns = bw_p2p_cols,
	.ncolumns = GP_ARRAY_SIZE(bw_p2p_cols), .probe = &bw_p2p_probe,
};

/* read runs on dst (the reader), every other mode on src. */
static int bw_p2p_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *out)
{
	return p2p_measure(run, pt, out, &bw_p2p_pair, !strcmp(gp_point_str(pt, "mode"), "read"));
}

GP_EXP_IMPL(bw_p2p, bw_p2p_params, bw_p2p_cols, bw_p2p_measure);
