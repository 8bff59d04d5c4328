/* sgemm_case.c — a GEMM problem's inputs and reference, kept while consecutive points share it.
 *
 * Inputs: random, fixed seed per size, uniform in [-1, 1] (24 bits: exact in float), padding rows
 * and the allocation slack NaN, so a kernel that reads what it must not poisons its own result.
 * Reference: cuBLAS's result, itself checked on sampled entries against host dot products in
 * double (ref_err). Pitfall: the host arrays live across points (a sweep changes the kernel
 * fastest); the device buffers do not: every point uploads into its own. */
#include "gp.h"
#include "blas.h"
#include "device.h"
#include "measure.h"
#include "sgemm_case.h"
#include "sgemm_map.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define REF_SAMPLES 64

static struct sg_case cs_cache;

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [-1, 1), exact in float: 24 random bits. */
static double uniform(uint64_t *s)
{
	return (double)(splitmix(s) >> 40) * 0x1p-23 - 1.0;
}

/* rows x cols column-major with leading dimension ld, plus SG_SLACK_ELEMS; padding and slack NaN. */
static void fill(void *p, int elem, int rows, int cols, int ld, uint64_t seed)
{
	const size_t total = (size_t)ld * cols + SG_SLACK_ELEMS;

	for (size_t i = 0; i < total; i++) {
		const size_t r = i % (size_t)ld, c = i / (size_t)ld;
		const double v = (c < (size_t)cols && r < (size_t)rows) ? uniform(&seed) : NAN;
		if (elem == 8)
			((double *)p)[i] = v;
		else
			((float *)p)[i] = (float)v;
	}
}

static double host_elem(const void *p, int elem, size_t i)
{
	return elem == 8 ? ((const double *)p)[i] : (double)((const float *)p)[i];
}

double sg_case_sampled_err(const struct sg_case *c, const void *out)
{
	uint64_t s = 0x5eed;
	double num = 0, den = 0;

	for (int t = 0; t < REF_SAMPLES; t++) {
		const int i = (int)(splitmix(&s) % (uint64_t)c->m), j = (int)(splitmix(&s) % (uint64_t)c->n);
		double x = 0;
		for (int l = 0; l < c->k; l++)
			x += host_elem(c->hA, c->elem, i + (size_t)l * c->lda) *
			     host_elem(c->hB, c->elem, l + (size_t)j * c->ldb);
		const double d = host_elem(out, c->elem, i + (size_t)j * c->ldc) - x;
		num += d * d;
		den += x * x;
	}
	return den > 0 ? sqrt(num / den) : sqrt(num);
}

double sg_case_rel_err(const struct sg_case *c, const void *out)
{
	return c->elem == 8 ? sg_rel_err_d(out, c->hR, c->m, c->n, c->ldc) : sg_rel_err_f(out, c->hR, c->m, c->n, c->ldc);
}

int sg_case_blas(const struct sg_case *c, CUdeviceptr A, CUdeviceptr B, CUdeviceptr C)
{
	return c->elem == 8 ? gp_blas_dgemm(c->m, c->n, c->k, A, c->lda, B, c->ldb, C, c->ldc)
			    : gp_blas_sgemm(c->m, c->n, c->k, A, c->lda, B, c->ldb, C, c->ldc);
}

static void case_free(struct sg_case *c)
{
	free(c->hA);
	free(c->hB);
	free(c->hR);
	memset(c, 0, sizeof *c);
}

static void case_drop(void)
{
	case_free(&cs_cache);
}

struct sg_case *sg_case_get(int m, int n, int k, int lda, int ldb, int ldc, int elem)
{
	struct sg_case *c = &cs_cache;
	const uint64_t seed = ((uint64_t)m * 1000003u + (uint64_t)n) * 1000033u + (uint64_t)k;

	if (c->hA && c->m == m && c->n == n && c->k == k && c->lda == lda && c->ldb == ldb && c->ldc == ldc &&
	    c->elem == elem)
		return c;
	case_free(c);
	*c = (struct sg_case){ .m = m, .n = n, .k = k, .lda = lda, .ldb = ldb, .ldc = ldc, .elem = elem, .blas_ms = NAN };
	c->na = (size_t)lda * k + SG_SLACK_ELEMS;
	c->nb = (size_t)ldb * n + SG_SLACK_ELEMS;
	c->nc = (size_t)ldc * n + SG_SLACK_ELEMS;
	c->hA = malloc(c->na * elem);
	c->hB = malloc(c->nb * elem);
	c->hR = malloc(c->nc * elem);
	if (!c->hA || !c->hB || !c->hR) {
		case_free(c);
		gp_err("out of memory for a %dx%dx%d GEMM's inputs", m, n, k);
		return NULL;
	}
	fill(c->hA, elem, m, k, lda, seed);
	fill(c->hB, elem, k, n, ldb, seed ^ 0xb0b0b0b0ull);
	gp_meas_keep(case_drop); /* one experiment's: the next measures its own cuBLAS time */
	return c;
}

/* NaN everywhere first: the reference's padding rows stay NaN and are never compared. */
int sg_case_reference(struct sg_case *c, CUdeviceptr A, CUdeviceptr B, CUdeviceptr C)
{
	int rc;

	if (c->ready)
		return 0;
	GP_CU(cuMemsetD8(C, 0xff, c->nc * c->elem));
	if ((rc = sg_case_blas(c, A, B, C)))
		return rc;
	GP_CU(cuCtxSynchronize());
	if ((rc = gp_download(c->hR, C, c->nc * c->elem)))
		return rc;
	c->ref_err = sg_case_sampled_err(c, c->hR);
	c->ready = 1;
	return 0;
error:
	return GP_ECUDA;
}

int sg_clock_setup(struct gp_meas *m, const void *image, struct sg_clock *k)
{
	int rc;

	k->iters = SG_CLOCK_ITERS;
	if ((rc = gp_kernel(m->dev, image, "sg_clock", &k->fn)) ||
	    (rc = gp_meas_buf(m, &k->sink, 256 * sizeof(float), GP_NO_POISON)))
		return rc;
	k->args[0] = &k->sink;
	k->args[1] = &k->iters;
	k->args[2] = gp_meas_clock(m);
	return 0;
}

int sg_clock_launch(struct gp_meas *m, struct sg_clock *k)
{
	return gp_launch(k->fn, (unsigned)m->dev->sms, 256, 0, k->args, NULL);
}
