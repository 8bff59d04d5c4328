/* tsm2_v5f.cu — the float V5 (V4 + 16-byte B reads) instances of the TSM2 grid.
 * bench/tsm2.list says which instances this image (gp_image_bench_tsm2_v5f) holds; the kernels
 * are the templates of tsm2_kernels.cuh. One file per group so make -j compiles them in parallel:
 * adding an entry to another group's image needs no change here. */
#define TSM2_IMAGE_v5f TSM2_HERE
#include "tsm2_kernels.cuh"
#include "tsm2_v5.cuh"
#include "tsm2_instances.cuh"
