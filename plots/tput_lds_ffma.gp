# tput_lds_ffma.gp IN.csv OUT.svg|png — E010 (seed 000 Figure 22): FFMA throughput when every R
# FFMAs take their multiplicand from one shared load, distinct and broadcast addresses, against
# the probe's issue/LDS model (column model_ffma_per_clk_per_sm): the ceiling that register
# blocking lifts.
# The FP32 lanes line is the run's own (rate / % of FP32), not a constant of one GPU.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("tput_lds_ffma.gp")]."common.gp"
eval KEY_OUT
set xlabel "FFMAs per LDS (R)"
set ylabel "FFMA per clock per SM"
set logscale x 2
stats ARG1 using "ffma_per_lds" nooutput
set xrange [STATS_min / 1.25:STATS_max * 1.25]
set yrange [0:*]
# The FP32 lane count is the run's own: every row's rate over its % of FP32.
ok(c) = strcol("status") eq "ok" ? column(c) : NaN
stats ARG1 using (column("pct_of_fp32") > 0 ? 100 * ok("ffma_per_clk_per_sm") / column("pct_of_fp32") : NaN) nooutput
LANES = exists("STATS_median") ? STATS_median : NaN
# A sweep over warps per SM has a row per warp count: the curves are at the most warps.
stats ARG1 using (ok("warps_per_sm")) nooutput
WMAX = STATS_max
set title sprintf("E010: FFMA throughput vs FFMAs per shared load, %.0f warps/SM (seed 000 Figure 22)", WMAX)
sel(s) = (strcol("addr") eq s && column("warps_per_sm") == WMAX) ? ok("ffma_per_clk_per_sm") : NaN
# Distinct drawn last with open markers: where the two agree both stay visible.
plot ARG1 using "ffma_per_lds":(sel("broadcast")) with linespoints pt 5 lw 3 dt 1 lc rgb "#228833" title "broadcast (one word)", \
     ""   using "ffma_per_lds":(sel("distinct")) with linespoints pt 6 ps 1.6 lw 1 dt 1 lc rgb "#4477aa" title "distinct addresses", \
     ""   using "ffma_per_lds":(column("warps_per_sm") == WMAX ? column("model_ffma_per_clk_per_sm") : NaN) with lines dt 2 lw 2 lc rgb "#cc3311" title "issue / LDS model", \
     (LANES == LANES ? LANES : NaN) with lines dt 2 lc rgb "#888888" title sprintf("FP32 lanes per SM (%.0f)", LANES)
