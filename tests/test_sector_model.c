/* test_sector_model.c — the 32-byte-sector efficiency model (E016), the shared-memory bank
 * model and the pointer-chase chain builder (probes/mem_model.c) on fixed inputs whose answers
 * are worked out by hand in the comments; the chase's slot layout and the access widths the
 * kernels are made for (probes/mem_shape.h, smem_shape.h: the headers nvcc reads too). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>

#include "mem_model.h"
#include "mem_shape.h"
#include "smem_shape.h"

#define EPS 1e-9
#define NEAR(got, want) assert_true(fabs((got) - (want)) < EPS)

/* A warp reads 32 consecutive floats of a column at element j * lda (rows 0..31):
 * lda = 0 mod 8: every column starts on a sector: 4 sectors, 128/128 = 100 %.
 * lda = 4 mod 8: every other column starts mid-sector: 4, 5, 4, 5 .. = 4.5 on average,
 *   128 / 144 = 8/9 = 88.9 % (INVENTORY E016 rounds it to 90 %).
 * odd lda: j * lda mod 8 takes every residue once in 8 columns: one column needs 4 sectors,
 *   seven need 5: 4.875 on average, 4 / 4.875 = 32/39 = 82.1 %. */
static void test_lda(void **state)
{
	NEAR(mem_model_lda(4, 4096, 8), 1.0);
	NEAR(mem_model_lda(4, 4104, 8), 1.0);
	NEAR(mem_model_lda(4, 4100, 8), 8.0 / 9.0);
	NEAR(mem_model_lda(4, 4097, 8), 32.0 / 39.0);
	NEAR(mem_model_lda(4, 4099, 8), 32.0 / 39.0);
	/* lda = 2 mod 8: residues 0, 2, 4, 6: one aligned column in four: 4 / 4.75 = 16/19. */
	NEAR(mem_model_lda(4, 4098, 8), 16.0 / 19.0);
}

/* Strided floats: stride s puts lane l at byte 4 s l. s = 1: 128 B in 4 sectors, 100 %.
 * s = 2: 256 B span, 8 sectors for 128 useful bytes: 50 %. s >= 8: one sector per lane:
 * 4 / 32 = 12.5 %. Offset 1 float on s = 1: bytes 4..131 cover 5 sectors: 128/160 = 80 %.
 * Offset 8 floats = one sector: aligned again, 100 %. Stride 0: one float for everyone:
 * 4 distinct bytes in one sector, 12.5 %. float4 (16 B) stride 1: 512 B in 16 sectors: 100 %. */
static void test_stride_offset(void **state)
{
	NEAR(mem_model_stride(4, 1, 0), 1.0);
	NEAR(mem_model_stride(4, 2, 0), 0.5);
	NEAR(mem_model_stride(4, 4, 0), 0.25);
	NEAR(mem_model_stride(4, 8, 0), 0.125);
	NEAR(mem_model_stride(4, 32, 0), 0.125);
	NEAR(mem_model_stride(4, 1, 1), 0.8);
	NEAR(mem_model_stride(4, 1, 8), 1.0);
	NEAR(mem_model_stride(4, 0, 0), 0.125);
	NEAR(mem_model_stride(16, 1, 0), 1.0);
	/* Stride 3 floats: lanes at 12 l bytes, span 0..375: sectors 0..11 = 12, 128/384 = 1/3. */
	NEAR(mem_model_stride(4, 3, 0), 1.0 / 3.0);
}

static void test_sectors(void **state)
{
	const int64_t a[] = { 0, 4, 28, 31, 32 };

	assert_int_equal(mem_sectors(a, 3, 4), 1);     /* 0..31 */
	assert_int_equal(mem_sectors(a + 3, 1, 4), 2); /* bytes 31..34 straddle */
	assert_int_equal(mem_sectors(a, 5, 4), 2);
}

/* Banks: 32-bit stride s: lane l -> word s l, bank (s l) mod 32: conflict degree gcd(s, 32).
 * With one padding word per 32 (a [32][33] array) stride 32 walks down a column: word 33 l,
 * bank l: conflict-free. 64-bit stride 1: 64 words, 2 per bank: 2 wavefronts, the minimum.
 * 128-bit stride 1: 4 wavefronts, the minimum; 128-bit stride 2: lanes 32 B apart use only
 * half the banks: 8. */
static void test_banks(void **state)
{
	assert_int_equal(mem_bank_wavefronts(4, 1, 0), 1);
	assert_int_equal(mem_bank_wavefronts(4, 2, 0), 2);
	assert_int_equal(mem_bank_wavefronts(4, 3, 0), 1);
	assert_int_equal(mem_bank_wavefronts(4, 8, 0), 8);
	assert_int_equal(mem_bank_wavefronts(4, 32, 0), 32);
	assert_int_equal(mem_bank_wavefronts(4, 32, 1), 1);
	assert_int_equal(mem_bank_wavefronts(4, 0, 0), 1);
	assert_int_equal(mem_bank_wavefronts(8, 1, 0), 2);
	assert_int_equal(mem_bank_wavefronts(16, 1, 0), 4);
	assert_int_equal(mem_bank_wavefronts(16, 2, 0), 8);
	/* 64-bit stride 32 down a column of a [32][32] array: every lane in banks 0-1: 32 words
	 * per bank. One padding element per row ([32][33] of 8 B): lane l at words 66 l and
	 * 66 l + 1, banks 2 l mod 32 and 2 l + 1 mod 32: lanes l and l + 16 share a bank pair, so
	 * 2 words per bank: 2 wavefronts, the 64-bit minimum. */
	assert_int_equal(mem_bank_wavefronts(8, 32, 0), 32);
	assert_int_equal(mem_bank_wavefronts(8, 32, 1), 2);
	assert_int_equal(mem_bank_min_wavefronts(4), 1);
	assert_int_equal(mem_bank_min_wavefronts(8), 2);
	assert_int_equal(mem_bank_min_wavefronts(16), 4);
}

/* Every chain is one cycle through all slots: n steps return to the start, fewer do not. */
static void test_chain_single_cycle(void **state)
{
	static const size_t sizes[] = { 1, 2, 3, 8, 1000, 65537 };

	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		const size_t n = sizes[k];
		uint32_t *next = malloc(n * sizeof *next);
		uint32_t p = 0;
		assert_non_null(next);
		for (int pattern = 0; pattern < 2; pattern++) {
			if (pattern)
				mem_chain_random(next, n, 42);
			else
				mem_chain_sequential(next, n);
			p = 0;
			for (size_t s = 1; s <= n; s++) {
				p = next[p];
				if (s < n)
					assert_int_not_equal(p, 0);
			}
			assert_int_equal(p, 0);
			assert_int_equal(mem_chain_walk(next, 0, 3 * n), 0);
		}
		free(next);
	}
}

/* The slots as mem.cu lays them out: unskewed at i * spacing; skewed (lat_mem_tlb's pages)
 * line-aligned inside their own page, and 2 MiB pages land on 33-line steps, so 32 consecutive
 * slots fall into 32 different 128-byte line positions modulo 4 KiB, not all into one set. */
static void test_slot_layout(void **state)
{
	const unsigned long long page = 2u << 20;
	unsigned seen = 0;

	assert_int_equal(mem_slot_offset(5, 128, 0), 640);
	assert_int_equal(mem_slot_offset(5, 128, 1), 640); /* 5 * 4224 mod 128 = 0 */
	for (unsigned long long i = 0; i < 32; i++) {
		const unsigned long long off = mem_slot_offset(i, page, 1), in = off - i * page;
		assert_true(off >= i * page && in < page);
		assert_int_equal(in % MEM_LINE, 0);
		assert_int_equal(in, i * MEM_SKEW_STEP % page / MEM_LINE * MEM_LINE);
		seen |= 1u << (in / MEM_LINE % 32);
	}
	assert_int_equal(seen, 0xffffffffu);
	/* MEM_TLB_SLOTS_PER_PAGE slots a page: slot i is line i % S of page i / S, all S inside that
	 * page, line-aligned and distinct; the page's first is where one slot a page put it. */
	for (unsigned long long pg = 0; pg < 8; pg++) {
		unsigned long long prev[MEM_TLB_SLOTS_PER_PAGE];
		for (unsigned j = 0; j < MEM_TLB_SLOTS_PER_PAGE; j++) {
			const unsigned long long i = pg * MEM_TLB_SLOTS_PER_PAGE + j;
			const unsigned long long off = mem_slot_offset(i, page, MEM_TLB_SLOTS_PER_PAGE);
			assert_true(off >= pg * page && off < (pg + 1) * page);
			assert_int_equal(off % MEM_LINE, 0);
			for (unsigned q = 0; q < j; q++)
				assert_true(prev[q] != off);
			prev[j] = off;
		}
		assert_int_equal(prev[0], mem_slot_offset(pg, page, 1));
	}
}

/* Every width with a shared-memory kernel: its conflict-free access takes 32 x width / 128 B
 * wavefronts, and a warp's region of bw_* holds one trip of it. */
static void test_smem_widths(void **state)
{
#define CHECK_WIDTH(bits, bytes)                                                                   \
	assert_int_equal(mem_bank_min_wavefronts(bytes), 32 * (bytes) / 128 > 1 ? 32 * (bytes) / 128 : 1); \
	assert_int_equal(mem_bank_wavefronts(bytes, 1, 0), mem_bank_min_wavefronts(bytes));       \
	assert_int_equal(SMEM_WARP_BYTES(bytes), SMEM_TRIP * 32 * (bits) / 8);
	SMEM_WIDTHS(CHECK_WIDTH)
#undef CHECK_WIDTH
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lda), cmocka_unit_test(test_stride_offset), cmocka_unit_test(test_sectors),
		cmocka_unit_test(test_banks), cmocka_unit_test(test_chain_single_cycle),
		cmocka_unit_test(test_slot_layout), cmocka_unit_test(test_smem_widths),
	};

	return cmocka_run_group_tests_name("sector_model", tests, NULL, NULL);
}
