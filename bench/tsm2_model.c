/* tsm2_model.c — TSM2X's host-only arithmetic (seed 004 Sections 3.1.8-3.1.9): the kernel table
 * from bench/tsm2.list, launch checks, rates, V4's slice count, and the model M401-M407 on the
 * device's attributes and the run's own clock, read rate and chase latency. The one constant is
 * the FMA latency (FFMA 4, DFMA 8 clocks on sm_80+, a parameter). Pitfall: the paper's
 * utilisations exceed 1 once enough is in flight; the time objective caps them. */
#include "gp.h"
#include "sgemm.h"
#include "tsm2.h"
#include "tsm2_model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const kind_names[] = { "v0", "v1", "v2", "v3", "v4", "v5", "v6", "l1", "l2", "cublas" };

const char *tsm2_kind_name(enum tsm2_kind kind)
{
	return kind <= TSM2_CUBLAS ? kind_names[kind] : "?";
}

int tsm2_kind_parse(const char *s, enum tsm2_kind *kind)
{
	for (size_t i = 0; i < GP_ARRAY_SIZE(kind_names); i++)
		if (s && !strcmp(s, kind_names[i])) {
			*kind = (enum tsm2_kind)i;
			return 0;
		}
	return -1;
}

/* ---------------------------------------------------------------- the grid */

#define KIND_v0 TSM2_V0
#define KIND_v1 TSM2_V1
#define KIND_v2 TSM2_V2
#define KIND_v3 TSM2_V3
#define KIND_v4 TSM2_V4
#define KIND_v5 TSM2_V5
#define KIND_v6 TSM2_V6
#define KIND_l1 TSM2_L1
#define KIND_l2 TSM2_L2
#define ELEM_f 4
#define ELEM_d 8

static const struct {
	enum tsm2_kind kind;
	int elem, t2, t3;
} grid[] = {
#define TSM2(img, kind, P, t2, t3) { KIND_##kind, ELEM_##P, t2, t3 },
#include "tsm2.list"
#undef TSM2
};

int tsm2_instance(enum tsm2_kind kind, int elem, int t2, int t3)
{
	if (kind == TSM2_V0 || kind == TSM2_V1)
		t3 = 0;
	if (kind == TSM2_V0)
		t2 = 0;
	for (size_t i = 0; i < GP_ARRAY_SIZE(grid); i++)
		if (grid[i].kind == kind && grid[i].elem == elem && grid[i].t2 == t2 && grid[i].t3 == t3)
			return (int)i;
	return -1;
}

void tsm2_axis(enum tsm2_kind kind, int elem, int t3, int *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < GP_ARRAY_SIZE(grid) && max; i++) {
		const int v = t3 ? grid[i].t3 : grid[i].t2;
		size_t at = 0;
		if (grid[i].kind != kind || grid[i].elem != elem)
			continue;
		while (at < n && out[at] < v)
			at++;
		if ((at < n && out[at] == v) || n + 1 >= max)
			continue;
		memmove(out + at + 1, out + at, (n - at) * sizeof *out);
		out[at] = v;
		n++;
	}
	if (max)
		out[n] = 0;
}

static int compiled(enum tsm2_kind kind, int elem, int t2, int t3)
{
	return kind == TSM2_CUBLAS || tsm2_instance(kind, elem, t2, t3) >= 0;
}

int tsm2_kernel_name(enum tsm2_kind kind, int elem, int t2, int t3, char *out, size_t len)
{
	const char s = elem == 8 ? 'd' : 'f';

	if (kind == TSM2_CUBLAS || !compiled(kind, elem, t2, t3))
		return -1;
	if (kind == TSM2_V0)
		snprintf(out, len, "tsm2_v0_%c", s);
	else if (kind == TSM2_V1)
		snprintf(out, len, "tsm2_v1_%c_t2_%d", s, t2);
	else
		snprintf(out, len, "tsm2_%s_%c_t2_%d_t3_%d", kind_names[kind], s, t2, t3);
	return 0;
}

size_t tsm2_smem_bytes(enum tsm2_kind kind, int t1, int t2, int t3, int elem)
{
	const size_t ring = kind == TSM2_V5   ? (size_t)TSM2_V5_STAGES * TSM2_V5_ROWS * t3 * t1 * elem
			    : kind == TSM2_V6 ? (size_t)TSM2_V6_STAGES * 16 * t3 * t1
					      : 0;

	return kind >= TSM2_V2 && kind <= TSM2_L2 ? (size_t)t1 * t2 * elem + ring : 0;
}

int tsm2_supports(enum tsm2_kind kind, int elem, int m, int k, int n, int t1, int t2, int t3, int tcf, char *why,
		  size_t len)
{
	if (m < 1 || k < 1 || n < 1) {
		snprintf(why, len, "empty problem");
		return -1;
	}
	if (kind == TSM2_CUBLAS)
		return 0;
	if (t1 < 32 || t1 > 1024 || t1 % 32) {
		snprintf(why, len, "t1 = %d is not a multiple of 32 in 32..1024", t1);
		return -1;
	}
	if (!compiled(kind, elem, t2, t3)) {
		snprintf(why, len, "t2 = %d, t3 = %d not compiled for %s %s", t2, t3, kind_names[kind],
			 elem == 8 ? "double" : "single");
		return -1;
	}
	if (kind >= TSM2_V2 && t1 % t3) {
		snprintf(why, len, "t3 = %d does not divide t1 = %d", t3, t1);
		return -1;
	}
	if ((kind == TSM2_L1 || kind == TSM2_L2) && tcf < 1) {
		snprintf(why, len, "tcf = %d < 1", tcf);
		return -1;
	}
	if ((kind == TSM2_V5 || kind == TSM2_V6) && t3 % (16 / elem)) {
		snprintf(why, len, "t3 = %d is not a multiple of the %d-element vector %s reads B in", t3, 16 / elem,
			 kind_names[kind]);
		return -1;
	}
	if (kind >= TSM2_V1 && kind <= TSM2_V6) {
		if (t2 > 2 * n && t2 > 2) {
			snprintf(why, len, "t2 = %d > 2 n: columns computed for nothing", t2);
			return -1;
		}
	}
	return 0;
}

int tsm2_splits_k(enum tsm2_kind kind)
{
	return kind == TSM2_V4 || kind == TSM2_V5 || kind == TSM2_V6;
}

int tsm2_rows_per_thread(enum tsm2_kind kind, int tcf, int elem)
{
	return kind == TSM2_V5	 ? TSM2_V5_ROWS
	       : kind == TSM2_V6 ? tsm2_v6_rows(elem)
	       : kind == TSM2_L1 || kind == TSM2_L2 ? (tcf > 0 ? tcf : 1)
						    : 1;
}

double tsm2_inflight_bytes(enum tsm2_kind kind, int blocks_per_sm, int t1, int t3, int elem)
{
	const int chunks = kind == TSM2_V5 ? TSM2_V5_STAGES - 1 : kind == TSM2_V6 ? TSM2_V6_STAGES - 1 : 1;

	return (double)blocks_per_sm * t1 * tsm2_rows_per_thread(kind, 1, elem) * t3 * elem * chunks;
}

int tsm2_ksplit_choose(int ksplit, int sms, int blocks_per_sm, int row_blocks, int k, int t1)
{
	const long tiles = tsm2_k_tiles(k, t1), cap = tiles < TSM2_KSPLIT_MAX ? tiles : TSM2_KSPLIT_MAX;
	long ks = ksplit;

	if (ks <= 0) {
		/* TSM2_KSPLIT_WAVES times the blocks the GPU holds at once (see tsm2_model.h) */
		const long want = (long)TSM2_KSPLIT_WAVES * sms * blocks_per_sm;
		ks = row_blocks > 0 && want > row_blocks ? (want + row_blocks - 1) / row_blocks : 1;
	}
	return (int)(ks < cap ? ks : cap);
}

int tsm2_ksplit_for(enum tsm2_kind kind, int ksplit, int sms, int blocks_per_sm, int row_blocks, int k, int t1)
{
	long tiles, cap, ks;

	if (kind != TSM2_V6)
		return tsm2_ksplit_choose(ksplit, sms, blocks_per_sm, row_blocks, k, t1);
	tiles = tsm2_k_tiles(k, TSM2_V6_SLICE_UNIT), cap = tiles < TSM2_KSPLIT_MAX ? tiles : TSM2_KSPLIT_MAX;
	ks = ksplit;
	for (int w = TSM2_V6_WAVES; ks <= 0 && w >= 1; w--) { /* the most waves whose slices stay long */
		const long c = row_blocks > 0 ? (long)w * sms * blocks_per_sm / row_blocks : 1;
		if (w == 1 || (c >= 1 && k / c >= TSM2_V6_MIN_SLICE))
			ks = c;
	}
	ks = ks < 1 ? 1 : ks;
	return (int)(ks < cap ? ks : cap);
}

double tsm2_gflops(double m, double k, double n, double ms)
{
	return ms > 0 ? 2.0 * m * k * n / (ms * 1e-3) / 1e9 : NAN;
}

double tsm2_bytes(double m, double k, double n, int elem)
{
	return (m * k + k * n + m * n) * elem;
}

double tsm2_gbps(double bytes, double ms)
{
	return ms > 0 ? bytes / (ms * 1e-3) / 1e9 : NAN;
}

double tsm2_err_bound(int k, int elem)
{
	return sg_err_bound(k, elem);
}

double tsm2_rel_err(const void *c, const void *r, int elem, int m, int n)
{
	return elem == 8 ? sg_rel_err_d(c, r, m, n, m) : sg_rel_err_f(c, r, m, n, m);
}

/* ---------------------------------------------------------------- the model */

double tsm2_regs_model(int t2, int t3, int elem, int fixed)
{
	return (3.0 * t2 + 2.0 * t3) * elem / 4.0 + fixed;
}

int tsm2_occupancy(const struct tsm2_hw *hw, double regs, int t1, int t2, int elem)
{
	/* Registers are allocated per warp in units of 256 (8 per thread); shared memory per block
	 * with 1 KB reserved by the system (sm_80+). */
	const double r = ceil(regs / 8.0) * 8.0;
	const long smem_block = (long)t1 * t2 * elem + 1024;
	long blocks;

	if (t1 <= 0 || regs <= 0)
		return 0;
	blocks = hw->max_threads_per_sm / t1;
	blocks = fmin(blocks, floor(hw->regs_per_sm / (r * t1)));
	blocks = fmin(blocks, hw->smem_per_sm / smem_block);
	if (hw->max_blocks_per_sm > 0)
		blocks = fmin(blocks, hw->max_blocks_per_sm);
	return blocks > 0 ? (int)(blocks * t1) : 0;
}

/* What the grid actually puts on the SMs, min(capacity, threads / SMs): on the paper's GPUs m / t1
 * blocks filled the machine, on 132 SMs they do not (the H100 measured V3 at 33 % of HBM at
 * m = 10240 where capacity alone said 100 %). */
double tsm2_resident(const struct tsm2_hw *hw, int occ, double threads)
{
	const double per_sm = hw->sms > 0 ? threads / hw->sms : 0;
	return per_sm < occ ? per_sm : occ;
}

double tsm2_util_mem(const struct tsm2_hw *hw, double occ, int t3, int elem)
{
	const double per_clk = hw->band_Bps / (hw->sms * hw->clock_hz); /* bytes per SM clock per SM */
	const double need = hw->lat_mem_clk * per_clk;                   /* Little's law */
	return need > 0 ? occ * t3 * elem / need : NAN;
}

double tsm2_util_comp(const struct tsm2_hw *hw, double occ, int t2, int t3)
{
	const double need = hw->lat_comp_clk * hw->lanes; /* FMAs in flight per SM */
	return need > 0 ? occ * t3 * t2 / need : NAN;
}

double tsm2_t2_threshold(const struct tsm2_hw *hw, int elem)
{
	return hw->band_Bps > 0 ? hw->perf_flops / hw->band_Bps * elem : NAN;
}

double tsm2_model_time(const struct tsm2_hw *hw, double m, double k, double n, int t1, int t2, int t3, int elem,
		       double regs, double threads)
{
	const double occ = tsm2_resident(hw, tsm2_occupancy(hw, regs, t1, t2, elem), threads);
	const double thr = tsm2_t2_threshold(hw, elem);
	const double passes = ceil(n / t2); /* A is read once per column panel */
	double um, uc;

	if (!(occ > 0) || t2 < 1 || t3 < 1)
		return INFINITY;
	um = fmin(1.0, tsm2_util_mem(hw, occ, t3, elem));
	uc = fmin(1.0, tsm2_util_comp(hw, occ, t2, t3));
	if (n > thr && t2 >= thr) /* Algorithm 5 line 9: compute-bound branch */
		return 2.0 * m * k * n / (hw->perf_flops * uc);
	return m * k * passes * elem / (hw->band_Bps * um);
}

int tsm2_argmin(const int *t1s, const int *t2s, const int *t3s, tsm2_cost_fn f, void *ctx, struct tsm2_choice *out)
{
	int found = 0;

	for (const int *a = t1s; *a > 0; a++)
		for (const int *b = t2s; *b > 0; b++)
			for (const int *c = t3s; *c > 0; c++) {
				const double v = f(ctx, *a, *b, *c);
				int better;
				if (!isfinite(v))
					continue;
				better = !found || v < out->cost;
				if (found && v == out->cost)
					better = *b > out->t2 || (*b == out->t2 && (*c < out->t3 || (*c == out->t3 && *a < out->t1)));
				if (better) {
					*out = (struct tsm2_choice){ *a, *b, *c, v };
					found = 1;
				}
			}
	return found ? 0 : -1;
}

struct model_ctx {
	const struct tsm2_hw *hw;
	double m, k, n;
	int elem;
};

/* Registers from M401 with the fixed part 24 (V3's addresses, indices, loop state on sm_90: the
 * experiment prints the compiled count beside it). */
#define TSM2_REGS_FIXED 24

static double model_cost(void *ctx, int t1, int t2, int t3)
{
	const struct model_ctx *c = ctx;

	if (!compiled(TSM2_V3, c->elem, t2, t3) || t2 > c->n || t1 % t3)
		return NAN;
	return tsm2_model_time(c->hw, c->m, c->k, c->n, t1, t2, t3, c->elem,
			       tsm2_regs_model(t2, t3, c->elem, TSM2_REGS_FIXED), c->m);
}

int tsm2_model_choose(const struct tsm2_hw *hw, double m, double k, double n, int t1, int elem, struct tsm2_choice *out)
{
	const int t1s[] = { t1, 0 };
	struct model_ctx c = { hw, m, k, n, elem };
	int t2s[16], t3s[16];

	tsm2_axis(TSM2_V3, elem, 0, t2s, GP_ARRAY_SIZE(t2s));
	tsm2_axis(TSM2_V3, elem, 1, t3s, GP_ARRAY_SIZE(t3s));
	if (tsm2_argmin(t1s, t2s, t3s, model_cost, &c, out) == 0)
		return 0;
	/* n below every compiled t2 (n = 1): the smallest t2. */
	c.n = 2;
	return tsm2_argmin(t1s, t2s, t3s, model_cost, &c, out);
}
