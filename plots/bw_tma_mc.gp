# bw_tma_mc.gp IN.csv OUT.svg|png — H023: TMA loads multicast to every block of a cluster, GB/s
# against the box size, a colour per cluster size: the top panel the bytes landed in shared
# memory (cluster copies of each box) against 128 B/clk/SM, the bottom the bytes read from memory
# against the HBM datasheet rate (each ceiling dashed).
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("bw_tma_mc.gp")]."data.gp"
DC = "cluster"; eval DISTINCT; CS = DV
NC = words(CS) > 0 ? words(CS) : 1
H = 80 + 2 * 300
load ARG0[1:strlen(ARG0)-strlen("bw_tma_mc.gp")]."common.gp"
eval KEY_OUT
stats ARG1 using (isok(0) ? column("box_bytes") : NaN) nooutput
set xrange [STATS_min / 1.5:STATS_max * 1.5]
set xlabel "bytes per copy (box)"
set ylabel "GB/s"
set logscale x 2
set format x "%.0b%B"
COLS = "landed_GBps bandwidth_GBps"
CEILS = "landed_ceiling_GBps ceiling_GBps"
sel(c, col) = (column("cluster") == c && isok(0)) ? column(col) : NaN
set multiplot layout 2,1 title "H023: TMA multicast to every block of a cluster (HBM footprint read once)"
do for [i = 1:2] {
	set yrange [*:*]
	undefine STATS_*
	stats ARG1 using (isok(0) ? column(word(CEILS, i)) : NaN) nooutput
	CEIL = exists("STATS_max") ? STATS_max : NaN
	if (CEIL == CEIL) { set yrange [0:CEIL * 1.1] } else { set yrange [0:*] }
	set title (i == 1 ? "bytes landed in shared memory (ceiling: 128 B/clk/SM)" : "bytes read from memory (ceiling: HBM datasheet)")
	plot for [j = 1:NC] ARG1 using (column("box_bytes") * 2 ** ((j - (NC + 1) / 2.0) * 0.06)):(sel(real(word(CS, j)), word(COLS, i))) \
	     with linespoints lt j ps 0.9 title sprintf("cluster %s", word(CS, j)), \
	     CEIL with lines dt 2 lc rgb "#888888" title sprintf("ceiling (%.0f)", CEIL)
}
unset multiplot
