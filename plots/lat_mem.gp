# lat_mem.gp IN.csv OUT.svg|png — E003: cycles per dependent load against footprint, one curve per
# pattern and path (log x, log y). Plateaus are cache levels. The levels the run detected
# (change-point levels with enough evidence, labelled L1 / L2 near / L2 far / HBM by the derive
# step, default path) are read from profile.csv beside the CSV and drawn as dotted segments over
# their footprints, with each boundary's capacity; a run without those keys, or with no boundary,
# has no marks.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("lat_mem.gp")]."common.gp"
eval KEY_OUT
stats ARG1 using (isok(0) ? column("footprint_bytes") : NaN) nooutput
XMIN = STATS_min
XMAX = STATS_max
# The levels: latency key, capacity key (its upper footprint; none for the last), name.
array LK[4] = ["l1_latency_cycles", "l2_near_latency_cycles", "l2_far_latency_cycles", "hbm_latency_cycles"]
array CK[4] = ["l1_capacity_bytes", "l2_near_capacity_bytes", "l2_capacity_bytes", ""]
array LN[4] = ["L1", "L2 near", "L2 far", "HBM"]
array LAT[4]
array CAP[4]
do for [i = 1:4] {
	PK = LK[i]; eval PROF_GET; LAT[i] = PV
	PK = CK[i]; eval PROF_GET; CAP[i] = PV
}
# A run with one L2 level has l2_latency_cycles and l2_capacity_bytes only.
if (LAT[2] != LAT[2]) { PK = "l2_latency_cycles"; eval PROF_GET; LAT[2] = PV; CAP[2] = CAP[3]; CAP[3] = NaN }
# One level and no boundary is no ladder (a short sweep with no step detected): no marks.
NB = (CAP[1] == CAP[1]) + (CAP[2] == CAP[2]) + (CAP[3] == CAP[3])
if (NB == 0) { do for [i = 1:4] { LAT[i] = NaN } }
set title "E003: pointer-chase latency against footprint" . (NB ? "; dotted: the levels detected (default path)" : "; no level boundary detected")
set xlabel "footprint (bytes)"
set ylabel "cycles per load"
set logscale x 2
set format x "%.0b%B"
set logscale y
set xrange [XMIN:XMAX]
lo = XMIN
do for [i = 1:4] {
	if (LAT[i] == LAT[i]) {
		hi = (CAP[i] == CAP[i] && CAP[i] > lo) ? CAP[i] : XMAX
		set arrow 10 + i from lo, LAT[i] to hi, LAT[i] nohead dt 3 lw 2 lc rgb "#555555" back
		txt = sprintf("%s %.0f cycles", LN[i], LAT[i])
		set label 10 + i txt at lo, LAT[i] * 1.12 left offset 1, 0 font ",9" tc rgb "#333333" front
		if (CAP[i] == CAP[i]) {
			set arrow 20 + i from CAP[i], graph 0 to CAP[i], graph 1 nohead dt 3 lw 1 lc rgb "#999999" back
			# Capacities on two staggered rows: neighbouring boundaries can be an octave apart.
			txt = sprintf("%s %s", LN[i], bytes(CAP[i]))
			set label 20 + i txt at CAP[i], graph (i % 2 ? 0.03 : 0.09) right offset -0.3, 0 font ",9" tc rgb "#555555" front
		}
		lo = hi
	}
}
sel(p, q) = (strcol("pattern") eq p && strcol("path") eq q && isok(0)) ? column("cycles_per_load") : NaN
plot for [p in "random stride"] for [q in "default cg nc"] ARG1 using "footprint_bytes":(sel(p, q)) \
     with linespoints pt 7 ps 0.6 title p." / ".q
