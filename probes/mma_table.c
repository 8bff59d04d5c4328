/* mma_table.c — the table of probes/mma.list and what the host knows of each form (mma.h): its
 * FLOP, its peak per clock, the operand words and the exact result every chain must end with
 * (mma_shape.h: 2 x iters x K_eff in every D element). No device code: the report and the host
 * tests link it without the driver. */
#include "gp.h"
#include "arch.h"
#include "insn.h"
#include "mma.h"
#include "mma_shape.h"

#include <stdio.h>
#include <string.h>

#define SP_DENSE 0
#define SP_SPARSE 1

const struct gp_mma gp_mmas[] = {
#define MMA(name_, ptx_, m_, n_, k_, in_, acc_, na_, nb_, nd_, sp_, cc_, emu_, emu_end_, sass_)    \
	{ .name = #name_, .ptx = ptx_, .sass = sass_, .m = m_, .n = n_, .k = k_, .in = GP_MMA_IN_##in_, \
	  .acc = GP_MMA_ACC_##acc_, .na = na_, .nb = nb_, .nd = nd_, .sparse = SP_##sp_, .cc = cc_,  \
	  .emu = emu_, .emu_end = emu_end_ },
#include "mma.list"
#undef MMA
};
GP_TABLE_LOOKUP(struct gp_mma, gp_mmas, gp_nmmas, gp_mma_find)

const char gp_mma_names_sp[] =
#define MMA(name, ...) " " #name
#include "mma.list"
#undef MMA
	;

/* The classes' facts, from mma_shape.h. */
static const struct {
	const char *rate;
	int bits;
	uint64_t one, minus_one;
} inputs[] = {
#define IN(cls, rate_, bits_, one_, minus_) [GP_MMA_IN_##cls] = { rate_, bits_, one_, minus_ },
	MMA_INPUTS(IN)
#undef IN
};

static const struct {
	int bits, per_reg, exact_bits;
} accs[] = {
#define ACC(cls, bits_, per_, exact_) [GP_MMA_ACC_##cls] = { bits_, per_, exact_ },
	MMA_ACCS(ACC)
#undef ACC
};

const char *gp_mma_rate_type(const struct gp_mma *d) { return inputs[d->in].rate; }
int gp_mma_in_bits(const struct gp_mma *d) { return inputs[d->in].bits; }
int gp_mma_acc_bits(const struct gp_mma *d) { return accs[d->acc].bits; }
int gp_mma_acc_per_reg(const struct gp_mma *d) { return accs[d->acc].per_reg; }
double gp_mma_flops(const struct gp_mma *d) { return 2.0 * d->m * d->n * d->k; }
int gp_mma_keff(const struct gp_mma *d) { return d->sparse ? d->k / 2 : d->k; }

double gp_mma_peak(const struct gp_mma *d, int cc_major, int cc_minor)
{
	return gp_tensor_flops_per_clk_sm(gp_mma_rate_type(d), cc_major, cc_minor) * (d->sparse ? 2 : 1);
}

enum gp_mma_code gp_mma_code_at(const struct gp_mma *d, int sm)
{
	if (sm < d->cc)
		return GP_MMA_TOO_OLD;
	return d->emu <= sm && sm < d->emu_end ? GP_MMA_EMULATED : GP_MMA_NATIVE;
}

const char *gp_mma_cannot(const struct gp_mma *d, int cc_major, int cc_minor, char *buf, size_t len)
{
	const int sm = cc_major * 10 + cc_minor;

	switch (gp_mma_code_at(d, sm)) {
	case GP_MMA_TOO_OLD:
		snprintf(buf, len, "needs sm_%d (%s); this GPU is sm_%d", d->cc, d->ptx, sm);
		return buf;
	case GP_MMA_EMULATED:
		snprintf(buf, len, "emulated on sm_%d (ptxas emits no %s there): no tensor op to time", sm, d->sass);
		return buf;
	case GP_MMA_NATIVE:
		break;
	}
	return NULL;
}

void gp_mma_operands(const struct gp_mma *d, uint64_t opnd[3])
{
	opnd[0] = inputs[d->in].one;
	opnd[1] = inputs[d->in].minus_one;
	opnd[2] = MMA_META;
}

int gp_mma_words(const struct gp_mma *d)
{
	return d->nd * (d->acc == GP_MMA_ACC_F64 ? 2 : 1);
}

long gp_mma_max_iters(const struct gp_mma *d)
{
	return (1L << accs[d->acc].exact_bits) / ((long)MMA_TRIP_NET * gp_mma_keff(d));
}

/* Bits of the value v = 2 x iters x K_eff in the accumulator's register. */
int gp_mma_expect(const struct gp_mma *d, long iters, uint32_t want[2])
{
	const double v = (double)MMA_TRIP_NET * (double)iters * gp_mma_keff(d);
	const union { float f; uint32_t u; } f = { .f = (float)v };
	const union { double d; uint64_t u; } g = { .d = v };
	const uint16_t h = gp_double_to_half(v);

	switch (d->acc) {
	case GP_MMA_ACC_F16:
		want[0] = (uint32_t)h << 16 | h;
		return 1;
	case GP_MMA_ACC_S32:
		want[0] = (uint32_t)(int32_t)v;
		return 1;
	case GP_MMA_ACC_F64:
		want[0] = (uint32_t)g.u;
		want[1] = (uint32_t)(g.u >> 32);
		return 2;
	default:
		want[0] = f.u;
		return 1;
	}
}
