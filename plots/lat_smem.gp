# lat_smem.gp IN.csv OUT.svg|png — shared-memory load latency by chase, per footprint and stride.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("lat_smem.gp")]."common.gp"
set title "Shared-memory latency (ld.shared chase)"
set xlabel "footprint (bytes)"
set ylabel "cycles per load"
set logscale x 2
set yrange [0:*]
sel(s) = (column("stride_bytes") == s && strcol("status") eq "ok") ? column("cycles_per_load") : NaN
plot for [s in "4 8 16 32 64 128"] ARG1 using "footprint_bytes":(sel(s + 0)) with linespoints pt 7 title "stride ".s." B"
