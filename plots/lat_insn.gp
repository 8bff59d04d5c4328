# lat_insn.gp IN.csv OUT.svg|png — E006 (seed 000 Table 5): dependent latency of each instruction
# of probes/insn.list that has a chain, one warp, clock64 with the timer's cost subtracted. A row
# without a number (an older run's store, a failed point) has no bar and no place on the axis.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("lat_insn.gp")]."common.gp"
set title "E006: dependent latency per instruction, one warp (seed 000 Table 5)"
set ylabel "cycles per dependent step"
set style fill solid 0.6 border -1
set boxwidth 0.6
set key off
# One bar per row with a number, in the CSV's order, its name on the axis and its value above.
ok(c) = (isok(0) && column(c) == column(c)) ? column(c) : NaN
NAMES = ""
stats ARG1 using (ok("cycles_per_step") == ok("cycles_per_step") ? (NAMES = NAMES . " " . strcol("insn"), column("cycles_per_step")) : NaN) nooutput
set yrange [0:STATS_max * 1.15]
set xrange [0.4:words(NAMES) + 0.6]
set xtics () rotate by 45 right scale 0 font ",10"
do for [i = 1:words(NAMES)] { set xtics add (word(NAMES, i) i) }
has(x) = ok("cycles_per_step") == ok("cycles_per_step")
plot n = 0, ARG1 using (has(0) ? (n = n + 1) : NaN):(ok("cycles_per_step")) with boxes lt 1 lc rgb "#4477aa", \
     n = 0, ""   using (has(0) ? (n = n + 1) : NaN):(ok("cycles_per_step")):(sprintf("%.1f", column("cycles_per_step"))) with labels offset 0, 0.8 font ",9"
