# tsm2r.gp IN.csv OUT.svg|png — seed 004 Figs. 6/10 (speedup over cuBLAS) and 7/11 (bandwidth
# utilisation) in one sheet: per precision and n, V0..V5 speedup against m (top) and % of the
# streaming HBM read rate measured in the same run for V3, V4 (split-k, beyond the paper), V5 (V4
# with 16-byte B reads), cuBLAS and the model's predictions for V3 and V4 (bottom), with the 90 %
# line the issue asks every point to reach. Where the sweep gives a kernel several rows
# at one m (t3 or ksplit variants), the curve takes the best of them, as seed 004 plots each
# kernel at its best configuration (an average would mix in the configurations it rejects).
# gnuplot ends a smoothed curve at every row its filter turns into NaN, and the sweep interleaves
# the kernels within each m, so a filtered curve came out as loose points: each curve is first
# copied into its own datablock ($<curve>, rows m,value) and drawn from there.
OUT = ARG2
W = 1800
H = 1500
load ARG0[1:strlen(ARG0)-strlen("tsm2r.gp")]."common.gp"
set multiplot layout 4,4 title "TSM2R (seed 004 Figs. 6, 7, 10, 11; V4 = V3 + split-k, V5 = V4 + 16-byte B reads): speedup over cuBLAS and % of HBM read"
set key bottom right font ",8" samplen 2 spacing 0.9
set tics font ",8"
set xlabel "m (= k x kdiv)" font ",9"
OK(p, n, k) = strcol("status") eq "ok" && strcol("precision") eq p && column("n") == n && (k eq "" || strcol("kernel") eq k)
# collect(block, p, n, kernel or "" for any, column): the commands that (re)fill $block. It opens
# with a comment line, so it exists (one line long) even when no row matches.
collect(b, p, n, k, y) = sprintf('set print $%s; print "# m,%s"; unset print; set table $%s append separator comma; plot ARG1 using (column("m")):(column("%s")) with table if (OK("%s", %s, "%s")); unset table', b, y, b, y, p, n, k)
# best(block): the commands that rewrite $block (rows "m,value" after its comment line) to the
# largest value per m.
best(b) = sprintf('NB = 0; do for [i = 2:|$%s|] { L = $%s[i]; c = strstrt(L, ","); xm = real(L[1:c-1]); yv = real(L[c+1:]); j = 0; do for [q = 1:NB] { if (BM[q] == xm) { j = q } }; if (j == 0) { NB = NB + 1; BM[NB] = xm; BY[NB] = yv } else { if (yv > BY[j]) { BY[j] = yv } } }; set print $%s; print "# m,best"; do for [q = 1:NB] { print sprintf("%%.17g,%%.17g", BM[q], BY[q]) }; unset print', b, b, b)
array BM[4096]
array BY[4096]
# A panel whose curves are all empty (a precision or n not in the run) says so instead of
# stopping the script on an empty x range.
EMPTY = 'set xrange [0:1]; set yrange [0:1]; unset key; set label 1 "no ok rows" at 0.5, 0.5 center; plot NaN notitle; unset label 1; set key; set xrange [*:*]; set yrange [*:*]'
do for [p in "single double"] {
	do for [n in "2 4 8 16"] {
		do for [k in "v0 v1 v2 v3 v4 v5"] {
			eval collect(k, p, n, k, "speedup_vs_cublas")
			eval best(k)
		}
		set title sprintf("%s, n = %s: speedup", p, n) font ",10"
		set ylabel "x cuBLAS" font ",9"
		set datafile nocolumnheaders
		if (|$v0| + |$v1| + |$v2| + |$v3| + |$v4| + |$v5| == 6) {
			eval EMPTY
		} else {
			plot for [k in "v0 v1 v2 v3 v4 v5"] "$".k using 1:2 smooth unique with linespoints pt 7 ps 0.4 title k, \
			     1 with lines lc rgb "#228833" dt 2 title "cuBLAS"
		}
		set datafile columnheaders
	}
	do for [n in "2 4 8 16"] {
		eval collect("v3", p, n, "v3", "pct_of_hbm_read")
		eval collect("v4", p, n, "v4", "pct_of_hbm_read")
		eval collect("v5", p, n, "v5", "pct_of_hbm_read")
		eval collect("blas", p, n, "", "cublas_pct_of_hbm_read")
		eval collect("m3", p, n, "v3", "model_pct_of_hbm_read")
		eval collect("m4", p, n, "v4", "model_pct_of_hbm_read")
		do for [b in "v3 v4 v5 blas m3 m4"] { eval best(b) }
		set title sprintf("%s, n = %s: bandwidth", p, n) font ",10"
		set ylabel "% of HBM read" font ",9"
		set yrange [0:110]
		set datafile nocolumnheaders
		if (|$v3| + |$v4| + |$v5| + |$blas| == 4) {
			eval EMPTY
		} else {
			plot $v3 using 1:2 smooth unique with linespoints pt 7 ps 0.4 title "V3", \
			     $v4 using 1:2 smooth unique with linespoints pt 9 ps 0.5 title "V4", \
			     $v5 using 1:2 smooth unique with linespoints pt 11 ps 0.5 title "V5", \
			     $blas using 1:2 smooth unique with linespoints pt 5 ps 0.4 title "cuBLAS", \
			     $m3 using 1:2 smooth unique with lines dt 3 title "model V3", \
			     $m4 using 1:2 smooth unique with lines dt 4 title "model V4", \
			     90 with lines lc rgb "#999999" dt 2 title "90 %"
		}
		set datafile columnheaders
		set yrange [*:*]
	}
}
unset multiplot
