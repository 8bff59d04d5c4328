# stall_ffma.gp IN.csv OUT.svg|png — E105 (seed 001 Figure 2 on Volta-family control bits): cycles
# per FFMA against the stall count patched into every timed FFMA, for the dependent chain and the
# 8 independent chains, yield bit 1 and 0. Filled points: the chain's result still equals the
# host's; open crosses: it does not (the stall was shorter than the latency, no interlock).
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("stall_ffma.gp")]."common.gp"
set title "E105: patched stall count vs cycles per FFMA, one warp (seed 001 Figure 2)"
set xlabel "stall count (bits 105-108) of every timed FFMA"
set ylabel "cycles per FFMA"
set xrange [-0.5:15.5]
set yrange [0:*]
set xtics 1
sel(c, y, ok) = (strcol("chain") eq c && column("yield") == y && strcol("status") eq "ok" && column("correct") == ok) ? column("cycles_per_insn") : NaN
plot ARG1 using "stall":(sel("dep", 1, 1)) with points pt 7 ps 1.2 lc rgb "#4477aa" title "dependent, yield 1: correct", \
     ""   using "stall":(sel("dep", 1, 0)) with points pt 2 ps 1.5 lc rgb "#4477aa" title "dependent, yield 1: WRONG", \
     ""   using "stall":(sel("dep", 0, 1)) with points pt 5 ps 1.0 lc rgb "#66ccee" title "dependent, yield 0: correct", \
     ""   using "stall":(sel("dep", 0, 0)) with points pt 1 ps 1.5 lc rgb "#66ccee" title "dependent, yield 0: WRONG", \
     ""   using "stall":(sel("ind", 1, 1)) with points pt 9 ps 1.2 lc rgb "#cc3311" title "independent, yield 1: correct", \
     ""   using "stall":(sel("ind", 1, 0)) with points pt 3 ps 1.5 lc rgb "#cc3311" title "independent, yield 1: WRONG", \
     ""   using "stall":(sel("ind", 0, 1)) with points pt 11 ps 1.0 lc rgb "#ee7733" title "independent, yield 0: correct", \
     ""   using "stall":(sel("ind", 0, 0)) with points pt 4 ps 1.5 lc rgb "#ee7733" title "independent, yield 0: WRONG", \
     x with lines dt 3 lc rgb "#888888" title "cycles = stall"
