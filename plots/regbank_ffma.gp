# regbank_ffma.gp IN.csv OUT.svg|png — E103 (seed 001 Table 2 as a chart): cycles per instruction
# per SMSP of a stream whose sources were patched into each residue combination, for each op,
# reuse flags off and on, at the most warps measured. 1.0 is the issue limit; bars above it are
# the bank-conflict (or pipe) cost.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("regbank_ffma.gp")]."common.gp"
set title "E103: register-bank combinations (seed 001 Table 2)"
set ylabel "cycles per instruction per SMSP"
set yrange [0:*]
set style data histogram
set style histogram cluster gap 1
set style fill solid 0.8 border -1
set xtics rotate by -40
stats ARG1 using (strcol("status") eq "ok" ? column("warps") : NaN) nooutput
W = STATS_max
v(r) = (column("warps") == W && column("reuse") == r && strcol("status") eq "ok") ? column("cycles_per_insn") : NaN
lab = '(column("warps") == W && column("reuse") == 0 ? strcol("op")." ".strcol("combo") : "")'
plot ARG1 using (v(0)):xticlabels(@lab) lc rgb "#cc3311" title "no reuse flags", \
     ""   using (v(7)) lc rgb "#4477aa" title "reuse on every source"
