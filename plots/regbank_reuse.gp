# regbank_reuse.gp IN.csv OUT.svg|png — operand reuse cache: cycles per FFMA per SMSP against the
# number of distinct registers cycling through one slot, reuse flag off and on, per slot. While
# the reuse-on curve stays at the hit level the cache holds that many values for the slot.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("regbank_reuse.gp")]."common.gp"
eval KEY_OUT
stats ARG1 using (isok(0) ? column("warps") : NaN) nooutput
W = STATS_max
set title sprintf("Operand reuse cache: distinct registers per slot, %.0f warps", W)
set xlabel "distinct registers cycling through the slot (slots a, b, c drawn side by side)"
set ylabel "cycles per FFMA per SMSP"
set yrange [0:*]
set xtics 1
# A sweep over warps has a row per warp count: the most warps with a measured point. The three
# slots often measure the same: each is shifted a little along x so none hides the others.
g(s, r) = (strcol("slot") eq s && column("reuse") == r && column("warps") == W && isok(0)) ? column("cycles_per_insn") : NaN
dx(s) = s eq "a" ? -0.1 : s eq "b" ? 0 : 0.1
plot for [s in "a b c"] ARG1 using (column("distinct") + dx(s)):(g(s, 1)) with linespoints lw 2 dt 1 \
	lt (s eq "a" ? 1 : s eq "b" ? 2 : 3) title "slot ".s.", reuse on", \
     for [s in "a b c"] ""   using (column("distinct") + dx(s)):(g(s, 0)) with linespoints lw 1 dt 2 \
	lt (s eq "a" ? 9 : s eq "b" ? 10 : 11) title "slot ".s.", reuse off"
