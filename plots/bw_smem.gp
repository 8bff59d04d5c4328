# bw_smem.gp IN.csv OUT.svg|png — E107 (seed 001 Figure 4): shared-memory bytes per clock per SM against
# data volume per SM, one curve per op, width and pattern; 128 B/clk is the conflict-free ceiling.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("bw_smem.gp")]."common.gp"
set title "E107: shared-memory bandwidth against data volume (seed 001 Figure 4)"
set xlabel "bytes moved per SM"
set ylabel "bytes per clock per SM"
set logscale x 2
set format x "%.0b%B"
set yrange [0:*]
set key bottom right
sel(o, w, p) = (strcol("op") eq o && column("width_bits") == w && strcol("pattern") eq p && strcol("status") eq "ok") ? column("bytes_per_clk_per_sm") : NaN
plot for [o in "lds sts"] for [w in "32 64 128"] ARG1 using "bytes_per_sm":(sel(o, w + 0, "conflict_free")) \
     with linespoints pt 7 ps 0.6 title o.".".w, \
     for [w in "32 64 128"] ""   using "bytes_per_sm":(sel("lds", w + 0, "broadcast")) with linespoints dt 2 title "lds.".w." broadcast", \
     128 with lines lc rgb "#888888" dt 3 title "32 banks x 4 B"
