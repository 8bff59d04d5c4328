# regbank_map.gp IN.csv OUT.svg|png — E104 (seed 001 Table 3 by measurement): cycles per FFMA per
# SMSP against RB's register offset from RA (residue mod 32), pair form (Rc = RZ) and triple
# form (Rc in RA's residue). The offsets that cost more are the ones sharing RA's bank.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("regbank_map.gp")]."common.gp"
eval KEY_OUT
set xlabel "RB offset from RA (register number mod 32; 0 = another register of RA's residue)"
set ylabel "cycles per FFMA per SMSP"
set yrange [0:*]
stats ARG1 using "rb_offset" nooutput
XT = STATS_max > 16 ? 2 : 1
set xtics XT
# A sweep over warps has a row per warp count: the most warps with a measured point.
stats ARG1 using (isok(0) ? column("warps") : NaN) nooutput
W = STATS_max
set title sprintf("E104: which register offsets conflict with RA, %.0f warps (seed 001 Table 3)", W)
f(s) = (strcol("form") eq s && column("warps") == W && isok(0)) ? column("cycles_per_insn") : NaN
plot ARG1 using "rb_offset":(f("pair")) with linespoints pt 7 lw 2 dt 1 lc rgb "#4477aa" title "pair: FFMA Rd, RA, RB, RZ", \
     ""   using "rb_offset":(f("triple")) with linespoints pt 5 lw 2 dt 1 lc rgb "#cc3311" title "triple: FFMA Rd, RA, RB, RC"
