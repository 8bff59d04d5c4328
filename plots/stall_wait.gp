# stall_wait.gp IN.csv OUT.svg|png — E105 wait mask: cycles per pointer-chase step with the
# consumer's scoreboard wait bit kept or cleared, LDG and LDS; the label says whether the chase
# still ended where the host's did (cleared: the consumer read the register too early).
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("stall_wait.gp")]."common.gp"
set title "E105: scoreboard wait bit kept vs cleared on a load's consumer"
set ylabel "cycles per chase step"
set style data histogram
set style fill solid 0.8 border -1
set boxwidth 0.7
set yrange [0:*]
set key off
plot ARG1 using "cycles_per_step":xticlabels(strcol("mem")." ".strcol("wait")." (".(column("correct") == 1 ? "correct" : "WRONG").")") lc rgb "#4477aa"
