# stall_ffma.gp IN.csv OUT.svg|png — E105 (seed 001 Figure 2 on Volta-family control bits): cycles
# per FFMA against the stall count patched into every timed FFMA, a panel for the dependent chain
# and one for the 8 independent chains (stacked: their points coincide), yield bit 1 and 0.
# Filled points: the chain's result still equals the host's; crosses: it does not (the stall was
# shorter than the latency, no interlock).
OUT = ARG2
H = 860
load ARG0[1:strlen(ARG0)-strlen("stall_ffma.gp")]."common.gp"
eval KEY_OUT
stats ARG1 using "stall" nooutput
SMAX = STATS_max
stats ARG1 using (isok(0) ? column("cycles_per_insn") : NaN) nooutput
YMAX = STATS_max * 1.1
set multiplot layout 2,1 title "E105: patched stall count vs cycles per FFMA, one warp (seed 001 Figure 2)"
set xlabel "stall count (bits 105-108) of every timed FFMA"
set ylabel "cycles per FFMA"
set xrange [-0.5:SMAX + 0.5]
set yrange [0:YMAX]
set xtics 1
sel(c, y, ok) = (strcol("chain") eq c && column("yield") == y && isok(0) && column("correct") == ok) ? column("cycles_per_insn") : NaN
do for [c in "dep ind"] {
	set title (c eq "dep" ? "dependent chain" : "8 independent chains")
	plot ARG1 using "stall":(sel(c, 1, 1)) with points pt 7 ps 1.3 lc rgb "#4477aa" title "yield 1: correct", \
	     ""   using "stall":(sel(c, 1, 0)) with points pt 2 ps 1.6 lw 2 lc rgb "#4477aa" title "yield 1: WRONG", \
	     ""   using "stall":(sel(c, 0, 1)) with points pt 5 ps 0.8 lc rgb "#ee7733" title "yield 0: correct", \
	     ""   using "stall":(sel(c, 0, 0)) with points pt 1 ps 1.6 lw 2 lc rgb "#ee7733" title "yield 0: WRONG", \
	     x with lines dt 3 lc rgb "#888888" title "cycles = stall"
}
unset multiplot
