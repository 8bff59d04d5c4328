/* selftest.cu — kernels that fail on purpose, to prove the runner survives them: `trap` executes
 * the trap instruction, `oob` stores to an address no allocation covers (illegal address), `hang`
 * spins until a flag no one sets, `ok` writes its sentinel. The sentinel and the spin flag come
 * from memory so the compiler cannot decide the outcome. */
#include "probe.cuh"

extern "C" __global__ void selftest(int mode, int *out, volatile const int *flag)
{
	switch (mode) {
	case 1:
		asm volatile("trap;");
		break;
	case 2:
		*(volatile int *)((char *)out + (1ull << 40)) = 1;
		break;
	case 3:
		while (*flag == 0)
			;
		break;
	}
	out[threadIdx.x] = 0x600d;
}
