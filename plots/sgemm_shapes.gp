# sgemm_shapes.gp IN.csv OUT.svg|png — E112 (seed 001 Figure 8): ratio to cuBLAS (pedantic FP32)
# against W for each shape [M,K,N] of the run (and seed 002's 2560x1024x2560), a panel per shape
# (two columns, in the CSV's order), one key for all panels in a strip below them. A kernel keeps
# its line style across panels and runs (its place in KS; green is cuBLAS's, as in sgemm.gp).
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("sgemm_shapes.gp")]."data.gp"
# The shapes decide the panel count, and so the height, before common.gp.
SH = ""
shi(s) = sum [i = 1:words(SH)] (word(SH, i) eq s ? i : 0)
stats ARG1 using (shi(strcol("shape")) == 0 ? (SH = SH . " " . strcol("shape"), 1) : NaN) nooutput
N = words(SH) > 0 ? words(SH) : 1
# A run at one W (the default suite) gets one panel of bars, a group per shape, instead.
stats ARG1 using (isok(0) ? column("w") : NaN) nooutput
XLO = STATS_min
XHI = STATS_max
ONEW = XLO == XHI
NC = N > 1 && !ONEW ? 2 : 1
NR = ONEW ? 1 : (N + 1) / 2
# Pixels: 40 for the title, 320 a panel row (420 for the bars), 110 for the key strip.
PH = ONEW ? 420 : 320
KH = 110
H = 40 + PH * NR + KH
load ARG0[1:strlen(ARG0)-strlen("sgemm_shapes.gp")]."common.gp"
KS = "sgemm_23_k1_8x8 sgemm_26_k1_12x12 sgemm_27_k1_12x12_lds128 sgemm_29_warptile sgemm_30_cpasync3 sgemm_31_cpasync4_bk16 sgemm_32_cpasync3_128x256 sgemm_43_tc3xtf32_128x256"
stats ARG1 using (isok(0) ? column("ratio_to_cublas") : NaN) nooutput
YMAX = STATS_max > 1 ? STATS_max * 1.1 : 1.1
set multiplot title "Seed 001 Figure 8 shapes [M,K,N]: GFLOP/s / cuBLAS GFLOP/s (pedantic FP32)"
set xlabel "W"
set ylabel "x cuBLAS"
set yrange [0:YMAX]
set xrange [XLO - (XHI - XLO) * 0.05 - 1:XHI + (XHI - XLO) * 0.05 + 1]
unset key
eval KS_PRESENT
NK = words(KS)
if (ONEW) {
	# Bars: the kernels the run has, side by side in each shape's group.
	KP = 0
	array KX[NK]
	do for [j = 1:NK] { KX[j] = HAS[j] ? (KP = KP + 1) : 0 }
	BW = 0.8 / (KP > 0 ? KP : 1)
	set origin 0, 1.0 * KH / H
	set size 1, 1.0 * PH / H
	set title sprintf("W = %.0f", XLO)
	unset xlabel
	set xrange [0.4:N + 0.6]
	set xtics () scale 0
	do for [i = 1:N] { set xtics add (word(SH, i) i) }
	set style fill solid 0.7 border -1
	plot for [j = 1:NK] ARG1 using (shi(strcol("shape")) + (KX[j] - 0.5 - KP / 2.0) * BW):((isok(0) && strcol("kernel") eq word(KS, j)) ? column("ratio_to_cublas") : NaN):(BW) \
	     with boxes lt ks_lt(j) notitle, \
	     1 with lines lc rgb "#228833" lw 3 dt 1 notitle
}
do for [i = 1:(ONEW ? 0 : N)] {
	s = word(SH, i)
	eval PANEL_AT
	set title (s eq "seed002" ? "seed002: 2560x1024x2560 at every W (repeats)" : s)
	plot for [j = 1:words(KS)] ARG1 using ((isok(0) && strcol("shape") eq s && strcol("kernel") eq word(KS, j)) ? column("w") : NaN):"ratio_to_cublas" \
	     smooth unique with linespoints lt ks_lt(j) notitle, \
	     1 with lines lc rgb "#228833" lw 3 dt 1 notitle
}
# The key strip below the panels.
eval KEY_STRIP
STY = ONEW ? "boxes" : "linespoints"
plot for [j = 1:words(KS)] NaN with @STY lt ks_lt(j) title (HAS[j] ? word(KS, j) : ""), \
     NaN with lines lw 3 dt 1 lc rgb "#228833" title "cuBLAS (= 1)"
unset multiplot
