/* l2map.cu — lat_l2_map (H050): the L2-hit latency from every SM to each of a set of sample lines;
 * bw_l2_side (H051) maps its own pool with the same kernel, then streams each SM's near or far
 * lines (l2side_stream, at the end).
 *
 * One block per SM (the host asks for so much dynamic shared memory that no second block fits),
 * thread 0 measuring: it reads %smid, then for each line warms it with one ld.global.cg (L2 only,
 * no L1) and times `trials` chains of L2MAP_CHAIN dependent ld.global.cg to that same line (the
 * line holds its own address, so each load's address is the previous load's value), keeping the
 * fastest chain. All SMs measure at once; SM s starts at line (s * L2MAP_ROT) mod lines so that
 * they do not all ask the same slice at the same moment. Pitfalls: a clock64 read does not wait
 * for a load in flight, so the chain's last value is stored to shared memory before the second
 * read (the store waits for it), and the warm-up load likewise before the first; the same
 * clock/store/clock sequence without loads is the overhead the host subtracts. */
#include "l2map_shape.h"
#include "probe.cuh"

typedef unsigned long long u64;

static_assert(L2MAP_CHAIN == 8, "the timed chain below is GP_REP8");

#define LD_CG "ld.global.cg.u64 %0, [%0];"
#define ST_SINK(v) asm volatile("st.shared.u64 [%0], %1;" ::"r"(sink), "l"(v) : "memory")

/* out: smid[block]; cyc[block * lines + i] = cycles of line i's fastest chain (timer overhead
 * included); ovh[block] = that overhead; bad[block] = lines whose chain did not end at the line. */
extern "C" __global__ void l2map_lat(u64 base, int lines, long long stride, int trials, unsigned *smid,
				     unsigned *cyc, unsigned *ovh, unsigned *bad, gp_clock_sample *cs)
{
	extern __shared__ u64 s_pad[]; /* its size keeps every other block off this SM */
	const unsigned sink = (unsigned)__cvta_generic_to_shared(s_pad);

	gp_clock_begin(cs);
	if (threadIdx.x == 0) {
		unsigned sm, best_ovh = ~0u, nbad = 0;
		asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
		smid[blockIdx.x] = sm;
		for (int k = 0; k < L2MAP_OVH_TRIES; k++) {
			const u64 t0 = gp_clock();
			ST_SINK((u64)k);
			const u64 t1 = gp_clock();
			best_ovh = min(best_ovh, (unsigned)(t1 - t0));
		}
		ovh[blockIdx.x] = best_ovh;
		/* not unrolled: every chain is CS2R, 8 LDG, STS, CS2R, as in the remainder loops */
#pragma unroll 1
		for (int j = 0, start = (int)((sm * (unsigned)L2MAP_ROT) % (unsigned)lines); j < lines; j++) {
			const int i = (j + start) % lines;
			const u64 a = base + (u64)i * (u64)stride;
			u64 p = a;
			unsigned best = ~0u;
			asm volatile(LD_CG : "+l"(p)::"memory"); /* warm: the line in L2 */
			ST_SINK(p);
#pragma unroll 1
			for (int t = 0; t < trials; t++) {
				const u64 t0 = gp_clock();
				GP_REP8(asm volatile(LD_CG : "+l"(p)::"memory");)
				ST_SINK(p);
				const u64 t1 = gp_clock();
				best = min(best, (unsigned)(t1 - t0));
			}
			nbad += p != a;
			cyc[(size_t)blockIdx.x * lines + i] = best;
		}
		bad[blockIdx.x] = nbad;
	}
	gp_clock_end_grid(cs);
}

/* Line i (at base + i * stride) holds its own address: a chase that stays on it. */
extern "C" __global__ void l2map_init(u64 base, int lines, long long stride)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < lines; i += gridDim.x * blockDim.x)
		*(u64 *)(base + (u64)i * (u64)stride) = base + (u64)i * (u64)stride;
}

/* ------------------------------------------------------------------ bw_l2_side (H051)
 * Every 8-byte word of pool line i holds the line's address, so the map's chase (l2map_lat, the
 * first word) stays on the line and the stream's sum of a line is 16 times its address. */
extern "C" __global__ void l2side_fill(u64 base, long long words)
{
	for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < words; i += gridDim.x * (long long)blockDim.x)
		((u64 *)base)[i] = base + (u64)(i / (L2MAP_LINE / 8)) * L2MAP_LINE;
}

/* One block per SM (the host asks for just over half an SM's shared memory, leaving the rest of
 * the L1 to the lists, whose loads are ordinary L1-cached ones). The
 * block's %smid picks its list of pool lines (sm_off / sm_len; length 0: this SM does not read,
 * nor does any SM but `reader` when reader >= 0). Warp w streams `per_warp` consecutive entries of
 * the list, cyclically, from start = (smid * warps + w) * len / slots: eight lanes a line, 16 B
 * each (ld.global.cg.v2: L2, not L1), L2SIDE_UNROLL lines in flight per lane group. Lane 0 writes
 * the warp's sum of the words it read; thread 0 the block's %smid. */
extern "C" __global__ void __launch_bounds__(1024, 1)
l2side_stream(u64 base, const unsigned *lists, const unsigned *sm_off, const unsigned *sm_len, int nids, int reader,
	      long long per_warp, unsigned slots, u64 *sums, unsigned *smid, gp_clock_sample *cs)
{
	const unsigned lane = threadIdx.x & 31, w = threadIdx.x >> 5, nw = blockDim.x >> 5;
	unsigned sm, len = 0;
	u64 acc = 0;

	gp_clock_begin(cs);
	asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
	if ((int)sm < nids && (reader < 0 || (int)sm == reader))
		len = sm_len[sm];
	if (len) {
		const unsigned *list = lists + sm_off[sm];
		const u64 seg = (lane & 7) * 16;
		unsigned j = (unsigned)(((u64)(sm * nw + w) * len) / slots) + (lane >> 3);
		j -= j >= len ? len : 0;
#pragma unroll 1
		for (long long k = 0; k < per_warp; k += 4 * L2SIDE_UNROLL) {
			unsigned line[L2SIDE_UNROLL];
			u64 a[L2SIDE_UNROLL], b[L2SIDE_UNROLL];
#pragma unroll
			for (int u = 0; u < L2SIDE_UNROLL; u++) {
				unsigned jj = j + 4 * u;
				jj -= jj >= len ? len : 0;
				line[u] = list[jj];
			}
			/* no "memory" clobber: the pool does not change, and the list loads may go first */
#pragma unroll
			for (int u = 0; u < L2SIDE_UNROLL; u++)
				asm volatile("ld.global.cg.v2.u64 {%0, %1}, [%2];"
					     : "=l"(a[u]), "=l"(b[u])
					     : "l"(base + (u64)line[u] * L2MAP_LINE + seg));
#pragma unroll
			for (int u = 0; u < L2SIDE_UNROLL; u++)
				acc += a[u] + b[u];
			j += 4 * L2SIDE_UNROLL;
			j -= j >= len ? len : 0;
		}
	}
	for (int o = 16; o; o >>= 1)
		acc += __shfl_xor_sync(~0u, acc, o);
	if (lane == 0)
		sums[(size_t)blockIdx.x * nw + w] = acc;
	if (threadIdx.x == 0)
		smid[blockIdx.x] = sm;
	gp_clock_end_grid(cs);
}
