/* arch.h — what the harness knows about an architecture from its compute capability alone, with
 * no GPU and no driver: the models, the report and the benches' ceilings use it on any machine.
 * device.h includes it, so device code sees the same facts; nothing here may call the driver. */
#ifndef GP_ARCH_H
#define GP_ARCH_H

/* FP32 lanes per SM (the architectural FFMA/FMUL/FADD rate per clock) for this cc; 0 if unknown. */
int gp_fp32_lanes_per_sm(int cc_major, int cc_minor);

#endif
