# stall_wait.gp IN.csv OUT.svg|png — E105 wait mask: cycles per pointer-chase step with the
# consumer's scoreboard wait bit kept or cleared, LDG and LDS, a bar per row in the CSV's order.
# The axis label says whether the chase still ended where the host's did (cleared: the consumer
# read the register too early); a row with no time (a fault: the chase followed a stale pointer)
# has no bar and its status in its place.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("stall_wait.gp")]."common.gp"
set title "E105: scoreboard wait bit kept vs cleared on a load's consumer"
set ylabel "cycles per chase step"
set style fill solid 0.8 border -1
set boxwidth 0.6
stats ARG1 using (isok(0) ? column("cycles_per_step") : NaN) nooutput
set yrange [0:STATS_max * 1.15]
set key off
verdict(x) = !isok(0) ? "no time" : column("correct") == 1 ? "correct" : "WRONG"
set xtics scale 0
set xrange [-0.6:*]
set offsets 0, 0.6, 0, 0
plot ARG1 using 0:(isok(0) ? column("cycles_per_step") : NaN):xticlabels(strcol("mem")." ".strcol("wait")." (".verdict(0).")") with boxes lt 1 lc rgb "#4477aa", \
     ""   using 0:(isok(0) ? column("cycles_per_step") : NaN):(sprintf("%.1f", column("cycles_per_step"))) with labels offset 0, 0.8 font ",10", \
     ""   using 0:(0):(isok(0) ? "" : strcol("status")[1:strstrt(strcol("status") . ":", ":") - 1]) with labels offset 0, 1 font ",10" tc rgb "#cc3311"
