# tput_mma.gp IN.csv OUT.svg|png — H002: each mma.sync form's rate as a share of its type's tensor
# peak per clock (sparse forms: of twice the dense one), one point per warps-per-SM of the sweep,
# coloured by warps per SM; forms without a known peak (pct_of_peak empty) have no place on the
# axis. Names on the axis in the CSV's order (the sweep runs variant by variant).
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("tput_mma.gp")]."common.gp"
set title "H002: mma.sync throughput as % of the tensor peak per clock, by warps per SM"
set ylabel "% of the type's peak FLOP/clk/SM"
set bmargin 10
set key off
ok(c) = (isok(0) && column(c) == column(c)) ? column(c) : NaN
NAMES = ""
PREV = ""
stats ARG1 using ((ok("pct_of_peak") == ok("pct_of_peak") && strcol("variant") ne PREV) ? (NAMES = NAMES . " " . strcol("variant"), PREV = strcol("variant"), column("pct_of_peak")) : NaN) nooutput
idx(v) = sum [i = 1:words(NAMES)] (word(NAMES, i) eq v ? i : 0)
set yrange [0:110]
set xrange [0.4:words(NAMES) + 0.6]
set xtics () rotate by 45 right scale 0 font ",9"
do for [i = 1:words(NAMES)] { set xtics add (word(NAMES, i) i) }
set logscale cb 2
set cblabel "warps per SM"
set palette defined (0 "#66ccee", 1 "#4477aa", 2 "#aa3377", 3 "#cc3311")
set arrow from graph 0, first 100 to graph 1, first 100 nohead lc rgb "#999999" dt 2
plot ARG1 using (ok("pct_of_peak") == ok("pct_of_peak") ? idx(strcol("variant")) : NaN):(ok("pct_of_peak")):(column("warps_per_sm")) with points pt 7 ps 1.2 lc palette
