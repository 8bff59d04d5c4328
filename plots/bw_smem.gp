# bw_smem.gp IN.csv OUT.svg|png — E107 (seed 001 Figure 4): shared-memory bytes per clock per SM against
# data volume per SM, one curve per op, width and pattern, under the conflict-free bank ceiling.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("bw_smem.gp")]."common.gp"
eval KEY_OUT
set xlabel "bytes moved per SM"
set ylabel "bytes per clock per SM"
set logscale x 2
set format x "%.0b%B"
set yrange [0:*]
# A sweep over warps per SM has a row per warp count: the curves are at the most warps. The
# ceiling is the run's own (column ceiling_bytes_per_clk: banks x bank width).
stats ARG1 using (isok(0) ? column("warps_per_sm") : NaN) nooutput
WMAX = STATS_max
stats ARG1 using "ceiling_bytes_per_clk" nooutput
CEIL = STATS_median
set title sprintf("E107: shared-memory bandwidth against data volume, %.0f warps/SM (seed 001 Figure 4)", WMAX)
DC = "width_bits"; eval DISTINCT; WS = DV
NW = words(WS)
sel(o, w, p) = (strcol("op") eq o && column("width_bits") == w && strcol("pattern") eq p && column("warps_per_sm") == WMAX && isok(0)) ? column("bytes_per_clk_per_sm") : NaN
plot for [o = 1:2] for [i = 1:NW] ARG1 using "bytes_per_sm":(sel(word("lds sts", o), real(word(WS, i)), "conflict_free")) \
     with linespoints lt (o - 1) * NW + i dt 1 ps 0.6 title word("lds sts", o).".".word(WS, i), \
     for [i = 1:NW] ""   using "bytes_per_sm":(sel("lds", real(word(WS, i)), "broadcast")) with linespoints lt 8 + i dt 2 title "lds.".word(WS, i)." broadcast", \
     CEIL with lines lc rgb "#888888" dt 3 title sprintf("bank ceiling (%.0f B/clk)", CEIL)
