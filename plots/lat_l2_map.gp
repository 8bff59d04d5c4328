# lat_l2_map.gp IN.csv OUT.svg|png — L2-hit latency from every SM (x, %smid) to every sample line
# (y, its index in the buffer) as a heat map: a line near to some SMs and far from others shows as
# a colour change along x; lines near to every SM stay one colour. Rows of the configuration with
# the most lines; the colour scale stops at the upper quartile + 3 IQR so a few slow cells do not
# wash out the rest.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("lat_l2_map.gp")]."common.gp"
stats ARG1 using (isok(0) ? column("lines") : NaN) nooutput
NL = STATS_max
sel(c) = (isok(0) && column("lines") == NL) ? column(c) : NaN
stats ARG1 using (sel("cycles")) nooutput
CB_LO = STATS_min
CB_HI = STATS_up_quartile + 3 * (STATS_up_quartile - STATS_lo_quartile)
CB_HI = CB_HI > STATS_max ? STATS_max : CB_HI
CB_HI = CB_HI > CB_LO ? CB_HI : CB_LO + 1
set title "L2-hit latency by SM and line (ld.global.cg, warmed by the SM)"
set xlabel "SM (%smid)"
set ylabel "sample line"
set cblabel "cycles per load"
set cbrange [CB_LO:CB_HI]
set palette defined (0 "#313695", 1 "#74add1", 2 "#ffffbf", 3 "#f46d43", 4 "#a50026")
set xrange [-0.5:*]
set xtics out
set yrange [-1:NL]
set key off
set grid noytics

plot ARG1 using (sel("sm")):(sel("line")):(sel("cycles")) with image
