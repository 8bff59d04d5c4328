# bw_hbm.gp IN.csv OUT.svg|png — bandwidth ceilings: L2 read, HBM read/write/copy kernels and
# cuMemcpyDtoD, bars against each one's ceiling (copies count read + write bytes), the % of the
# ceiling above each measured bar.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("bw_hbm.gp")]."common.gp"
eval KEY_OUT
set title "L2 and HBM bandwidth against their ceilings"
set ylabel "GB/s"
set yrange [0:*]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.6 border -1
ok(c) = isok(0) ? column(c) : NaN
# The measured bar of a two-bar cluster (gap 1) is centred 1/6 left of the row's place: the %
# of its ceiling sits above it.
plot ARG1 using (ok("bandwidth_GBps")):xtic(strcol("op")) title "measured", \
     ""   using (ok("ceiling_GBps")) title "ceiling", \
     ""   using ($0 - 1.0 / 6):(ok("bandwidth_GBps")):(sprintf("%.0f%%", 100 * ok("bandwidth_GBps") / column("ceiling_GBps"))) with labels offset 0, 0.8 font ",9" notitle
