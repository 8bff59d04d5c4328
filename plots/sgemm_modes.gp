# sgemm_modes.gp IN.csv OUT.svg|png — cuBLAS SGEMM in each FP32 mode: TFLOP/s at the measured
# clock per mode (left) and the error against FP64 dot products on the sampled entries (right,
# log scale: median filled, max open), one series per size and input distribution. The modes run
# along x in the order the run measured them.
OUT = ARG2
W = 960
H = 520
load ARG0[1:strlen(ARG0)-strlen("sgemm_modes.gp")]."common.gp"
# The modes (first appearance) and the (m, dist) series over ok rows.
MODES = ""
SERIES = ""
has(list, w) = strstrt(" " . list . " ", " " . w . " ") > 0
stats ARG1 using (isok(0) ? (MODES = has(MODES, strcol("mode")) ? MODES : MODES . " " . strcol("mode"), \
	S = strcol("m") . "/" . strcol("dist"), SERIES = has(SERIES, S) ? SERIES : SERIES . " " . S, 1) : NaN) nooutput
NM = words(MODES)
NS = words(SERIES)
xof(md) = sum [i = 1:NM] (word(MODES, i) eq md ? i : 0)
sel(s) = isok(0) && (strcol("m") . "/" . strcol("dist")) eq s
set xrange [0.5:NM + 0.5]
set xtics () rotate by 30 right font ",10"
do for [i = 1:NM] { set xtics add (word(MODES, i) i) }
set multiplot layout 1,2 title "cuBLAS SGEMM, FP32 modes: speed and accuracy (m = n = k)"
set title "TFLOP/s at the measured clock"
set ylabel "TFLOP/s"
set yrange [0:*]
set key below font ",8" maxrows 4
plot for [j = 1:NS] ARG1 using (sel(word(SERIES, j)) ? xof(strcol("mode")) : NaN):"tflops" \
	with linespoints lt j title word(SERIES, j)
set title "error vs FP64: |c - r| / sum |a b|"
set ylabel "relative error"
set logscale y
set format y "1e%T"
set yrange [*:*]
set key below font ",8" maxrows 4
plot for [j = 1:NS] ARG1 using (sel(word(SERIES, j)) ? xof(strcol("mode")) : NaN):"err_median" \
	with linespoints lt j title word(SERIES, j) . " median", \
     for [j = 1:NS] ARG1 using (sel(word(SERIES, j)) ? xof(strcol("mode")) : NaN):"err_max" \
	with points lt j + 10 title word(SERIES, j) . " max"
unset multiplot
