# roofline.gp IN.csv OUT.svg|png — seed 001 Figure 10 from roofline.csv (gpuprobe models): left,
# the global-memory roofline (HBM read bandwidth measured in the run) and right, the shared-memory
# roofline (LDS bytes/clk/SM x SMs x measured clock, bank traffic), both under the FP32 rate the
# run achieved; every SGEMM kernel placed at its tile's intensity with its measured GFLOP/s.
# A point above a slanted roof reads its operands from a closer level than the roof assumes.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("roofline.gp")]."common.gp"
stats ARG1 using "roof_fp32" nooutput
FP32 = STATS_max
stats ARG1 using (column("roof_global") / column("intensity_global")) nooutput
BWG = STATS_max
stats ARG1 using (column("intensity_shared_bank") > 0 ? column("roof_shared_bank") / column("intensity_shared_bank") : NaN) nooutput
BWS = STATS_max
roof(x, bw) = (x * bw < FP32) ? x * bw : FP32
set logscale xy
set xlabel "arithmetic intensity (flop/byte)"
set ylabel "GFLOP/s"
set key bottom right font ",8"
set samples 400
set multiplot layout 1,2 title sprintf("Rooflines (seed 001 Fig. 10): FP32 %.0f GFLOP/s achieved", FP32)
set title sprintf("global memory: %.0f GB/s", BWG)
set xrange [0.1:100]
plot roof(x, BWG) with lines lw 2 lc rgb "#cc3311" title "roof", \
     ARG1 using "intensity_global":"gflops_measured" with points pt 7 lc rgb "#4477aa" title "kernels", \
     ""   using "intensity_global":"gflops_measured":(strcol("kernel")[7:14]) with labels font ",6" offset 0,0.6 notitle
set title sprintf("shared memory (bank traffic): %.0f GB/s", BWS)
set xrange [0.1:100]
plot roof(x, BWS) with lines lw 2 lc rgb "#cc3311" title "roof", \
     ARG1 using "intensity_shared_bank":"gflops_measured" with points pt 7 lc rgb "#4477aa" title "kernels", \
     ""   using "intensity_shared_bank":"gflops_measured":(strcol("kernel")[7:14]) with labels font ",6" offset 0,0.6 notitle
unset multiplot
