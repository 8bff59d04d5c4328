/* sgemm_fit.h — which problems a GEMM variant accepts: one rule and one message, read by the
 * bench (sg_supports, bench/sgemm_model.c) and by the tuner through its ladder kernels
 * (gp_kernel_fits, harness/tune_rank.c), both filled from bench/sgemm.list.
 *
 * A variant without bound checks needs m, n, k multiples of its block tile; one with float4
 * global access needs leading dimensions multiples of 4. Column-major: lda >= m, ldb >= k,
 * ldc >= m. */
#ifndef SG_FIT_H
#define SG_FIT_H

#include <stddef.h>
#include <stdio.h>

/* 0 if the problem suits the variant, else -1 with the reason in why ("needs m % 128 == 0 ..."). */
static inline int sg_fit(int bm, int bn, int bk, int any, int vec4, int m, int n, int k, int lda, int ldb,
			 int ldc, char *why, size_t len)
{
	if (m < 1 || n < 1 || k < 1 || lda < m || ldb < k || ldc < m) {
		snprintf(why, len, "bad problem %dx%dx%d (lda %d, ldb %d, ldc %d)", m, n, k, lda, ldb, ldc);
		return -1;
	}
	if (!any && (m % bm || n % bn || k % bk)) {
		snprintf(why, len, "needs m %% %d, n %% %d, k %% %d == 0", bm, bn, bk);
		return -1;
	}
	if (vec4 && (lda % 4 || ldb % 4 || ldc % 4)) {
		snprintf(why, len, "needs lda, ldb, ldc multiples of 4 (float4 access)");
		return -1;
	}
	return 0;
}

/* sg_fit of an m = n = k = lda = ldb = ldc = size problem for x, any struct with a variant's bm, bn,
 * bk, any and vec4 (the tuner's ladder kernels, the model tiles). */
#define SG_FIT_SQUARE(x, size, why, len)                                                            \
	sg_fit((x)->bm, (x)->bn, (x)->bk, (x)->any, (x)->vec4, size, size, size, size, size, size, why, len)

#endif
