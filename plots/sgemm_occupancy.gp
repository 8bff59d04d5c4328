# sgemm_occupancy.gp IN.csv OUT.svg|png — E008/E009/E015 (seed 000 Tables 6, 7, 11): GFLOP/s
# against the active threads per SM that reserved shared memory leaves (occupancy API's count),
# a panel per square size (two columns) with cuBLAS (pedantic FP32, nothing reserved) at that
# size, one key for all panels in a strip below them. A kernel keeps its line style across panels
# and runs (its place in KS; green is cuBLAS's, as in sgemm.gp).
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("sgemm_occupancy.gp")]."data.gp"
# The sizes decide the panel count, and so the height, before common.gp.
DC = "m"; eval DISTINCT; MS = DV
ok(c) = isok(0)
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
	eval PANEL_AT
	set title sprintf("m = n = k = %.0f", M)
	set autoscale y
	stats ARG1 using ((ok(0) && column("m") == M) ? (column("gflops") > column("cublas_gflops") ? column("gflops") : column("cublas_gflops")) : NaN) nooutput
	set yrange [0:1.1 * STATS_max]
	plot for [j = 1:words(KS)] ARG1 using ((ok(0) && column("m") == M && strcol("kernel") eq word(KS, j)) ? column("active_threads_per_sm") : NaN):"gflops" \
	     smooth unique with linespoints lt ks_lt(j) notitle, \
	     ""  using ((ok(0) && column("m") == M) ? column("active_threads_per_sm") : NaN):"cublas_gflops" smooth unique with lines lw 3 dt 1 lc rgb "#228833" notitle
}
# The key strip below the panels, listing the kernels the run has.
eval KS_PRESENT
eval KEY_STRIP
plot for [j = 1:words(KS)] NaN with linespoints lt ks_lt(j) title (HAS[j] ? word(KS, j) : ""), \
     NaN with lines lw 3 dt 1 lc rgb "#228833" title "cuBLAS"
unset multiplot
