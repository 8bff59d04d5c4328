# dgemm.gp IN.csv OUT.svg|png — E301-E305 (seed 003 Tables 1-4, Figures 2-3): double-precision
# GFLOP/s against N for the seed's kernels and cuBLAS DGEMM (bold green, as in the SGEMM charts).
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("dgemm.gp")]."common.gp"
eval KEY_OUT
set title "Seed 003 kernels in double vs cuBLAS DGEMM"
set xlabel "N"
set ylabel "GFLOP/s"
set logscale y
set key font ",9"
KS = "dgemm_01_naive dgemm_02_smem16 dgemm_03_smem32 dgemm_04_ilp4 dgemm_05_k3_16x16 dgemm_05_k3_16x8 dgemm_05_k3_8x8 dgemm_05_k3_8x4 dgemm_05_k3_4x4 dgemm_06_k3_16x16_c dgemm_06_k3_16x8_c"
plot for [j = 1:words(KS)] ARG1 using ((strcol("status") eq "ok" && strcol("kernel") eq word(KS, j)) ? column("m") : NaN):"gflops" smooth unique with linespoints ps 0.6 lt ks_lt(j) title word(KS, j), \
     "" using ((strcol("status") eq "ok" && strcol("kernel") eq "cublas_d") ? column("m") : NaN):"gflops" smooth unique with linespoints pt 7 ps 0.6 lw 3 dt 1 lc rgb "#228833" title "cuBLAS (cublasDgemm)"
