# sgemm_lda.gp IN.csv OUT.svg|png — E016 (seed 000 Figures 42-49): GFLOP/s against the padding
# unit of lda = ldb = ldc, one line per kernel and size.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("sgemm_lda.gp")]."common.gp"
set title "SGEMM GFLOP/s vs leading-dimension padding unit"
set xlabel "padding unit (elements)"
set ylabel "GFLOP/s"
set logscale x 2
set yrange [0:*]
set key font ",8"
KS = "sgemm_10_method5_v1 sgemm_11_method5_v2 sgemm_12_method5_v3 sgemm_13_method6 sgemm_14_method7 sgemm_15_method8 sgemm_16_k3 cublas"
stats ARG1 using "m" nooutput
plot for [k in KS] for [n in sprintf("%d %d", STATS_min, STATS_max)] ARG1 using ((strcol("status") eq "ok" && strcol("kernel") eq k && column("m") == n) ? column("pad_unit") : NaN):"gflops" smooth unique with linespoints pt 7 title k." N=".n
