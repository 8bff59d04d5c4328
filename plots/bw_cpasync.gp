# bw_cpasync.gp IN.csv OUT.svg|png — H022: streaming global memory into shared memory with
# cp.async (LDGSTS) or ld.global + st.shared, GB/s per method, a panel per level (HBM footprint
# read once; L2 footprint read in passes), a colour per stage count and a marker per blocks per
# SM; each panel's ceiling (HBM datasheet, or shared memory's 128 B/clk/SM) dashed.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("bw_cpasync.gp")]."data.gp"
H = 80 + 2 * 300
load ARG0[1:strlen(ARG0)-strlen("bw_cpasync.gp")]."common.gp"
eval KEY_OUT
METHODS = "cpasync4_ca cpasync8_ca cpasync16_ca cpasync16_cg ldg4 ldg8 ldg16"
LEVELS = "hbm l2"
DC = "stages"; eval DISTINCT; SS = DV
DC = "blocks_per_sm"; eval DISTINCT; BS = DV
NS = words(SS) > 0 ? words(SS) : 1
NB = words(BS) > 0 ? words(BS) : 1
midx(s) = sum [j = 1:words(METHODS)] (word(METHODS, j) eq s ? j : 0)
set xrange [0.5:words(METHODS) + 0.5]
set xtics () rotate by -30
do for [j = 1:words(METHODS)] { set xtics add (word(METHODS, j) j) }
set ylabel "GB/s"
set multiplot layout 2,1 title "H022: cp.async and ld + st into shared memory"
sel(l, s, b) = (strcol("level") eq l && column("stages") == s && column("blocks_per_sm") == b && isok(0)) ? column("bandwidth_GBps") : NaN
do for [i = 1:2] {
	L = word(LEVELS, i)
	set yrange [*:*] # stats honours the range the last panel set
	stats ARG1 using ((strcol("level") eq L) ? column("ceiling_GBps") : NaN) nooutput
	CEIL = exists("STATS_max") ? STATS_max : NaN
	if (CEIL == CEIL) { set yrange [0:CEIL * 1.1] } else { set yrange [0:*] }
	set title (i == 1 ? "HBM footprint (ceiling: datasheet)" : "L2 footprint (ceiling: 128 B/clk/SM)")
	plot for [k = 1:NS * NB] ARG1 using (midx(strcol("method")) + ((k - 1) - (NS * NB - 1) / 2.0) * 0.08):(sel(L, real(word(SS, (k - 1) % NS + 1)), real(word(BS, (k - 1) / NS + 1)))) \
	     with points lt ((k - 1) % NS + 1) pt (5 + 2 * ((k - 1) / NS)) ps 1.0 \
	     title sprintf("stages %s, %s blocks/SM", word(SS, (k - 1) % NS + 1), word(BS, (k - 1) / NS + 1)), \
	     CEIL with lines dt 2 lc rgb "#888888" title sprintf("ceiling (%.0f)", CEIL)
	undefine STATS_*
}
unset multiplot
