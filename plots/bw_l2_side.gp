# bw_l2_side.gp IN.csv OUT.svg|png — H051: L2 read bandwidth per reading SM from each SM's near
# lines, its far lines and every pool line (as the run's own map classified them), every SM of the
# L2 sides at once and one SM alone, under the 128 B/clk/SM an SM's L1 takes in; the GB/s above
# each bar. Rows of the smallest l2_div (the largest pool) the run has.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("bw_l2_side.gp")]."common.gp"
eval KEY_OUT
stats ARG1 using (isok(0) ? column("l2_div") : NaN) nooutput
DIV = exists("STATS_min") ? STATS_min : 0
stats ARG1 using ((isok(0) && column("l2_div") == DIV) ? column("footprint_bytes") : NaN) nooutput
POOL = exists("STATS_max") ? STATS_max : 0
set title sprintf("H051: L2 read bandwidth by side, pool of %s (L2 / %.0f)", bytes(POOL), DIV)
set ylabel "bytes per clock per reading SM"
set yrange [0:140]
set xrange [-0.6:2.6]
set xtics ("near lines" 0, "far lines" 1, "all lines" 2)
set boxwidth 0.38
set style fill solid 0.6 border -1
sidx(s) = s eq "near" ? 0 : s eq "far" ? 1 : s eq "all" ? 2 : NaN
sel(m) = (isok(0) && column("l2_div") == DIV && strcol("sms") eq m) ? 1 : 0
xat(m, d) = sel(m) ? sidx(strcol("side")) + d : NaN
plot ARG1 using (xat("all", -0.2)):"bytes_per_clk_per_sm" with boxes lt 1 title "all SMs of the sides", \
     ""   using (xat("one", 0.2)):"bytes_per_clk_per_sm" with boxes lt 2 title "one SM alone", \
     ""   using (xat("all", -0.2)):"bytes_per_clk_per_sm":(sprintf("%.0f GB/s", column("bandwidth_GBps"))) with labels offset 0, 0.8 font ",9" notitle, \
     ""   using (xat("one", 0.2)):"bytes_per_clk_per_sm":(sprintf("%.0f GB/s", column("bandwidth_GBps"))) with labels offset 0, 0.8 font ",9" notitle, \
     128 with lines lc rgb "#888888" dt 3 title "L1 intake (128 B/clk/SM)"
