/* tsm2_v3d.cu — the double V3 (Algorithm 4) instances of the TSM2 grid.
 * bench/tsm2.list says which instances this image (gp_image_bench_tsm2_v3d) holds; the kernels
 * are the templates of tsm2_kernels.cuh. One file per group so make -j compiles them in parallel:
 * adding an entry to another group's image needs no change here. */
#define TSM2_IMAGE_v3d TSM2_HERE
#include "tsm2_kernels.cuh"
#include "tsm2_instances.cuh"
