/* tsm2_aux.cu — TSM2X's own measurements and inputs (bench/tsm2_env.c): the streaming HBM read
 * the kernels' bandwidth is held against, the pointer chase for the model's memory latency, and
 * the hash fill of A and B (bench/tsm2.h: the host recomputes any entry for the reference check).
 * The SM clock is the GEMM benches' FFMA clock kernel (bench/sgemm_clock.cu); the GEMM kernels are
 * tsm2_kernels.cuh, one image per group of the grid. Pitfall: the fill writes NaN into padding
 * rows and the slack after every matrix, so a kernel that reads past its data shows it. */
#include "tsm2.h"

/* Streaming read of n4 float4s (grid-stride, 4 independent loads in flight per thread): the HBM
 * read rate the TSM2 kernels are held against, measured in the same run. */
extern "C" __global__ void tsm2_stream(const float4 *__restrict__ p, long n4, float *sink)
{
	const long stride = (long)gridDim.x * blockDim.x;
	float s = 0.f;
	long i = (long)blockIdx.x * blockDim.x + threadIdx.x;

	for (; i + 3 * stride < n4; i += 4 * stride) {
		const float4 a = __ldcs(p + i), b = __ldcs(p + i + stride), c = __ldcs(p + i + 2 * stride),
			     d = __ldcs(p + i + 3 * stride);
		s += a.x + b.y + c.z + d.w;
	}
	for (; i < n4; i += stride)
		s += __ldcs(p + i).x;
	if (s == 12345.0f)
		sink[0] = s;
}

/* Pointer chain for the latency chase: hop h at a pseudo-random 128-byte line of the buffer,
 * pointing at hop h + 1 (the last at hop 0). */
extern "C" __global__ void tsm2_chain(unsigned long long *buf, long lines, int hops)
{
	const int h = blockIdx.x * blockDim.x + threadIdx.x;
	if (h >= hops)
		return;
	const long at = tsm2_chase_line((uint64_t)h, lines) * (TSM2_CHASE_LINE / 8);
	const long nx = tsm2_chase_line((uint64_t)((h + 1) % hops), lines) * (TSM2_CHASE_LINE / 8);
	buf[at] = (unsigned long long)(buf + nx);
}

/* One thread follows the chain: average SM clocks per dependent global load. */
extern "C" __global__ void tsm2_chase(const unsigned long long *start, int hops, unsigned long long *out)
{
	const unsigned long long *p = start;
	for (int h = 0; h < 64; h++) /* warm the TLB walk out of the first hops */
		p = (const unsigned long long *)__ldcg(p);
	const unsigned long long t0 = clock64();
	for (int h = 0; h < hops; h++)
		p = (const unsigned long long *)__ldcg(p);
	const unsigned long long t1 = clock64();
	out[0] = t1 - t0;
	out[1] = (unsigned long long)p;
}

/* Fill rows x cols (ld) with tsm2_uniform(seed, r + c * rows); padding rows and slack NaN. */
template <typename T> __device__ void fill(T *p, int rows, int cols, int ld, long total, uint64_t seed)
{
	for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (long)gridDim.x * blockDim.x) {
		const long r = i % ld, c = i / ld;
		p[i] = r < rows && c < cols ? (T)tsm2_uniform(seed, (uint64_t)(r + c * (long)rows)) : (T)NAN;
	}
}

extern "C" __global__ void tsm2_fill_f(float *p, int rows, int cols, int ld, long total, unsigned long long seed)
{
	fill(p, rows, cols, ld, total, seed);
}

extern "C" __global__ void tsm2_fill_d(double *p, int rows, int cols, int ld, long total, unsigned long long seed)
{
	fill(p, rows, cols, ld, total, seed);
}
