# bw_coalesce.gp IN.csv OUT.svg|png — E016: useful GB/s against lane stride (floats), one curve per
# misalignment (words); the 32-byte-sector model's efficiency on the right axis, dashed in the
# curve's colour.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("bw_coalesce.gp")]."common.gp"
eval KEY_OUT
set title "E016: coalescing — stride and misalignment against the sector model"
set xlabel "stride between lanes (floats)"
set ylabel "useful GB/s"
set y2label "model sector efficiency (%)"
set y2tics
set ytics nomirror
set logscale x 2
# 100 % on the right axis sits at the best measured GB/s on the left, so a model curve lies on
# its measured curve where the sector model explains the bandwidth.
stats ARG1 using (isok(0) ? column("bandwidth_GBps") : NaN) nooutput
BEST = STATS_max
set yrange [0:BEST * 1.08]
set y2range [0:108]
DC = "offset_words"; eval DISTINCT; OS = DV
sel(o, c) = (column("offset_words") == o && isok(0)) ? column(c) : NaN
plot for [i = 1:words(OS)] ARG1 using "stride_words":(sel(real(word(OS, i)), "bandwidth_GBps")) with linespoints lt i dt 1 \
	title "offset ".word(OS, i), \
     for [i = 1:words(OS)] ""   using "stride_words":(sel(real(word(OS, i)), "model_efficiency_pct")) axes x1y2 with lines lt i dt 2 \
	title "model, offset ".word(OS, i)
