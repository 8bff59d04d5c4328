# lat_p2p.gp IN.csv OUT.svg|png — latency of a dependent load through a peer mapping as a heat
# map: row src (the GPU whose memory holds the chain), column dst (the GPU chasing it), colour and
# label nanoseconds per load, the diagonal empty.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("lat_p2p.gp")]."common.gp"
stats ARG1 using (isok(0) ? column("latency_ns") : NaN) nooutput
CB_LO = STATS_min
CB_HI = STATS_max > STATS_min ? STATS_max : STATS_min + 1
stats ARG1 using (isok(0) ? (column("src") > column("dst") ? column("src") : column("dst")) : NaN) nooutput
NG = STATS_max + 1
sel(c) = isok(0) ? column(c) : NaN
set title "GPU-to-GPU load latency (ns per dependent ld.global.cg, median of the repetitions)"
set palette defined (0 "#313695", 1 "#74add1", 2 "#ffffbf", 3 "#f46d43", 4 "#a50026")
set cbrange [CB_LO:CB_HI]
set cblabel "ns per load"
set xrange [-0.5:NG - 0.5]
set yrange [NG - 0.5:-0.5]
set xtics 1 out
set ytics 1 out
set xlabel "dst GPU (chases)"
set ylabel "src GPU (holds the memory)"
set key off
unset grid
set style fill solid 1.0 noborder
plot ARG1 using (sel("dst")):(sel("src")):(0.5):(0.5):(sel("latency_ns")) with boxxyerror fc palette, \
     ARG1 using (sel("dst")):(sel("src")):(sprintf("%.0f", sel("latency_ns"))) with labels font ",10"
