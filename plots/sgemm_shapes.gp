# sgemm_shapes.gp IN.csv OUT.svg|png — E112 (seed 001 Figure 8): ratio to cuBLAS (pedantic FP32)
# against W for the five shapes [M,K,N] (and seed 002's 2560x1024x2560); a panel per shape.
OUT = ARG2
W = 1400
H = 860
load ARG0[1:strlen(ARG0)-strlen("sgemm_shapes.gp")]."common.gp"
set multiplot layout 2,3 title "Seed 001 Figure 8 shapes [M,K,N]: GFLOP/s / cuBLAS GFLOP/s (pedantic FP32)"
set xlabel "W"
set ylabel "x cuBLAS"
set xtics font ",9"
set yrange [0:2]
set key top left font ",7" maxrows 8 samplen 2 spacing 0.8 nobox
KS = "sgemm_23_k1_8x8 sgemm_26_k1_12x12 sgemm_27_k1_12x12_lds128 sgemm_29_warptile sgemm_30_cpasync3 sgemm_31_cpasync4_bk16 sgemm_32_cpasync3_128x256 sgemm_43_tc3xtf32_128x256"
do for [s in "www w2w4w w4ww 4ww4w 4w2ww seed002"] {
	set title (s eq "seed002" ? "seed002: 2560x1024x2560 at every W (repeats)" : s)
	plot for [k in KS] ARG1 using ((strcol("status") eq "ok" && strcol("shape") eq s && strcol("kernel") eq k) ? column("w") : NaN):"ratio_to_cublas" smooth unique with linespoints pt 7 ps 0.5 title k, \
	     1 with lines lc rgb "#228833" lw 2 dt 2 title "cuBLAS"
}
unset multiplot
