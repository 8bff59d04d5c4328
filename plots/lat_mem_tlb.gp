# lat_mem_tlb.gp IN.csv OUT.svg|png — E003 (TLB): page-stride random chase, cycles per load against
# footprint (log x): each step up is a TLB level's reach, its height the miss cost. One curve per
# path and stride (page size probed), so a sweep over 2 MiB and 32 MiB strides shows whether the
# reach counts pages or spans addresses. The levels the run detected (profile.csv beside the CSV:
# the TLB-hit latency, each reach and miss cost, from the first path with levels, first stride)
# are dotted segments over their footprints; a run without those keys has no marks.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("lat_mem_tlb.gp")]."common.gp"
eval KEY_OUT
# The distinct strides of ok rows, smallest first.
DC = "stride_bytes"; eval DISTINCT; SS = DV
stats ARG1 using (isok(0) ? column("footprint_bytes") : NaN) nooutput
XMIN = STATS_min
XMAX = STATS_max
# Levels: the hit latency, then each reach k with its miss cost (up to three).
array LAT[4]
array REACH[3]
PK = "tlb_hit_latency_cycles"; eval PROF_GET; LAT[1] = PV
do for [k = 1:3] {
	PK = sprintf("tlb%d_reach_bytes", k); eval PROF_GET; REACH[k] = PV
	PK = sprintf("tlb%d_miss_cycles", k); eval PROF_GET; LAT[k + 1] = LAT[k] + PV
}
NB = (REACH[1] == REACH[1]) + (REACH[2] == REACH[2]) + (REACH[3] == REACH[3])
set title "E003: TLB reach and miss cost (one slot per page)" . (NB ? "; dotted: the levels detected" : "; no TLB step detected")
set xlabel "footprint (bytes)"
set ylabel "cycles per load"
set logscale x 2
set format x "%.0b%B"
set xrange [XMIN:XMAX]
lo = XMIN
do for [i = 1:(NB > 0 ? NB + 1 : 0)] {
	hi = i <= NB ? REACH[i] : XMAX
	set arrow 10 + i from lo, LAT[i] to hi, LAT[i] nohead dt 3 lw 2 lc rgb "#555555" front
	txt = i == 1 ? sprintf("TLB hit %.0f cycles", LAT[1]) : sprintf("miss %d: +%.1f cycles", i - 1, LAT[i] - LAT[i - 1])
	set label 10 + i txt at lo, LAT[i] left offset 1, 0.8 font ",9" tc rgb "#333333" front
	if (i <= NB) {
		set arrow 20 + i from REACH[i], graph 0 to REACH[i], graph 1 nohead dt 3 lw 1 lc rgb "#999999" back
		txt = sprintf("TLB%d reach %s", i, bytes(REACH[i]))
		set label 20 + i txt at REACH[i], graph 0.03 + 0.06 * (i % 2 == 0) right offset -0.3, 0 font ",9" tc rgb "#555555" front
	}
	lo = hi
}
sel(q, s) = (strcol("path") eq q && isok(0) && column("stride_bytes") == s) ? column("cycles_per_load") : NaN
lab(s) = s >= 1048576 ? sprintf("%.0f MiB", s / 1048576) : sprintf("%.0f KiB", s / 1024)
plot for [q in "cg default nc"] for [s in SS] ARG1 using "footprint_bytes":(sel(q, real(s))) with linespoints pt 7 \
	title q." path, ".lab(real(s))." stride"
