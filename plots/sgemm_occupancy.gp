# sgemm_occupancy.gp IN.csv OUT.svg|png — E008/E009/E015 (seed 000 Tables 6, 7, 11): GFLOP/s
# against the active threads per SM that reserved shared memory leaves (occupancy API's count),
# a panel per square size with cuBLAS (pedantic FP32, nothing reserved) at that size.
OUT = ARG2
# The distinct sizes, smallest first (rows whose status is not "ok" are left out); common.gp
# comes after, when the panel count has set the width, so the CSV settings are made here first.
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
W = N > 1 ? 1400 : 960
H = N > 2 ? 450 * NR : 600
load ARG0[1:strlen(ARG0)-strlen("sgemm_occupancy.gp")]."common.gp"
set multiplot layout NR,NC title "SGEMM GFLOP/s vs active threads per SM (shared memory reserved per block)"
set xlabel "active threads per SM"
set ylabel "GFLOP/s"
set key top left font ",8" maxrows 4
KS = "sgemm_04_volkov sgemm_05_volkov_lds128 sgemm_06_method1 sgemm_07_method2 sgemm_08_method3 sgemm_09_method4 sgemm_13_method6 sgemm_23_k1_8x8 sgemm_29_warptile sgemm_30_cpasync3"
do for [i = 1:N] {
	M = words(MS) > 0 ? real(word(MS, i)) : -1
	set title sprintf("m = n = k = %.0f", M)
	# Headroom above the curves and cuBLAS for the key.
	stats ARG1 using ((ok(0) && column("m") == M) ? (column("gflops") > column("cublas_gflops") ? column("gflops") : column("cublas_gflops")) : NaN) nooutput
	set yrange [0:1.45 * STATS_max]
	plot for [k in KS] ARG1 using ((ok(0) && column("m") == M && strcol("kernel") eq k) ? column("active_threads_per_sm") : NaN):"gflops" smooth unique with linespoints pt 7 title k, \
	     ""  using ((ok(0) && column("m") == M) ? column("active_threads_per_sm") : NaN):"cublas_gflops" smooth unique with lines lw 2 lc rgb "#228833" dt 2 title "cuBLAS"
}
unset multiplot
