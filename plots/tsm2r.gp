# tsm2r.gp IN.csv OUT.svg|png — seed 004 Figs. 6/10 (speedup over cuBLAS) and 7/11 (bandwidth
# utilisation) in one sheet: per precision and n, V0..V3 speedup against m (top) and % of the
# streaming HBM read rate measured in the same run for V3, cuBLAS and the model's prediction (bottom).
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("tsm2r.gp")]."common.gp"
set multiplot layout 4,4 title "TSM2R (seed 004 Figs. 6, 7, 10, 11): speedup over cuBLAS and % of HBM read"
set key top left font ",6"
set xlabel "m (= k x kdiv)" font ",7"
OK(p, n, k) = strcol("status") eq "ok" && strcol("precision") eq p && column("n") == n && strcol("kernel") eq k
do for [p in "single double"] {
	do for [n in "2 4 8 16"] {
		set title sprintf("%s, n = %s: speedup", p, n) font ",8"
		set ylabel "x cuBLAS" font ",7"
		plot for [k in "v0 v1 v2 v3"] ARG1 using (OK(p, n+0, k) ? column("m") : NaN):"speedup_vs_cublas" smooth unique with linespoints pt 7 ps 0.4 title k, \
		     1 with lines lc rgb "#228833" dt 2 title "cuBLAS"
	}
	do for [n in "2 4 8 16"] {
		set title sprintf("%s, n = %s: bandwidth", p, n) font ",8"
		set ylabel "% of HBM read" font ",7"
		set yrange [0:110]
		plot ARG1 using (OK(p, n+0, "v3") ? column("m") : NaN):"pct_of_hbm_read" smooth unique with linespoints pt 7 ps 0.4 title "V3", \
		     ARG1 using (OK(p, n+0, "v3") ? column("m") : NaN):"cublas_pct_of_hbm_read" smooth unique with linespoints pt 5 ps 0.4 title "cuBLAS", \
		     ARG1 using (OK(p, n+0, "v3") ? column("m") : NaN):"model_pct_of_hbm_read" smooth unique with lines dt 3 title "model"
		set yrange [*:*]
	}
}
unset multiplot
