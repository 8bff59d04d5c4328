# bank_smem.gp IN.csv OUT.svg|png — shared-memory bank conflicts: the measured conflict degree
# against lane stride, a panel per access width (stacked), the plain and the padded layout, each
# beside the bank model's degree (dashed, black and grey, drawn over the measured curves), at the most warps the run measured (a
# sweep over warps has a row per warp count; the conflict degree is per warp access).
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("bank_smem.gp")]."data.gp"
# The widths decide the panel count, and so the height, before common.gp.
DC = "width_bits"; eval DISTINCT; WS = DV
NP = words(WS) > 0 ? words(WS) : 1
H = 80 + 300 * NP
load ARG0[1:strlen(ARG0)-strlen("bank_smem.gp")]."common.gp"
eval KEY_OUT
stats ARG1 using (isok(0) ? column("warps") : NaN) nooutput
WMAX = STATS_max
set multiplot layout NP,1 title sprintf("Shared-memory bank conflicts at %.0f warps: measured (solid) and the bank model (dashed)", WMAX)
set xlabel "stride between lanes (elements)"
set ylabel "conflict degree"
set logscale y 2
set yrange [0.8:*]
set xrange [0:*]
set xtics 4
set mxtics 4
sel(w, p, c) = (column("width_bits") == w && column("pad") == p && column("warps") == WMAX && isok(0)) ? column(c) : NaN
do for [i = 1:NP] {
	w = real(word(WS, i))
	set title sprintf("%.0f-bit accesses", w)
	plot for [p = 0:1] ARG1 using "stride":(sel(w, p, "conflict_degree_measured")) with linespoints lt 1 + p dt 1 pt 7 ps 0.6 \
	     title (p ? "padded rows, measured" : "plain rows, measured"), \
	     for [p = 0:1] ""  using "stride":(sel(w, p, "conflict_degree_model")) with lines dt 2 lw 1.5 lc rgb (p ? "#888888" : "#000000") \
	     title (p ? "padded rows, model" : "plain rows, model")
}
unset multiplot
