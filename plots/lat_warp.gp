# lat_warp.gp IN.csv OUT.svg|png — H032: cycles per dependent step of every warp operation (one
# warp, a chain per lane), one bar per operation in the CSV's order.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("lat_warp.gp")]."common.gp"
NAMES = ""
stats ARG1 using (NAMES = NAMES . " " . strcol("op"), 1) nooutput
set title "H032: latency of dependent warp operations (one warp)"
set ylabel "cycles per step"
set yrange [0:*]
set xrange [0.4:words(NAMES) + 0.6]
set xtics () rotate by 45 right scale 0 font ",10"
do for [i = 1:words(NAMES)] { set xtics add (word(NAMES, i) i) }
set style fill solid 0.6 border -1
set boxwidth 0.6
set key off
plot n = 0, ARG1 using (n = n + 1, isok(0) ? n : NaN):"cycles_per_step" with boxes lt 1, \
     n = 0, ""   using (n = n + 1, isok(0) ? n : NaN):(column("cycles_per_step") + 1):(sprintf("%.1f", column("cycles_per_step"))) with labels font ",9"
