# sgemm_lda.gp IN.csv OUT.svg|png — E016 (seed 000 Figures 42-49): GFLOP/s against the padding
# unit of lda = ldb = ldc, one line per kernel at the smallest and the largest size, cuBLAS bold.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("sgemm_lda.gp")]."common.gp"
set title "SGEMM GFLOP/s vs leading-dimension padding unit"
set xlabel "padding unit (elements)"
set ylabel "GFLOP/s"
set logscale x 2
set key top left font ",7" maxrows 6 samplen 2
KS = "sgemm_10_method5_v1 sgemm_11_method5_v2 sgemm_12_method5_v3 sgemm_13_method6 sgemm_14_method7 sgemm_15_method8 sgemm_16_k3"
# The smallest and largest size (lines for those two), and headroom above the curves for the key.
stats ARG1 using "m" nooutput
M0 = STATS_min
M1 = STATS_max
stats ARG1 using (strcol("status") eq "ok" ? column("gflops") : NaN) nooutput
set yrange [0:1.5 * STATS_max]
plot for [k in KS] for [n in sprintf("%d %d", M0, M1)] ARG1 using ((strcol("status") eq "ok" && strcol("kernel") eq k && column("m") == n) ? column("pad_unit") : NaN):"gflops" smooth unique with linespoints pt 7 title k." N=".n, \
     for [n in sprintf("%d %d", M0, M1)] ARG1 using ((strcol("status") eq "ok" && strcol("kernel") eq "cublas" && column("m") == n) ? column("pad_unit") : NaN):"gflops" smooth unique with linespoints pt 7 lw 3 lc rgb (n == M0 ? "black" : "#228833") title "cuBLAS N=".n
