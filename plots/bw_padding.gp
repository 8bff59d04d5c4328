# bw_padding.gp IN.csv OUT.svg|png — E016: column-walk GB/s against lda padding; model sector efficiency
# (lda = 0 mod 8: 100 %, 4 mod 8: 88.9 %, odd: 82.1 %) on the right axis.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("bw_padding.gp")]."common.gp"
set title "E016: padding — GEMM-like column walk against lda"
set xlabel "pad (lda = rows + pad)"
set ylabel "GB/s"
set y2label "model sector efficiency (%)"
set y2tics
set ytics nomirror
# 100 % on the right axis sits at the best measured GB/s on the left (as in bw_coalesce).
stats ARG1 using (isok(0) ? column("bandwidth_GBps") : NaN) nooutput
BEST = STATS_max
set yrange [0:BEST * 1.08]
set y2range [0:108]
stats ARG1 using "pad" nooutput
set xrange [STATS_min - 1:STATS_max + 1]
set style fill solid 0.5 border -1
set key outside top center horizontal noreverse Right nobox
# A bar per path side by side at each pad (the paths in the CSV's order).
PATHS = ""
pi(s) = sum [i = 1:words(PATHS)] (word(PATHS, i) eq s ? i : 0)
stats ARG1 using (pi(strcol("path")) == 0 ? (PATHS = PATHS . " " . strcol("path"), 1) : NaN) nooutput
NQ = words(PATHS)
BW = 0.8 / NQ
ok(q, c) = (isok(0) && strcol("path") eq q) ? column(c) : NaN
plot for [i = 1:NQ] ARG1 using (column("pad") + (i - 0.5 - NQ / 2.0) * BW):(ok(word(PATHS, i), "bandwidth_GBps")):(BW) with boxes lt i \
	title "measured GB/s, ".word(PATHS, i)." path", \
     ""   using "pad":"model_efficiency_pct" axes x1y2 with linespoints pt 7 lw 2 dt 1 lc rgb "#000000" title "sector model (%)"
