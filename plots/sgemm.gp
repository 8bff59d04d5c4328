# sgemm.gp IN.csv OUT.svg|png — E005/E112 (seed 000 Fig. 18, seed 001 Fig. 8 square): left, every
# ladder kernel's GFLOP/s at the largest square size with cuBLAS (pedantic FP32) and the FP32
# FFMA peak at the measured clock, the FFMA kernels in blue and the FP32-accurate 3xTF32
# tensor-core kernels (the *_tc3xtf32* variants, column "pipe") in orange; right, GFLOP/s against the square size for the seed kernels' heads,
# the modern kernels and cuBLAS. Rows whose status is not "ok" are left out.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("sgemm.gp")]."common.gp"
sq(c) = (strcol("status") eq "ok" && column("m") == column("n") && column("m") == column("k"))
stats ARG1 using (sq(0) ? column("m") : NaN) nooutput
MAXM = STATS_max
set multiplot layout 1,2 title sprintf("SGEMM ladder vs cuBLAS pedantic FP32 (column-major); bars at %.0f^3", MAXM)
set style fill solid 0.6 border -1
set boxwidth 0.7
set ylabel "GFLOP/s"
stats ARG1 using ((sq(0) && column("m") == MAXM) ? (column("peak_gflops") > column("gflops") ? column("peak_gflops") : column("gflops")) : NaN) nooutput
set yrange [0:1.4 * STATS_max]
set xtics rotate by 60 right font ",8"
set key top left
B(c) = (sq(0) && column("m") == MAXM) ? column(c) : NaN
stats ARG1 using ((sq(0) && column("m") == MAXM) ? $0 : NaN) nooutput
set xrange [STATS_min - 0.6:STATS_max + 0.6]
TC(c) = strstrt(strcol("kernel"), "tc3xtf32") > 0 ? B(c) : NaN
FF(c) = strstrt(strcol("kernel"), "tc3xtf32") > 0 ? NaN : B(c)
plot ARG1 using 0:(FF("gflops")):xticlabels((sq(0) && column("m") == MAXM) ? strcol("kernel")[1:24] : "") with boxes lc rgb "#4477aa" title "GFLOP/s (FP32 FFMA)", \
     ""   using 0:(TC("gflops")) with boxes lc rgb "#ee7733" title "GFLOP/s (3xTF32 tensor cores, FP32-accurate)", \
     ""   using 0:(B("peak_gflops")) with points pt 2 lc rgb "#cc3311" title "FP32 peak at measured clock", \
     ""   using 0:(B("cublas_gflops")) with lines lw 2 lc rgb "#228833" title "cuBLAS"
unset xtics
set autoscale x
set yrange [0:*]
set xtics nomirror rotate by 0 font ",10"
set xlabel "N (m = n = k)"
set key top left font ",8"
KS = "sgemm_01_naive sgemm_02_smem sgemm_04_volkov sgemm_06_method1 sgemm_12_method5_v3 sgemm_16_k3 sgemm_22_p4_smemdb sgemm_23_k1_8x8 sgemm_26_k1_12x12 sgemm_29_warptile sgemm_30_cpasync3 sgemm_31_cpasync4_bk16 sgemm_32_cpasync3_128x256 sgemm_41_tc3xtf32 sgemm_43_tc3xtf32_128x256 cublas"
plot for [k in KS] ARG1 using ((sq(0) && strcol("kernel") eq k) ? column("m") : NaN):"gflops" smooth unique with linespoints pt 7 ps 0.5 title k
unset multiplot
