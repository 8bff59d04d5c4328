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
set yrange [0:*]
set y2range [0:105]
set style fill solid 0.5
set boxwidth 0.6
ok(c) = strcol("status") eq "ok" ? column(c) : NaN
plot ARG1 using "pad":(ok("bandwidth_GBps")) with boxes title "measured GB/s", \
     ""   using "pad":"model_efficiency_pct" axes x1y2 with linespoints pt 7 lw 2 title "sector model (%)"
