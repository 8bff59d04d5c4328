/* solver.h — ISA encoding solver (E101, seed 001 Algorithms 2 and 3) for 128-bit words.
 *
 * From sample instructions of a cubin, every single-bit flip of every sample is written as a raw
 * instruction stream (129 words per sample: the original, then bit 0 … 127 flipped), nvdisasm
 * disassembles it (on the GPU machine; `nvdisasm -b SMxy`), and each flip is classified by how
 * the text changed: opcode (mnemonic), modifier, predicate, one operand (a register or immediate
 * whose value changed by one bit says where that value's bit lives), a .reuse flag, nothing
 * visible (control bits, unused bits), or rejected. Contiguous bits of one meaning become the
 * field map rows. Pitfall: nvdisasm prints no stall/yield/scoreboard bits, so those show as
 * "no visible effect" — the codec's control fields cannot be confirmed this way. */
#ifndef GP_SASS_SOLVER_H
#define GP_SASS_SOLVER_H

#include <stddef.h>
#include <stdio.h>

#include "sass/insn.h"

#define GP_SOLVE_TEXT 160
#define GP_SOLVE_VARIANTS 129   /* the original and 128 flips */

struct gp_sass_syntax {
	char pred[16];          /* "@P0", "@!PT", "" */
	char base[32];          /* mnemonic up to the first '.' */
	char mods[96];          /* ".FTZ.RZ" */
	int nops;
	char ops[8][48];
};

/* Parse "@P0 FFMA.FTZ R7, -R3, R7.reuse, R6" (trailing ';' optional): 0, or -1 if not an instruction. */
int gp_sass_parse_text(const char *text, struct gp_sass_syntax *s);

/* The instruction texts of nvdisasm output by byte offset: lines[off / 16] for every
 * offset-comment line ("/ *0010* / TEXT ;", without the spaces) with off / 16 < n; others are left empty (""). Returns how many were set. */
size_t gp_solver_parse_listing(const char *listing, char (*lines)[GP_SOLVE_TEXT], size_t n);

struct gp_field_row {
	char cls[64];           /* "FFMA R,R,R,R" */
	char field[40];         /* opcode, pred, pneg, rd, ra, rb, rc, op4, reuse.ra, modifier, hidden, invalid */
	unsigned lo, width;
	char evidence[160];
};

/* Rows for one sample: text[0] the original, text[1 + j] bit j flipped ("" = rejected). */
size_t gp_solver_derive(const char (*text)[GP_SOLVE_TEXT], struct gp_field_row *rows, size_t max);

/* Compare solved positions with what the codec claims on sm's instruction set (gp_insn_isa):
 * the guard predicate and its negation and the destination register of every class, and for the
 * forms the codec knows there (gp_insn_classes, matched by mnemonic and operand kinds) every
 * register operand and reuse flag through the form's nvdisasm syntax, and opcode bits inside the
 * opcode field or the bits the form's ISA adds to it. Returns the number of disagreements (each
 * described in msg, one per line), *checked the number compared; 0 compared when sm has no
 * verified map (there is nothing to compare with: the map is new). */
int gp_solver_crosscheck(int sm, const struct gp_field_row *rows, size_t n, size_t *checked, char *msg,
			 size_t len);

int gp_solver_write_csv(FILE *f, int sm, const struct gp_field_row *rows, size_t n);

/* `gpuprobe sass solve CUBIN --kernel K[,K...] -o map.csv [--listing FILE] [--emit RAW] [--nvdisasm P]`
 * (argv[0] is "solve"); returns a gp_exit code. */
int gp_sass_solve_main(int argc, char **argv);

#endif
