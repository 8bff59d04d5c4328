# tsm2_search.gp IN.csv OUT.svg|png — seed 004 Algorithm 5 / E406: V3 time over the brute-force
# grid (t1, t2, t3) per precision and n, with the model's choice and the brute-force best marked.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("tsm2_search.gp")]."common.gp"
set multiplot layout 1,2 title "TSM2R V3 parameter search: % of HBM read per (t1, t2, t3); model vs brute force"
set key top left font ",6"
set xlabel "t3" font ",7"
set ylabel "% of HBM read" font ",7"
set logscale x 2
G(p, c) = strcol("status") eq "ok" && strcol("precision") eq p && strcol("choice") eq c
do for [p in "single double"] {
	set title p font ",8"
	plot ARG1 using (G(p, "grid") ? column("t3") : NaN):"pct_of_hbm_read" with points pt 7 ps 0.4 title "grid (all t1, t2, n)", \
	     ARG1 using (G(p, "model") ? column("t3") : NaN):"pct_of_hbm_read" with points pt 6 ps 1.5 lw 2 title "model choice", \
	     ARG1 using (G(p, "brute") ? column("t3") : NaN):"pct_of_hbm_read" with points pt 4 ps 1.5 lw 2 title "brute-force best"
}
unset multiplot
