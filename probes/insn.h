/* insn.h — the host side of the instruction probes, apart from the GPU code so the host tests
 * (tests/test_insn.c) can hold it to fixed inputs: the table of probes/insn.list and its replay
 * (insn_replay.c), and the derivations and architectural rate table (insn_model.c). Pitfall:
 * every derivation returns NAN rather than a number when its inputs cannot give one; callers
 * turn that into a status, never a value. */
#ifndef GP_INSN_H
#define GP_INSN_H

#include <stddef.h>
#include <stdint.h>

/* ---- the instruction list (probes/insn.list) */
enum gp_insn_type { GP_INSN_F32, GP_INSN_U32, GP_INSN_F64, GP_INSN_H2 };
enum gp_insn_frame { GP_FRAME_PLAIN, GP_FRAME_F32T, GP_FRAME_PRED, GP_FRAME_CHASE, GP_FRAME_STORE };

struct gp_insn {
	const char *name, *sass, *rate, *shape, *ptx, *what;
	int alt_cc;                  /* from this cc on (cc_major * 10 + cc_minor), alt_sass / alt_rate */
	const char *alt_sass, *alt_rate;
	int lat;                     /* has a dependent chain (lat_insn); else throughput only */
	enum gp_insn_type type;
	int approx;                  /* MUFU: within a tolerance, not bit for bit */
	enum gp_insn_frame frame;
	float c;                     /* the float parameter */
	uint64_t (*opnd)(int which); /* operand bits: 0 = a, 1 = b */
	uint64_t (*start)(unsigned k);
	uint64_t (*step)(uint64_t x, uint64_t a, uint64_t b, float c);
};

extern const struct gp_insn gp_insns[];
extern const size_t gp_ninsns;
/* The `insn` choices in list order, each name after a space (the macros skip the first): every
 * instruction, and those with a dependent chain. Address constants, for static parameter tables. */
extern const char gp_insn_names_sp[], gp_insn_lat_names_sp[];
#define GP_INSN_CHOICES (gp_insn_names_sp + 1)
#define GP_INSN_LAT_CHOICES (gp_insn_lat_names_sp + 1)

const struct gp_insn *gp_insn_find(const char *name);
/* The SASS opcode and rate class on a compute capability (cc_major * 10 + cc_minor). */
const char *gp_insn_sass(const struct gp_insn *d, int cc);
const char *gp_insn_rate(const struct gp_insn *d, int cc);
/* Results per lane per step (f16x2: 2). */
int gp_insn_results(const struct gp_insn *d);
/* The kernels' operand words: a, b, then the start bits of classes 0..6. */
void gp_insn_operands(const struct gp_insn *d, uint64_t opnd[9]);
/* The chain from x after `trips` loop trips of `steps` steps, as the kernel's asm runs them
 * (lat: the latency kernel's trip, else the throughput kernel's). */
uint64_t gp_insn_chain(const struct gp_insn *d, uint64_t x, long trips, long steps, int lat);
/* A result against the host's: bit for bit, or within 1 % for MUFU. */
int gp_insn_match(const struct gp_insn *d, uint64_t got, uint64_t want);
/* The result word thread `tid` of a throughput run writes (XOR of its 8 chains), and how many
 * threads apart the expectations repeat (7 classes, or 32 lanes for a shared chase). */
uint64_t gp_insn_tput_expect(const struct gp_insn *d, unsigned tid, long trips);
unsigned gp_insn_period(const struct gp_insn *d);

/* Cycles per dependent step: (elapsed - timer overhead) / steps. */
double gp_chain_cycles_per_step(double elapsed_cycles, double overhead_cycles, double steps);
/* One warp's chains, lane i's elapsed and timer-overhead cycles at cyc[2i] and cyc[2i + 1]: the
 * fastest lane's cycles per step (INFINITY when none has one); *overhead the lanes' mean timer cost. */
double gp_chain_fastest(const uint64_t *cyc, double steps, double *overhead);
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

/* E004: FFMA ops per clock on each SM from its blocks' records (SM id, clock64 at start and end,
 * three words a block): blocks x ops_per_block / (last end - first start); the median over SMs,
 * NAN when no SM has a window. Every SM must run exactly k blocks, or warps per SM would be
 * wrong: *uneven_sm / *uneven_count name the first that did not (-1 when all did). */
double gp_occ_rate(const unsigned long long *blk, unsigned blocks, int k, double ops_per_block, int *uneven_sm,
		   int *uneven_count);

/* E010 model: FFMA ops/clk/SM when every R FFMAs need one shared load, with `lanes` FP32 lanes,
 * `lds_per_clk` warp-LDS per clock per SM and `issue_per_clk` warp-instructions issued per clock
 * per SM (4 schedulers on sm_70+): 32 x min(issue x R/(R+1), lds x R, lanes/32). */
double gp_mix_model(int ffma_per_lds, int lanes, double lds_per_clk, double issue_per_clk);

/* Architectural rate of an instruction class (results per clock per SM, Programming Guide
 * table) for a compute capability; 0 when the table has none for it. Classes: "fp16", "fp32",
 * "fp64", "mufu", "iadd", "imad", "shift", "logic", "compare", "brev", "clz", "popc", "cvt",
 * "i2fp" (int -> float on the integer pipe, sm_86+), "lds" (32 banks). */
int gp_arch_rate(const char *klass, int cc_major, int cc_minor);

/* IEEE binary16 helpers for the HFMA2 check: exact fma rounded to nearest even. */
double gp_half_to_double(uint16_t h);
uint16_t gp_double_to_half(double v);
uint16_t gp_half_fma(uint16_t a, uint16_t b, uint16_t c);

#endif
