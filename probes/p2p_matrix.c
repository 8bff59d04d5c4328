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

static double nvlink_rate(const struct gp_topo *t, int i, int j, const struct gp_table *ref, char *basis, size_t len)
{
	const struct gp_topo_gpu *g[2] = { &t->gpu[i], &t->gpu[j] };
	double per = 0;
	int slow = 0;

	for (int k = 0; k < 2; k++) {
		char key[64];
		double r;
		snprintf(key, sizeof key, "nvlink_GBps_per_link_cc%d.%d", g[k]->cc_major, g[k]->cc_minor);
		if (!(r = ref_num(ref, key))) {
			snprintf(basis, len, "NV%d: no datasheet rate per link for cc %d.%d", t->pair[i][j].nvlinks,
				 g[k]->cc_major, g[k]->cc_minor);
			return 0;
		}
		if (!k || r < per)
			per = r, slow = k;
	}
	snprintf(basis, len, "NV%d x %g GB/s (cc %d.%d datasheet)", t->pair[i][j].nvlinks, per, g[slow]->cc_major,
		 g[slow]->cc_minor);
	return per * t->pair[i][j].nvlinks;
}

static double pcie_rate(const struct gp_topo *t, int i, int j, const struct gp_table *ref, char *basis, size_t len)
{
	const struct gp_topo_gpu *g[2] = { &t->gpu[i], &t->gpu[j] };
	double best = 0;
	int slow = 0;

	for (int k = 0; k < 2; k++) {
		char key[48];
		double r;
		snprintf(key, sizeof key, "pcie_gen%d_GBps_per_lane", g[k]->pcie_gen);
		if (g[k]->pcie_gen <= 0 || g[k]->pcie_width <= 0 || !(r = ref_num(ref, key) * g[k]->pcie_width)) {
			snprintf(basis, len, "PCIe link of GPU %d unknown or without a datasheet rate", k ? j : i);
			return 0;
		}
		if (!k || r < best)
			best = r, slow = k;
	}
	snprintf(basis, len, "PCIe gen %d x%d (datasheet)", g[slow]->pcie_gen, g[slow]->pcie_width);
	return best;
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
