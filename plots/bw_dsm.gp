# bw_dsm.gp IN.csv OUT.svg|png — H042 (Luo et al. 2024, Hopper DSM throughput): bytes per clock into
# each SM against the cluster size, one curve per op and pattern (local: ld/st.shared; self, pair,
# ring, all_to_one: ld/st.shared::cluster), at the widest access and the most threads the run
# has, under shared memory's 128 B/clk/SM.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("bw_dsm.gp")]."common.gp"
eval KEY_OUT
stats ARG1 using (isok(0) ? column("width_bits") : NaN) nooutput
WMAX = STATS_max
stats ARG1 using (isok(0) ? column("threads") : NaN) nooutput
TMAX = STATS_max
set title sprintf("H042: distributed shared memory bandwidth, %.0f-bit accesses, %.0f threads/block", WMAX, TMAX)
set xlabel "blocks per cluster"
set ylabel "bytes per clock per SM"
set logscale x 2
stats ARG1 using (isok(0) ? column("cluster") : NaN) nooutput
set xrange [(exists("STATS_min") ? STATS_min : 2) / 1.4 : (exists("STATS_max") ? STATS_max : 16) * 1.4]
set yrange [0:140]
PATS = "local self pair ring all_to_one"
sel(o, p) = (strcol("op") eq o && strcol("pattern") eq p && column("width_bits") == WMAX && column("threads") == TMAX && isok(0)) ? column("bytes_per_clk_per_sm") : NaN
plot for [o = 1:2] for [i = 1:5] ARG1 using "cluster":(sel(word("ld st", o), word(PATS, i))) \
     with linespoints lt (o - 1) * 10 + i title word("ld st", o)." ".word(PATS, i), \
     128 with lines lc rgb "#888888" dt 3 title "shared memory (128 B/clk)"
