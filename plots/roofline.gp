# roofline.gp IN.csv OUT.svg|png — seed 001 Figure 10 from roofline.csv (gpuprobe models), two
# panels stacked. Top: every SGEMM kernel at its tile's global intensity (M103) under the roofs
# of the levels that can feed it: HBM, L2 and L1 (the L1 is the shared-memory SRAM, so its rate
# is bw_smem's), all read rates measured in the run. A kernel above the HBM roof re-reads its
# tiles from L2; above the L2 roof, from L1 (the naive kernels). Bottom: the kernels at their
# shared-memory intensity in bank traffic under the shared-memory roof. Both under the FP32 rate
# the run achieved. Names are too many to sit beside their points (kernels share tile shapes,
# so they share intensities): each goes in a column on the right, sorted by GFLOP/s and spaced
# to stay legible, with a leader line to its point.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("roofline.gp")]."data.gp"
stats ARG1 using "gflops_measured" nooutput
NK = STATS_records
# Each panel gives every name a 14-pixel row.
HP = NK * 14 + 190 > 480 ? NK * 14 + 190 : 480
H = 40 + 2 * HP
load ARG0[1:strlen(ARG0)-strlen("roofline.gp")]."common.gp"
undefine STATS_*
stats ARG1 using "roof_fp32" nooutput
FP32 = STATS_max
# The roofs' rates (GB/s); NaN where the run did not measure one, and that roof is not drawn.
array BW[3]
array BWN[3] = ["HBM read", "L2 read", "L1 / shared (LDS.128)"]
array BWC[3] = ["#cc3311", "#ee7733", "#228833"]
do for [r = 1:3] {
	undefine STATS_*
	stats ARG1 using (r == 1 ? column("bw_hbm_GBps") : r == 2 ? column("bw_l2_GBps") : column("bw_smem_GBps")) nooutput
	BW[r] = exists("STATS_max") ? STATS_max : NaN
}
# The roofs stop short of the name column (XL, set per panel).
roof(x, bw) = x > XL / 1.15 ? NaN : (x * bw < FP32) ? x * bw : FP32
set logscale xy
set xlabel "arithmetic intensity (flop/byte)"
set ylabel "GFLOP/s"
set format y "%.0s%c"
set samples 400
set key outside bottom center horizontal noreverse Right nobox font ",10" maxrows 2
set bmargin 7
set xlabel offset 0,0.3
array X[NK]
array Y[NK]
array LY[NK]
array ORD[NK]
set multiplot title sprintf("Rooflines (seed 001 Fig. 10): FP32 %.0f GFLOP/s achieved; kernels by measured GFLOP/s", FP32)
do for [P = 1:2] {
	XC = P == 1 ? "intensity_global" : "intensity_shared_bank"
	set origin 0, (2 - P) * 1.0 * HP / H
	set size 1, 1.0 * HP / H
	if (P == 1) {
		set title "global memory: the tile's intensity (M103) under the read roofs of the levels that can feed it"
	} else {
		set title sprintf("shared memory: intensity in bank traffic under the LDS.128 roof (%.0f GB/s)", BW[3])
	}
	# The kernels with a point on this panel, then their order by GFLOP/s, highest first.
	n = 0
	NM = ""
	set autoscale
	undefine STATS_*
	stats ARG1 using ((column(XC) > 0 && column("gflops_measured") > 0) ? (n = n + 1, X[n] = column(XC), Y[n] = column("gflops_measured"), NM = NM . " " . strcol("kernel"), 1) : NaN) nooutput
	if (n == 0) { set label 1 "no kernel of this run has this intensity" at graph 0.5, 0.5 center; plot [1:10] [1:10] NaN notitle; unset label 1; continue }
	do for [i = 1:n] { ORD[i] = i }
	do for [i = 1:n] { do for [j = i + 1:n] { if (Y[ORD[j]] > Y[ORD[i]]) { t = ORD[i]; ORD[i] = ORD[j]; ORD[j] = t } } }
	XMIN = 1e300; XMAXP = 0; YMIN = 1e300
	do for [i = 1:n] { XMIN = X[i] < XMIN ? X[i] : XMIN; XMAXP = X[i] > XMAXP ? X[i] : XMAXP; YMIN = Y[i] < YMIN ? Y[i] : YMIN }
	# Room left of the points for every roof's ridge (where it meets FP32).
	do for [r = 1:(P == 1 ? 3 : 0)] { if (BW[r] == BW[r] && FP32 / BW[r] < XMIN) { XMIN = FP32 / BW[r] } }
	if (P == 2 && BW[3] == BW[3] && FP32 / BW[3] < XMIN) { XMIN = FP32 / BW[3] }
	XLO = XMIN / 3
	XL = XMAXP * 2.5
	# The name column takes the right quarter of the width.
	XHI = exp((log(XL) - 0.3 * log(XLO)) / 0.7)
	YLO = YMIN / 3
	YHI = FP32 * 1.8
	set xrange [XLO:XHI]
	set yrange [YLO:YHI]
	# A name row is 14 pixels: as a ratio of GFLOP/s on this log axis over the plot's height.
	STEP = exp(log(YHI / YLO) * 14.0 / (HP - 170))
	# Top down, each name at its point or one row under the one above; then bottom up, so the
	# last rows stay inside the axis.
	do for [k = 1:n] { LY[k] = Y[ORD[k]]; if (k > 1 && LY[k] > LY[k - 1] / STEP) { LY[k] = LY[k - 1] / STEP } }
	if (LY[n] < YLO * STEP) { LY[n] = YLO * STEP }
	do for [k = n - 1:1:-1] { if (LY[k] < LY[k + 1] * STEP) { LY[k] = LY[k + 1] * STEP } }
	unset label
	unset arrow
	do for [k = 1:n] {
		i = ORD[k]
		nm = word(NM, i)
		txt = nm[1:6] eq "sgemm_" ? nm[7:] : nm
		set label k txt at XL, LY[k] left font ",9" front
		set arrow k from X[i], Y[i] to XL / 1.08, LY[k] nohead lw 0.5 lc rgb "#aaaaaa" back
	}
	if (P == 1) {
		plot for [r = 1:3] (BW[r] == BW[r] ? roof(x, BW[r]) : NaN) with lines lw 2 dt 1 lc rgb BWC[r] title (BW[r] == BW[r] ? sprintf("%s %.0f GB/s", BWN[r], BW[r]) : ""), \
		     (x > XL / 1.15 ? NaN : FP32) with lines lw 1 dt 2 lc rgb "#777777" title sprintf("FP32 %.0f GFLOP/s", FP32), \
		     ARG1 using XC:"gflops_measured" with points pt 7 ps 0.8 lc rgb "#4477aa" title "kernel (measured)"
	} else {
		plot (BW[3] == BW[3] ? roof(x, BW[3]) : NaN) with lines lw 2 dt 1 lc rgb BWC[3] title (BW[3] == BW[3] ? sprintf("%s %.0f GB/s", BWN[3], BW[3]) : ""), \
		     (x > XL / 1.15 ? NaN : FP32) with lines lw 1 dt 2 lc rgb "#777777" title sprintf("FP32 %.0f GFLOP/s", FP32), \
		     ARG1 using XC:"gflops_measured" with points pt 7 ps 0.8 lc rgb "#4477aa" title "kernel (measured)"
	}
}
unset multiplot
