/* tsm2_v6.cu — the V6 (V5 with A streamed through shared memory by cp.async) instances of the TSM2
 * grid, float and double. bench/tsm2.list says which instances this image (gp_image_bench_tsm2_v6)
 * holds; the kernels are the templates of tsm2_kernels.cuh. One file per group so make -j compiles
 * them in parallel: adding an entry to another group's image needs no change here. */
#define TSM2_IMAGE_v6 TSM2_HERE
#include "tsm2_kernels.cuh"
