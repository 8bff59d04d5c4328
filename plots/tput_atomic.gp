# tput_atomic.gp IN.csv OUT.svg|png — H031: atomic operations per clock per SM against contention
# (threads per address, log scale: 1 is none, 32 a warp's lanes, the largest the whole grid or
# block), one panel per space, one line per operation and form (solid: atom, the result used;
# dashed: red, none returned), packed layout. The dotted line is the ceiling (load/store lanes).
OUT = ARG2
H = 560
load ARG0[1:strlen(ARG0)-strlen("tput_atomic.gp")]."common.gp"
SER = ""
stats ARG1 using ((isok(0) && strcol("layout") eq "packed" && strstrt(SER, " " . strcol("op") . ":" . strcol("ret") . " ") == 0) ? \
	(SER = SER . " " . strcol("op") . ":" . strcol("ret") . " ", 1) : NaN) nooutput
SER = SER . " "
insp(sp, i) = isok(0) && strcol("space") eq sp && strcol("layout") eq "packed" && strcol("op") . ":" . strcol("ret") eq word(SER, i)
style(i) = word(SER, i)[strlen(word(SER, i)) - 2:] eq "red" ? 10 : 0
set multiplot layout 1, 2 title "H031: atomic throughput against contention"
set logscale x 2
set logscale y 2
set xlabel "threads per address"
set ylabel "operations per clock per SM (log)"
set key bottom left font ",9" nobox
do for [sp in "global shared"] {
	set title sp
	plot for [i = 1:words(SER)] ARG1 using (insp(sp, i) ? column("threads_per_addr") : NaN):"ops_per_clk_per_sm" \
		with linespoints lt (1 + (i - 1) % 10 + style(i)) title word(SER, i), \
	     ""   using (isok(0) ? column("threads_per_addr") : NaN):"ceiling_ops_per_clk_per_sm" with lines dt 3 lc rgb "#888888" title "ceiling"
}
unset multiplot
