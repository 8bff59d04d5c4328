/* p2p_matrix.c — bw_p2p / lat_p2p without a GPU (p2p.h): pairs, link rates, matrices. */
#include "gp.h"
#include "p2p.h"
#include "reference.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int p2p_pairs(int n, int self, int only_self, int (*out)[2], int max)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			if (i != j && (!only_self || i == self || j == self) && k < max) {
				out[k][0] = i;
				out[k][1] = j;
				k++;
			}
	return k;
}

/* A bw_p2p reference value as a number, or 0. */
static double ref_num(const struct gp_table *ref, const char *key)
{
	const char *v = ref ? gp_reference_opt(ref, "bw_p2p", key) : NULL;
	double x;

	return v && !gp_parse_double(v, &x) && x > 0 ? x : 0;
}

/* One end's datasheet rate: GB/s per NVLink link for its compute capability, or its PCIe link's
 * (per lane times its width); 0 when unknown. */
static double nvlink_per_link(const struct gp_topo_gpu *g, const struct gp_table *ref)
{
	char key[64];

	snprintf(key, sizeof key, "nvlink_GBps_per_link_cc%d.%d", g->cc_major, g->cc_minor);
	return ref_num(ref, key);
}

static double pcie_link(const struct gp_topo_gpu *g, const struct gp_table *ref)
{
	char key[48];

	snprintf(key, sizeof key, "pcie_gen%d_GBps_per_lane", g->pcie_gen);
	return g->pcie_gen <= 0 || g->pcie_width <= 0 ? 0 : ref_num(ref, key) * g->pcie_width;
}

/* The slower end's rate of pair (i, j) by rate(), that end in *end (0: i, 1: j); 0 with *end the
 * first end that has none. */
static double slower_end(const struct gp_topo *t, int i, int j, const struct gp_table *ref,
			 double (*rate)(const struct gp_topo_gpu *, const struct gp_table *), int *end)
{
	double slow = 0;

	for (int k = 0; k < 2; k++) {
		const double r = rate(&t->gpu[k ? j : i], ref);
		if (!r) {
			*end = k;
			return 0;
		}
		if (!k || r < slow)
			slow = r, *end = k;
	}
	return slow;
}

static double nvlink_rate(const struct gp_topo *t, int i, int j, const struct gp_table *ref, char *basis, size_t len)
{
	int end;
	const double per = slower_end(t, i, j, ref, nvlink_per_link, &end);
	const struct gp_topo_gpu *g = &t->gpu[end ? j : i];
	const int links = t->pair[i][j].nvlinks;

	if (!per)
		snprintf(basis, len, "NV%d: no datasheet rate per link for cc %d.%d", links, g->cc_major, g->cc_minor);
	else
		snprintf(basis, len, "NV%d x %g GB/s (cc %d.%d datasheet)", links, per, g->cc_major, g->cc_minor);
	return per * links;
}

static double pcie_rate(const struct gp_topo *t, int i, int j, const struct gp_table *ref, char *basis, size_t len)
{
	int end;
	const double r = slower_end(t, i, j, ref, pcie_link, &end);
	const struct gp_topo_gpu *g = &t->gpu[end ? j : i];

	if (!r)
		snprintf(basis, len, "PCIe link of GPU %d unknown or without a datasheet rate", end ? j : i);
	else
		snprintf(basis, len, "PCIe gen %d x%d (datasheet)", g->pcie_gen, g->pcie_width);
	return r;
}

double p2p_link_rate(const struct gp_topo *t, int i, int j, const struct gp_table *ref, char *basis, size_t len)
{
	if (i < 0 || j < 0 || i >= t->n || j >= t->n || i == j) {
		snprintf(basis, len, "not a pair of this host's GPUs");
		return 0;
	}
	if (t->pair[i][j].nvlinks > 0)
		return nvlink_rate(t, i, j, ref, basis, len);
	return pcie_rate(t, i, j, ref, basis, len);
}

int p2p_matrix(const struct gp_table *t, const char *mode, const char *col, double *m, int max)
{
	int n = 0;

	for (int k = 0; k < max * max; k++)
		m[k] = NAN;
	for (size_t r = 0; r < t->nrows; r++) {
		const char *md = mode ? gp_table_get(t, r, "mode") : NULL;
		const double s = gp_table_num(t, r, "src"), d = gp_table_num(t, r, "dst"), v = gp_table_num(t, r, col);
		if (!gp_table_row_ok(t, r) || (mode && (!md || strcmp(md, mode))) || !(s >= 0 && s < max) ||
		    !(d >= 0 && d < max) || isnan(v))
			continue;
		m[(int)s * max + (int)d] = v;
		n = (int)(s > d ? s : d) + 1 > n ? (int)(s > d ? s : d) + 1 : n;
	}
	return n;
}

int p2p_matrix_range(const double *m, int n, int max, double *lo, double *hi)
{
	int any = 0;

	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			const double v = m[i * max + j];
			if (i == j || !isfinite(v))
				continue;
			*lo = any && *lo < v ? *lo : v;
			*hi = any && *hi > v ? *hi : v;
			any = 1;
		}
	return any;
}
