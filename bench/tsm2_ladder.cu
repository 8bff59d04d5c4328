/* tsm2_ladder.cu — the V0, V1 and V2 (the paper's first steps: one image, they compile quickly) instances of the TSM2 grid.
 * bench/tsm2.list says which instances this image (gp_image_bench_tsm2_ladder) holds; the kernels
 * are the templates of tsm2_kernels.cuh. One file per group so make -j compiles them in parallel:
 * adding an entry to another group's image needs no change here. */
#define TSM2_IMAGE_ladder TSM2_HERE
#include "tsm2_kernels.cuh"
#include "tsm2_instances.cuh"
