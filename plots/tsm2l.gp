# tsm2l.gp IN.csv OUT.svg|png — seed 004 Figs. 5, 13, 14: TSM2L Opt1 / Opt2 speedup over cuBLAS
# against the thread-count factor tcf, per precision and k = n, one line per m.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("tsm2l.gp")]."common.gp"
set multiplot layout 2,2 title "TSM2L (seed 004 Figs. 5, 13): speedup over cuBLAS against tcf"
set key top right font ",6"
set logscale x 2
set xlabel "tcf" font ",7"
set ylabel "x cuBLAS" font ",7"
OK(p, k, kern, m) = strcol("status") eq "ok" && strcol("precision") eq p && column("k") == k && strcol("kernel") eq kern && column("m") == m
do for [p in "single double"] {
	do for [k in "8 16"] {
		set title sprintf("%s, k = n = %s", p, k) font ",8"
		plot for [m in "10000 100000 1000000 10000000"] for [kern in "l1 l2"] ARG1 using (OK(p, k+0, kern, m+0) ? column("tcf") : NaN):"speedup_vs_cublas" smooth unique with linespoints pt 7 ps 0.4 title sprintf("%s m=%s", kern, m), \
		     1 with lines lc rgb "#228833" dt 2 title "cuBLAS"
	}
}
unset multiplot
