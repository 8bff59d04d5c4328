# lat_cluster_barrier.gp IN.csv OUT.svg|png — H041 (Luo et al. 2024, cluster synchronization): cycles
# per barrier against the cluster size: barrier.cluster arrive + wait with release/acquire (sync)
# and with a relaxed arrive, beside the block's own bar.sync (cta), at the fewest threads per
# block the run has.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("lat_cluster_barrier.gp")]."common.gp"
eval KEY_OUT
stats ARG1 using (isok(0) ? column("threads") : NaN) nooutput
TMIN = STATS_min
set title sprintf("H041: cluster barrier against cluster size, %.0f threads/block", TMIN)
set xlabel "blocks per cluster"
set ylabel "cycles per barrier"
set logscale x 2
stats ARG1 using (isok(0) ? column("cluster") : NaN) nooutput
set xrange [(exists("STATS_min") ? STATS_min : 2) / 1.4 : (exists("STATS_max") ? STATS_max : 16) * 1.4]
set yrange [0:*]
sel(k) = (strcol("kind") eq k && column("threads") == TMIN && isok(0)) ? column("cycles_per_barrier") : NaN
plot for [i = 1:3] ARG1 using "cluster":(sel(word("sync relaxed cta", i))) with linespoints lt i title word("sync relaxed cta", i)
