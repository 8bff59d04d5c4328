# lat_barrier.gp IN.csv OUT.svg|png — H034: cycles per block barrier against block size, bar.sync
# (__syncthreads) and mbarrier arrive + parity wait; the grey line is the issue floor (every warp
# issues at least one instruction per barrier, four warps a clock).
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("lat_barrier.gp")]."common.gp"
set title "H034: cost of a block barrier against block size (one block)"
set xlabel "threads in the block"
set ylabel "cycles per barrier"
set xrange [0:*]
set yrange [0:*]
set key top left nobox
sel(k) = isok(0) && strcol("kind") eq k
plot ARG1 using (sel("bar_sync") ? column("threads") : NaN):"cycles_per_barrier" with linespoints lt 1 title "bar.sync 0", \
     ""   using (sel("mbarrier") ? column("threads") : NaN):"cycles_per_barrier" with linespoints lt 2 title "mbarrier arrive + wait", \
     ""   using (sel("bar_sync") ? column("threads") : NaN):(column("warps") / 4.0) with lines dt 3 lc rgb "#888888" title "issue floor"
