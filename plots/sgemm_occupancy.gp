# sgemm_occupancy.gp IN.csv OUT.svg|png — E008/E009/E015 (seed 000 Tables 6, 7, 11): GFLOP/s
# against the active threads per SM that reserved shared memory leaves (occupancy API's count).
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("sgemm_occupancy.gp")]."common.gp"
set title "SGEMM GFLOP/s vs active threads per SM (shared memory reserved per block)"
set xlabel "active threads per SM"
set ylabel "GFLOP/s"
set yrange [0:*]
KS = "sgemm_04_volkov sgemm_05_volkov_lds128 sgemm_06_method1 sgemm_07_method2 sgemm_08_method3 sgemm_09_method4 sgemm_13_method6 sgemm_23_k1_8x8 sgemm_29_warptile sgemm_30_cpasync3"
plot for [k in KS] ARG1 using ((strcol("status") eq "ok" && strcol("kernel") eq k) ? column("active_threads_per_sm") : NaN):"gflops" smooth unique with linespoints pt 7 title k
