/* sgemm.h — the GEMM ladder's variant table and the arithmetic around it (host side).
 *
 * The table is bench/sgemm.list read into C: each variant's kernel, the seed kernel it
 * re-implements, its launch shape, its pipe and what sizes it accepts. The pure functions below
 * (launch geometry, size checks, rates, ceilings, error bound, occupancy reservation) are what
 * tests/test_sgemm.c holds against fixed inputs. */
#ifndef GP_SGEMM_H
#define GP_SGEMM_H

#include <stddef.h>
#include <stdint.h>

enum sg_kind {
	SG_K_NAIVE,   /* 16 x 16 threads, one element each */
	SG_K_TILE,    /* seed 003 tile kernels: tile x tile per block of bx x by */
	SG_K_VOLKOV,  /* seed 000 family: nt threads, nt * na rows x bn columns */
	SG_K_P4TILE,  /* seed 002 K2-1 (row-major, operands swapped), 64 x 64 per 16 x 16 block */
	SG_K_P4,      /* seed 002 K2-2..5, 128 x 128 per 16 x 16 block */
	SG_K_K1,      /* seed 001, 256 threads, bm x bm */
	SG_K_WARP,    /* modern, 1-D swizzled grid, dynamic shared memory */
	SG_K_TMA,     /* as SG_K_WARP, and two TMA tensor maps (A, B) after the arguments */
	SG_K_CUBLAS,  /* the baseline */
};

/* What a variant runs on, which names its `pipe` column and the ceiling it is held to. */
enum sg_pipe {
	SG_FP32_FMA,   /* FFMA: the FP32 lanes' peak */
	SG_FP64_FMA,   /* DFMA: the FP64 lanes' peak */
	SG_TF32X3_MMA, /* 3xTF32 mma.sync (sm_80+) or wgmma (sm_90a): a third of the TF32 tensor rate */
	SG_BLAS_FP32,  /* cuBLAS SGEMM, pedantic: the FP32 peak (no ceiling column) */
	SG_BLAS_FP64,  /* cuBLAS DGEMM: may use DMMA, twice the FP64 FMA peak (no ceiling column) */
};

/* One line of bench/sgemm.list. */
struct sg_variant {
	const char *name;   /* kernel symbol and parameter value */
	const char *seed;   /* the seed kernel it re-implements, or the modern step */
	enum sg_kind kind;
	enum sg_pipe pipe;
	int elem;           /* 4 float, 8 double */
	int bm, bn, bk;     /* C tile and K step (sizes must be multiples unless `any`) */
	int bx, by;         /* block shape (threads) */
	int na, gap;        /* seed 000: A vectors per thread; method7's far-apart vectors */
	int any;            /* handles any m, n, k */
	int vec4;           /* float4 global access: lda, ldb, ldc multiples of 4 */
	int dyn_smem;       /* dynamic shared memory bytes (SG_K_WARP) */
};

extern const struct sg_variant sg_variants[];
extern const size_t sg_nvariants;

const struct sg_variant *sg_variant_find(const char *name);
/* The embedded module holding v's kernel (bench/<image>.cu of its list line); NULL for cuBLAS. */
const unsigned char *sg_variant_image(const struct sg_variant *v);

/* Grid and block for a launch of v on m x n (x, y, z each). */
void sg_launch_dims(const struct sg_variant *v, int m, int n, unsigned grid[3], unsigned block[3]);

/* 0 if v accepts the problem, else -1 with the reason in why ("needs m % 128 == 0"). */
int sg_supports(const struct sg_variant *v, int m, int n, int k, int lda, int ldb, int ldc, char *why, size_t len);

/* 2 m n k / t in GFLOP/s (t in ms). */
double sg_gflops(double m, double n, double k, double ms);
/* FP32 (or FP64) peak in GFLOP/s: 2 flops x lanes x SMs x MHz. */
double sg_peak_gflops(int lanes, int sms, double mhz);
/* Dense TF32 tensor-core rate in flops per clock per SM for a compute capability (0 if unknown
 * or none): the ceiling of the 3xTF32 kernels is a third of it. */
int sg_tf32_flops_per_clk_sm(int cc_major, int cc_minor);
/* The ceiling a variant is held to at mhz, GFLOP/s, by its pipe: the FMA peak (FP32 or FP64
 * lanes), a 3xTF32 kernel the TF32 tensor rate / 3 (three mma per product), cuBLAS DGEMM twice
 * the FP64 FMA peak (DMMA). 0 if unknown. */
double sg_ceiling_gflops(const struct sg_variant *v, int cc_major, int cc_minor, int sms, double mhz);
/* The `pipe` column's name of a variant's pipe; whether its row shows ceiling_gflops (not cuBLAS). */
const char *sg_pipe_name(enum sg_pipe p);
int sg_pipe_has_ceiling(enum sg_pipe p);
/* The accuracy check against exact (host double) dot products on sampled entries: a kernel's
 * error may exceed cuBLAS's own by at most SG_ACCURACY_FACTOR (both measured on the same
 * entries). 1 if within, 0 if not or if either is NaN. */
#define SG_ACCURACY_FACTOR 4.0
int sg_accuracy_ok(double fp64_err, double cublas_fp64_err);
/* FP64 FMA lanes per SM for a compute capability (0 if unknown). */
int sg_fp64_lanes_per_sm(int cc_major, int cc_minor);

/* Relative Frobenius-norm bound for a GEMM computed twice in the same precision with
 * different summation orders (see sgemm.c): 64 u sqrt(k), u = 2^-24 (float) or 2^-53. */
double sg_err_bound(int k, int elem);
/* ||C - R||_F / ||R||_F over the m x n leading part (column-major, ldc); NaN in C gives NaN. */
double sg_rel_err_f(const float *c, const float *r, int m, int n, int ldc);
double sg_rel_err_d(const double *c, const double *r, int m, int n, int ldc);

/* Dynamic shared memory that leaves room for exactly `blocks` blocks per SM of a kernel with
 * `static_smem` bytes (each block also costs `reserved` bytes of system shared memory), within
 * `per_sm` bytes per SM and `max_dyn` per block; -1 if even 0 bytes allow fewer blocks. */
long sg_reserve_smem(int blocks, int static_smem, int reserved, int per_sm, int max_dyn);
/* Blocks per SM that shared memory alone allows. */
int sg_blocks_by_smem(int smem_per_block, int reserved, int per_sm);

/* Seed 001's shapes [M, K, N] in units of W: www w2w4w w4ww 4ww4w 4w2ww; seed002 is seed 002's
 * 2560 x 2560 x 1024 whatever W. 0 or -1. */
int sg_shape(const char *name, int w, int *m, int *k, int *n);

/* sgemm_modes' inputs by distribution, from 64 random bits: uniform in [-1, 1) (24 bits), or wide,
 * sign x 2^e x (1 + f) with e uniform in -SG_WIDE_EXP..SG_WIDE_EXP and f 23 bits in [0, 1): both
 * exact in float. The names are the dist parameter's choices, in this order. */
enum sg_dist { SG_DIST_UNIFORM, SG_DIST_WIDE };
#define SG_DIST_NAMES "uniform wide"
#define SG_WIDE_EXP 20
int sg_dist_parse(const char *name); /* -1 for none */
double sg_dist_value(enum sg_dist d, uint64_t bits);

/* The errors of n sampled entries c against FP64 dot products ref, each with mag = sum_l |a_il
 * b_lj|: per entry |c - ref| / mag (0 where mag is 0), the largest and the median (mean of the
 * two middle values for even n); and the ladder's Frobenius measure sqrt(sum (c - ref)^2 / sum
 * ref^2). A non-finite c makes all three NaN. */
struct sg_err {
	double max, median, fro;
};
void sg_sample_errors(const float *c, const double *ref, const double *mag, size_t n, struct sg_err *out);

/* Round x up to a multiple of u (u >= 1). */
long sg_round_up(long x, long u);

#endif
