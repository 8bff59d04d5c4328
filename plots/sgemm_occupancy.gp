# sgemm_occupancy.gp IN.csv OUT.svg|png — E008/E009/E015 (seed 000 Tables 6, 7, 11): GFLOP/s
# against the active threads per SM that reserved shared memory leaves (occupancy API's count),
# a panel per square size (two columns) with cuBLAS (pedantic FP32, nothing reserved) at that
# size, one key for all panels in a strip below them. A kernel keeps its line style across panels
# and runs (its place in KS; green is cuBLAS's, as in sgemm.gp).
OUT = ARG2
# The distinct sizes, smallest first (rows whose status is not "ok" are left out); common.gp
# comes after, when the panel count has set the height, so the CSV settings are made here first.
set datafile separator comma
set datafile columnheaders
set datafile missing NaN
ok(c) = strcol("status") eq "ok"
MS = ""
prev = 0
while (1) {
	stats ARG1 using ((ok(0) && column("m") > prev) ? column("m") : 1e30) nooutput
	if (STATS_min >= 1e30) { break }
	prev = STATS_min
	MS = MS . sprintf(" %.0f", prev)
}
N = words(MS) > 0 ? words(MS) : 1
NC = N > 1 ? 2 : 1
NR = (N + 1) / 2
# Pixels: 40 for the title, 360 a panel row, 110 for the key strip.
PH = 360
KH = 110
H = 40 + PH * NR + KH
load ARG0[1:strlen(ARG0)-strlen("sgemm_occupancy.gp")]."common.gp"
KS = "sgemm_04_volkov sgemm_05_volkov_lds128 sgemm_06_method1 sgemm_07_method2 sgemm_08_method3 sgemm_09_method4 sgemm_13_method6 sgemm_23_k1_8x8 sgemm_29_warptile sgemm_30_cpasync3"
set multiplot title "SGEMM GFLOP/s vs active threads per SM (shared memory reserved per block)"
set xlabel "active threads per SM"
set ylabel "GFLOP/s"
unset key
do for [i = 1:N] {
	M = words(MS) > 0 ? real(word(MS, i)) : -1
	set origin 1.0 * ((i - 1) % NC) / NC, 1.0 * (KH + PH * (NR - 1 - (i - 1) / NC)) / H
	set size 1.0 / NC, 1.0 * PH / H
	set title sprintf("m = n = k = %.0f", M)
	set autoscale y
	stats ARG1 using ((ok(0) && column("m") == M) ? (column("gflops") > column("cublas_gflops") ? column("gflops") : column("cublas_gflops")) : NaN) nooutput
	set yrange [0:1.1 * STATS_max]
	plot for [j = 1:words(KS)] ARG1 using ((ok(0) && column("m") == M && strcol("kernel") eq word(KS, j)) ? column("active_threads_per_sm") : NaN):"gflops" \
	     smooth unique with linespoints lt ks_lt(j) notitle, \
	     ""  using ((ok(0) && column("m") == M) ? column("active_threads_per_sm") : NaN):"cublas_gflops" smooth unique with lines lw 3 dt 1 lc rgb "#228833" notitle
}
# The key strip: an empty plot across the full width whose only content is the key.
isok(x) = ok(0)
eval KS_PRESENT
set origin 0, 0
set size 1, 1.0 * KH / H
unset title; unset border; unset tics; unset xlabel; unset ylabel; unset grid
set xrange [0:1]
set yrange [0:1]
set key inside center center horizontal reverse Left nobox maxrows 3 width 2 font ",10"
plot for [j = 1:words(KS)] NaN with linespoints lt ks_lt(j) title (HAS[j] ? word(KS, j) : ""), \
     NaN with lines lw 3 dt 1 lc rgb "#228833" title "cuBLAS"
unset multiplot
