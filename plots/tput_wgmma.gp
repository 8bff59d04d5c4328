# tput_wgmma.gp IN.csv OUT.svg|png — H011: wgmma.mma_async throughput over the whole GPU as % of
# the type's dense tensor rate per SM per clock at the clock measured under the load (sparse rows
# against twice it), against N of m64nNk, one line per type, A source and form. Rows of the run's
# most common launch shape (other shapes would zigzag a line). Types at the same share overlap.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("tput_wgmma.gp")]."common.gp"
# The launch shape (warpgroups per block, blocks per SM) with the most ok rows; of equals, the
# one of most warpgroups (the default suite's 2 x 1).
WBEST = 0
BBEST = 0
WN = 0
do for [w = 1:4] {
	do for [b = 1:4] {
		undefine STATS_*
		stats ARG1 using ((isok(0) && column("warpgroups") == w && column("blocks_per_sm") == b) ? 1 : NaN) nooutput
		if (exists("STATS_records") && STATS_records >= WN && STATS_records > 0) { WN = STATS_records; WBEST = w; BBEST = b }
	}
}
set title sprintf("H011: wgmma throughput, %% of the dense tensor rate at the measured clock (%d warpgroups x %d blocks per SM)", WBEST, BBEST)
set xlabel "N (wgmma m64nNk)"
set ylabel "% of the dense rate (sparse: 2x dense)"
set logscale x 2
# The N the run measured, with room either side (a default run has N = 256 alone: the axis then
# centres it instead of leaving it at the right edge of an empty 8..256 range).
undefine STATS_*
stats ARG1 using (isok(0) ? column("n") : NaN) nooutput
set xrange [(exists("STATS_min") ? STATS_min : 8) / 1.5 : (exists("STATS_max") ? STATS_max : 256) * 1.5]
set xtics (8, 16, 32, 64, 128, 256)
set yrange [0:110]
eval KEY_OUT
TYPES = "f16 bf16 tf32 e4m3 e5m2 s8"
# Series i = 0..23: type word(TYPES, i / 4 + 1), A from shared (even i) or registers, dense or sparse.
ty(i) = word(TYPES, i / 4 + 1)
src(i) = i % 2 ? "rs" : "ss"
sp(i) = (i / 2) % 2
sel(i) = isok(0) && strcol("type") eq ty(i) && strcol("a_src") eq src(i) && column("sparse") == sp(i) && column("warpgroups") == WBEST && column("blocks_per_sm") == BBEST
plot for [i = 0:23] ARG1 using (sel(i) ? column("n") : NaN):"pct_of_dense" with linespoints lt (i % 20) + 1 \
	title sprintf("%s %s%s", ty(i), src(i), sp(i) ? " sparse" : "")
