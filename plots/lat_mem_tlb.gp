# lat_mem_tlb.gp IN.csv OUT.svg|png — E003 (TLB): page-stride random chase, cycles per load against footprint
# (log x): each step up is a TLB level's reach, its height the miss cost. One curve per path and
# stride (page size probed), so a sweep over 2 MiB and 32 MiB strides shows whether the reach
# counts pages or spans addresses.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("lat_mem_tlb.gp")]."common.gp"
set title "E003: TLB reach and miss cost (one slot per page)"
set xlabel "footprint (bytes)"
set ylabel "cycles per load"
set logscale x 2
set format x "%.0b%B"
# The distinct strides of ok rows, smallest first.
SS = ""
prev = 0
while (1) {
	stats ARG1 using ((strcol("status") eq "ok" && column("stride_bytes") > prev) ? column("stride_bytes") : 1e30) nooutput
	if (STATS_min >= 1e30) { break }
	prev = STATS_min
	SS = SS . sprintf(" %.0f", prev)
}
sel(q, s) = (strcol("path") eq q && strcol("status") eq "ok" && column("stride_bytes") == s) ? column("cycles_per_load") : NaN
lab(s) = s >= 1048576 ? sprintf("%.0f MiB", s / 1048576) : sprintf("%.0f KiB", s / 1024)
plot for [q in "cg default nc"] for [s in SS] ARG1 using "footprint_bytes":(sel(q, real(s))) with linespoints pt 7 \
	title q." path, ".lab(real(s))." stride"
