# tput_lds_ffma.gp IN.csv OUT.svg|png — E010 (seed 000 Figure 22): FFMA throughput when every R
# FFMAs take their multiplicand from one shared load, distinct and broadcast addresses, against
# the issue/LDS model 32 x min(4R/(R+1), R, lanes/32): the ceiling that register blocking lifts.
# The FP32 lanes line is the run's own (rate / % of FP32), not a constant of one GPU.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("tput_lds_ffma.gp")]."common.gp"
set title "E010: FFMA throughput vs FFMAs per shared load (seed 000 Figure 22)"
set xlabel "FFMAs per LDS (R)"
set ylabel "FFMA per clock per SM"
set logscale x 2
set xrange [0.8:10]
set yrange [0:*]
set key bottom right
sel(s) = (strcol("addr") eq s) ? column("ffma_per_clk_per_sm") : NaN
plot ARG1 using "ffma_per_lds":(sel("distinct")) with linespoints pt 7 lw 2 lc rgb "#4477aa" title "distinct addresses", \
     ""   using "ffma_per_lds":(sel("broadcast")) with linespoints pt 5 lw 2 lc rgb "#228833" title "broadcast (one word)", \
     ""   using "ffma_per_lds":"model_ffma_per_clk_per_sm" with lines dt 2 lw 2 lc rgb "#cc3311" title "model: 4 issue/clk, 1 LDS/clk", \
     ""   using "ffma_per_lds":(100 * column("ffma_per_clk_per_sm") / column("pct_of_fp32")) with lines lc rgb "#888888" title "FP32 lanes"
