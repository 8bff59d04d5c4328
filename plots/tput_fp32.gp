# tput_fp32.gp IN.csv OUT.svg|png — E106 (seed 001 Table 4): FP32 operations per clock per SM for
# FFMA, FMUL and FADD against the architectural lane count at the measured clock.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("tput_fp32.gp")]."common.gp"
set title "E106: FP32 throughput per SM at the measured clock (seed 001 Table 4)"
set ylabel "operations per clock per SM"
set style fill solid 0.6 border -1
set boxwidth 0.6
set yrange [0:*]

set key outside below horizontal
set xrange [-0.6:*]
set offsets 0, 0.6, 0, 0
plot ARG1 using 0:"ops_per_clk_per_sm":xticlabels(strcol("op")." ".strcol("warps_per_sm")."w") with boxes lc rgb "#4477aa" title "measured", \
     ""   using 0:"ops_per_clk_per_sm":(sprintf("%.1f%%", column("pct_of_peak"))) with labels offset 0,1 notitle, \
     ""   using 0:"peak_ops_per_clk_per_sm" with linespoints lw 2 pt 1 lc rgb "#cc3311" title "peak (FP32 lanes per SM)"
