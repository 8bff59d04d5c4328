# sgemm_lda.gp IN.csv OUT.svg|png — E016 (seed 000 Figures 42-49): GFLOP/s against the padding
# unit of lda = ldb = ldc, a panel per size (two columns), one line per kernel with cuBLAS bold, one
# key for all panels in a strip of its own below them. A kernel keeps its line style across panels
# and runs (its place in KS; green is cuBLAS's, as in sgemm.gp).
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("sgemm_lda.gp")]."data.gp"
# The sizes decide the panel count, and so the height, before common.gp.
DC = "m"; eval DISTINCT; MS = DV
N = words(MS) > 0 ? words(MS) : 1
NC = N > 1 ? 2 : 1
NR = (N + 1) / 2
# Pixels: 40 for the title, 340 a panel row, 110 for the key strip.
PH = 340
KH = 110
H = 40 + PH * NR + KH
load ARG0[1:strlen(ARG0)-strlen("sgemm_lda.gp")]."common.gp"
KS = "sgemm_10_method5_v1 sgemm_11_method5_v2 sgemm_12_method5_v3 sgemm_13_method6 sgemm_14_method7 sgemm_15_method8 sgemm_16_k3"
stats ARG1 using (isok(0) ? column("gflops") : NaN) nooutput
YMAX = STATS_max * 1.1
set multiplot title "SGEMM GFLOP/s vs leading-dimension padding unit"
set logscale x 2
set xlabel "padding unit (elements)"
set ylabel "GFLOP/s"
set yrange [0:YMAX]
unset key
do for [i = 1:N] {
	M = real(word(MS, i))
	eval PANEL_AT
	set title sprintf("m = n = k = %.0f", M)
	plot for [j = 1:words(KS)] ARG1 using ((isok(0) && strcol("kernel") eq word(KS, j) && column("m") == M) ? column("pad_unit") : NaN):"gflops" \
	     smooth unique with linespoints lt ks_lt(j) notitle, \
	     ""   using ((isok(0) && strcol("kernel") eq "cublas" && column("m") == M) ? column("pad_unit") : NaN):"gflops" \
	     smooth unique with linespoints pt 7 lw 3 dt 1 lc rgb "#228833" notitle
}
# The key strip below the panels, listing the kernels the run has.
eval KS_PRESENT
eval KEY_STRIP
plot for [j = 1:words(KS)] NaN with linespoints lt ks_lt(j) title (HAS[j] ? word(KS, j) : ""), \
     NaN with linespoints pt 7 lw 3 dt 1 lc rgb "#228833" title "cuBLAS"
unset multiplot
