# tput_warp.gp IN.csv OUT.svg|png — H033: thread-operations per clock per SM of every warp
# operation with 8 independent chains per thread on every SM; the dotted line is the issue limit
# (4 warp-instructions a clock). One bar per operation in the CSV's order.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("tput_warp.gp")]."common.gp"
NAMES = ""
stats ARG1 using (NAMES = NAMES . " " . strcol("op"), 1) nooutput
set title "H033: throughput of warp operations (8 chains/thread, every SM)"
set ylabel "operations per clock per SM"
set yrange [0:*]
set xrange [0.4:words(NAMES) + 0.6]
set xtics () rotate by 45 right scale 0 font ",10"
do for [i = 1:words(NAMES)] { set xtics add (word(NAMES, i) i) }
set style fill solid 0.6 border -1
set boxwidth 0.6
set key top left nobox
stats ARG1 using (isok(0) ? column("ceiling_ops_per_clk_per_sm") : NaN) nooutput
if (exists("STATS_max")) { set arrow from graph 0, first STATS_max to graph 1, first STATS_max nohead dt 3 lc rgb "#888888"; set yrange [0:STATS_max * 1.3] } else { set yrange [0:*] }
plot n = 0, ARG1 using (n = n + 1, isok(0) ? n : NaN):"ops_per_clk_per_sm" with boxes lt 1 title "measured", \
     NaN with lines dt 3 lc rgb "#888888" title "issue limit (4 warp-instructions a clock)"
