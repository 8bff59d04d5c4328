/* cluster.h — what the thread-block cluster probes (cluster.c, cluster_bw.c) share on the host:
 * the module image, a kernel readied for cluster launches (the attributes it needs and how many
 * of its clusters fit at once) and the launch hook that starts m->fn as clusters with
 * cuLaunchKernelEx. Every probe's ctx begins with its cluster size (struct cluster_ctx). */
#ifndef GP_CLUSTER_H
#define GP_CLUSTER_H

#include "measure.h"

extern const unsigned char gp_image_probes_cluster[];

struct cluster_ctx {
	unsigned csize; /* blocks per cluster: the launch hook reads it */
};

/* n/a below compute capability 9.0 (returns 1, the caller returns 0 from setup). */
int cluster_na(struct gp_meas *m);
/* Load `name`, allow clusters above 8 and `smem` bytes of dynamic shared memory, and say how many
 * clusters of `csize` blocks of `threads` fit at once (*fit; 0 when none: the point is n/a). */
int cluster_kernel(struct gp_meas *m, const char *name, unsigned csize, unsigned threads, unsigned smem, int *fit);
/* The probe's launch hook: m->fn over m->grid blocks in clusters of ctx->csize. */
int cluster_launch(struct gp_meas *m);

#endif
