# bw_p2p.gp IN.csv OUT.svg|png — GPU-to-GPU copy bandwidth as heat maps, one panel per mode that
# has ok rows: row src (the GPU read from), column dst (the GPU written), colour and label GB/s,
# the diagonal empty. One colour scale across the panels, from 0 to the fastest pair.
W = 960
H = 820
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("bw_p2p.gp")]."common.gp"
MODES = "memcpy memcpy_bidir read write"
stats ARG1 using (isok(0) ? column("GBps") : NaN) nooutput
CB_HI = STATS_max > 0 ? STATS_max : 1
stats ARG1 using (isok(0) ? (column("src") > column("dst") ? column("src") : column("dst")) : NaN) nooutput
NG = STATS_max + 1
sel(m, c) = (isok(0) && strcol("mode") eq m) ? column(c) : NaN
set palette defined (0 "#313695", 1 "#74add1", 2 "#ffffbf", 3 "#f46d43", 4 "#a50026")
set cbrange [0:CB_HI]
set cblabel "GB/s"
set xrange [-0.5:NG - 0.5]
set yrange [NG - 0.5:-0.5]
set xtics 1 out
set ytics 1 out
set xlabel "dst GPU"
set ylabel "src GPU"
set key off
unset grid
set style fill solid 1.0 noborder
set multiplot layout 2,2 title "GPU-to-GPU bandwidth (GB/s, median of the repetitions)"
do for [k = 1:words(MODES)] {
	M = word(MODES, k)
	set title M
	undefine STATS_*
	stats ARG1 using (sel(M, "GBps")) nooutput
	if (!exists("STATS_records") || STATS_records == 0) {
		set title M . " (no ok row)"
		unset colorbox
		plot [-0.5:NG - 0.5] [NG - 0.5:-0.5] -1 notitle
		set colorbox
		continue
	}
	plot ARG1 using (sel(M, "dst")):(sel(M, "src")):(0.5):(0.5):(sel(M, "GBps")) with boxxyerror fc palette, \
	     ARG1 using (sel(M, "dst")):(sel(M, "src")):(sprintf("%.0f", sel(M, "GBps"))) with labels font ",9"
}
unset multiplot
