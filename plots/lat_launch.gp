# lat_launch.gp IN.csv OUT.svg|png — H043 (gpu-benches, launch overhead): microseconds per empty
# kernel for every mode (launch + wait, back to back, one CUDA graph, queued behind a gate), grid
# and block size: the host's wall time, the launch calls alone, the GPU's event time and its gap
# between kernels. A run measured in one process (every run before d7c5cdd, the quick and paper
# suites): one bar group per point. A run over several processes (`process`, the default suite
# since d7c5cdd): one column per mode and grid, a marker per process and measure, so the spread
# between processes (the host's times move with the process and the hour) is what the eye sees.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("lat_launch.gp")]."common.gp"
eval KEY_OUT
set ylabel "microseconds per launch"
set logscale y 10
set yrange [0.05:*]
v(c) = isok(0) && column(c) > 0 ? column(c) : NaN
CN = "process"
eval HAS_COL
NP = 1
if (HCOL) { stats ARG1 using (column("process")) nooutput; NP = int(STATS_max) }
if (NP > 1) {
	set title sprintf("H043: kernel launch overhead (empty kernels), %d processes: a marker each", NP)
	mi(s) = s eq "sync" ? 0 : s eq "async" ? 1 : s eq "graph" ? 2 : s eq "queued" ? 3 : NaN
	x(o) = 2 * mi(strcol("mode")) + (strcol("grid") eq "one" ? 0 : 1) + o
	set xrange [-0.6:7.6]
	set xtics ("sync one" 0, "sync full" 1, "async one" 2, "async full" 3, "graph one" 4, "graph full" 5, \
		   "queued one" 6, "queued full" 7) rotate by -35 font ",9"
	set grid xtics ytics lc rgb "#dddddd"
	plot ARG1 using (x(-0.27)):(v("host_us_per_launch")) with points lt 1 title "host (launch to end of wait)", \
	     ""   using (x(-0.09)):(v("issue_us_per_launch")) with points lt 2 title "issue (launch calls)", \
	     ""   using (x(0.09)):(v("gpu_us_per_launch")) with points lt 3 title "GPU (events)", \
	     ""   using (x(0.27)):(v("gpu_gap_us")) with points lt 4 title "GPU gap between kernels"
} else {
	set title "H043: kernel launch overhead (empty kernels)"
	set style data histogram
	set style histogram clustered gap 1
	set style fill solid 0.8 border -1
	set boxwidth 0.9
	set xtics rotate by -35 font ",9"
	lab(x) = isok(0) ? strcol("mode")." ".strcol("grid")." ".strcol("threads") : ""
	plot ARG1 using (v("host_us_per_launch")):xtic(lab(0)) title "host (launch to end of wait)", \
	     ""   using (v("issue_us_per_launch")) title "issue (launch calls)", \
	     ""   using (v("gpu_us_per_launch")) title "GPU (events)", \
	     ""   using (v("gpu_gap_us")) title "GPU gap between kernels"
}
