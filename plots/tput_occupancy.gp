# tput_occupancy.gp IN.csv OUT.svg|png — E004 style (seed 000's latency hiding by warps): FFMA
# operations per clock per SM as active warps per SM grow, for 1, 2 and 4 dependent chains per
# thread and for the LDS -> FFMA chain. The knee is where the latency is hidden.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("tput_occupancy.gp")]."common.gp"
eval KEY_OUT
set title "E004 style: FFMA throughput vs active warps per SM"
set xlabel "active warps per SM"
set ylabel "FFMA per clock per SM"
# The FP32 lane count is the run's own: every row's rate over its % of FP32.
ok(c) = strcol("status") eq "ok" ? column(c) : NaN
stats ARG1 using (column("pct_of_fp32") > 0 ? 100 * ok("ops_per_clk_per_sm") / column("pct_of_fp32") : NaN) nooutput
LANES = exists("STATS_median") ? STATS_median : NaN
stats ARG1 using (ok("ops_per_clk_per_sm")) nooutput
YMAX = (LANES > STATS_max ? LANES : STATS_max) * 1.1
set xrange [0:*]
set yrange [0:YMAX]
sel(s) = (strcol("chain") eq s) ? ok("ops_per_clk_per_sm") : NaN
plot ARG1 using "warps_per_sm":(sel("ffma")) with linespoints pt 7 lw 2 dt 1 lc rgb "#4477aa" title "FFMA, 1 chain/thread", \
     ""   using "warps_per_sm":(sel("ffma_ilp2")) with linespoints pt 5 dt 1 lc rgb "#66ccee" title "FFMA, 2 chains/thread", \
     ""   using "warps_per_sm":(sel("ffma_ilp4")) with linespoints pt 9 dt 1 lc rgb "#228833" title "FFMA, 4 chains/thread", \
     ""   using "warps_per_sm":(sel("lds_ffma")) with linespoints pt 11 lw 2 dt 1 lc rgb "#cc3311" title "LDS -> FFMA chain", \
     (LANES == LANES ? LANES : NaN) with lines dt 2 lc rgb "#888888" title sprintf("FP32 lanes per SM (%.0f)", LANES)
