# lat_atomic.gp IN.csv OUT.svg|png — H030: cycles per dependent atomic for every operation, global
# (executed at L2) beside shared (in the SM), log scale since the two differ by an order of
# magnitude. One pair of bars per operation in the CSV's order.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("lat_atomic.gp")]."common.gp"
NAMES = ""
PREV = ""
stats ARG1 using ((strcol("op") ne PREV) ? (NAMES = NAMES . " " . strcol("op"), PREV = strcol("op"), 1) : NaN) nooutput
idx(s) = sum [i = 1:words(NAMES)] (word(NAMES, i) eq s ? i : 0)
sel(s) = isok(0) && strcol("space") eq s
set title "H030: latency of a dependent atomic (one thread, result = next operand)"
set ylabel "cycles per operation (log)"
set logscale y 2
set xrange [0.4:words(NAMES) + 0.6]
set xtics () rotate by 45 right scale 0 font ",10"
do for [i = 1:words(NAMES)] { set xtics add (word(NAMES, i) i) }
set style fill solid 0.6 border -1
set boxwidth 0.36
set key outside top center horizontal noreverse Right nobox
plot ARG1 using (sel("global") ? idx(strcol("op")) - 0.19 : NaN):"cycles_per_op" with boxes lt 1 title "global (at L2)", \
     ""   using (sel("shared") ? idx(strcol("op")) + 0.19 : NaN):"cycles_per_op" with boxes lt 2 title "shared"
