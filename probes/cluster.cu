/* cluster.cu — thread-block clusters (sm_90): distributed shared memory (DSM) latency and
 * bandwidth, and the cluster barrier.
 *
 * Chase (lat_dsm): thread 0 of rank 0 writes a random cycle of addresses into the target block's
 * shared memory and follows it, each load's address the previous load's value. ptxas turns
 * ld.shared::cluster into a generic LD whose 64-bit address it rebuilds from the 32-bit
 * shared::cluster address with two MOVs per load; chasing the generic 64-bit addresses mapa.u64
 * gives times the same LD without them. Bandwidth (bw_dsm): every warp accesses 8 vectors per
 * trip at immediate offsets of the target's shared memory through ld/st.shared::cluster (or the
 * block's own through ld/st.shared), each block timed between barriers. Pitfalls: every block of
 * a cluster must run before another reads its shared memory and must stay until those reads are
 * done: a cluster barrier at the start and at the end of every kernel. Newer instructions are
 * guarded by __CUDA_ARCH__ >= 900: the file compiles for every sm, and the host never launches
 * these kernels below compute capability 9.0. */
#include "probe.cuh"
#include "cluster_shape.h"

typedef unsigned long long u64;

extern __shared__ __align__(16) unsigned char dsm_buf[];

#if __CUDA_ARCH__ >= 900
static __device__ __forceinline__ unsigned cl_rank(void)
{
	unsigned r;
	asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
	return r;
}

static __device__ __forceinline__ unsigned cl_size(void)
{
	unsigned r;
	asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(r));
	return r;
}

/* Every block of the cluster arrives (release) and waits (acquire): all of them run, and what
 * each wrote before is visible to the others after. */
static __device__ __forceinline__ void cl_sync(void)
{
	asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
}

/* The generic address of `p` (this block's shared memory) in block `rank` of the cluster. */
static __device__ __forceinline__ u64 cl_map(const void *p, unsigned rank)
{
	u64 r;
	asm volatile("mapa.u64 %0, %1, %2;" : "=l"(r) : "l"(p), "r"(rank));
	return r;
}

/* The same as a 32-bit shared::cluster address (what ld/st.shared::cluster take). */
static __device__ __forceinline__ unsigned cl_map32(const void *p, unsigned rank)
{
	unsigned r;
	asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"((unsigned)__cvta_generic_to_shared(p)), "r"(rank));
	return r;
}
#endif

/* ------------------------------------------------------------------ lat_dsm */

/* One trip round the cycle warms it; the timed loop is `steps` loads (whole trips), unrolled by
 * 32. out = {end - start (0 when the cycle closed), cycles, timer overhead}. */
#define DSM_CHASE(STEP)                                                                            \
	do {                                                                                       \
		u64 o0, o1, t0, t1;                                                                \
		long long i;                                                                       \
		for (int k = 0; k < n; k++)                                                        \
			STEP                                                                       \
		GP_CHASE_TIMED(steps, STEP);                                                       \
		out[0] = p - start;                                                                \
		out[1] = t1 - t0;                                                                  \
		out[2] = o1 - o0;                                                                  \
	} while (0)

/* ld.shared on the block's own 32-bit shared addresses (rank 0's memory). */
extern "C" __global__ void lat_dsm_local(const unsigned *next, int n, int stride, int remote, long long steps,
					 u64 *out, gp_clock_sample *cs)
{
#if __CUDA_ARCH__ >= 900
	cl_sync();
	if (cl_rank() == 0) {
		const unsigned start = (unsigned)__cvta_generic_to_shared(dsm_buf);
		unsigned p = start;
		for (int k = 0; k < n; k++)
			*(unsigned *)(dsm_buf + (size_t)k * stride) = start + next[k] * (unsigned)stride;
		DSM_CHASE(asm volatile("ld.shared.u32 %0, [%0];" : "+r"(p)::"memory"););
	}
	cl_sync();
#endif
}

/* A generic 64-bit chase through the cluster window of rank 0 itself (remote = 0) or of the
 * last rank (remote = 1); rank 0 writes the cycle there through the same window. */
extern "C" __global__ void lat_dsm_cluster(const unsigned *next, int n, int stride, int remote, long long steps,
					   u64 *out, gp_clock_sample *cs)
{
#if __CUDA_ARCH__ >= 900
	cl_sync(); /* every block runs before rank 0 touches another's shared memory */
	if (cl_rank() == 0) {
		const u64 start = cl_map(dsm_buf, remote ? cl_size() - 1 : 0);
		u64 p = start;
		for (int k = 0; k < n; k++)
			*(volatile u64 *)(start + (u64)k * stride) = start + (u64)next[k] * (unsigned)stride;
		DSM_CHASE(asm volatile("ld.u64 %0, [%0];" : "+l"(p)::"memory"););
	}
	cl_sync(); /* the target block stays until the chase is done */
#endif
}

/* ------------------------------------------------------------------ lat_cluster_barrier */

/* lat_cbar_<kind>: every thread of every block passes `iters` x 8 barriers; out[block] = its
 * thread 0's cycles. */
#if __CUDA_ARCH__ >= 900
#define CBAR_BODY(ASM)                                                                             \
	u64 t0, t1;                                                                                \
	cl_sync();                                                                                 \
	gp_clock_begin(cs);                                                                        \
	t0 = gp_clock();                                                                           \
	for (int i = 0; i < iters; i++) {                                                          \
		GP_REP8(asm volatile(ASM ::: "memory");)                                          \
	}                                                                                          \
	t1 = gp_clock();                                                                           \
	gp_clock_end(cs);                                                                          \
	if (threadIdx.x == 0)                                                                      \
		out[blockIdx.x] = t1 - t0;                                                         \
	cl_sync();
#else
#define CBAR_BODY(ASM)
#endif
#define CBAR_KERNEL(name, ASM)                                                                     \
	extern "C" __global__ void lat_cbar_##name(int iters, u64 *out, gp_clock_sample *cs)       \
	{                                                                                          \
		CBAR_BODY(ASM)                                                                     \
	}
DSM_BARRIERS(CBAR_KERNEL)

/* ------------------------------------------------------------------ bw_dsm */

/* Trip slot j's offset: (j x 32 lanes) x width bytes. */
#define DSM_OFF4 0, 128, 256, 384, 512, 640, 768, 896
#define DSM_OFF8 0, 256, 512, 768, 1024, 1280, 1536, 1792
#define DSM_OFF16 0, 512, 1024, 1536, 2048, 2560, 3072, 3584
#define DSM_APPLY(M, ...) M(__VA_ARGS__)

/* .volatile: every access is issued every trip (ptxas may otherwise merge or hoist them). */
#define DSM_LD1(SP, o, j) asm volatile("ld.volatile" SP ".u32 %0, [%1+" #o "];" : "=r"(v[j][0]) : "r"(a) : "memory");
#define DSM_LD2(SP, o, j)                                                                          \
	asm volatile("ld.volatile" SP ".v2.u32 {%0, %1}, [%2+" #o "];" : "=r"(v[j][0]), "=r"(v[j][1]) : "r"(a) : "memory");
#define DSM_LD4(SP, o, j)                                                                          \
	asm volatile("ld.volatile" SP ".v4.u32 {%0, %1, %2, %3}, [%4+" #o "];"                    \
		     : "=r"(v[j][0]), "=r"(v[j][1]), "=r"(v[j][2]), "=r"(v[j][3]) : "r"(a) : "memory");
#define DSM_ST1(SP, o, j) asm volatile("st.volatile" SP ".u32 [%0+" #o "], %1;" ::"r"(a), "r"(v[j][0]) : "memory");
#define DSM_ST2(SP, o, j)                                                                          \
	asm volatile("st.volatile" SP ".v2.u32 [%0+" #o "], {%1, %2};" ::"r"(a), "r"(v[j][0]), "r"(v[j][1]) : "memory");
#define DSM_ST4(SP, o, j)                                                                          \
	asm volatile("st.volatile" SP ".v4.u32 [%0+" #o "], {%1, %2, %3, %4};" ::"r"(a), "r"(v[j][0]), "r"(v[j][1]), \
		     "r"(v[j][2]), "r"(v[j][3]) : "memory");
#define DSM_TRIP8(OP, SP, o0, o1, o2, o3, o4, o5, o6, o7)                                          \
	OP(SP, o0, 0) OP(SP, o1, 1) OP(SP, o2, 2) OP(SP, o3, 3) OP(SP, o4, 4) OP(SP, o5, 5) OP(SP, o6, 6) OP(SP, o7, 7)

/* bw_dsm_<ld|st><bits>_<local|cluster>(pattern, iters, cycles, sum, sink, cs). Each block fills
 * its own shared memory (DSM_VALUE for loads, zeros for stores), then every warp accesses its
 * region of the target's memory `iters` trips; sum[block] = the sum of every word it read, or
 * (stores) of its own memory after everyone's stores; cycles[block] = between the barriers. */
#if __CUDA_ARCH__ >= 900
#define BW_DSM_BODY(SP, CLUSTER, WB, NW, OP, STORE)                                          \
	const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5, rank = cl_rank();          \
	const unsigned target = DSM_TARGET((unsigned)pattern, rank, cl_size());                     \
	const unsigned nwords = blockDim.x / 32 * DSM_WARP_BYTES(WB) / 4;                          \
	const unsigned off = warp * DSM_WARP_BYTES(WB) + lane * (WB);                               \
	const unsigned a = (CLUSTER ? cl_map32(dsm_buf, target) : (unsigned)__cvta_generic_to_shared(dsm_buf)) + off; \
	unsigned v[DSM_TRIP][4], acc = 0, drain = 0;                                               \
	u64 t0, t1;                                                                                \
	for (unsigned i = threadIdx.x; i < nwords; i += blockDim.x)                               \
		((unsigned *)dsm_buf)[i] = STORE ? 0u : DSM_VALUE(rank, i);                        \
	_Pragma("unroll") for (unsigned j = 0; j < DSM_TRIP; j++)                                  \
		_Pragma("unroll") for (unsigned k = 0; k < 4; k++)                                 \
			v[j][k] = DSM_VALUE(target, (off + j * 32u * (WB)) / 4u + k);               \
	cl_sync();                                                                                 \
	gp_clock_begin(cs);                                                                        \
	t0 = gp_clock();                                                                           \
	for (int it = 0; it < iters; it++) {                                                       \
		DSM_APPLY(DSM_TRIP8, OP, SP, DSM_OFF##WB)                                                 \
		if (!(STORE)) {                                                                    \
			_Pragma("unroll") for (unsigned j = 0; j < DSM_TRIP; j++)                  \
				_Pragma("unroll") for (unsigned k = 0; k < (NW); k++) acc += v[j][k]; \
		}                                                                                  \
	}                                                                                          \
	/* A barrier does not wait for stores to drain: a load of this thread's first address,     \
	 * consumed before the barrier, ends the window after its accesses. */                     \
	{                                                                                          \
		unsigned w_;                                                                       \
		asm volatile("ld.volatile" SP ".u32 %0, [%1];" : "=r"(w_) : "r"(a) : "memory");    \
		asm volatile("add.u32 %0, %0, %1;" : "+r"(drain) : "r"(w_) : "memory");            \
	}                                                                                          \
	__syncthreads();                                                                           \
	t1 = gp_clock();                                                                           \
	gp_clock_end(cs);                                                                          \
	cl_sync(); /* every access of the cluster done: none to a block that left */               \
	if (STORE) {                                                                               \
		for (unsigned i = threadIdx.x; i < nwords; i += blockDim.x)                       \
			acc += ((volatile unsigned *)dsm_buf)[i];                                  \
	}                                                                                          \
	atomicAdd(&sum[blockIdx.x], acc);                                                          \
	if (threadIdx.x == 0)                                                                      \
		cycles[blockIdx.x] = t1 - t0;                                                      \
	if (drain == 0x9e3779b9u) /* practically never: keeps the drain load live */             \
		sink[blockIdx.x] = drain;
#else
#define BW_DSM_BODY(SP, CLUSTER, WB, NW, OP, STORE)
#endif
#define BW_DSM_KERNEL(NAME, SP, CLUSTER, WB, NW, OP, STORE)                                  \
	extern "C" __global__ void NAME(int pattern, int iters, u64 *cycles, unsigned *sum, unsigned *sink, \
					gp_clock_sample *cs)                                       \
	{                                                                                          \
		BW_DSM_BODY(SP, CLUSTER, WB, NW, OP, STORE)                                        \
	}
#define BW_DSM_WIDTH(bits, B)                                                                      \
	BW_DSM_KERNEL(bw_dsm_ld##bits##_local, ".shared", 0, B, B / 4, DSM_LD##B##_, 0)   \
	BW_DSM_KERNEL(bw_dsm_ld##bits##_cluster, ".shared::cluster", 1, B, B / 4, DSM_LD##B##_, 0) \
	BW_DSM_KERNEL(bw_dsm_st##bits##_local, ".shared", 0, B, B / 4, DSM_ST##B##_, 1)   \
	BW_DSM_KERNEL(bw_dsm_st##bits##_cluster, ".shared::cluster", 1, B, B / 4, DSM_ST##B##_, 1)
/* The access macro by width in bytes. */
#define DSM_LD4_ DSM_LD1
#define DSM_LD8_ DSM_LD2
#define DSM_LD16_ DSM_LD4
#define DSM_ST4_ DSM_ST1
#define DSM_ST8_ DSM_ST2
#define DSM_ST16_ DSM_ST4
DSM_WIDTHS(BW_DSM_WIDTH)
