# regbank_ffma.gp IN.csv OUT.svg|png — E103 (seed 001 Table 2 as a chart): cycles per instruction
# per SMSP of a stream whose sources were patched into each residue combination, for each op,
# reuse flags off and on every source, at the most warps with a measured point. 1.0 is the issue
# limit; bars above it are the bank-conflict (or pipe) cost. Each (op, combo) has one slot on the
# axis, found by name, so a failed or missing point leaves its bar out without shifting the others.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("regbank_ffma.gp")]."common.gp"
stats ARG1 using (isok(0) ? column("warps") : NaN) nooutput
W = STATS_max
# The slots: every (op, combo) with a row at W, once, in the CSV's order.
GROUPS = ""
NG = 0
grp(x) = strcol("op") . ":" . strcol("combo")
slot(s) = sum [i = 1:NG] (word(GROUPS, i) eq s ? i : 0)
stats ARG1 using ((column("warps") == W && column("reuse") == 0 && slot(grp(0)) == 0) ? (GROUPS = GROUPS . " " . grp(0), NG = NG + 1) : NaN) nooutput
# "Every source" is the op's widest reuse mask (FMUL has two sources, FFMA three): per op, the
# largest reuse value of its rows.
OPS = ""
opi(s) = sum [i = 1:words(OPS)] (word(OPS, i) eq s ? i : 0)
stats ARG1 using (opi(strcol("op")) == 0 ? (OPS = OPS . " " . strcol("op"), 1) : NaN) nooutput
array RMAX[words(OPS) > 0 ? words(OPS) : 1]
do for [i = 1:words(OPS)] {
	stats ARG1 using (strcol("op") eq word(OPS, i) ? column("reuse") : NaN) nooutput
	RMAX[i] = STATS_max
}
set title sprintf("E103: register-bank combinations at %.0f warps (seed 001 Table 2)", W)
set ylabel "cycles per instruction per SMSP"
set yrange [0:*]
set xrange [0.4:NG + 0.6]
set xtics () rotate by 45 right scale 0 font ",9"
do for [i = 1:NG] { g = word(GROUPS, i); set xtics add (g[1:strstrt(g, ":") - 1] . " " . g[strstrt(g, ":") + 1:] i) }
set style fill solid 0.8 border -1
set key outside top center horizontal noreverse Right nobox
v(r) = (column("warps") == W && column("reuse") == r && isok(0)) ? column("cycles_per_insn") : NaN
plot ARG1 using (slot(grp(0)) - 0.18):(v(0)):(0.34) with boxes lt 1 lc rgb "#cc3311" title "no reuse flags", \
     ""   using (slot(grp(0)) + 0.18):(v(RMAX[opi(strcol("op"))])):(0.34) with boxes lt 1 lc rgb "#4477aa" title "reuse on every source"
