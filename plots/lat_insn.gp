# lat_insn.gp IN.csv OUT.svg|png — E006 (seed 000 Table 5): dependent latency of each instruction
# of probes/insn.list that has a chain, one warp, clock64 with the timer's cost subtracted. A row
# without a number (an older run's store) has an empty cell and no bar.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("lat_insn.gp")]."common.gp"
set title "E006: dependent latency per instruction, one warp (seed 000 Table 5)"
set ylabel "cycles per dependent step"
set style fill solid 0.6 border -1
set boxwidth 0.6
unset xtics
set xlabel "instruction (label: probe name, cycles)"
set key off
set xrange [-0.6:*]
set offsets 0, 0.6, 0, 0
# Names ride above the bars, staggered in two rows: rotated text renders differently in the
# cairo and SVG terminals, horizontal text does not.
stats ARG1 using "cycles_per_step" nooutput
top = STATS_max
set yrange [0:top * 1.3]
lift(i) = (int(i) % 2) ? 0.16 * top : 0.07 * top
plot ARG1 using 0:"cycles_per_step" with boxes lc rgb "#4477aa", \
     ""   using 0:(column("cycles_per_step") + lift(column(0))):(sprintf("%s\n%.1f", strcol("insn"), column("cycles_per_step"))) with labels font ",9"
