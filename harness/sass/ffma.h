/* ffma.h — an FFMA kernel's register-bank statistics, and its cubin improved in place for them.
 *
 * The model is the suite's measurements, passed in, never a GPU fact typed here: `banks` register
 * banks (regbank_map: a register's bank is its number mod banks) and a reuse cache of one entry
 * per operand slot and bank (regbank_reuse: of one residue a slot keeps one register, of
 * consecutive residues one per bank). A source is served from the cache when the last FFMA to
 * read that slot from that bank read the same register with the slot's reuse bit set, with only
 * FFMAs since, none of them writing it and no branch target between (ffma.c: serve_all, which
 * counts a hit only where the cache surely holds the value). An FFMA's conflicts are, over the
 * banks, (distinct unserved sources read from that bank) - 1, summed: 0 when its register reads
 * all go to different banks, 2 for three reads of one bank (regbank_ffma: 1 and 2 extra issue
 * cycles).
 *
 * The patch (gp_ffma_improve) never moves or adds an instruction:
 *  rename  applies one permutation of registers to the whole kernel, chosen by local search to
 *          minimise the FFMA conflicts, counted with the reuse bits the rule below will add (a
 *          register's bank decides its cache entry, so every candidate is costed whole). Only
 *          registers whose every occurrence is a 32-bit operand
 *          of a form whose operands are known (ffma.c's table) move; any register in a vector
 *          operand (LDS/STS/LDG/STG .64/.128), a 64-bit address, an operand of any other
 *          instruction, R1 (the ABI's stack pointer) or at/above REGCOUNT stays. A CS2R Rd, SRZ
 *          pair (two zeros) may swap its two registers, since both hold the same value;
 *  reuse   then sets the reuse bit of slot s on FFMA i when the next FFMA to read slot s from the
 *          same bank reads the same register, with only FFMAs between, both unpredicated FFMA R,
 *          R, R, R, none from i on writing that register and no branch target between. Bits are
 *          only added (tests/test_sass_ffma.c: on sgemm_29 with its bits cleared the rule sets
 *          only bits ptxas had set).
 * Both are checked afterwards by decoding the patched kernel again (gp_ffma_stats). */
#ifndef GP_SASS_FFMA_H
#define GP_SASS_FFMA_H

#include "sass/cubin.h"

#include <stddef.h>

struct gp_ffma_stats {
	size_t insn, ffma;           /* instructions and FFMA R, R, R, R of the kernel */
	size_t loop_insn, loop_ffma; /* the same inside the largest loop (a backward branch's body) */
	size_t reuse_ffma;           /* FFMAs with any reuse bit set */
	size_t reads, served;        /* FFMA source reads, and those served by the reuse cache */
	size_t conflicts;            /* sum of the FFMAs' bank conflicts (header comment) */
	size_t movable;              /* registers the renaming may move */
	size_t renamed;              /* registers it moved (gp_ffma_improve only) */
	size_t reuse_set;            /* reuse bits it set (gp_ffma_improve only) */
	size_t loop_values;          /* the loop pass's movable FFMA values (gp_ffma_improve only) */
	size_t loop_moved;           /* those it moved */
};

struct gp_ffma_opts {
	int banks;                   /* measured register banks (>= 1) */
	int reuse, rename, loop;     /* which steps gp_ffma_improve takes */
};

/* Statistics of kernel `kernel`; -1 with c->err if it is not there or banks < 1. */
int gp_ffma_stats(struct gp_cubin *c, const char *kernel, int banks, struct gp_ffma_stats *s);
/* Improve the kernel in place; *after = its statistics once patched (reuse_set, renamed, movable
 * filled in). -1 with c->err, the image then unchanged. */
int gp_ffma_improve(struct gp_cubin *c, const char *kernel, const struct gp_ffma_opts *o,
		    struct gp_ffma_stats *after);

/* Per-FFMA figures of s (0 when the kernel has no FFMA). */
double gp_ffma_conflicts_per_ffma(const struct gp_ffma_stats *s);
double gp_ffma_reuse_share(const struct gp_ffma_stats *s);  /* FFMAs with a reuse bit */
double gp_ffma_loop_share(const struct gp_ffma_stats *s);   /* FFMA share of the main loop */

/* The measured register bank count: configs/sass-ffma.csv's row for an sm (relative to the
 * working directory, the repository root as for the suite files), or any table's key/value row.
 * 0, or -1 with one line in err naming the file. */
#define GP_FFMA_CONFIG "configs/sass-ffma.csv"
int gp_ffma_banks_for_sm(int sm, int *banks, char *err, size_t len);
int gp_ffma_banks_from(const char *path, const char *key_col, const char *key, const char *val_col, int *banks,
		       char *err, size_t len);

/* `gpuprobe sass ffma` (ffma_cli.c; argv[0] is "ffma"). */
int gp_sass_ffma_main(int argc, char **argv);

#endif
