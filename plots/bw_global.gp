# bw_global.gp IN.csv OUT.svg|png — E108/E004: global-load bandwidth against bytes in flight per SM
# (Little's law: bandwidth grows with bytes in flight to the HBM rate), a panel per load width
# (stacked), a colour per path. Points, not lines: many launch shapes (warps, ILP) put the same
# bytes in flight, and a line through them in the CSV's order would zigzag.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("bw_global.gp")]."data.gp"
# The widths decide the panel count, and so the height, before common.gp.
DC = "width_bits"; eval DISTINCT; WS = DV
NP = words(WS) > 0 ? words(WS) : 1
H = 80 + 290 * NP
load ARG0[1:strlen(ARG0)-strlen("bw_global.gp")]."common.gp"
eval KEY_OUT
stats ARG1 using (isok(0) ? column("bytes_in_flight_per_sm") : NaN) nooutput
set xrange [STATS_min / 1.4:STATS_max * 1.4]
stats ARG1 using "hbm_peak_GBps" nooutput
PEAK = STATS_max
set yrange [0:PEAK * 1.1]
set multiplot layout NP,1 title "E108/E004: global loads against bytes in flight per SM"
set xlabel "bytes in flight per SM (warps x 32 x ILP x width)"
set ylabel "GB/s"
set logscale x 2
set format x "%.0b%B"
sel(w, q) = (column("width_bits") == w && strcol("path") eq q && isok(0)) ? column("bandwidth_GBps") : NaN
do for [i = 1:NP] {
	w = real(word(WS, i))
	set title sprintf("LDG.%.0f", w)
	# Each path's points shifted a little along x (and its own marker), so none hides another.
	plot for [j = 1:4] ARG1 using (column("bytes_in_flight_per_sm") * 2 ** ((j - 2.5) * 0.1)):(sel(w, word("default nc cg cs", j))) with points lt j ps 0.9 \
	     title word("default nc cg cs", j), \
	     PEAK with lines dt 2 lc rgb "#888888" title sprintf("HBM datasheet (%.0f)", PEAK)
}
unset multiplot
