/* mma.h — the host side of the mma.sync probes, apart from the GPU code so the host tests
 * (tests/test_mma.c) and the report can hold it without the device: the table of
 * probes/mma.list, the operand words, the result every chain must end with, and the rates per
 * clock each form is bounded by. Pitfall: every rate here is 0 where arch.h knows none; callers
 * then publish no ceiling and no percentage rather than a guess. */
#ifndef GP_MMA_H
#define GP_MMA_H

#include <stddef.h>
#include <stdint.h>

enum gp_mma_in { GP_MMA_IN_F16, GP_MMA_IN_BF16, GP_MMA_IN_TF32, GP_MMA_IN_S8, GP_MMA_IN_E4M3, GP_MMA_IN_E5M2, GP_MMA_IN_F64 };
enum gp_mma_acc { GP_MMA_ACC_F16, GP_MMA_ACC_F32, GP_MMA_ACC_F8, GP_MMA_ACC_S32, GP_MMA_ACC_F64 };

struct gp_mma {
	const char *name, *ptx, *sass;
	int m, n, k;
	enum gp_mma_in in;
	enum gp_mma_acc acc;
	int na, nb, nd; /* registers per thread of A, B, D (64-bit ones for f64) */
	int sparse;
	int cc;           /* lowest sm (cc x 10) whose PTX target accepts it */
	int emu, emu_end; /* ptxas emulates it on the sms emu <= sm < emu_end (0 0: on none) */
};

/* What an sm makes of a form: its tensor instruction (the kernels are built and timed there),
 * an emulation (no kernel is built: n/a), or nothing (the PTX target is too old: n/a). */
enum gp_mma_code { GP_MMA_NATIVE, GP_MMA_EMULATED, GP_MMA_TOO_OLD };

extern const struct gp_mma gp_mmas[];
extern const size_t gp_nmmas;
/* The `variant` choices in list order, each name after a space (the macro skips the first). */
extern const char gp_mma_names_sp[];
#define GP_MMA_CHOICES (gp_mma_names_sp + 1)

const struct gp_mma *gp_mma_find(const char *name);
/* The rate type of gp_tensor_flops_per_clk_sm ("f16", "bf16", "tf32", "int8", "fp8", "fp64"). */
const char *gp_mma_rate_type(const struct gp_mma *d);
/* Bits per input element; per accumulator element; accumulator elements per D register. */
int gp_mma_in_bits(const struct gp_mma *d);
int gp_mma_acc_bits(const struct gp_mma *d);
int gp_mma_acc_per_reg(const struct gp_mma *d);
/* FLOP (integer: operations) of one mma: 2 x M x N x K, K the logical one (sparse included). */
double gp_mma_flops(const struct gp_mma *d);
/* Products summed into each D element per mma: K, or K/2 for the sparse forms. */
int gp_mma_keff(const struct gp_mma *d);
/* The peak per clock per SM of this form at a cc: the type's dense rate, twice it for sparse; 0
 * where unknown. */
double gp_mma_peak(const struct gp_mma *d, int cc_major, int cc_minor);
/* The form at an sm (cc_major x 10 + cc_minor), from mma.list's cc, emu and emu_end alone. */
enum gp_mma_code gp_mma_code_at(const struct gp_mma *d, int sm);
/* Why this cc cannot run the form, or NULL where it is native: "needs sm_XX (ptx); this GPU is
 * sm_YY" (the runner's wording) or "emulated on sm_YY (...)", the row's status after "n/a: ". */
const char *gp_mma_cannot(const struct gp_mma *d, int cc_major, int cc_minor, char *buf, size_t len);
/* The kernels' operand words: +1, -1, the sparse metadata. */
void gp_mma_operands(const struct gp_mma *d, uint64_t opnd[3]);
/* Result words per thread per chain (D registers; an f64 is two words). */
int gp_mma_words(const struct gp_mma *d);
/* The most loop trips whose result the accumulator holds exactly (mma_shape.h). */
long gp_mma_max_iters(const struct gp_mma *d);
/* Every result word after `iters` trips, in `want` (room for 2): how many words repeat (the
 * period: 1, or 2 for f64's low and high word). */
int gp_mma_expect(const struct gp_mma *d, long iters, uint32_t want[2]);

#endif
