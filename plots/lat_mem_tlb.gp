# lat_mem_tlb.gp IN.csv OUT.svg|png — E003 (TLB): page-stride random chase, cycles per load against footprint
# (log x): each step up is a TLB level's reach, its height the miss cost.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("lat_mem_tlb.gp")]."common.gp"
set title "E003: TLB reach and miss cost (one slot per page)"
set xlabel "footprint (bytes)"
set ylabel "cycles per load"
set logscale x 2
set format x "%.0b%B"
sel(q) = (strcol("path") eq q && strcol("status") eq "ok") ? column("cycles_per_load") : NaN
plot for [q in "cg default nc"] ARG1 using "footprint_bytes":(sel(q)) with linespoints pt 7 title q." path"
