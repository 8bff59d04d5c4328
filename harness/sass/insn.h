/* insn.h — the 128-bit instruction word of Volta-family GPUs (sm_70 … sm_90): named fields.
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

enum gp_insn_class gp_insn_classify(struct gp_insn w);
/* Field f is a register operand of w's (known) form: 1 yes, 0 no, -1 form unknown. */
int gp_insn_field_is_reg_operand(struct gp_insn w, enum gp_insn_field f);

#endif
