/* cluster_shape.h — the shape of the thread-block cluster probes, read by cluster.cu (nvcc) and
 * cluster.c / cluster_report.c (gcc): the chase modes, the cluster barriers, the bandwidth
 * patterns, accesses per loop trip and the value every shared-memory word holds (so the host can
 * check a checksum of what was read or written). Pitfall: the bandwidth kernels' offsets are
 * literal lists of DSM_TRIP entries in cluster.cu; a new DSM_TRIP needs them rewritten. */
#ifndef GP_CLUSTER_SHAPE_H
#define GP_CLUSTER_SHAPE_H

#define DSM_TRIP 8          /* independent accesses per warp per loop trip of bw_dsm */
#define DSM_MAX_CLUSTER 16  /* the largest cluster sm_90 forms (non-portable above 8) */

/* lat_dsm's chases (name, kernel, remote, the SASS load the chase times): ld.shared on the
 * block's own 32-bit shared addresses; a generic 64-bit load through the block's own cluster
 * window (mapa to its own rank); the same through the last rank's window. */
#define DSM_CHASES(X)                                                                              \
	X(local, "lat_dsm_local", 0, "LDS") X(local_cluster, "lat_dsm_cluster", 0, "LD")           \
	X(remote, "lat_dsm_cluster", 1, "LD")

/* lat_cluster_barrier's barriers (name, PTX of one barrier; kernel lat_cbar_<name>): the cluster
 * barrier with its default release/acquire semantics, with a relaxed arrive, and the block's own
 * bar.sync. */
#define DSM_BARRIERS(X)                                                                            \
	X(sync, "barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;")                \
	X(relaxed, "barrier.cluster.arrive.relaxed.aligned;\n\tbarrier.cluster.wait.aligned;")     \
	X(cta, "bar.sync 0;")

/* bw_dsm's patterns (name, id): whose shared memory rank r of a cluster of C accesses. local:
 * its own through ld/st.shared; the rest through ld/st.shared::cluster. */
#define DSM_PATTERNS(X) X(local, 0) X(self, 1) X(pair, 2) X(ring, 3) X(all_to_one, 4)
#define DSM_PAT_LOCAL 0
#define DSM_PAT_SELF 1
#define DSM_PAT_PAIR 2
#define DSM_PAT_RING 3
#define DSM_PAT_ALL_TO_ONE 4
#define DSM_TARGET(pat, r, c)                                                                      \
	((pat) == DSM_PAT_PAIR ? (r) ^ 1u : (pat) == DSM_PAT_RING ? ((r) + 1u) % (c) : (pat) == DSM_PAT_ALL_TO_ONE ? 0u : (r))

/* Access widths (bits, bytes) with a kernel each. */
#define DSM_WIDTHS(X) X(32, 4) X(64, 8) X(128, 16)

/* Bytes of shared memory warp w of bw_dsm owns: one trip's DSM_TRIP x 32 lanes x width bytes. */
#define DSM_WARP_BYTES(width_bytes) (DSM_TRIP * 32u * (width_bytes))

/* The 32-bit word `word` of rank `rank`'s shared memory: what reads find and stores write. */
#define DSM_VALUE(rank, word) ((unsigned)(word) * 0x9E3779B1u + (unsigned)(rank) * 0x85EBCA77u + 1u)

#endif
