# lat_mem_dist.gp IN.csv OUT.svg|png — E003 per access: p05/p50/p95/p99 of single-load latency per footprint
# (one group per row), showing how mixed the hits are at each footprint.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("lat_mem_dist.gp")]."common.gp"
eval KEY_OUT
set title "E003: per-access latency distribution"
set xlabel "footprint, path"
set ylabel "cycles"
set logscale y
set style fill solid 0.3
set boxwidth 0.5
stats ARG1 using (isok(0) ? 1 : NaN) nooutput
N = STATS_records
set xrange [0.4:N + 0.6]
set xtics rotate by 30 right scale 0 font ",10"
# A box from p05 to p99 per ok row, in the CSV's order, with p50 and p95 marked.
x(c) = isok(0) ? (n = n + 1) : NaN
lab(c) = bytes(column("footprint_bytes")) . " " . strcol("path")
plot n = 0, ARG1 using (x(0)):"p05_cycles":"p05_cycles":"p99_cycles":"p99_cycles":xtic(isok(0) ? lab(0) : "") with candlesticks lt 1 title "p05..p99" whiskerbars, \
     n = 0, ""   using (x(0)):"p50_cycles" with points pt 7 ps 1.2 lc rgb "#cc3311" title "p50", \
     n = 0, ""   using (x(0)):"p95_cycles" with points pt 5 lc rgb "#228833" title "p95"
