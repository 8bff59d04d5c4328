# lat_mem_dist.gp IN.csv OUT.svg|png — E003 per access: p05/p50/p95/p99 of single-load latency per footprint
# (one group per row), showing how mixed the hits are at each footprint.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("lat_mem_dist.gp")]."common.gp"
set title "E003: per-access latency distribution"
set xlabel "footprint (bytes), path"
set ylabel "cycles"
set logscale y
set style fill solid 0.3
set boxwidth 0.5
set xtics rotate by -30
set key top left
plot ARG1 using 0:"p05_cycles":"p05_cycles":"p99_cycles":"p99_cycles":xtic(sprintf("%s %s", strcol("footprint_bytes"), strcol("path"))) with candlesticks title "p05..p99" whiskerbars, \
     ""   using 0:"p50_cycles" with points pt 7 ps 1.2 title "p50", \
     ""   using 0:"p95_cycles" with points pt 5 title "p95"
