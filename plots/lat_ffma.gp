# lat_ffma.gp IN.csv OUT.svg|png — E002 (seed 000 Table 3 as a chart): cycles per dependent FFMA
# against warps in the one block. Flat at the latency while warps < latency x issue rate, then a
# slope of cycles-per-warp: the seed's two conclusions read off one curve.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("lat_ffma.gp")]."common.gp"
set title "E002: dependent FFMA chain, one block (seed 000 Table 3)"
set xlabel "active warps in the block (threads / 32)"
set ylabel "cycles per FFMA per thread"
set y2label "block cycles per FFMA / warps"
set y2tics
set ytics nomirror
set yrange [0:*]
set y2range [0:*]
set xrange [0:*]
set key top center
plot ARG1 using (column("threads")/32.0):"cycles_per_ffma_max" with linespoints pt 7 lw 2 title "per-thread max", \
     ""   using (column("threads")/32.0):"cycles_per_ffma_avg" with linespoints pt 5 title "per-thread average", \
     ""   using (column("threads")/32.0):"cycles_per_ffma_min" with linespoints pt 9 title "per-thread min", \
     ""   using (column("threads")/32.0):"block_cycles_per_ffma" with lines dt 2 lw 2 title "block: first start to last end", \
     ""   using (column("threads")/32.0):"cycles_per_warp" axes x1y2 with linespoints pt 4 lc rgb "#888888" title "cycles per warp (right axis)"
