# tput_insn.gp IN.csv OUT.svg|png — E106 for every instruction (seed 001 Table 4 extended):
# measured operations per clock per SM as bars at the most warps per SM the run measured, the
# Programming Guide's rate as an outline where the guide has one (column arch_ops_per_clk_per_sm),
# the % of it (or the rate, where there is no guide rate) above each bar; log scale, since the
# rates span a factor of 16 or more. Names on the axis, one bar per instruction in the CSV's order.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("tput_insn.gp")]."common.gp"
stats ARG1 using (isok(0) ? column("warps_per_sm") : NaN) nooutput
WMAX = STATS_max
at(c) = isok(0) && column("warps_per_sm") == WMAX
NAMES = ""
stats ARG1 using (at(0) ? (NAMES = NAMES . " " . strcol("insn"), column("ops_per_clk_per_sm")) : NaN) nooutput
YLO = STATS_min / 2
YHI = STATS_max * 3
set title sprintf("E106: throughput per instruction at the measured clock, %.0f warps/SM (seed 001 Table 4)", WMAX)
set ylabel "operations per clock per SM (log)"
set logscale y 2
set yrange [YLO:YHI]
set xrange [0.4:words(NAMES) + 0.6]
set xtics () rotate by 45 right scale 0 font ",10"
do for [i = 1:words(NAMES)] { set xtics add (word(NAMES, i) i) }
set style fill solid 0.6 border -1
set boxwidth 0.6
set key outside top center horizontal noreverse Right nobox
arch(c) = (at(0) && column(c) > 0) ? column(c) : NaN
pct(p, v) = p > 0 ? sprintf("%.0f%%", p) : sprintf("%.0f", v)
# The counter n numbers the rows at WMAX; each plot clause counts again from 0.
plot n = 0, ARG1 using (at(0) ? (n = n + 1) : NaN):"ops_per_clk_per_sm" with boxes lt 1 lc rgb "#4477aa" title "measured", \
     n = 0, ""   using (at(0) ? (n = n + 1) : NaN):(arch("arch_ops_per_clk_per_sm")) with boxes fs empty border lc rgb "#cc3311" lw 2 dt 1 title "Programming Guide rate", \
     n = 0, ""   using (at(0) ? (n = n + 1) : NaN):(column("ops_per_clk_per_sm") * 1.25):(pct(column("pct_of_arch"), column("ops_per_clk_per_sm"))) with labels font ",9" notitle
