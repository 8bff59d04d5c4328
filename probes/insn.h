/* insn.h — the derivations behind the instruction probes (probes/insn.c, probes/arith.c), kept
 * apart from the GPU code so the host tests (tests/test_insn.c) can hold them to fixed inputs:
 * latency from a dependent chain's cycles, warps needed to hide it, operations per clock per SM
 * from time and clock, % of the architectural rate, the knee of an occupancy curve, the LDS:FFMA
 * mix ceiling and the architectural rate table (CUDA C Programming Guide, "Arithmetic
 * Instructions": results per clock per SM). Pitfall: every function returns NAN rather than a
 * number when its inputs cannot give one; callers turn that into a status, never a value. */
#ifndef GP_INSN_H
#define GP_INSN_H

#include <stddef.h>
#include <stdint.h>

/* Cycles per dependent step: (elapsed - timer overhead) / steps. */
double gp_chain_cycles_per_step(double elapsed_cycles, double overhead_cycles, double steps);
/* Warps an SM needs so that one is always ready: latency / (cycles per warp-instruction per SM
 * at the saturated rate) — seed 000's M003 (31.5 / 4 ≈ 8 warps on GT200). */
double gp_warps_to_hide(double latency_cycles, double cycles_per_warp);
/* Cycles per warp-instruction per SM at an architectural rate of `rate` thread-ops/clk/SM. */
double gp_cycles_per_warp_at_rate(double rate);
/* ops / (time x clock x SMs): operations per clock per SM. */
double gp_ops_per_clk_per_sm(double ops, double ms, double clock_mhz, int sms);
/* 100 * value / rate; NAN when the rate is unknown (<= 0). */
double gp_pct_of_rate(double value, double rate);

/* Knee of a throughput-vs-warps curve that rises and then saturates. plateau: the largest
 * throughput; slope: throughput per warp from the points at or below the smallest warps count
 * (through the origin, as in min(slope * w, plateau)); knee_model = plateau / slope;
 * knee_first: the smallest w whose throughput reaches frac x plateau. */
struct gp_knee {
	double plateau, slope, knee_model, knee_first;
};
int gp_knee_find(const double *warps, const double *tput, size_t n, double frac, struct gp_knee *k);

/* E010 model: FFMA ops/clk/SM when every R FFMAs need one shared load, with `lanes` FP32 lanes,
 * `lds_per_clk` warp-LDS per clock per SM and `issue_per_clk` warp-instructions issued per clock
 * per SM (4 schedulers on sm_70+): 32 x min(issue x R/(R+1), lds x R, lanes/32). */
double gp_mix_model(int ffma_per_lds, int lanes, double lds_per_clk, double issue_per_clk);

/* Architectural rate of an instruction class (results per clock per SM, Programming Guide
 * table) for a compute capability; 0 when the table has none for it. Classes: "fp16", "fp32",
 * "fp64", "mufu", "iadd", "imad", "shift", "logic", "compare", "cvt", "lds" (32 banks). */
int gp_arch_rate(const char *klass, int cc_major, int cc_minor);

/* IEEE binary16 helpers for the HFMA2 check: exact fma rounded to nearest even. */
double gp_half_to_double(uint16_t h);
uint16_t gp_double_to_half(double v);
uint16_t gp_half_fma(uint16_t a, uint16_t b, uint16_t c);

#endif
