# sgemm.gp IN.csv OUT.svg|png — E005/E112 (seed 000 Fig. 18, seed 001 Fig. 8 square). Top: every
# ladder kernel's GFLOP/s at the largest square size as a horizontal bar, one row per kernel in
# the list's order with its name on the axis (a row the kernel cannot run says why), coloured by
# its pipe (column "pipe": FP32 FFMA, FP32-accurate 3xTF32 tensor cores, cuBLAS pedantic FP32),
# the FP32 peak at the measured clock and cuBLAS as vertical lines. Middle: GFLOP/s against the
# square size for the seed kernels' heads, the modern kernels and cuBLAS. Bottom, where the run has
# seed 001's 12x12 baseline at a square size (its sizes must divide by 192), E110 (seed 001
# Figure 9): the incremental steps at the largest such size beside the 8x8 kernel, our best
# kernels and cuBLAS. Panels are stacked so the figure keeps the report's width.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("sgemm.gp")]."data.gp"
sq(c) = column("m") == column("n") && column("m") == column("k")
ok(c) = strcol("status") eq "ok"
F9 = "sgemm_24_k1_12x12_base sgemm_25_k1_12x12_ld128 sgemm_26_k1_12x12 sgemm_27_k1_12x12_lds128 sgemm_28_k1_12x12_nordb sgemm_23_k1_8x8 sgemm_29_warptile sgemm_43_tc3xtf32_128x256 cublas"
stats ARG1 using ((ok(0) && sq(0) && strcol("kernel") eq word(F9, 1)) ? column("m") : 0) nooutput
F9M = STATS_max
stats ARG1 using ((ok(0) && sq(0)) ? column("m") : NaN) nooutput
MAXM = STATS_max
MINM = STATS_min
# One bar row per kernel at MAXM, whatever its status (the row then says why it has no bar).
NAMES = ""
stats ARG1 using ((sq(0) && column("m") == MAXM) ? (NAMES = NAMES . " " . strcol("kernel"), 1) : NaN) nooutput
NK = words(NAMES) > 0 ? words(NAMES) : 1
# Heights in pixels: the bars take 17 per kernel, the curves 430, Figure 9's panel 400.
HB = 150 + 17 * NK
HC = MINM < MAXM ? 430 : 0
HF = F9M > 0 ? 400 : 0
H = 40 + HB + HC + HF
load ARG0[1:strlen(ARG0)-strlen("sgemm.gp")]."common.gp"
set multiplot title sprintf("SGEMM ladder vs cuBLAS pedantic FP32 (column-major); bars at %.0f^3", MAXM)

# ---- bars: one row per kernel, top to bottom in the CSV's order
at(c) = sq(0) && column("m") == MAXM
bar(c) = (at(0) && ok(0)) ? column("gflops") : NaN
# The pipe column; runs older than it are told apart by the kernel's name.
CN = "pipe"; eval HAS_COL; HASPIPE = HCOL
pipeof(x) = HASPIPE ? strcol("pipe") : strcol("kernel") eq "cublas" ? "cublas" : strstrt(strcol("kernel"), "tc3xtf32") > 0 ? "3xtf32 mma" : "fp32 fma"
pipe(p) = (at(0) && ok(0) && pipeof(0) eq p) ? column("gflops") : NaN
stats ARG1 using (at(0) && ok(0) ? column("peak_gflops") : NaN) nooutput
PEAK = exists("STATS_median") ? STATS_median : NaN
stats ARG1 using (at(0) && ok(0) ? column("cublas_gflops") : NaN) nooutput
CUB = exists("STATS_median") ? STATS_median : NaN
stats ARG1 using (bar(0)) nooutput
XMAX = (PEAK > STATS_max ? PEAK : STATS_max) * 1.16
set origin 0, 1.0 * (HC + HF) / H
set size 1, 1.0 * HB / H
set lmargin 30
set rmargin 3
set tmargin 4
set bmargin 3
set xrange [0:XMAX]
set yrange [NK + 0.7:0.3]
set ytics scale 0 font ",9"
set xtics font ",10"
set grid noytics xtics lc rgb "#dddddd"
set xlabel "GFLOP/s" offset 0,0.5
set key at screen 0.5, 1.0 - 50.0 / H center top horizontal noreverse Right nobox font ",10"
set style fill solid 0.7 border -1
if (PEAK == PEAK) { set arrow 1 from PEAK, graph 0 to PEAK, graph 1 nohead dt 2 lw 2 lc rgb "#cc3311" front }
if (CUB == CUB) { set arrow 2 from CUB, graph 0 to CUB, graph 1 nohead dt 3 lw 2 lc rgb "#228833" front }
# The counter n numbers the rows at MAXM; each plot clause counts again from 0.
set ytics ()
do for [i = 1:words(NAMES)] { set ytics add (word(NAMES, i) i) }
plot n = 0, ARG1 using (0):(at(0) ? (n = n + 1) : NaN):(0):(pipe("fp32 fma")):(n - 0.36):(n + 0.36) with boxxyerror lc rgb "#4477aa" title "FP32 FFMA kernels", \
     n = 0, ""  using (0):(at(0) ? (n = n + 1) : NaN):(0):(pipe("3xtf32 mma")):(n - 0.36):(n + 0.36) with boxxyerror lc rgb "#ee7733" title "3xTF32 tensor cores (FP32-accurate)", \
     n = 0, ""  using (0):(at(0) ? (n = n + 1) : NaN):(0):(pipe("cublas")):(n - 0.36):(n + 0.36) with boxxyerror lc rgb "#228833" title "cuBLAS", \
     n = 0, ""  using (bar(0)):(at(0) ? (n = n + 1) : NaN):(sprintf(" %.0f", bar(0))) with labels left font ",8" notitle, \
     n = 0, ""  using (0):(at(0) ? (n = n + 1) : NaN):(ok(0) ? "" : " ".strcol("status")[1:60]) with labels left font ",8" tc rgb "#777777" notitle, \
     NaN with lines dt 2 lw 2 lc rgb "#cc3311" title sprintf("FP32 peak at measured clock (%.0f)", PEAK), \
     NaN with lines dt 3 lw 2 lc rgb "#228833" title sprintf("cuBLAS (%.0f)", CUB)
unset arrow
unset label

# ---- GFLOP/s against the square size (a run of one size has its numbers in the bars)
if (HC > 0) {
	set origin 0, 1.0 * HF / H
	set size 1, 1.0 * HC / H
	set lmargin 10
	set rmargin -1
	set tmargin 2
	set bmargin 4
	set autoscale
	set ytics autofreq scale 1 font ",10"
	set grid ytics noxtics
	set xlabel "N (m = n = k)" offset 0,0
	set ylabel "GFLOP/s"
	set yrange [0:*]
	set key outside right top vertical Left reverse nobox font ",9"
	# A kernel keeps its line style from run to run (its place in KS); green is cuBLAS's.
	KS = "sgemm_01_naive sgemm_02_smem sgemm_04_volkov sgemm_06_method1 sgemm_12_method5_v3 sgemm_16_k3 sgemm_22_p4_smemdb sgemm_23_k1_8x8 sgemm_26_k1_12x12 sgemm_29_warptile sgemm_30_cpasync3 sgemm_31_cpasync4_bk16 sgemm_32_cpasync3_128x256 sgemm_41_tc3xtf32 sgemm_43_tc3xtf32_128x256"
	plot for [i = 1:words(KS)] ARG1 using ((ok(0) && sq(0) && strcol("kernel") eq word(KS, i)) ? column("m") : NaN):"gflops" smooth unique with linespoints lt ks_lt(i) title word(KS, i), \
	     ""   using ((ok(0) && sq(0) && strcol("kernel") eq "cublas") ? column("m") : NaN):"gflops" smooth unique with linespoints pt 7 ps 0.6 lw 3 dt 1 lc rgb "#228833" title "cuBLAS"
}

# ---- seed 001 Figure 9
if (HF > 0) {
	set origin 0, 0
	set size 1, 1.0 * HF / H
	set title sprintf("seed 001 Figure 9 steps at %.0f^3", F9M)
	unset xlabel
	set xrange [0.4:words(F9) + 0.6]
	set xtics rotate by 30 right font ",9" scale 0
	set xtics ()
	do for [i = 1:words(F9)] { set xtics add ((word(F9, i)[1:6] eq "sgemm_" ? word(F9, i)[7:30] : "cuBLAS") i) }
	set yrange [0:*]
	set grid ytics noxtics
	set boxwidth 0.7
	set style fill solid 0.7 border -1
	set bmargin 7
	unset key
	# Blue: the Figure 9 steps; grey: the 8x8 kernel and our best FFMA kernel; orange: 3xTF32
	# on the tensor cores; green: cuBLAS.
	C(i) = i <= 5 ? 0x4477aa : word(F9, i) eq "cublas" ? 0x228833 : strstrt(word(F9, i), "tc3xtf32") > 0 ? 0xee7733 : 0x999999
	G(i) = (ok(0) && sq(0) && column("m") == F9M && strcol("kernel") eq word(F9, i)) ? column("gflops") : NaN
	plot for [i = 1:words(F9)] ARG1 using (i):(G(i)) with boxes lt 1 lc rgb C(i) notitle, \
	     for [i = 1:words(F9)] ARG1 using (i):(G(i)):(sprintf("%.0f", G(i))) with labels offset 0,0.7 font ",9" notitle
}
unset multiplot
