# lat_tma.gp IN.csv OUT.svg|png — H020: the latency of one TMA copy (issue to mbarrier completion)
# against the box size, a colour per copy kind (cp.async.bulk, cp.async.bulk.tensor.Nd), solid
# for boxes in L2 and dashed for boxes in HBM.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("lat_tma.gp")]."common.gp"
eval KEY_OUT
KINDS = "bulk 1d 2d 3d 4d 5d"
set title "H020: one TMA copy, issue to mbarrier completion"
set xlabel "bytes per copy (box)"
set ylabel "cycles per copy"
set logscale x 2
set format x "%.0b%B"
set yrange [0:*]
sel(k, l) = (strcol("copy") eq k && strcol("level") eq l && isok(0)) ? column("cycles_per_copy") : NaN
plot for [j = 1:6] ARG1 using "box_bytes":(sel(word(KINDS, j), "l2")) with linespoints lt j title word(KINDS, j) . " L2", \
     for [j = 1:6] ARG1 using "box_bytes":(sel(word(KINDS, j), "hbm")) with linespoints lt (j + 10) title word(KINDS, j) . " HBM"
