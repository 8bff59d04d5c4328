/* tsm2_v3f32.cu — the float V3 (Algorithm 4) instances with t2 = 32 of the TSM2 grid.
 * bench/tsm2.list says which instances this image (gp_image_bench_tsm2_v3f32) holds; the kernels
 * are the templates of tsm2_kernels.cuh. The t2 = 32 row unrolls as much as the rest of float V3
 * together, so it compiles beside it rather than after it. */
#define TSM2_IMAGE_v3f32 TSM2_HERE
#include "tsm2_kernels.cuh"
#include "tsm2_instances.cuh"
