# bw_global.gp IN.csv OUT.svg|png — E108/E004: global-load bandwidth against bytes in flight per SM,
# one curve per width and path (Little's law: bandwidth grows with bytes in flight to the HBM rate).
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("bw_global.gp")]."common.gp"
set title "E108/E004: global loads, width x path against bytes in flight"
set xlabel "bytes in flight per SM (warps x 32 x ILP x width)"
set ylabel "GB/s"
set logscale x 2
set yrange [0:*]
set key bottom right
sel(w, q) = (column("width_bits") == w && strcol("path") eq q && strcol("status") eq "ok") ? column("bandwidth_GBps") : NaN
plot for [w in "32 64 128"] for [q in "default nc cg cs"] ARG1 using "bytes_in_flight_per_sm":(sel(w + 0, q)) \
     with linespoints pt 7 ps 0.6 title "LDG.".w." ".q, \
     ""   using "bytes_in_flight_per_sm":"hbm_peak_GBps" with lines dt 2 lc rgb "#888888" title "HBM datasheet"
