# regbank_reuse.gp IN.csv OUT.svg|png — operand reuse cache: cycles per FFMA per SMSP against the
# number of distinct registers cycling through one slot, reuse flag off and on, per slot. While
# the reuse-on curve stays at the hit level the cache holds that many values for the slot.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("regbank_reuse.gp")]."common.gp"
set title "Operand reuse cache: distinct registers per slot"
set xlabel "distinct registers cycling through the slot"
set ylabel "cycles per FFMA per SMSP"
set yrange [0:*]
set xtics 1
g(s, r) = (strcol("slot") eq s && column("reuse") == r && strcol("status") eq "ok") ? column("cycles_per_insn") : NaN
plot ARG1 using "distinct":(g("a", 1)) with linespoints pt 7 lw 2 lc rgb "#4477aa" title "slot a, reuse on", \
     ""   using "distinct":(g("a", 0)) with linespoints pt 6 dt 2 lc rgb "#4477aa" title "slot a, reuse off", \
     ""   using "distinct":(g("b", 1)) with linespoints pt 5 lw 2 lc rgb "#cc3311" title "slot b, reuse on", \
     ""   using "distinct":(g("b", 0)) with linespoints pt 4 dt 2 lc rgb "#cc3311" title "slot b, reuse off", \
     ""   using "distinct":(g("c", 1)) with linespoints pt 9 lw 2 lc rgb "#228833" title "slot c, reuse on", \
     ""   using "distinct":(g("c", 0)) with linespoints pt 8 dt 2 lc rgb "#228833" title "slot c, reuse off"
