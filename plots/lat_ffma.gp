# lat_ffma.gp IN.csv OUT.svg|png — E002 / E001 (seed 000 Tables 3 and 2 as a chart): cycles per
# dependent step against warps in the one block, for each operand form (reg: FFMA alone; smem:
# LDS -> FFMA; const: FFMA with a constant operand). Flat at the latency while warps < latency x
# issue rate, then a slope of cycles-per-warp: the seed's two conclusions read off one curve.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("lat_ffma.gp")]."common.gp"
set title "E002/E001: dependent FFMA chain, one block (seed 000 Tables 3 and 2)"
set xlabel "active warps in the block (threads / 32)"
set ylabel "cycles per step per thread"
set y2label "reg: block cycles per step / warps (grey)"
set y2tics
set ytics nomirror
set yrange [0:*]
set y2range [0:*]
set xrange [0:*]
set key outside right top vertical Left reverse nobox font ",10"
x(s) = (strcol("operand") eq s && isok(0)) ? column("threads")/32.0 : NaN
# A sweep over every thread count has ~1000 points a curve: a marker on every PI-th.
stats ARG1 using (x("reg")) nooutput
PI = STATS_records > 48 ? int(STATS_records / 24) : 1
plot ARG1 using (x("reg")):"cycles_per_ffma_max" with linespoints pt 7 pi PI lw 2 dt 1 lc rgb "#4477aa" title "reg: thread max", \
     ""   using (x("reg")):"cycles_per_ffma_min" with linespoints pt 9 pi PI lw 1 dt 1 lc rgb "#4477aa" title "reg: thread min", \
     ""   using (x("reg")):"block_cycles_per_ffma" with lines dt 2 lw 2 lc rgb "#4477aa" title "reg: block start-to-end", \
     ""   using (x("smem")):"cycles_per_ffma_max" with linespoints pt 7 pi PI lw 2 dt 1 lc rgb "#cc3311" title "smem (LDS->FFMA): max", \
     ""   using (x("smem")):"cycles_per_ffma_min" with linespoints pt 9 pi PI lw 1 dt 1 lc rgb "#cc3311" title "smem: thread min", \
     ""   using (x("const")):"cycles_per_ffma_max" with linespoints pt 5 pi PI lw 1 dt 1 lc rgb "#228833" title "const: thread max", \
     ""   using (x("reg")):"cycles_per_warp" axes x1y2 with linespoints pt 4 pi PI lw 1 dt 1 lc rgb "#888888" title "reg: cycles/warp (right)"
