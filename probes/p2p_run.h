/* p2p_run.h — what p2p.c gives the probes of bw_p2p (p2p_bw.c) and lat_p2p (p2p_lat.c): the pair
 * being measured, its cells, and buffers and kernels on any GPU of the host. Device code. */
#ifndef GP_P2P_RUN_H
#define GP_P2P_RUN_H

#include "measure.h"

extern const unsigned char gp_image_probes_p2p[];

struct p2p_pair {
	int src, dst; /* dst -1: no pair (one GPU) */
	struct gp_device *sdev, *ddev;
	const char *na; /* why the pair is not measured, or NULL */
	int access;     /* each can map the other's memory */
	char link[16], basis[128];
	double link_GBps, hbm_GBps; /* one direction: the link's datasheet rate (0 unknown), the slower HBM's */
};

/* The experiment's measure(): every pair the point asks for (parameter "pairs": all, or those with
 * the run's GPU), each one gp_measure of `inner` on dst (exec_dst) or src; one n/a row on a host
 * of one GPU. */
int p2p_measure(struct gp_run *run, const struct gp_point *pt, struct gp_table *out, const struct gp_exp_impl *inner,
		int exec_dst);
/* The pair in hand (for an inner probe's setup). */
const struct p2p_pair *p2p_pair_now(void);
/* src, dst, exec, link, p2p_access, link_GBps, link_basis. */
void p2p_pair_cells(struct gp_meas *m, const struct p2p_pair *p);
/* Make GPU d's context current: 0 or GP_ECUDA. */
int p2p_on(const struct gp_device *d);

#define P2P_MAX_BUFS 6
struct p2p_bufs {
	CUdeviceptr d[P2P_MAX_BUFS];
	const struct gp_device *owner[P2P_MAX_BUFS];
	int n;
};
/* `bytes` on GPU d (m->dev current again after): 0, 1 when they do not fit (the point is made
 * n/a), or GP_ECUDA. */
int p2p_buf_on(struct gp_meas *m, struct p2p_bufs *b, const struct gp_device *d, CUdeviceptr *p, size_t bytes);
void p2p_bufs_free(struct gp_meas *m, struct p2p_bufs *b);
/* A kernel of p2p.cu on GPU d (grid 0: P2P_BLOCKS_PER_SM a SM of P2P_THREADS), waited for. */
int p2p_kernel_on(struct gp_meas *m, struct gp_device *d, const char *name, void **args, unsigned grid);

#endif
