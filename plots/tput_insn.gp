# tput_insn.gp IN.csv OUT.svg|png — E106 for every instruction (seed 001 Table 4 extended):
# measured operations per clock per SM as bars, the Programming Guide's rate as a cross where the
# guide has one; log scale, since the rates span 16 (MUFU) to 256 (HFMA2 results).
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("tput_insn.gp")]."common.gp"
set title "E106: throughput per instruction at the measured clock (seed 001 Table 4)"
set ylabel "operations per clock per SM (log)"
set logscale y 2
set yrange [1:4096]
set style fill solid 0.6 border -1
set boxwidth 0.6
unset xtics
set xlabel "instruction (label: name, % of the Guide rate or ops/clk/SM)"
set key outside below horizontal
set xrange [-0.6:*]
set offsets 0, 0.6, 0, 0
arch(c) = c > 0 ? c : NaN
# Names ride above the bars, staggered in two rows: rotated text renders differently in the
# cairo and SVG terminals, horizontal text does not.
lift(i) = (int(i) % 2) ? 3.2 : 1.5
pct(p, v) = p > 0 ? sprintf("%.0f%%", p) : sprintf("%.0f", v)
plot ARG1 using 0:"ops_per_clk_per_sm" with boxes lc rgb "#4477aa" title "measured", \
     ""   using 0:(arch(column("arch_ops_per_clk_per_sm"))) with boxes fs empty border lc rgb "#cc3311" lw 2 title "Programming Guide rate", \
     ""   using 0:(column("ops_per_clk_per_sm") * lift(column(0))):(strcol("insn")."\n".pct(column("pct_of_arch"), column("ops_per_clk_per_sm"))) with labels font ",9" notitle
