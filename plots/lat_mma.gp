# lat_mma.gp IN.csv OUT.svg|png — H001: dependent latency of each mma.sync form of
# probes/mma.list, one warp, clock64 with the timer's cost subtracted. A row without a number
# (n/a on this GPU, a failed point) has no bar and no place on the axis.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("lat_mma.gp")]."common.gp"
set title "H001: dependent mma.sync latency per form, one warp"
set ylabel "cycles per dependent mma"
set style fill solid 0.6 border -1
set boxwidth 0.6
set key off
set bmargin 10
ok(c) = (isok(0) && column(c) == column(c)) ? column(c) : NaN
NAMES = ""
stats ARG1 using (ok("cycles_per_mma") == ok("cycles_per_mma") ? (NAMES = NAMES . " " . strcol("variant"), column("cycles_per_mma")) : NaN) nooutput
set yrange [0:STATS_max * 1.15]
set xrange [0.4:words(NAMES) + 0.6]
set xtics () rotate by 45 right scale 0 font ",9"
do for [i = 1:words(NAMES)] { set xtics add (word(NAMES, i) i) }
has(x) = ok("cycles_per_mma") == ok("cycles_per_mma")
plot n = 0, ARG1 using (has(0) ? (n = n + 1) : NaN):(ok("cycles_per_mma")) with boxes lt 1 lc rgb "#4477aa", \
     n = 0, ""   using (has(0) ? (n = n + 1) : NaN):(ok("cycles_per_mma")):(sprintf("%.1f", column("cycles_per_mma"))) with labels offset 0, 0.8 font ",8"
