# bw_tma.gp IN.csv OUT.svg|png — H021: TMA loads streaming an HBM footprint into shared memory,
# GB/s against the box size, a colour per copy kind (cp.async.bulk, cp.async.bulk.tensor.Nd) and
# a panel per blocks per SM (stacked). Points, not lines: several stage counts share a box size.
# The HBM datasheet rate (the ceiling) is the dashed line.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("bw_tma.gp")]."data.gp"
DC = "blocks_per_sm"; eval DISTINCT; BS = DV
NP = words(BS) > 0 ? words(BS) : 1
H = 80 + 290 * NP
load ARG0[1:strlen(ARG0)-strlen("bw_tma.gp")]."common.gp"
eval KEY_OUT
KINDS = "bulk 1d 2d 3d 4d 5d"
stats ARG1 using (isok(0) ? column("box_bytes") : NaN) nooutput
set xrange [STATS_min / 1.5:STATS_max * 1.5]
stats ARG1 using "ceiling_GBps" nooutput
PEAK = STATS_max
set yrange [0:PEAK * 1.1]
set multiplot layout NP,1 title "H021: TMA loads global -> shared against box size (HBM footprint read once)"
set xlabel "bytes per copy (box)"
set ylabel "GB/s"
set logscale x 2
set format x "%.0b%B"
sel(b, k) = (column("blocks_per_sm") == b && strcol("copy") eq k && isok(0)) ? column("bandwidth_GBps") : NaN
do for [i = 1:NP] {
	b = real(word(BS, i))
	set title sprintf("%.0f block(s) per SM", b)
	# Each kind's points shifted a little along x, so none hides another.
	plot for [j = 1:6] ARG1 using (column("box_bytes") * 2 ** ((j - 3.5) * 0.06)):(sel(b, word(KINDS, j))) with points lt j ps 0.9 \
	     title word(KINDS, j), \
	     PEAK with lines dt 2 lc rgb "#888888" title sprintf("HBM datasheet (%.0f)", PEAK)
}
unset multiplot
