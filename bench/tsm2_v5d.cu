/* tsm2_v5d.cu — the double V5 (V4 + 16-byte B reads) instances of the TSM2 grid.
 * bench/tsm2.list says which instances this image (gp_image_bench_tsm2_v5d) holds; the kernels
 * are the templates of tsm2_kernels.cuh. One file per group so make -j compiles them in parallel:
 * adding an entry to another group's image needs no change here. */
#define TSM2_IMAGE_v5d TSM2_HERE
#include "tsm2_kernels.cuh"
#include "tsm2_v5.cuh"
#include "tsm2_instances.cuh"
