/* arch.h — what the harness knows about an architecture from its compute capability alone, with
 * no GPU and no driver: the models, the report and the benches' ceilings use it on any machine.
 * device.h includes it, so device code sees the same facts; nothing here may call the driver. */
#ifndef GP_ARCH_H
#define GP_ARCH_H

/* FP32 lanes per SM (the architectural FFMA/FMUL/FADD rate per clock) for this cc; 0 if unknown. */
int gp_fp32_lanes_per_sm(int cc_major, int cc_minor);

/* Dense tensor-core FLOP (integer types: operations) per clock per SM for an input type ("f16",
 * "bf16", "tf32", "fp8", "int8", "fp64") at this cc, the ceiling of mma/wgmma rates; sparse
 * forms do twice this. 0 where unknown or card-dependent. */
double gp_tensor_flops_per_clk_sm(const char *type, int cc_major, int cc_minor);

#endif
