/* mem_model.c — sector, bank and chain models for the memory probes (see mem_model.h).
 *
 * Everything here runs on the host and is tested on fixed inputs (tests/test_sector_model.c):
 * the numbers printed next to a measurement must come from code that can be checked by hand. */
#include "mem_model.h"

#include <stdlib.h>

static int cmp_i64(const void *a, const void *b)
{
	const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Count distinct values of a small array (sorted in place). */
static int distinct(int64_t *v, int n)
{
	int d = 0;

	qsort(v, (size_t)n, sizeof *v, cmp_i64);
	for (int i = 0; i < n; i++)
		if (i == 0 || v[i] != v[i - 1])
			d++;
	return d;
}

int mem_sectors(const int64_t *addr, int n, int width)
{
	/* A width of at most 16 bytes at natural alignment never straddles a sector, but a
	 * misaligned float run can: list every sector each access covers. */
	int64_t s[MEM_WARP * 4];
	int m = 0;

	if (n > MEM_WARP)
		return -1;
	for (int i = 0; i < n; i++)
		for (int64_t b = addr[i] / MEM_SECTOR_BYTES; b <= (addr[i] + width - 1) / MEM_SECTOR_BYTES; b++)
			if (m < (int)(sizeof s / sizeof s[0]))
				s[m++] = b;
	return distinct(s, m);
}

static double efficiency(const int64_t *addr, int n, int width)
{
	int64_t bytes[MEM_WARP];
	const int sectors = mem_sectors(addr, n, width);

	for (int i = 0; i < n; i++)
		bytes[i] = addr[i];
	return sectors > 0 ? (double)distinct(bytes, n) * width / ((double)sectors * MEM_SECTOR_BYTES) : 0;
}

double mem_model_stride(int elem_bytes, long stride_elems, long offset_elems)
{
	int64_t a[MEM_WARP];

	for (int l = 0; l < MEM_WARP; l++)
		a[l] = ((int64_t)offset_elems + (int64_t)l * stride_elems) * elem_bytes;
	return efficiency(a, MEM_WARP, elem_bytes);
}

double mem_model_lda(int elem_bytes, long lda_elems, long ncols)
{
	double useful = 0, fetched = 0;

	for (long j = 0; j < ncols; j++) {
		int64_t a[MEM_WARP];
		for (int l = 0; l < MEM_WARP; l++)
			a[l] = ((int64_t)j * lda_elems + l) * elem_bytes;
		useful += (double)MEM_WARP * elem_bytes;
		fetched += (double)mem_sectors(a, MEM_WARP, elem_bytes) * MEM_SECTOR_BYTES;
	}
	return fetched > 0 ? useful / fetched : 0;
}

int mem_bank_min_wavefronts(int width_bytes)
{
	const int w = MEM_WARP * width_bytes / 128;

	return w < 1 ? 1 : w;
}

int mem_bank_wavefronts(int width_bytes, long stride_elems, int pad_elems)
{
	/* words[bank][k]: the distinct 4-byte words bank `bank` must deliver; the same word asked
	 * for by several lanes is delivered once (broadcast / multicast). */
	const int wpe = width_bytes / 4;
	int64_t words[32][MEM_WARP * 4];
	int nw[32] = { 0 }, worst = 0;

	for (int l = 0; l < MEM_WARP; l++)
		for (int k = 0; k < wpe; k++) {
			const int64_t e = (int64_t)l * stride_elems;
			const int64_t addr = (e + (e / 32) * pad_elems) * wpe + k;
			const int bank = (int)(addr % 32);
			words[bank][nw[bank]++] = addr;
		}
	for (int b = 0; b < 32; b++) {
		const int d = nw[b] ? distinct(words[b], nw[b]) : 0;
		worst = d > worst ? d : worst;
	}
	return worst;
}

/* splitmix64: a small, well-mixed generator with a fixed seed; quality is ample for shuffling. */
static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void mem_chain_random(uint32_t *next, size_t n, uint64_t seed)
{
	/* Sattolo: swapping only with strictly earlier positions yields a single n-cycle. */
	for (size_t i = 0; i < n; i++)
		next[i] = (uint32_t)i;
	for (size_t i = n; i-- > 1;) {
		const size_t j = (size_t)(splitmix64(&seed) % i);
		const uint32_t t = next[i];
		next[i] = next[j];
		next[j] = t;
	}
}

void mem_chain_sequential(uint32_t *next, size_t n)
{
	for (size_t i = 0; i < n; i++)
		next[i] = (uint32_t)((i + 1) % n);
}

uint32_t mem_chain_walk(const uint32_t *next, uint32_t from, uint64_t steps)
{
	while (steps--)
		from = next[from];
	return from;
}
