# bw_coalesce.gp IN.csv OUT.svg|png — E016: useful GB/s against lane stride (floats), one curve per
# misalignment; the 32-byte-sector model's efficiency on the right axis, dashed.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("bw_coalesce.gp")]."common.gp"
set title "E016: coalescing — stride and misalignment against the sector model"
set xlabel "stride between lanes (floats)"
set ylabel "useful GB/s"
set y2label "model sector efficiency (%)"
set y2tics
set ytics nomirror
set logscale x 2
set yrange [0:*]
set y2range [0:105]
set key top right
sel(o, c) = (column("offset_words") == o && strcol("status") eq "ok") ? column(c) : NaN
plot for [o in "0 1 2 4 8"] ARG1 using "stride_words":(sel(o + 0, "bandwidth_GBps")) with linespoints pt 7 title "offset ".o, \
     for [o in "0 1 2 4 8"] ""   using "stride_words":(sel(o + 0, "model_efficiency_pct")) axes x1y2 with lines dt 2 title "model, offset ".o
