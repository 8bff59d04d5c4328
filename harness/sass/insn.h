/* insn.h — the 128-bit instruction word of Volta-family GPUs (sm_70 … sm_120): named fields.
 *
 * A word is two little-endian 64-bit halves; bit 0 is the lowest bit of the first half (the
 * first number cuobjdump prints), bit 64 the lowest of the second. Fields are a const table of
 * (name, lowest bit, width) so the CLI, the patcher and the encoding solver share one map.
 * The operand fields are only operands in the forms that have them (Rb is an immediate's low
 * bits in FFMA R, R, imm, R); gp_insn_classify says which forms we know. */
#ifndef GP_SASS_INSN_H
#define GP_SASS_INSN_H

#include <stddef.h>
#include <stdint.h>

#define GP_INSN_BYTES 16
#define GP_REG_RZ 255
#define GP_PRED_PT 7
#define GP_SB_NONE 7    /* write/read scoreboard field value meaning "none" */
#define GP_SB_COUNT 6   /* scoreboards 0..5 */

struct gp_insn {
	uint64_t lo, hi;        /* bits 0-63, bits 64-127 */
};

enum gp_insn_field {
	GP_F_OPCODE,
	GP_F_PRED,
	GP_F_PNEG,
	GP_F_RD,
	GP_F_RA,
	GP_F_RB,
	GP_F_RC,
	GP_F_STALL,
	GP_F_YIELD,
	GP_F_WBAR,
	GP_F_RBAR,
	GP_F_WAIT,
	GP_F_REUSE,
	GP_F_COUNT
};

struct gp_insn_field_desc {
	const char *name;
	unsigned lo, width;
	int is_reg;             /* a register number: RZ = 255, checked against REGCOUNT */
	const char *what;
};

extern const struct gp_insn_field_desc gp_insn_fields[GP_F_COUNT];

/* Field by name ("rd", "stall" …, case-insensitive); -1 if unknown. */
int gp_insn_field_by_name(const char *name);

struct gp_insn gp_insn_load(const unsigned char *p);
void gp_insn_store(unsigned char *p, struct gp_insn w);

/* Any bit range inside the word (lo + width <= 128, width <= 64). */
uint64_t gp_insn_bits(struct gp_insn w, unsigned lo, unsigned width);
void gp_insn_set_bits(struct gp_insn *w, unsigned lo, unsigned width, uint64_t v);

uint32_t gp_insn_get(struct gp_insn w, enum gp_insn_field f);
/* 0, or -1 if v does not fit the field (the word is then unchanged). */
int gp_insn_set(struct gp_insn *w, enum gp_insn_field f, uint32_t v);

/* Instruction forms recognised from the opcode field, each checked against real nvcc cubins
 * (tests/test_sass.c): counts in known chains, or the EXIT offsets nvcc records. */
enum gp_insn_class {
	GP_I_UNKNOWN,
	GP_I_FFMA_RRR,          /* FFMA Rd, Ra, Rb, Rc */
	GP_I_FFMA_RIR,          /* FFMA Rd, Ra, imm32 (bits 32-63), Rc */
	GP_I_FFMA_RRI,          /* FFMA Rd, Ra, R(bits 64-71), imm32 (bits 32-63) */
	GP_I_FMUL_RRR,          /* FMUL Rd, Ra, Rb */
	GP_I_FADD_RRR,          /* FADD Rd, Ra, Rb */
	GP_I_IADD3_RRR,         /* IADD3 Rd, Ra, Rb, Rc */
	GP_I_EXIT,
	GP_I_BRA,
	GP_I_NOP,
	GP_I_COUNT
};

struct gp_insn_class_desc {
	const char *name;
	uint16_t opcode;        /* bits 0-11 */
	uint8_t regs;           /* bit mask of register operands: 1 Rd, 2 Ra, 4 Rb, 8 Rc */
};

extern const struct gp_insn_class_desc gp_insn_classes[GP_I_COUNT];

/* On the sm_70-sm_90 instruction set (gp_insn_classify_sm(90, w)). */
enum gp_insn_class gp_insn_classify(struct gp_insn w);
/* Field f is a register operand of w's (known) form: 1 yes, 0 no, -1 form unknown (sm_70-sm_90). */
int gp_insn_field_is_reg_operand(struct gp_insn w, enum gp_insn_field f);

/* The instruction sets whose field map is verified: the sm_70-sm_90 map (the public assemblers,
 * checked on nvcc cubins and solved on sm_90 from the H100 machine's nvdisasm) and sm_100 and
 * sm_120 (solved from nvdisasm listings of nvcc cubins: tests/solver/sm100, sm120). The field
 * positions (gp_insn_fields) are the same on all three; what differs is how a form is told apart:
 * on sm_100/sm_120 bits outside the opcode field also select the operation (bit 81 turns FFMA
 * into FHFMA and FADD into FHADD; on sm_100 bit 76 turns IADD3 into IADD.XOR), so a form there
 * is its opcode with those bits clear, and nvdisasm prints IADD3's carry predicates. Any other
 * sm (sm_103, sm_110, sm_121, …) has no verified map: gp_insn_isa() is NULL for it and the
 * patcher refuses it. */
struct gp_insn_form {
	uint64_t ext;           /* bits 64-127 (bit i is word bit 64 + i) that must be 0 in this form */
	const char *syntax;     /* nvdisasm's operands in order: rd, ra, rb, rc, or '-' (no codec field),
	                         * space-separated; "" for none */
};

struct gp_insn_isa {
	const char *name;       /* "sm_70-sm_90" */
	int sm_lo, sm_hi;       /* the sms it covers (compute capability x 10) */
	struct gp_insn_form forms[GP_I_COUNT];
	const char *evidence;   /* where it was verified */
};

extern const struct gp_insn_isa gp_insn_isas[];
extern const size_t gp_insn_nisas;

/* The verified instruction set of an sm, NULL if there is none. */
const struct gp_insn_isa *gp_insn_isa(int sm);
/* "sm_70-sm_90, sm_100, sm_120": the sms with a verified map, for messages. */
const char *gp_insn_isa_names(void);
/* Form of w on sm's instruction set; GP_I_UNKNOWN also when sm has no verified map. */
enum gp_insn_class gp_insn_classify_sm(int sm, struct gp_insn w);
/* As gp_insn_field_is_reg_operand, on sm's instruction set (-1 without a verified map). */
int gp_insn_field_is_reg_operand_sm(int sm, struct gp_insn w, enum gp_insn_field f);
/* Field of the codec that operand `i` of form k's nvdisasm text is on sm's instruction set
 * (GP_F_RD … GP_F_RC), -1 if that operand has none; -2 if i is past the form's operands. */
int gp_insn_form_operand(const struct gp_insn_isa *isa, enum gp_insn_class k, int i);

#endif
