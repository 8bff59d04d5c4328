# sgemm.gp IN.csv OUT.svg|png — E005/E112 (seed 000 Fig. 18, seed 001 Fig. 8 square): left, every
# ladder kernel's GFLOP/s at the largest square size with cuBLAS (pedantic FP32) and the FP32
# FFMA peak at the measured clock, the FFMA kernels in blue and the FP32-accurate 3xTF32
# tensor-core kernels (the *_tc3xtf32* variants, column "pipe") in orange; right, GFLOP/s against the square size for the seed kernels' heads,
# the modern kernels and cuBLAS; third, where the run has seed 001's 12x12 baseline at a square
# size (its sizes must divide by 192), E110 (seed 001 Figure 9): the incremental steps' GFLOP/s
# at the largest such size beside the 8x8 kernel, our best kernels and cuBLAS. Rows whose status
# is not "ok" are left out.
OUT = ARG2
# Figure 9's size (0: none) decides the panel count, and so the width, before common.gp.
set datafile separator comma
set datafile columnheaders
set datafile missing NaN
F9 = "sgemm_24_k1_12x12_base sgemm_25_k1_12x12_ld128 sgemm_26_k1_12x12 sgemm_27_k1_12x12_lds128 sgemm_28_k1_12x12_nordb sgemm_23_k1_8x8 sgemm_29_warptile sgemm_43_tc3xtf32_128x256 cublas"
stats ARG1 using ((strcol("status") eq "ok" && column("m") == column("n") && column("m") == column("k") && strcol("kernel") eq word(F9, 1)) ? column("m") : 0) nooutput
F9M = STATS_max
NP = F9M > 0 ? 3 : 2
W = NP == 3 ? 1500 : 960
load ARG0[1:strlen(ARG0)-strlen("sgemm.gp")]."common.gp"
sq(c) = (strcol("status") eq "ok" && column("m") == column("n") && column("m") == column("k"))
stats ARG1 using (sq(0) ? column("m") : NaN) nooutput
MAXM = STATS_max
set multiplot layout 1,NP title sprintf("SGEMM ladder vs cuBLAS pedantic FP32 (column-major); bars at %.0f^3", MAXM)
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
# Headroom above the curves for the key (two columns at the top).
stats ARG1 using (sq(0) ? column("gflops") : NaN) nooutput
set yrange [0:1.5 * STATS_max]
set xtics nomirror rotate by 0 font ",10"
set xlabel "N (m = n = k)"
set key top left maxrows 8 font ",7" samplen 2
KS = "sgemm_01_naive sgemm_02_smem sgemm_04_volkov sgemm_06_method1 sgemm_12_method5_v3 sgemm_16_k3 sgemm_22_p4_smemdb sgemm_23_k1_8x8 sgemm_26_k1_12x12 sgemm_29_warptile sgemm_30_cpasync3 sgemm_31_cpasync4_bk16 sgemm_32_cpasync3_128x256 sgemm_41_tc3xtf32 sgemm_43_tc3xtf32_128x256 cublas"
plot for [k in KS] ARG1 using ((sq(0) && strcol("kernel") eq k) ? column("m") : NaN):"gflops" smooth unique with linespoints pt 7 ps 0.5 lw (k eq "cublas" ? 3 : 1) title k
if (NP == 3) {
	set title sprintf("seed 001 Figure 9 steps at %.0f^3", F9M)
	unset xlabel
	set xrange [0.4:words(F9) + 0.6]
	set xtics rotate by 60 right font ",8"
	set xtics () 
	do for [i = 1:words(F9)] { set xtics add ((word(F9, i)[1:6] eq "sgemm_" ? word(F9, i)[7:30] : "cuBLAS") i) }
	unset key
	# Blue: the Figure 9 steps; grey: the 8x8 kernel and our best FFMA kernel; orange: 3xTF32
	# on the tensor cores; green: cuBLAS.
	C(i) = i <= 5 ? 0x4477aa : word(F9, i) eq "cublas" ? 0x228833 : strstrt(word(F9, i), "tc3xtf32") > 0 ? 0xee7733 : 0x999999
	G(i) = (sq(0) && column("m") == F9M && strcol("kernel") eq word(F9, i)) ? column("gflops") : NaN
	plot for [i = 1:words(F9)] ARG1 using (i):(G(i)) with boxes lc rgb C(i) notitle
}
unset multiplot
