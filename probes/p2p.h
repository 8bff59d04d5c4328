/* p2p.h — the host-side logic of bw_p2p and lat_p2p that needs no GPU (probes/p2p_matrix.c):
 * which pairs a run measures, the link's datasheet rate, and the matrix the report draws.
 * tests/test_p2p.c drives all of it with synthetic hosts and tables. */
#ifndef GP_P2P_H
#define GP_P2P_H

#include <stddef.h>

#include "table.h"
#include "topo.h"

/* The ordered pairs (src, dst), src != dst, of n GPUs in row-major order; with only_self, those
 * in which GPU `self` takes part. Returns how many (at most max). */
int p2p_pairs(int n, int self, int only_self, int (*out)[2], int max);

/* The datasheet rate of one direction of the link from GPU i to GPU j, GB/s, from
 * configs/reference.csv (experiment bw_p2p): NVLinks x the per-link rate of the slower GPU's
 * compute capability (nvlink_GBps_per_link_cc<M>.<m>), else the narrower PCIe link (lanes x
 * pcie_gen<g>_GBps_per_lane). basis says which ("NV18 x 25 GB/s (cc 9.0)"); 0 where the link or
 * its rate is unknown (basis says why). */
double p2p_link_rate(const struct gp_topo *t, int i, int j, const struct gp_table *ref, char *basis, size_t len);

/* The matrix of column `col` over the ok rows (of `mode` in column "mode" when mode is not NULL):
 * m[src * max + dst], NaN where no row. Returns the matrix's size (1 + the largest GPU index
 * seen), 0 when no row is ok. */
int p2p_matrix(const struct gp_table *t, const char *mode, const char *col, double *m, int max);

/* The smallest and largest finite off-diagonal value of an n x n matrix (stride max); 0 if none. */
int p2p_matrix_range(const double *m, int n, int max, double *lo, double *hi);

#endif
