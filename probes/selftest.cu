/* selftest.cu — kernels that fail on purpose, to prove the runner survives them: `trap` executes
 * the trap instruction, `oob` stores to an address no allocation covers (illegal address), `hang`
 * spins until a flag no one sets, `ok` writes its sentinel (selftest_modes.h). The sentinel and
 * the spin flag come from memory so the compiler cannot decide the outcome. */
#include "probe.cuh"
#include "selftest_modes.h"

extern "C" __global__ void selftest(int mode, int *out, volatile const int *flag)
{
	switch (mode) {
	case SELFTEST_trap:
		asm volatile("trap;");
		break;
	case SELFTEST_oob:
		*(volatile int *)((char *)out + (1ull << 40)) = 1;
		break;
	case SELFTEST_hang:
		while (*flag == 0)
			;
		break;
	}
	out[threadIdx.x] = SELFTEST_SENTINEL;
}
