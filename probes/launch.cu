/* launch.cu — the empty kernel whose launches lat_launch times. Thread 0 of block 0 stamps the
 * global timer on entry, thread 0 of the last block on its exit: start[k] to end[k] is kernel k's
 * span on the GPU (for a full grid, to the last dispatched block: an empty block ends within the
 * timer's tick of its start), end[k] to start[k + 1] the gap the GPU leaves between two kernels.
 * Pitfall: the stamps are the only work; anything more would be timed as launch overhead. */
#include "probe.cuh"

typedef unsigned long long u64;

extern "C" __global__ void launch_empty(unsigned k, u64 *start, u64 *end)
{
	if (threadIdx.x == 0 && blockIdx.x == 0)
		start[k] = gp_ns();
	if (threadIdx.x == 0 && blockIdx.x == gridDim.x - 1)
		end[k] = gp_ns();
}

/* Mode queued: one thread holds the stream until the host has queued every launch behind it
 * (it sets *go in pinned host memory), so the GPU then runs them back to back at its own pace,
 * not the host's. A gate that waits past timeout_ns lets the launches through and says so: the
 * host could not queue them all (its launch queue is shallower than the batch). */
extern "C" __global__ void launch_gate(const volatile unsigned *go, u64 timeout_ns, unsigned *timed_out)
{
	const u64 t0 = gp_ns();

	while (!*go)
		if (gp_ns() - t0 > timeout_ns) {
			*timed_out = 1;
			return;
		}
}
