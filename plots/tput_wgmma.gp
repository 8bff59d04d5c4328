# tput_wgmma.gp IN.csv OUT.svg|png — H011: wgmma.mma_async throughput over the whole GPU as % of
# the type's dense tensor rate per SM per clock at the clock measured under the load (sparse rows
# against twice it), against N of m64nNk, one line per type, A source and form. Rows at the most
# common warpgroups per SM of the run (the other counts would zigzag a line).
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("tput_wgmma.gp")]."common.gp"
# The warpgroups per SM with the most ok rows.
WBEST = 0
WN = 0
do for [w = 1:8] {
	undefine STATS_*
	stats ARG1 using ((isok(0) && column("warpgroups_per_sm") == w) ? 1 : NaN) nooutput
	if (exists("STATS_records") && STATS_records > WN) { WN = STATS_records; WBEST = w }
}
set title sprintf("H011: wgmma throughput, %% of the dense tensor rate at the measured clock (%d warpgroups/SM)", WBEST)
set xlabel "N (wgmma m64nNk)"
set ylabel "% of the dense rate (sparse: 2x dense)"
set logscale x 2
set xrange [6:320]
set xtics (8, 16, 32, 64, 128, 256)
set yrange [0:110]
eval KEY_OUT
TYPES = "f16 bf16 tf32 e4m3 e5m2 s8"
# Series i = 0..23: type word(TYPES, i / 4 + 1), A from shared (even i) or registers, dense or sparse.
ty(i) = word(TYPES, i / 4 + 1)
src(i) = i % 2 ? "rs" : "ss"
sp(i) = (i / 2) % 2
sel(i) = isok(0) && strcol("type") eq ty(i) && strcol("a_src") eq src(i) && column("sparse") == sp(i) && column("warpgroups_per_sm") == WBEST
plot for [i = 0:23] ARG1 using (sel(i) ? column("n") : NaN):"pct_of_dense" with linespoints lt (i % 20) + 1 \
	title sprintf("%s %s%s", ty(i), src(i), sp(i) ? " sparse" : "")
