/* tsm2_instances.cuh — the kernels of one TSM2 image: each bench/tsm2_<image>.cu includes
 * tsm2_kernels.cuh (and the V5/V6 headers its image needs), then this file. */
/* The entries of bench/tsm2.list whose image is the including file's: that file defines
 * TSM2_IMAGE_<image> as TSM2_HERE, and TSM2_IS_HERE(img) is 1 for it, 0 for every other image
 * (an undefined TSM2_IMAGE_x stays one token, so the second argument is the 0 after it). */
#define TSM2_HERE ~, 1
#define TSM2_SECOND_(a, b, ...) b
#define TSM2_SECOND(...) TSM2_SECOND_(__VA_ARGS__)
#define TSM2_IS_HERE(img) TSM2_SECOND(TSM2_IMAGE_##img, 0, ~)
#define TSM2_PICK_1 TSM2_DEFINE
#define TSM2_PICK_0 TSM2_SKIP
#define TSM2_PICK_(c) TSM2_PICK_##c
#define TSM2_PICK(c) TSM2_PICK_(c)
#define TSM2_SKIP(kind, P, t2, t3)

#define TSM2_T_f float
#define TSM2_T_d double
#define TSM2_DEFINE(kind, P, t2, t3) TSM2_DEFINE_##kind(kind, P, TSM2_T_##P, t2, t3)
/* Kernel symbols as bench/tsm2_model.c's tsm2_kernel_name() spells them. */
#define TSM2_DEFINE_v0(kind, s, T, t2, t3) \
	extern "C" __global__ void tsm2_v0_##s(TSM2_ARGS(T)) { tsm2_v0<T>(m, k, n, A, lda, B, ldb, C, ldc); }
#define TSM2_DEFINE_v1(kind, s, T, t2, t3) \
	extern "C" __global__ void tsm2_v1_##s##_t2_##t2(TSM2_ARGS(T)) { tsm2_v1<T, t2>(m, k, n, A, lda, B, ldb, C, ldc); }
#define TSM2_DEFINE_K(kind, s, T, t2, t3)                                                          \
	extern "C" __global__ void tsm2_##kind##_##s##_t2_##t2##_t3_##t3(TSM2_ARGS(T))             \
	{                                                                                          \
		tsm2_##kind<T, t2, t3>(m, k, n, A, lda, B, ldb, C, ldc);                           \
	}
#define TSM2_DEFINE_v2 TSM2_DEFINE_K
#define TSM2_DEFINE_v3 TSM2_DEFINE_K
#define TSM2_DEFINE_v4 TSM2_DEFINE_K
#define TSM2_DEFINE_v5 TSM2_DEFINE_K
/* V6 at most TSM2_V6_MAXREG registers (ptxas took 126-200 unbounded: two blocks of 128 a SM at
 * t2 = 16): four warps a scheduler hold the ring's copies in flight (bench/tsm2_v6.cuh). */
#define TSM2_DEFINE_v6(kind, s, T, t2, t3)                                                         \
	extern "C" __global__ void __maxnreg__(TSM2_V6_MAXREG) tsm2_v6_##s##_t2_##t2##_t3_##t3(TSM2_ARGS(T)) \
	{                                                                                          \
		tsm2_v6<T, t2, t3>(m, k, n, A, lda, B, ldb, C, ldc);                               \
	}
#define TSM2_DEFINE_l1 TSM2_DEFINE_K
#define TSM2_DEFINE_l2 TSM2_DEFINE_K

#define TSM2(img, kind, P, t2, t3) TSM2_PICK(TSM2_IS_HERE(img))(kind, P, t2, t3)
#include "tsm2.list"
#undef TSM2
