/* planner.h — seed 001 Table 5 schedule planner (E111) and the distances a real cubin achieves.
 *
 * The planner lays an SGEMM inner loop (rx x ry FFMAs per k step, bk steps per shared tile) out
 * as seed 001 does: a non-FFMA slot after every `every` FFMAs, LDS / LDG / STS / bookkeeping
 * placed in slots, and the distance in instructions from each load to its first use checked
 * against the minimum the measured latency asks for (latency x instructions a warp issues per
 * clock). The SASS side decodes LDS / LDG / STS / FFMA from a cubin and measures the same
 * distance by register dataflow. */
#ifndef GP_PLANNER_H
#define GP_PLANNER_H

#include <stdio.h>

/* sm_90 opcodes (bits 0-11) of the forms SGEMM uses, confirmed by decoding nvcc cubins of
 * bench/sgemm_*.cu in tests/test_planner.c (counts per kernel match the source's loops). */
#define GP_OP_LDS 0x984
#define GP_OP_LDG 0x981
#define GP_OP_STS 0x388
#define GP_OP_BAR 0xb1d
/* Bits 73-75 of LDS / LDG / STS: access size (4 = 32-bit, 5 = 64-bit, 6 = 128-bit). */
#define GP_MEM_SIZE_LO 73

struct gp_plan_in {
	int rx, ry, bk;
	int threads;          /* per block: tx = ty = sqrt(threads), bm = 16 rx for 256 */
	int lds_bytes, ldg_bytes, sts_bytes;
	int every;            /* FFMAs per slot (seed 001: 6) */
	double ipc;           /* instructions one warp issues per clock */
	double lat_lds, lat_ldg;
};

#define GP_PLAN_MAXSLOTS 256
#define GP_PLAN_MAXBK 16
#define GP_PLAN_MAXLOADS 1024

struct gp_plan_load {
	char what[24];        /* "LDS.64 smA" */
	int iter, slot;       /* where it sits (slot label = FFMA index it follows) */
	int distance, need;   /* instructions to its first use, minimum for its latency */
};

struct gp_plan {
	int nslots;           /* per iteration */
	int d_lds, d_ldg;     /* minimum distances, instructions */
	int loop_len;         /* instructions per loop trip */
	char cell[GP_PLAN_MAXSLOTS][GP_PLAN_MAXBK][24];
	struct gp_plan_load load[GP_PLAN_MAXLOADS];
	int nload, nshort;    /* loads placed, loads closer to their use than the minimum */
};

/* ceil(latency x ipc): instructions a load must sit before its use (seed 001 Eq. 2: 7 L / 4). */
int gp_plan_min_distance(double latency, double ipc);
/* Slot label of slot j: the FFMA index it follows (every - 1, 2 every - 1, ...). */
int gp_plan_slot_label(int j, int every);
/* 0, or -1 with err if the configuration does not fit the tables. */
int gp_plan_make(const struct gp_plan_in *in, struct gp_plan *p, char *err, size_t errlen);
void gp_plan_print(const struct gp_plan_in *in, const struct gp_plan *p, FILE *out);

/* Load-to-use distances in a cubin's kernel, per load kind. */
struct gp_sass_dist {
	int n;                /* loads with a use found */
	int min, median, max; /* instructions */
	int min_cycles;       /* sum of stall counts over the shortest one */
	int width;            /* most common access size, bytes */
};
struct gp_sass_report {
	struct gp_sass_dist lds, ldg;
	int nffma, nlds, nldg, nsts;
};
/* Decode kernel in the cubin at path; 0, or -1 with err. */
int gp_sass_distances(const char *path, const char *kernel, struct gp_sass_report *r, char *err, size_t errlen);

/* Planner defaults from a run directory (latencies, ipc); 0 or -1 with err. */
int gp_plan_from_run(const char *run_dir, struct gp_plan_in *in, char *err, size_t errlen);

/* gpuprobe plan RUN_DIR [--rx N --ry N --bk N] [--cubin FILE --kernel K] */
int gp_planner_main(int argc, char **argv);
/* The REPORT.md section: the plan for sgemm_29_warptile's shape (8 x 8, bk 8, LDS.128) and,
 * when cubin is not NULL, the distances that kernel achieves in it. 0 or -1. */
int gp_planner_report(const char *run_dir, const char *cubin, FILE *md);

#endif
