/* insn.c — field codec for 128-bit Volta-family instruction words (sm_70 … sm_120; which sms
 * have a verified map, and how each tells its forms apart: gp_insn_isas, insn.h).
 *
 * The field map follows Jia et al. 2018 and the public assemblers CuAssembler and turingas (bits
 * 0-11 opcode, 16-23 Rd, 24-31 Ra, 32-39 Rb, 64-71 Rc, 105-125 the control fields);
 * tests/test_sass.c checks it against nvcc output (an FFMA chain's Rd/Ra, control fields in their
 * legal ranges, EXIT at the offsets nvcc records).
 * The opcode field (bits 0-11) holds the operation in its low 9 bits and the operand kinds in
 * bits 9-11: for FFMA 0x223 is R,R,R,R, 0x823 an immediate Rb, 0x423 an immediate Rc; an
 * opcode value alone therefore names a form, not just an operation. In both immediate forms the
 * 32-bit immediate fills bits 32-63, and in 0x423 the register multiplicand moves to the Rc field
 * (bits 64-71): "Rb" is then not a register at all. */
#include "sass/insn.h"
#include "gp.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

const struct gp_insn_field_desc gp_insn_fields[GP_F_COUNT] = {
	[GP_F_OPCODE] = { "opcode", 0, 12, 0, "operation and operand-kind selector" },
	[GP_F_PRED] = { "pred", 12, 3, 0, "guard predicate (7 = PT)" },
	[GP_F_PNEG] = { "pneg", 15, 1, 0, "guard predicate negated" },
	[GP_F_RD] = { "rd", 16, 8, 1, "destination register (255 = RZ)" },
	[GP_F_RA] = { "ra", 24, 8, 1, "first source register" },
	[GP_F_RB] = { "rb", 32, 8, 1, "second source register (register forms)" },
	[GP_F_RC] = { "rc", 64, 8, 1, "third source register" },
	[GP_F_STALL] = { "stall", 105, 4, 0, "stall cycles before the next instruction issues" },
	[GP_F_YIELD] = { "yield", 109, 1, 0, "yield flag, active low (0 = may switch warps)" },
	[GP_F_WBAR] = { "wbar", 110, 3, 0, "scoreboard set on write (7 = none)" },
	[GP_F_RBAR] = { "rbar", 113, 3, 0, "scoreboard set on operand read (7 = none)" },
	[GP_F_WAIT] = { "wait", 116, 6, 0, "wait mask, bit i waits on scoreboard i" },
	[GP_F_REUSE] = { "reuse", 122, 4, 0, "operand reuse flags (bit 0 Ra, 1 Rb, 2 Rc)" },
};

const struct gp_insn_class_desc gp_insn_classes[GP_I_COUNT] = {
	[GP_I_UNKNOWN] = { "?", 0, 0 },
	[GP_I_FFMA_RRR] = { "FFMA", 0x223, 1 | 2 | 4 | 8 },
	[GP_I_FFMA_RIR] = { "FFMA.RIR", 0x823, 1 | 2 | 8 },
	[GP_I_FFMA_RRI] = { "FFMA.RRI", 0x423, 1 | 2 | 8 },
	[GP_I_FMUL_RRR] = { "FMUL", 0x220, 1 | 2 | 4 },
	[GP_I_FADD_RRR] = { "FADD", 0x221, 1 | 2 | 4 },
	[GP_I_IADD3_RRR] = { "IADD3", 0x210, 1 | 2 | 4 | 8 },
	[GP_I_EXIT] = { "EXIT", 0x94d, 0 },
	[GP_I_BRA] = { "BRA", 0x947, 0 },
	[GP_I_NOP] = { "NOP", 0x918, 0 },
};

int gp_insn_field_by_name(const char *name)
{
	for (int i = 0; i < GP_F_COUNT; i++)
		if (!strcasecmp(gp_insn_fields[i].name, name))
			return i;
	return -1;
}

struct gp_insn gp_insn_load(const unsigned char *p)
{
	struct gp_insn w = { 0, 0 };

	for (int i = 7; i >= 0; i--) {
		w.lo = w.lo << 8 | p[i];
		w.hi = w.hi << 8 | p[8 + i];
	}
	return w;
}

void gp_insn_store(unsigned char *p, struct gp_insn w)
{
	for (int i = 0; i < 8; i++) {
		p[i] = (unsigned char)(w.lo >> 8 * i);
		p[8 + i] = (unsigned char)(w.hi >> 8 * i);
	}
}

static uint64_t mask(unsigned width)
{
	return width >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << width) - 1;
}

/* Bit-at-a-time: fields never straddle the halves today, but the solver may ask for any range. */
uint64_t gp_insn_bits(struct gp_insn w, unsigned lo, unsigned width)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < width && lo + i < 128; i++) {
		unsigned b = lo + i;
		uint64_t bit = (b < 64 ? w.lo >> b : w.hi >> (b - 64)) & 1;
		v |= bit << i;
	}
	return v;
}

void gp_insn_set_bits(struct gp_insn *w, unsigned lo, unsigned width, uint64_t v)
{
	v &= mask(width);
	for (unsigned i = 0; i < width && lo + i < 128; i++) {
		unsigned b = lo + i;
		uint64_t *half = b < 64 ? &w->lo : &w->hi;
		unsigned s = b & 63;

		*half = (*half & ~((uint64_t)1 << s)) | (v >> i & 1) << s;
	}
}

uint32_t gp_insn_get(struct gp_insn w, enum gp_insn_field f)
{
	return (uint32_t)gp_insn_bits(w, gp_insn_fields[f].lo, gp_insn_fields[f].width);
}

int gp_insn_set(struct gp_insn *w, enum gp_insn_field f, uint32_t v)
{
	if (v > mask(gp_insn_fields[f].width))
		return -1;
	gp_insn_set_bits(w, gp_insn_fields[f].lo, gp_insn_fields[f].width, v);
	return 0;
}

/* Forms as nvdisasm prints them. On sm_70-sm_90 IADD3 prints its carry-out predicates only when
 * they are not PT (nvcc's chains have none); on sm_100/sm_120 always. */
#define COMMON_FORMS                                                                               \
	[GP_I_FFMA_RIR] = { 0, "rd ra - rc" }, [GP_I_FFMA_RRI] = { 0, "rd ra rc -" },             \
	[GP_I_FMUL_RRR] = { 0, "rd ra rb" }, [GP_I_EXIT] = { 0, "" }, [GP_I_BRA] = { 0, "-" },    \
	[GP_I_NOP] = { 0, "" }
#define BIT(i) ((uint64_t)1 << ((i) - 64))

const struct gp_insn_isa gp_insn_isas[] = {
	{ "sm_70-sm_90", 70, 90,
	  { COMMON_FORMS, [GP_I_FFMA_RRR] = { 0, "rd ra rb rc" }, [GP_I_FADD_RRR] = { 0, "rd ra rb" },
	    [GP_I_IADD3_RRR] = { 0, "rd ra rb rc" } },
	  "tests/test_sass.c on nvcc cubins for sm_75-sm_90; tests/solver/h100_sm90_field_map.csv" },
	/* Solved: tests/solver/sm100/field_map.csv and chains_field_map.csv. */
	{ "sm_100", 100, 100,
	  { COMMON_FORMS, [GP_I_FFMA_RRR] = { BIT(81), "rd ra rb rc" }, [GP_I_FADD_RRR] = { BIT(81), "rd ra rb" },
	    [GP_I_IADD3_RRR] = { BIT(76), "rd - - ra rb rc" } },
	  "tests/solver/sm100: nvdisasm listings of nvcc sm_100 cubins and the maps solved from them" },
	{ "sm_120", 120, 120,
	  { COMMON_FORMS, [GP_I_FFMA_RRR] = { BIT(81), "rd ra rb rc" }, [GP_I_FADD_RRR] = { BIT(81), "rd ra rb" },
	    [GP_I_IADD3_RRR] = { 0, "rd - - ra rb rc" } },
	  "tests/solver/sm120: nvdisasm listings of nvcc sm_120 cubins and the maps solved from them" },
};
const size_t gp_insn_nisas = GP_ARRAY_SIZE(gp_insn_isas);

const struct gp_insn_isa *gp_insn_isa(int sm)
{
	for (size_t i = 0; i < gp_insn_nisas; i++)
		if (sm >= gp_insn_isas[i].sm_lo && sm <= gp_insn_isas[i].sm_hi)
			return &gp_insn_isas[i];
	return NULL;
}

const char *gp_insn_isa_names(void)
{
	static char buf[128];

	if (!buf[0])
		for (size_t i = 0, n = 0; i < gp_insn_nisas && n < sizeof buf; i++)
			n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? ", " : "", gp_insn_isas[i].name);
	return buf;
}

enum gp_insn_class gp_insn_classify_sm(int sm, struct gp_insn w)
{
	const struct gp_insn_isa *isa = gp_insn_isa(sm);
	uint32_t op = gp_insn_get(w, GP_F_OPCODE);

	for (int i = 1; isa && i < GP_I_COUNT; i++)
		if (gp_insn_classes[i].opcode == op && !(w.hi & isa->forms[i].ext))
			return (enum gp_insn_class)i;
	return GP_I_UNKNOWN;
}

enum gp_insn_class gp_insn_classify(struct gp_insn w)
{
	return gp_insn_classify_sm(90, w);
}

int gp_insn_field_is_reg_operand_sm(int sm, struct gp_insn w, enum gp_insn_field f)
{
	static const uint8_t bit[GP_F_COUNT] = {
		[GP_F_RD] = 1, [GP_F_RA] = 2, [GP_F_RB] = 4, [GP_F_RC] = 8,
	};
	enum gp_insn_class k = gp_insn_classify_sm(sm, w);

	if (k == GP_I_UNKNOWN)
		return -1;
	return !!(gp_insn_classes[k].regs & bit[f]);
}

int gp_insn_field_is_reg_operand(struct gp_insn w, enum gp_insn_field f)
{
	return gp_insn_field_is_reg_operand_sm(90, w, f);
}

int gp_insn_form_operand(const struct gp_insn_isa *isa, enum gp_insn_class k, int i)
{
	static const char *const roles[] = { [GP_F_RD] = "rd", [GP_F_RA] = "ra", [GP_F_RB] = "rb", [GP_F_RC] = "rc" };
	const char *p = isa && k > GP_I_UNKNOWN && k < GP_I_COUNT ? isa->forms[k].syntax : NULL;

	for (int n = 0; p && *p; n++) {
		size_t len = strcspn(p, " ");
		if (n == i) {
			for (int f = GP_F_RD; f <= GP_F_RC; f++)
				if (len == strlen(roles[f]) && !strncmp(p, roles[f], len))
					return f;
			return -1;
		}
		p += len;
		p += *p == ' ';
	}
	return -2;
}
