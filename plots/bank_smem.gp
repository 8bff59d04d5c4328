# bank_smem.gp IN.csv OUT.svg|png — shared-memory bank conflicts: measured conflict degree against
# lane stride for each width, with and without the padding column; the bank model dashed.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("bank_smem.gp")]."common.gp"
set title "Shared-memory bank conflicts"
set xlabel "stride between lanes (elements)"
set ylabel "conflict degree (cycles / conflict-free cycles)"
set logscale y 2
set key top left
sel(w, p, c) = (column("width_bits") == w && column("pad") == p && strcol("status") eq "ok") ? column(c) : NaN
plot for [w in "32 64 128"] for [p in "0 1"] ARG1 using "stride":(sel(w + 0, p + 0, "conflict_degree_measured")) \
     with linespoints pt 7 ps 0.6 title w."-bit pad ".p, \
     for [w in "32 64 128"] for [p in "0 1"] "" using "stride":(sel(w + 0, p + 0, "conflict_degree_model")) \
     with lines dt 2 notitle
