/* arch.c — architecture facts by compute capability (arch.h). A table from the CUDA C
 * Programming Guide, not a measurement: an unknown cc gives 0, and callers treat 0 as "no
 * ceiling" rather than guessing one. */
#include "arch.h"

int gp_fp32_lanes_per_sm(int major, int minor)
{
	/* CUDA C Programming Guide, "Arithmetic Instructions" throughput table. */
	if (major == 7 || (major == 8 && minor == 0))
		return 64;
	if (major >= 8)
		return 128;
	if (major == 6)
		return minor == 0 ? 64 : 128;
	if (major == 5)
		return 128;
	return 0;
}
