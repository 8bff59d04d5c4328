/* l2map.cu — lat_l2_map (H050): the L2-hit latency from every SM to each of a set of sample lines.
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

	if (gp_is_clock_thread()) {
		cs->ns0 = gp_ns();
		cs->clk0 = gp_clock();
	}
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
