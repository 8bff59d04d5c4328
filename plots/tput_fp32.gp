# tput_fp32.gp IN.csv OUT.svg|png — E106 (seed 001 Table 4): FP32 operations per clock per SM for
# FFMA, FMUL and FADD, a bar per measured point (op, warps per SM and, where the run varies it,
# threads per block) in the CSV's order, against the FP32 lane count per SM (column
# peak_ops_per_clk_per_sm) at the measured clock; the % of it above each bar.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("tput_fp32.gp")]."common.gp"
ok(c) = isok(0) ? column(c) : NaN
stats ARG1 using (ok("threads_per_block")) nooutput
TPB = STATS_max > STATS_min
stats ARG1 using (ok("peak_ops_per_clk_per_sm")) nooutput
PEAK = STATS_median
NAMES = ""
name(x) = strcol("op") . "_" . strcol("warps_per_sm") . "w" . (TPB ? "_" . strcol("threads_per_block") . "t" : "")
stats ARG1 using (isok(0) ? (NAMES = NAMES . " " . name(0), column("ops_per_clk_per_sm")) : NaN) nooutput
NB = words(NAMES)
set title "E106: FP32 throughput per SM at the measured clock (seed 001 Table 4)"
set ylabel "operations per clock per SM"
set style fill solid 0.6 border -1
set boxwidth 0.6
set yrange [0:PEAK * 1.18]
set xrange [0.4:NB + 0.6]
set xtics () rotate by 45 right scale 0 font ",10"
do for [i = 1:NB] { set xtics add (word(NAMES, i) i) }
set key outside top center horizontal noreverse Right nobox
# Percentages inside the bars' tops (the peak line runs just above them), on their side when the
# bars are narrow.
ROT = NB > 10 ? 90 : 0
plot n = 0, ARG1 using (isok(0) ? (n = n + 1) : NaN):"ops_per_clk_per_sm" with boxes lt 1 lc rgb "#4477aa" title "measured", \
     n = 0, ""   using (isok(0) ? (n = n + 1) : NaN):"ops_per_clk_per_sm":(sprintf("%.1f%%", column("pct_of_peak"))) with labels rotate by ROT right offset 0, (ROT ? -0.5 : -0.9) font ",9" notitle, \
     PEAK with lines dt 2 lw 2 lc rgb "#cc3311" title sprintf("FP32 lanes per SM (%.0f)", PEAK)
