# bw_hbm.gp IN.csv OUT.svg|png — bandwidth ceilings: L2 read, HBM read/write/copy kernels and
# cuMemcpyDtoD, bars against each one's ceiling (copies count read + write bytes).
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("bw_hbm.gp")]."common.gp"
set title "L2 and HBM bandwidth against their ceilings"
set ylabel "GB/s"
set yrange [0:*]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.6 border -1
set key top right
plot ARG1 using "bandwidth_GBps":xtic(strcol("op")) title "measured", \
     ""   using "ceiling_GBps" title "ceiling"
