# tput_atomic.gp IN.csv OUT.svg|png — H031: atomic operations per clock per SM against contention
# (threads per address, log scale: 1 is none, 32 a warp's lanes, the largest the whole grid or
# block), a panel per space, one colour per operation (solid: atom, the result used; dashed: red,
# none returned), packed layout, the most warps per SM measured; one key for both panels in a strip below them. The dotted line is
# the ceiling (an SM's load/store lanes).
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("tput_atomic.gp")]."data.gp"
PH = 420
KH = 90
H = 40 + PH + KH
NC = 2
NR = 1
load ARG0[1:strlen(ARG0)-strlen("tput_atomic.gp")]."common.gp"
OPS = ""
stats ARG1 using ((isok(0) && strstrt(OPS . " ", " " . strcol("op") . " ") == 0) ? (OPS = OPS . " " . strcol("op"), 1) : NaN) nooutput
# The most warps per SM the run measured (a paper run also has a smaller grid).
stats ARG1 using (isok(0) ? column("warps_per_sm") : NaN) nooutput
WMAX = STATS_max
sel(sp, i, r) = isok(0) && column("warps_per_sm") == WMAX && strcol("space") eq sp && strcol("layout") eq "packed" && \
	strcol("op") eq word(OPS, i) && strcol("ret") eq r
set multiplot title sprintf("H031: atomic throughput against contention (packed addresses, %.0f warps/SM)", WMAX)
set logscale x 2
set logscale y 2
set format x "%.0s%c"
set xlabel "threads per address"
set ylabel "operations per clock per SM (log)"
unset key
SPACES = "global shared"
do for [i = 1:2] {
	SP = word(SPACES, i)
	eval PANEL_AT
	set title SP
	plot for [j = 1:words(OPS)] ARG1 using (sel(SP, j, "atom") ? column("threads_per_addr") : NaN):"ops_per_clk_per_sm" \
		with linespoints lt j notitle, \
	     for [j = 1:words(OPS)] ""   using (sel(SP, j, "red") ? column("threads_per_addr") : NaN):"ops_per_clk_per_sm" \
		with linespoints lt (j + 10) notitle, \
	     "" using (isok(0) && strcol("space") eq SP ? column("threads_per_addr") : NaN):"ceiling_ops_per_clk_per_sm" \
		with lines dt 3 lc rgb "#888888" notitle
}
eval KEY_STRIP
plot for [j = 1:words(OPS)] NaN with linespoints lt j title word(OPS, j), \
     NaN with lines lw 1.5 dt 1 lc rgb "#000000" title "atom (solid)", \
     NaN with lines lw 1.5 dt 2 lc rgb "#000000" title "red (dashed)", \
     NaN with lines dt 3 lc rgb "#888888" title "ceiling"
unset multiplot
