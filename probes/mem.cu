/* mem.cu — global-memory probes: latency ladder (E003), load widths and paths (E108/E004),
 * coalescing and padding (E016), L2/HBM bandwidth.
 *
 * Latency: one thread chases 64-bit pointers p = *p through line-spaced slots laid out as one
 * cycle (random or sequential) by mem_chain_scatter; the loads sit in asm volatile with the
 * path's qualifier (default, .cg = L2 only, .nc = non-coherent/texture path) so nothing is
 * hoisted or merged. Bandwidth: grid-stride loops with several independent loads in flight per
 * thread and a sum that the host checks, so no load can be dropped. Pitfall: a clock64 read
 * does not wait for loads in flight; the timed chains are long enough (>= 64k loads) that the
 * last load's latency is noise, and the per-access variant stores each result before reading
 * the clock again. */
#include "mem_shape.h"
#include "probe.cuh"

typedef unsigned long long u64;

/* ------------------------------------------------------------------ chain layout */

/* Slot i holds the address of slot next[i]; where a slot sits is mem_slot_offset (mem_shape.h). */
extern "C" __global__ void mem_chain_scatter(char *base, const unsigned *next, long long n,
					     long long spacing, int skew)
{
	for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
	     i += (long long)gridDim.x * blockDim.x)
		*(u64 *)(base + mem_slot_offset((u64)i, (u64)spacing, skew)) =
			(u64)(base + mem_slot_offset(next[i], (u64)spacing, skew));
}

/* ------------------------------------------------------------------ pointer chase */

#define LD_DEFAULT "ld.global.u64 %0, [%0];"
#define LD_CG "ld.global.cg.u64 %0, [%0];"
#define LD_NC "ld.global.nc.u64 %0, [%0];"

/* out[0] = final pointer, out[1] = cycles of the timed chain, out[2] = timer overhead. */
#define CHASE_KERNEL(NAME, LD)                                                                     \
	extern "C" __global__ void NAME(u64 start, long long warm, long long steps, u64 *out,          \
					gp_clock_sample *cs)                                           \
	{                                                                                          \
		u64 p = start, o0, o1, t0, t1;                                                     \
		long long i;                                                                       \
		for (i = 0; i < warm; i++)                                                         \
			asm volatile(LD : "+l"(p)::"memory");                                      \
		GP_CHASE_TIMED(steps, asm volatile(LD : "+l"(p)::"memory"););                      \
		out[0] = p;                                                                        \
		out[1] = t1 - t0;                                                                  \
		out[2] = o1 - o0;                                                                  \
	}

CHASE_KERNEL(lat_chase_default, LD_DEFAULT)
CHASE_KERNEL(lat_chase_cg, LD_CG)
CHASE_KERNEL(lat_chase_nc, LD_NC)

/* Per-access variant: each load's own latency. The result is stored to shared memory before
 * the second clock read: the store cannot issue until the load has returned. The same
 * sequence without the load, run first, is the overhead the host subtracts. */
#define EACH_KERNEL(NAME, LD)                                                                      \
	extern "C" __global__ void NAME(u64 start, long long warm, int nrec, u64 *out,                 \
					unsigned *lat, unsigned *ovh, gp_clock_sample *cs)             \
	{                                                                                          \
		__shared__ unsigned s_lat[EACH_MAX], s_ovh[EACH_MAX];                              \
		__shared__ unsigned s_sink;                                                        \
		const unsigned sink = (unsigned)__cvta_generic_to_shared(&s_sink);                 \
		u64 p = start, t0, t1;                                                             \
		for (long long i = 0; i < warm; i++)                                               \
			asm volatile(LD : "+l"(p)::"memory");                                      \
		cs->ns0 = gp_ns();                                                                 \
		cs->clk0 = gp_clock();                                                             \
		for (int i = 0; i < nrec; i++) {                                                   \
			t0 = gp_clock();                                                           \
			asm volatile("st.shared.u32 [%0], %1;" ::"r"(sink), "r"((unsigned)i)       \
				     : "memory");                                                  \
			t1 = gp_clock();                                                           \
			s_ovh[i] = (unsigned)(t1 - t0);                                            \
		}                                                                                  \
		for (int i = 0; i < nrec; i++) {                                                   \
			t0 = gp_clock();                                                           \
			asm volatile(LD : "+l"(p)::"memory");                                      \
			asm volatile("st.shared.u32 [%0], %1;" ::"r"(sink), "r"((unsigned)p)       \
				     : "memory");                                                  \
			t1 = gp_clock();                                                           \
			s_lat[i] = (unsigned)(t1 - t0);                                            \
		}                                                                                  \
		cs->clk1 = gp_clock();                                                             \
		cs->ns1 = gp_ns();                                                                 \
		for (int i = 0; i < nrec; i++) {                                                   \
			lat[i] = s_lat[i];                                                         \
			ovh[i] = s_ovh[i];                                                         \
		}                                                                                  \
		out[0] = p;                                                                        \
	}

EACH_KERNEL(lat_each_default, LD_DEFAULT)
EACH_KERNEL(lat_each_cg, LD_CG)
EACH_KERNEL(lat_each_nc, LD_NC)

/* ------------------------------------------------------------------ load widths and paths */

/* One load of W bits through path P, returning the words summed (u32, wrapping). */
#define LDV(NAME, PTX, SUM, ...)                                                                   \
	__device__ __forceinline__ unsigned NAME(const void *a)                                    \
	{                                                                                          \
		unsigned x, y, z, w;                                                               \
		(void)x; (void)y; (void)z; (void)w;                                                \
		asm volatile(PTX : __VA_ARGS__ : "l"(a) : "memory");                               \
		return SUM;                                                                        \
	}

/* ld<W>_<path> for every path of mem_shape.h's list: "ld.global" Q ".u32 ..." is the PTX string
 * with the path's qualifier Q ("" for the default path). */
#define LDV_W32(W, P, Q) LDV(ld32_##P, "ld.global" Q ".u32 %0, [%1];", x, "=r"(x))
#define LDV_W64(W, P, Q) LDV(ld64_##P, "ld.global" Q ".v2.u32 {%0, %1}, [%2];", x + y, "=r"(x), "=r"(y))
#define LDV_W128(W, P, Q)                                                                          \
	LDV(ld128_##P, "ld.global" Q ".v4.u32 {%0, %1, %2, %3}, [%4];", x + y + z + w, "=r"(x), "=r"(y), \
	    "=r"(z), "=r"(w))
#define LDV_WIDTH(W) MEM_LDG_PATHS(LDV_W##W, W)
MEM_LDG_WIDTHS(LDV_WIDTH)

/* Seed 001's pattern, generalised: per trip each thread loads ILP elements of W/8 bytes at a
 * stride of the whole grid (T threads), so a warp's loads are contiguous and ILP loads per
 * thread are in flight; `passes` sweeps over the buffer. out[tid] = the thread's sum. */
#define BWG_KERNEL(LD, BYTES, ILP)                                                                 \
	extern "C" __global__ void bwg_##LD##_##ILP(const char *buf, long long n, int passes,         \
						    unsigned *out, gp_clock_sample *cs)                \
	{                                                                                          \
		const long long T = (long long)gridDim.x * blockDim.x;                             \
		const long long tid = blockIdx.x * (long long)blockDim.x + threadIdx.x;            \
		unsigned acc = 0;                                                                  \
		gp_clock_begin(cs);                                                                \
		for (int p = 0; p < passes; p++)                                                   \
			for (long long base = 0; base + (ILP) * T <= n; base += (ILP) * T) {       \
				unsigned v[ILP];                                                   \
				_Pragma("unroll") for (int k = 0; k < (ILP); k++) v[k] =           \
					LD(buf + (base + k * T + tid) * (BYTES));                  \
				_Pragma("unroll") for (int k = 0; k < (ILP); k++) acc += v[k];     \
			}                                                                          \
		gp_clock_end_grid(cs);                                               \
		out[tid] = acc;                                                                    \
	}

/* bwg_ld<W>_<path>_<ilp>: every width, path and ILP of mem_shape.h's lists. */
#define BWG_ILP(W, P, ILP) BWG_KERNEL(ld##W##_##P, (W) / 8, ILP)
#define BWG_PATH(W, P, Q) MEM_LDG_ILPS(BWG_ILP, W, P)
#define BWG_WIDTH(W) MEM_LDG_PATHS(BWG_PATH, W)
MEM_LDG_WIDTHS(BWG_WIDTH)

/* ------------------------------------------------------------------ coalescing and padding */

/* Strided floats: global thread g reads element (k * T + g) * stride + offset for k < iters.
 * COAL_UNROLL loads in flight. */
extern "C" __global__ void coal_stride(const unsigned *buf, long long stride, long long offset, int iters,
				       unsigned *out, gp_clock_sample *cs)
{
	const long long T = (long long)gridDim.x * blockDim.x;
	const long long g = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	unsigned acc = 0;

	gp_clock_begin(cs);
	for (int k = 0; k + COAL_UNROLL <= iters; k += COAL_UNROLL) {
		unsigned v[COAL_UNROLL];
#pragma unroll
		for (int j = 0; j < COAL_UNROLL; j++)
			v[j] = ld32_default(buf + ((k + j) * T + g) * stride + offset);
#pragma unroll
		for (int j = 0; j < COAL_UNROLL; j++)
			acc += v[j];
	}
	gp_clock_end_grid(cs);
	out[g] = acc;
}

/* GEMM-like column walk of a column-major rows x cols matrix with leading dimension lda: warp w
 * reads whole columns w, w + W, ...; lane l reads rows l, l + 32, ... (a warp request = 32
 * consecutive floats of one column, starting at column * lda + 32 r). COAL_UNROLL requests in
 * flight. */
extern "C" __global__ void coal_lda(const unsigned *a, long long rows, long long cols, long long lda, int cg,
				    unsigned *out, gp_clock_sample *cs)
{
	const long long W = ((long long)gridDim.x * blockDim.x) >> 5;
	const long long w = (blockIdx.x * (long long)blockDim.x + threadIdx.x) >> 5;
	const int lane = threadIdx.x & 31;
	unsigned acc = 0;

	gp_clock_begin(cs);
	for (long long c = w; c < cols; c += W) {
		const unsigned *col = a + c * lda + lane;
		for (long long r = 0; r + COAL_UNROLL * 32 <= rows; r += COAL_UNROLL * 32) {
			unsigned v[COAL_UNROLL];
			if (cg) {
#pragma unroll
				for (int j = 0; j < COAL_UNROLL; j++)
					v[j] = ld32_cg(col + r + 32 * j);
			} else {
#pragma unroll
				for (int j = 0; j < COAL_UNROLL; j++)
					v[j] = ld32_default(col + r + 32 * j);
			}
#pragma unroll
			for (int j = 0; j < COAL_UNROLL; j++)
				acc += v[j];
		}
	}
	gp_clock_end_grid(cs);
	out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

/* ------------------------------------------------------------------ L2 / HBM bandwidth */

static_assert(sizeof(uint4) == HBM_VEC_BYTES, "the host counts bytes in HBM_VEC_BYTES units");

/* 16-byte vectors, grid-stride, HBM_UNROLL in flight per thread. read: sum (checked); write: a
 * pattern; copy: dst = src. cg selects ld.global.cg for the L2 read (each thread rereads its own
 * addresses every pass, which L1 would otherwise serve). n16 = buffer size in 16-byte units. */
extern "C" __global__ void hbm_read(const uint4 *src, long long n16, int passes, int cg, unsigned *out,
				    gp_clock_sample *cs)
{
	const long long T = (long long)gridDim.x * blockDim.x;
	const long long g = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	unsigned acc = 0;

	gp_clock_begin(cs);
	for (int p = 0; p < passes; p++) {
		long long i = g;
		for (; i + (HBM_UNROLL - 1) * T < n16; i += HBM_UNROLL * T) {
			unsigned v[HBM_UNROLL];
			if (cg) {
#pragma unroll
				for (int j = 0; j < HBM_UNROLL; j++)
					v[j] = ld128_cg(src + i + j * T);
			} else {
#pragma unroll
				for (int j = 0; j < HBM_UNROLL; j++)
					v[j] = ld128_default(src + i + j * T);
			}
#pragma unroll
			for (int j = 0; j < HBM_UNROLL; j++)
				acc += v[j];
		}
		for (; i < n16; i += T)
			acc += cg ? ld128_cg(src + i) : ld128_default(src + i);
	}
	gp_clock_end_grid(cs);
	out[g] = acc;
}

extern "C" __global__ void hbm_write(uint4 *dst, long long n16, unsigned pattern, gp_clock_sample *cs)
{
	const long long T = (long long)gridDim.x * blockDim.x;
	const uint4 v = make_uint4(pattern, pattern, pattern, pattern);

	gp_clock_begin(cs);
	for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n16; i += T)
		asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(dst + i), "r"(v.x), "r"(v.y),
			     "r"(v.z), "r"(v.w)
			     : "memory");
	gp_clock_end_grid(cs);
}

extern "C" __global__ void hbm_copy(uint4 *dst, const uint4 *src, long long n16, gp_clock_sample *cs)
{
	const long long T = (long long)gridDim.x * blockDim.x;
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;

	gp_clock_begin(cs);
	for (; i + (HBM_UNROLL - 1) * T < n16; i += HBM_UNROLL * T) {
		uint4 v[HBM_UNROLL];
#pragma unroll
		for (int j = 0; j < HBM_UNROLL; j++)
			asm volatile("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];"
				     : "=r"(v[j].x), "=r"(v[j].y), "=r"(v[j].z), "=r"(v[j].w)
				     : "l"(src + i + j * T)
				     : "memory");
#pragma unroll
		for (int j = 0; j < HBM_UNROLL; j++)
			asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(dst + i + j * T),
				     "r"(v[j].x), "r"(v[j].y), "r"(v[j].z), "r"(v[j].w)
				     : "memory");
	}
	for (; i < n16; i += T)
		dst[i] = src[i];
	gp_clock_end_grid(cs);
}
