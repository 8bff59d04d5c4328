/* tsm2_l1f.cu — the float TSM2L Opt1 (Algorithm 6) instances of the TSM2 grid.
 * bench/tsm2.list says which instances this image (gp_image_bench_tsm2_l1f) holds; the kernels
 * are the templates of tsm2_kernels.cuh. One file per group so make -j compiles them in parallel:
 * adding an entry to another group's image needs no change here. */
#define TSM2_IMAGE_l1f TSM2_HERE
#include "tsm2_kernels.cuh"
#include "tsm2_instances.cuh"
