# lat_dsm.gp IN.csv OUT.svg|png — H040 (Luo et al. 2024, Hopper DSM latency): cycles per dependent
# load of one thread's random chase against the cluster size: through ld.shared on its own block
# (local), through its own rank's cluster window (local_cluster) and through the last rank's,
# another SM's, shared memory (remote). The gap between the last two is the SM-to-SM network.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("lat_dsm.gp")]."common.gp"
eval KEY_OUT
set title "H040: distributed shared memory latency against cluster size (Luo et al. 2024)"
set xlabel "blocks per cluster"
set ylabel "cycles per dependent load"
set logscale x 2
stats ARG1 using (isok(0) ? column("cluster") : NaN) nooutput
set xrange [(exists("STATS_min") ? STATS_min : 2) / 1.4 : (exists("STATS_max") ? STATS_max : 16) * 1.4]
set yrange [0:*]
sel(w) = (strcol("what") eq w && isok(0)) ? column("cycles_per_load") : NaN
plot for [i = 1:3] ARG1 using "cluster":(sel(word("local local_cluster remote", i))) \
     with linespoints lt i title word("local local_cluster remote", i)
