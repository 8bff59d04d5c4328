/* tsm2_v6d.cu — the V6 (V5 with a thread's 16 bytes of contiguous rows: two doubles) instances of
 * the TSM2 grid in double. bench/tsm2.list says which instances this image
 * (gp_image_bench_tsm2_v6d) holds; the kernels are the templates of tsm2_kernels.cuh. PTX has no
 * vector f64 reduction, so the k slices' partial C goes out as scalar ones (bench/tsm2_v6.cuh). */
#define TSM2_IMAGE_v6d TSM2_HERE
#include "tsm2_kernels.cuh"
#include "tsm2_v5.cuh"
#include "tsm2_v6.cuh"
#include "tsm2_instances.cuh"
