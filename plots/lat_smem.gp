# lat_smem.gp IN.csv OUT.svg|png — shared-memory load latency by chase, per footprint and stride.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("lat_smem.gp")]."common.gp"
eval KEY_OUT
set title "Shared-memory latency (ld.shared chase)"
set xlabel "footprint (bytes)"
set ylabel "cycles per load"
set logscale x 2
set format x "%.0b%B"
set yrange [0:*]
set offsets graph 0.02, graph 0.02, 0, 0
# The strides the run measured; each curve's open markers a size smaller than the one before,
# so strides with equal latency (the usual case) stay visible one inside the other.
DC = "stride_bytes"; eval DISTINCT; SS = DV
sel(s) = (column("stride_bytes") == s && isok(0)) ? column("cycles_per_load") : NaN
plot for [i = 1:words(SS)] ARG1 using "footprint_bytes":(sel(real(word(SS, i)))) with linespoints lt i dt 1 pt 6 \
	ps (i < 4 ? 3.4 - 0.9 * i : 0.6) title sprintf("stride %s B", word(SS, i))
