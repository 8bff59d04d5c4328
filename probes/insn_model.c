/* insn_model.c — derivations of the instruction probes (declared and explained in insn.h).
 *
 * Plain arithmetic on numbers the probes measured, so the host tests can check each one on
 * fixed inputs. The architectural rates are one const table copied by hand from the CUDA C
 * Programming Guide's throughput table (results per clock per SM); "lds" is not in that table:
 * it is the 32-bank shared memory, one 32-bit word per bank per clock. */
#include "insn.h"
#include "stats.h"

#include <math.h>
#include <string.h>

double gp_chain_cycles_per_step(double elapsed_cycles, double overhead_cycles, double steps)
{
	double c;

	if (!(steps > 0) || !(elapsed_cycles > overhead_cycles))
		return NAN;
	c = (elapsed_cycles - overhead_cycles) / steps;
	return c;
}

double gp_chain_fastest(const uint64_t *cyc, double steps, double *overhead)
{
	double mn = INFINITY, ov = 0;

	for (unsigned i = 0; i < 32; i++) {
		mn = fmin(mn, gp_chain_cycles_per_step((double)cyc[2 * i], (double)cyc[2 * i + 1], steps));
		ov += (double)cyc[2 * i + 1] / 32.0;
	}
	*overhead = ov;
	return mn;
}

double gp_warps_to_hide(double latency_cycles, double cycles_per_warp)
{
	if (!(latency_cycles > 0) || !(cycles_per_warp > 0))
		return NAN;
	return latency_cycles / cycles_per_warp;
}

double gp_cycles_per_warp_at_rate(double rate)
{
	return rate > 0 ? 32.0 / rate : NAN;
}

double gp_ops_per_clk_per_sm(double ops, double ms, double clock_mhz, int sms)
{
	if (!(ops > 0) || !(ms > 0) || !(clock_mhz > 0) || sms <= 0)
		return NAN;
	return ops / (ms * 1e-3 * clock_mhz * 1e6 * sms);
}

double gp_pct_of_rate(double value, double rate)
{
	return rate > 0 ? 100.0 * value / rate : NAN;
}

int gp_knee_find(const double *warps, const double *tput, size_t n, double frac, struct gp_knee *k)
{
	double wmin = INFINITY, first = INFINITY, slope = NAN;

	k->plateau = k->slope = k->knee_model = k->knee_first = NAN;
	if (!n || !(frac > 0 && frac <= 1))
		return -1;
	k->plateau = 0;
	for (size_t i = 0; i < n; i++) {
		if (!(warps[i] > 0) || isnan(tput[i]))
			return -1;
		if (tput[i] > k->plateau)
			k->plateau = tput[i];
		if (warps[i] < wmin) {
			wmin = warps[i];
			slope = tput[i] / warps[i];
		}
	}
	if (!(k->plateau > 0) || !(slope > 0))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (tput[i] >= frac * k->plateau && warps[i] < first)
			first = warps[i];
	k->slope = slope;
	k->knee_model = k->plateau / slope;
	k->knee_first = first;
	return 0;
}

double gp_occ_rate(const unsigned long long *blk, unsigned blocks, int k, double ops_per_block, int *uneven_sm,
		   int *uneven_count)
{
	enum { MAX_SM = 1024 };
	int count[MAX_SM] = { 0 }, nsm = 0;
	unsigned long long lo[MAX_SM], hi[MAX_SM];
	double rates[MAX_SM];
	struct gp_stats s;

	*uneven_sm = *uneven_count = -1;
	for (unsigned b = 0; b < blocks; b++) {
		const unsigned sm = (unsigned)blk[3 * b];
		if (sm >= MAX_SM)
			continue;
		if (!count[sm]++ || blk[3 * b + 1] < lo[sm])
			lo[sm] = blk[3 * b + 1];
		if (count[sm] == 1 || blk[3 * b + 2] > hi[sm])
			hi[sm] = blk[3 * b + 2];
	}
	for (int sm = 0; sm < MAX_SM; sm++) {
		if (!count[sm])
			continue;
		if (count[sm] != k && *uneven_sm < 0) {
			*uneven_sm = sm;
			*uneven_count = count[sm];
		}
		if (hi[sm] > lo[sm])
			rates[nsm++] = count[sm] * ops_per_block / (double)(hi[sm] - lo[sm]);
	}
	/* The median over SMs (the harness summarises the repetitions of it). */
	return nsm && !gp_stats(rates, (size_t)nsm, &s) ? s.median : NAN;
}

double gp_mix_model(int ffma_per_lds, int lanes, double lds_per_clk, double issue_per_clk)
{
	const double r = ffma_per_lds;
	double w;

	if (ffma_per_lds <= 0 || lanes <= 0 || !(lds_per_clk > 0) || !(issue_per_clk > 0))
		return NAN;
	w = fmin(issue_per_clk * r / (r + 1.0), lds_per_clk * r);
	w = fmin(w, lanes / 32.0);
	return 32.0 * w;
}

/* Results per clock per SM; columns cc 7.0, 7.5, 8.0, 8.6, 8.9, 9.0. */
static const struct {
	const char *klass;
	int rate[6];
} arch_rates[] = {
	{ "fp16", { 128, 128, 256, 256, 128, 256 } },
	{ "fp32", { 64, 64, 64, 128, 128, 128 } },
	{ "fp64", { 32, 2, 32, 2, 2, 64 } },
	{ "mufu", { 16, 16, 16, 16, 16, 16 } },
	{ "iadd", { 64, 64, 64, 64, 64, 64 } },
	{ "imad", { 64, 64, 64, 64, 64, 64 } },
	{ "shift", { 64, 64, 64, 64, 64, 64 } },
	{ "logic", { 64, 64, 64, 64, 64, 64 } },
	{ "compare", { 64, 64, 64, 64, 64, 64 } },
	{ "brev", { 16, 16, 16, 16, 16, 16 } },  /* 32-bit integer bit reverse */
	{ "clz", { 16, 16, 16, 16, 16, 16 } },   /* count of leading zeros, most significant non-sign bit */
	{ "popc", { 16, 16, 16, 16, 16, 16 } },  /* population count */
	{ "cvt", { 16, 16, 16, 16, 16, 16 } },
	/* I2FP (sm_86+ int -> float) runs on the integer pipe; not emitted before sm_86. */
	{ "i2fp", { 0, 0, 0, 64, 64, 64 } },
	{ "lds", { 32, 32, 32, 32, 32, 32 } },
};

int gp_arch_rate(const char *klass, int cc_major, int cc_minor)
{
	static const int ccs[6] = { 70, 75, 80, 86, 89, 90 };
	const int cc = cc_major * 10 + cc_minor;
	int col = -1;

	for (int i = 0; i < 6; i++)
		if (ccs[i] == cc)
			col = i;
	if (col < 0 || !klass)
		return 0;
	for (size_t i = 0; i < sizeof arch_rates / sizeof arch_rates[0]; i++)
		if (!strcmp(arch_rates[i].klass, klass))
			return arch_rates[i].rate[col];
	return 0;
}

double gp_half_to_double(uint16_t h)
{
	const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
	double v;

	if (e == 0x1f)
		v = m ? NAN : INFINITY;
	else if (e == 0)
		v = ldexp(m, -24);
	else
		v = ldexp(1024 + m, e - 25);
	return (h & 0x8000) ? -v : v;
}

/* Round to the nearest binary16, ties to even: scale to units of the target's quantum, round
 * with nearbyint (the default mode is to nearest even), and encode what it rounded to. */
uint16_t gp_double_to_half(double v)
{
	const uint16_t sign = signbit(v) ? 0x8000 : 0;
	double a = fabs(v), q, r;
	int e;

	if (isnan(v))
		return 0x7e00;
	if (a == 0)
		return sign;
	frexp(a, &e); /* a = f * 2^e, f in [0.5, 1) */
	q = e - 1 < -14 ? ldexp(1, -24) : ldexp(1, e - 1 - 10);
	r = nearbyint(a / q) * q;
	if (r >= 65520.0)
		return sign | 0x7c00;
	if (r < ldexp(1, -14))
		return sign | (uint16_t)(r / ldexp(1, -24));
	frexp(r, &e);
	return sign | (uint16_t)((e - 1 + 15) << 10) | (uint16_t)(r / ldexp(1, e - 1 - 10) - 1024);
}

uint16_t gp_half_fma(uint16_t a, uint16_t b, uint16_t c)
{
	/* Exact in double for operands within 2^+-14 of each other (22-bit product). */
	return gp_double_to_half(fma(gp_half_to_double(a), gp_half_to_double(b), gp_half_to_double(c)));
}
