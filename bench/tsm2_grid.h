/* tsm2_grid.h — the TSM2 instance grid: every (kernel, precision, t2, t3) template instance that
 * exists, and the embedded image that holds it. The one list: nvcc reads it in bench/tsm2_*.cu
 * (each file instantiates the entries of its own image, tsm2_kernels.cuh), gcc in
 * bench/tsm2_model.c (what is compiled, the model's and the search's candidates) and
 * bench/tsm2.c (which image to load a kernel from), and the tests read it to check the images.
 * Entry X(image, kernel, precision, t2, t3): image tsm2_<image>.cu -> gp_image_bench_tsm2_<image>;
 * precision f (float) or d (double); V0 has no t2 or t3 (0), V1 no t3 (0).
 * Why this grid: t2 and t3 are template arguments, so every point costs compile time for every
 * sm. Double V3 drops t2 + t3 > 40 (C, nextB, currA and nextA would not fit 255 registers); V4
 * is V3's main grid without the t3 = 32 corners; TSM2L runs t2, t3 2..16. The images split the
 * grid so that make -j compiles them side by side, each about as long as the others (the unrolled
 * work grows with t2 x t3: float V3's t2 = 32 row is an image of its own). */
#ifndef GP_TSM2_GRID_H
#define GP_TSM2_GRID_H

/* clang-format off */
#define TSM2_GRID(X)                                                                               \
	/* V0 (Algorithm 1), V1 (Algorithm 2), V2 (Algorithm 3: t3 4 and 16) */                    \
	X(ladder, v0, f, 0, 0) X(ladder, v0, d, 0, 0)                                              \
	X(ladder, v1, f, 2, 0) X(ladder, v1, f, 4, 0) X(ladder, v1, f, 8, 0)                        \
	X(ladder, v1, f, 16, 0) X(ladder, v1, f, 32, 0)                                            \
	X(ladder, v1, d, 2, 0) X(ladder, v1, d, 4, 0) X(ladder, v1, d, 8, 0)                        \
	X(ladder, v1, d, 16, 0) X(ladder, v1, d, 32, 0)                                            \
	X(ladder, v2, f, 2, 4) X(ladder, v2, f, 4, 4) X(ladder, v2, f, 8, 4) X(ladder, v2, f, 16, 4) \
	X(ladder, v2, f, 32, 4) X(ladder, v2, f, 2, 16) X(ladder, v2, f, 4, 16)                    \
	X(ladder, v2, f, 8, 16) X(ladder, v2, f, 16, 16)                                           \
	X(ladder, v2, d, 2, 4) X(ladder, v2, d, 4, 4) X(ladder, v2, d, 8, 4) X(ladder, v2, d, 16, 4) \
	X(ladder, v2, d, 32, 4) X(ladder, v2, d, 2, 16) X(ladder, v2, d, 4, 16)                    \
	X(ladder, v2, d, 8, 16) X(ladder, v2, d, 16, 16)                                           \
	/* V3 (Algorithm 4): t2 2..16 x t3 4..16, t2 32 x t3 4, 8, t3 32 x t2 2..8; float also     \
	 * (16, 32), (32, 16), (32, 32) */                                                         \
	X(v3f, v3, f, 2, 4) X(v3f, v3, f, 2, 8) X(v3f, v3, f, 2, 16) X(v3f, v3, f, 2, 32)           \
	X(v3f, v3, f, 4, 4) X(v3f, v3, f, 4, 8) X(v3f, v3, f, 4, 16) X(v3f, v3, f, 4, 32)           \
	X(v3f, v3, f, 8, 4) X(v3f, v3, f, 8, 8) X(v3f, v3, f, 8, 16) X(v3f, v3, f, 8, 32)           \
	X(v3f, v3, f, 16, 4) X(v3f, v3, f, 16, 8) X(v3f, v3, f, 16, 16) X(v3f, v3, f, 16, 32)       \
	X(v3f32, v3, f, 32, 4) X(v3f32, v3, f, 32, 8) X(v3f32, v3, f, 32, 16) X(v3f32, v3, f, 32, 32) \
	X(v3d, v3, d, 2, 4) X(v3d, v3, d, 2, 8) X(v3d, v3, d, 2, 16) X(v3d, v3, d, 2, 32)           \
	X(v3d, v3, d, 4, 4) X(v3d, v3, d, 4, 8) X(v3d, v3, d, 4, 16) X(v3d, v3, d, 4, 32)           \
	X(v3d, v3, d, 8, 4) X(v3d, v3, d, 8, 8) X(v3d, v3, d, 8, 16) X(v3d, v3, d, 8, 32)           \
	X(v3d, v3, d, 16, 4) X(v3d, v3, d, 16, 8) X(v3d, v3, d, 16, 16)                            \
	X(v3d, v3, d, 32, 4) X(v3d, v3, d, 32, 8)                                                  \
	/* V4 (V3 + split-k): t2 2..16 x t3 4..16, t2 32 x t3 4, 8 */                               \
	X(v4f, v4, f, 2, 4) X(v4f, v4, f, 2, 8) X(v4f, v4, f, 2, 16)                               \
	X(v4f, v4, f, 4, 4) X(v4f, v4, f, 4, 8) X(v4f, v4, f, 4, 16)                               \
	X(v4f, v4, f, 8, 4) X(v4f, v4, f, 8, 8) X(v4f, v4, f, 8, 16)                               \
	X(v4f, v4, f, 16, 4) X(v4f, v4, f, 16, 8) X(v4f, v4, f, 16, 16)                            \
	X(v4f, v4, f, 32, 4) X(v4f, v4, f, 32, 8)                                                  \
	X(v4d, v4, d, 2, 4) X(v4d, v4, d, 2, 8) X(v4d, v4, d, 2, 16)                               \
	X(v4d, v4, d, 4, 4) X(v4d, v4, d, 4, 8) X(v4d, v4, d, 4, 16)                               \
	X(v4d, v4, d, 8, 4) X(v4d, v4, d, 8, 8) X(v4d, v4, d, 8, 16)                               \
	X(v4d, v4, d, 16, 4) X(v4d, v4, d, 16, 8) X(v4d, v4, d, 16, 16)                            \
	X(v4d, v4, d, 32, 4) X(v4d, v4, d, 32, 8)                                                  \
	/* TSM2L Opt1 (Algorithm 6) and Opt2 (Algorithm 7): t2, t3 2..16 */                        \
	TSM2_GRID_L(X, l1, f) TSM2_GRID_L(X, l1, d) TSM2_GRID_L(X, l2, f) TSM2_GRID_L(X, l2, d)

/* The 16 (t2, t3) of a TSM2L kernel and precision, in image <kernel><precision>. */
#define TSM2_GRID_L(X, K, P)                                                                       \
	TSM2_GRID_L_T2(X, K, P, 2) TSM2_GRID_L_T2(X, K, P, 4) TSM2_GRID_L_T2(X, K, P, 8)            \
	TSM2_GRID_L_T2(X, K, P, 16)
#define TSM2_GRID_L_T2(X, K, P, T2)                                                                \
	X(K##P, K, P, T2, 2) X(K##P, K, P, T2, 4) X(K##P, K, P, T2, 8) X(K##P, K, P, T2, 16)
/* clang-format on */

#endif
