# lat_launch.gp IN.csv OUT.svg|png — H043 (gpu-benches, launch overhead): microseconds per empty
# kernel for every mode (launch + wait, back to back, one CUDA graph), grid and block size: the
# host's wall time, the launch calls alone, the GPU's event time and its gap between kernels;
# one bar group per measuring process where the run has several.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("lat_launch.gp")]."common.gp"
eval KEY_OUT
set title "H043: kernel launch overhead (empty kernels)"
set ylabel "microseconds per launch"
set logscale y 10
set yrange [0.05:*]
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
# Runs since d7c5cdd measure each point in one or more processes (`process`): the label names it.
CN = "process"
eval HAS_COL
if (HCOL) { set xtics rotate by -60 font ",8" } else { set xtics rotate by -35 font ",9" }
lab(x) = isok(0) ? strcol("mode")." ".strcol("grid")." ".strcol("threads").(HCOL ? " p".strcol("process") : "") : ""
v(c) = isok(0) && column(c) > 0 ? column(c) : NaN
plot ARG1 using (v("host_us_per_launch")):xtic(lab(0)) title "host (launch to end of wait)", \
     ""   using (v("issue_us_per_launch")) title "issue (launch calls)", \
     ""   using (v("gpu_us_per_launch")) title "GPU (events)", \
     ""   using (v("gpu_gap_us")) title "GPU gap between kernels"
