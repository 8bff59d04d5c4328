# lat_const.gp IN.csv OUT.svg|png — constant-cache latency by chase against footprint: the steps are the
# constant cache levels (an L1 of a few KB, a larger second level, then L2).
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("lat_const.gp")]."common.gp"
set title "Constant-cache latency (ld.const chase)"
set xlabel "footprint (bytes)"
set ylabel "cycles per load"
set logscale x 2
set format x "%.0b%B"
set yrange [0:*]
set offsets graph 0.02, graph 0.02, 0, 0
set key off
ok(c) = strcol("status") eq "ok" ? column(c) : NaN
plot ARG1 using "footprint_bytes":(ok("cycles_per_load")) with linespoints pt 7 lw 2 title "ld.const"
