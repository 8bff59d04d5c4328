# sgemm_lda.gp IN.csv OUT.svg|png — E016 (seed 000 Figures 42-49): GFLOP/s against the padding
# unit of lda = ldb = ldc, a panel per size (two columns), one line per kernel with cuBLAS bold, one
# key for all panels in a strip of its own below them. A kernel keeps its line style across panels
# and runs (its place in KS; green is cuBLAS's, as in sgemm.gp).
OUT = ARG2
set datafile separator comma
set datafile columnheaders
set datafile missing NaN
isok(x) = strcol("status") eq "ok"
# The sizes decide the panel count, and so the height, before common.gp.
MS = ""
prev = 0
while (1) {
	stats ARG1 using ((isok(0) && column("m") > prev) ? column("m") : 1e30) nooutput
	if (STATS_min >= 1e30) { break }
	prev = STATS_min
	MS = MS . sprintf(" %.0f", prev)
}
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
	set origin 1.0 * ((i - 1) % NC) / NC, 1.0 * (KH + PH * (NR - 1 - (i - 1) / NC)) / H
	set size 1.0 / NC, 1.0 * PH / H
	set title sprintf("m = n = k = %.0f", M)
	plot for [j = 1:words(KS)] ARG1 using ((isok(0) && strcol("kernel") eq word(KS, j) && column("m") == M) ? column("pad_unit") : NaN):"gflops" \
	     smooth unique with linespoints lt ks_lt(j) notitle, \
	     ""   using ((isok(0) && strcol("kernel") eq "cublas" && column("m") == M) ? column("pad_unit") : NaN):"gflops" \
	     smooth unique with linespoints pt 7 lw 3 dt 1 lc rgb "#228833" notitle
}
# The key strip: an empty plot across the full width whose only content is the key.
set origin 0, 0
set size 1, 1.0 * KH / H
unset title; unset border; unset tics; unset xlabel; unset ylabel; unset logscale; unset grid
set xrange [0:1]
set yrange [0:1]
set key inside center center horizontal reverse Left nobox maxrows 3 width 2 font ",10"
eval KS_PRESENT
plot for [j = 1:words(KS)] NaN with linespoints lt ks_lt(j) title (HAS[j] ? word(KS, j) : ""), \
     NaN with linespoints pt 7 lw 3 dt 1 lc rgb "#228833" title "cuBLAS"
unset multiplot
