# lat_mem.gp IN.csv OUT.svg|png — E003: cycles per dependent load against footprint, one curve per pattern and path (log x).
# Plateaus are cache levels; the change-point levels are in REPORT.md and profile.csv.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("lat_mem.gp")]."common.gp"
set title "E003: pointer-chase latency against footprint"
set xlabel "footprint (bytes)"
set ylabel "cycles per load"
set logscale x 2
set format x "%.0b%B"
set logscale y
set key top left
sel(p, q) = (strcol("pattern") eq p && strcol("path") eq q && strcol("status") eq "ok") ? column("cycles_per_load") : NaN
plot for [p in "random stride"] for [q in "default cg nc"] ARG1 using "footprint_bytes":(sel(p, q)) \
     with linespoints pt 7 ps 0.6 title p." / ".q
