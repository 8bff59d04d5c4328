/* test_tma.c — the geometry the TMA probes give the driver and the kernels (probes/tma.c,
 * tma_shape.h), on the host: for every copy rank and box size, the box is what
 * cuTensorMapEncodeTiled accepts (at most 256 elements a dimension, 16-byte rows and strides),
 * holds box_bytes, and the boxes tile the tensor exactly once; and the index each kernel expects
 * in word e of a packed box (tma_word_index) is the element a tiled copy puts there, found here
 * by walking the box's coordinates over the tensor's own dimensions. A wrong index would fail
 * every row on the GPU; a wrong box size would hang the mbarrier (expect_tx never met). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "tma_common.h"

static unsigned long long prod_box(const struct tma_geom *g)
{
	unsigned long long n = 1;

	for (int d = 0; d < g->rank; d++)
		n *= g->box[d];
	return n;
}

/* The driver's constraints and the sizes the kernels count on. */
static void check_shape(const struct tma_geom *g, unsigned long long box_bytes, unsigned long long bytes)
{
	unsigned long long elems = 1;

	assert_int_equal(g->box_bytes, box_bytes);
	assert_true(g->nboxes > 0 && (g->nboxes & (g->nboxes - 1)) == 0);
	assert_true(tma_footprint(g) <= bytes && 2 * tma_footprint(g) > bytes / 8);
	if (g->rank == 0)
		return;
	assert_int_equal(prod_box(g) * TMA_ELEM, box_bytes);
	assert_int_equal(g->box[0] * TMA_ELEM % 16, 0);
	for (int d = 0; d < g->rank; d++) {
		assert_true(g->box[d] >= 1 && g->box[d] <= TMA_MAX_BOX_DIM);
		assert_int_equal(1u << g->lgb[d], g->box[d]);
		assert_int_equal((unsigned long long)g->box[d] << g->lgn[d], g->gdim[d]);
		assert_int_equal(g->estride[d], elems);
		if (d)
			assert_int_equal(g->estride[d] * TMA_ELEM % 16, 0);
		elems *= g->gdim[d];
	}
	assert_int_equal(elems * TMA_ELEM, tma_footprint(g));
}

/* Element e of box k as a tiled copy lays it out: the box's coordinates, dimension 0 fastest,
 * added to the box's corner and placed by the tensor's dimensions. */
static unsigned long long walk(const struct tma_geom *g, const int *c, unsigned long long e)
{
	unsigned long long idx = 0, stride = 1;

	for (int d = 0; d < g->rank; d++) {
		idx += (c[d] + e % g->box[d]) * stride;
		e /= g->box[d];
		stride *= g->gdim[d];
	}
	return idx;
}

/* Every box of a small footprint: its words are where the walk puts them, and each element of
 * the tensor is in exactly one box. */
static void check_tiling(const struct tma_geom *g)
{
	const unsigned long long n = tma_footprint(g) / TMA_ELEM, per = g->box_bytes / TMA_ELEM;
	unsigned char *seen = calloc(n, 1);

	assert_non_null(seen);
	for (unsigned long long k = 0; k < g->nboxes; k++) {
		int c[TMA_MAX_RANK] = { 0 };
		const unsigned long long o = tma_box_origin(g, g->rank, k, c);
		for (unsigned long long e = 0; e < per; e++) {
			const unsigned long long i = tma_word_index(g, g->rank, o, (unsigned)e);
			if (g->rank)
				assert_int_equal(i, walk(g, c, e));
			assert_true(i < n);
			assert_int_equal(seen[i], 0);
			seen[i] = 1;
		}
	}
	for (unsigned long long i = 0; i < n; i++)
		assert_int_equal(seen[i], 1);
	free(seen);
}

static void test_every_rank_and_box(void **state)
{
	static const unsigned long long boxes[] = { 16, 64, 128, 1024, 4096, 16384, 32768 };
	const unsigned long long small = 8ull << 20;
	struct tma_geom g;

	for (int rank = 0; rank <= TMA_MAX_RANK; rank++)
		for (size_t b = 0; b < sizeof boxes / sizeof *boxes; b++) {
			const char *why = tma_geom_make(&g, rank, boxes[b], small);
			if (rank == 1 && boxes[b] > TMA_MAX_BOX_DIM * TMA_ELEM) {
				assert_non_null(why); /* a 1-d box is one row of at most 256 elements */
				continue;
			}
			if (rank == 2 && boxes[b] > TMA_MAX_BOX_DIM * TMA_BOX_ROW_ELEMS * TMA_ELEM) {
				assert_non_null(why);
				continue;
			}
			assert_null(why);
			check_shape(&g, boxes[b], small);
			check_tiling(&g);
		}
}

/* The footprints the suites use: 256 MB and 1 GB, powers of two, are covered exactly. */
static void test_suite_footprints(void **state)
{
	static const unsigned long long fps[] = { 256ull << 20, 1ull << 30 };
	struct tma_geom g;

	for (size_t f = 0; f < 2; f++)
		for (int rank = 0; rank <= TMA_MAX_RANK; rank++) {
			assert_null(tma_geom_make(&g, rank, 1024, fps[f]));
			assert_int_equal(tma_footprint(&g), fps[f]);
			check_shape(&g, 1024, fps[f]);
		}
	/* 2-d, 16 KB: 32 x 128 boxes over 4 KB rows; 5-d: the 128 rows spread 4 x 4 x 4 x 2. */
	assert_null(tma_geom_make(&g, 2, 16384, 1ull << 30));
	assert_int_equal(g.box[0], 32);
	assert_int_equal(g.box[1], 128);
	assert_int_equal(g.gdim[0], TMA_ROW_ELEMS);
	assert_null(tma_geom_make(&g, 5, 16384, 256ull << 20));
	assert_int_equal(g.box[1] * g.box[2] * g.box[3] * g.box[4], 128);
	assert_int_equal(g.box[4], 2);
}

static void test_bad_boxes(void **state)
{
	struct tma_geom g;

	assert_non_null(tma_geom_make(&g, 0, 8, 1 << 20));     /* under 16 bytes */
	assert_non_null(tma_geom_make(&g, 2, 3000, 1 << 20));  /* not a power of two */
	assert_non_null(tma_geom_make(&g, 0, 4096, 2048));     /* footprint under one box */
	assert_non_null(tma_geom_make(&g, 3, 4096, 8192));     /* under one row of boxes */
	assert_int_equal(tma_rank("bulk"), 0);
	assert_int_equal(tma_rank("5d"), 5);
	assert_int_equal(tma_rank("6d"), -1);
}

/* A tensor map's room is aligned to 128 bytes wherever the context lands. */
static void test_map_alignment(void **state)
{
	unsigned char buf[sizeof(struct tma_map) + 64];

	for (int off = 0; off < 64; off += 8) {
		struct tma_map *m = (struct tma_map *)(buf + off);
		CUtensorMap *p = tma_map(m);
		assert_int_equal((uintptr_t)p % 128, 0);
		assert_true((unsigned char *)p + sizeof *p <= m->raw + sizeof m->raw);
	}
}

/* The profile keys from finished tables: the lowest latency per level, the best HBM rate per
 * family of methods (an L2 row or a failed row never counts), with what gave it. */
static const char *derived(const char *exp, const char *csv, const char *k, char *method, size_t len)
{
	static char value[64];
	char err[128];
	struct gp_table *t = gp_table_parse(csv, strlen(csv), err, sizeof err);
	struct gp_profile p = { 0 };
	const char *v = NULL;

	assert_non_null(t);
	gp_analysis_find(exp)->derive(&p, t);
	for (size_t i = 0; i < p.n; i++)
		if (!strcmp(p.e[i].key, k)) {
			snprintf(value, sizeof value, "%s", p.e[i].value);
			snprintf(method, len, "%s", p.e[i].method);
			v = value;
		}
	gp_profile_free(&p);
	gp_table_free(t);
	return v;
}

static void test_derive(void **state)
{
	static const char lat[] = "copy,box_bytes,box_dims,level,cycles_per_copy,status\n"
				  "bulk,128,128 B,l2,700,ok\n2d,4096,32x32,l2,650,ok\n2d,4096,32x32,hbm,1400,ok\n"
				  "5d,128,32x1x1x1x1,hbm,1000,failed\n";
	static const char cpa[] = "method,level,stages,blocks_per_sm,threads,bandwidth_GBps,status\n"
				  "cpasync16_cg,hbm,4,2,256,3000,ok\ncpasync16_cg,l2,4,2,256,7000,ok\n"
				  "ldg16,hbm,1,8,256,3100,ok\nldg8,hbm,1,8,256,3200,n/a: x\n";
	char m[160];

	assert_string_equal(derived("lat_tma", lat, "tma_latency_l2_cycles", m, sizeof m), "650");
	assert_non_null(strstr(m, "2d, 4096 B box (32x32)"));
	assert_string_equal(derived("lat_tma", lat, "tma_latency_hbm_cycles", m, sizeof m), "1400");
	assert_string_equal(derived("bw_cpasync", cpa, "cpasync_bw_best_GBps", m, sizeof m), "3000");
	assert_string_equal(derived("bw_cpasync", cpa, "ldg_stream_GBps", m, sizeof m), "3100");
	assert_non_null(strstr(m, "ldg16, 1 stages, 8 blocks/SM x 256"));
	assert_null(derived("bw_tma", "copy,level,bandwidth_GBps,status\n2d,l2+hbm,9000,ok\n", "tma_bw_best_GBps", m,
			    sizeof m));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_rank_and_box),
		cmocka_unit_test(test_suite_footprints),
		cmocka_unit_test(test_bad_boxes),
		cmocka_unit_test(test_map_alignment),
		cmocka_unit_test(test_derive),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
