/* tsm2_v6f.cu — the V6 (V5 with four contiguous rows a thread, float only) instances of the TSM2
 * grid. bench/tsm2.list says which instances this image (gp_image_bench_tsm2_v6f) holds; the
 * kernels are the templates of tsm2_kernels.cuh. */
#define TSM2_IMAGE_v6f TSM2_HERE
#if __CUDA_ARCH__ >= 900 /* red.global.add.v4.f32 (bench/tsm2_v6.cuh, v6_put) */
#define TSM2_V6_VRED 1
#endif
#include "tsm2_kernels.cuh"
#include "tsm2_v5.cuh"
#include "tsm2_v6.cuh"
#include "tsm2_instances.cuh"
