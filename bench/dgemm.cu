/* dgemm.cu — seed 003's kernels in double, as the seed ran them: its development steps and the
 * final 64 x 64 kernel in every block geometry of Figure 2 (TW 16) and the TW sweep of Figure 1
 * (sgemm_tile.cuh's templates). The kernels are bench/sgemm.list's lines with image dgemm. */
#include "sgemm.cuh"
#include "sgemm_tile.cuh"

#undef SG_IMAGE_dgemm
#define SG_IMAGE_dgemm(x) x
#include "sgemm.list"
#undef SG_IMAGE_dgemm
#define SG_IMAGE_dgemm(x)
