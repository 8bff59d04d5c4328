/* arch.c — architecture facts by compute capability (arch.h). A table from the CUDA C
 * Programming Guide, not a measurement: an unknown cc gives 0, and callers treat 0 as "no
 * ceiling" rather than guessing one. */
#include "arch.h"

#include <stddef.h>
#include <string.h>

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

/* Dense tensor-core rate per SM per clock (FLOP, an FMA counted as two; integer: operations).
 * NVIDIA's architecture whitepapers (V100, A100 "per SM" tables, H100 Table 2/3): sparse forms
 * do twice this. GeForce and workstation parts of 7.5, 8.6 and 8.9 differ by card (halved FP32
 * accumulation on some), so those give 0: no ceiling rather than a wrong one. */
double gp_tensor_flops_per_clk_sm(const char *type, int major, int minor)
{
	static const struct {
		const char *type;
		int cc;
		double flops;
	} rates[] = {
		{ "f16", 70, 1024 },  { "f16", 80, 2048 },  { "bf16", 80, 2048 }, { "tf32", 80, 1024 },
		{ "int8", 80, 4096 }, { "fp64", 80, 128 },  { "f16", 90, 4096 },  { "bf16", 90, 4096 },
		{ "tf32", 90, 2048 }, { "fp8", 90, 8192 },  { "int8", 90, 8192 }, { "fp64", 90, 256 },
	};
	const int cc = major * 10 + minor;

	if (!type)
		return 0;
	for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++)
		if (rates[i].cc == cc && !strcmp(rates[i].type, type))
			return rates[i].flops;
	return 0;
}
