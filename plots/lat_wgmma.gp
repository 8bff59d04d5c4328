# lat_wgmma.gp IN.csv OUT.svg|png — H010: cycles from wgmma.fence to the end of wait_group 0
# around one wgmma.mma_async of one warpgroup, dependent through the accumulator, against N of
# m64nNk, one line per type, A source and form.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("lat_wgmma.gp")]."common.gp"
set title "H010: wgmma latency, one warpgroup, fence -> mma -> commit -> wait 0"
set xlabel "N (wgmma m64nNk)"
set ylabel "cycles"
set logscale x 2
# The N the run measured, with room either side (a default run has N = 256 alone: the axis then
# centres it instead of leaving it at the right edge of an empty 8..256 range).
undefine STATS_*
stats ARG1 using (isok(0) ? column("n") : NaN) nooutput
set xrange [(exists("STATS_min") ? STATS_min : 8) / 1.5 : (exists("STATS_max") ? STATS_max : 256) * 1.5]
set xtics (8, 16, 32, 64, 128, 256)
set yrange [0:*]
eval KEY_OUT
TYPES = "f16 bf16 tf32 e4m3 e5m2 s8"
ty(i) = word(TYPES, i / 4 + 1)
src(i) = i % 2 ? "rs" : "ss"
sp(i) = (i / 2) % 2
sel(i) = isok(0) && strcol("type") eq ty(i) && strcol("a_src") eq src(i) && column("sparse") == sp(i)
# Equal curves (f16 and bf16 measure alike) stay visible: each type has its own point type and size.
plot for [i = 0:23] ARG1 using (sel(i) ? column("n") : NaN):"cycles" with linespoints lt (i % 20) + 1 pt (i / 4) * 2 + 6 ps (1.6 - 0.2 * (i / 4)) \
	title sprintf("%s %s%s", ty(i), src(i), sp(i) ? " sparse" : "")
