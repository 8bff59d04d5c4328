# regbank_map.gp IN.csv OUT.svg|png — E104 (seed 001 Table 3 by measurement): cycles per FFMA per
# SMSP against RB's register offset from RA (residue mod 32), pair form (Rc = RZ) and triple
# form (Rc in RA's residue). The offsets that cost more are the ones sharing RA's bank.
OUT = ARG2
load ARG0[1:strlen(ARG0)-strlen("regbank_map.gp")]."common.gp"
set title "E104: which register offsets conflict with RA (seed 001 Table 3)"
set xlabel "RB offset from RA (register number mod 32; 0 = another register of RA's residue)"
set ylabel "cycles per FFMA per SMSP"
set yrange [0:*]
set xtics 1
f(s) = (strcol("form") eq s && strcol("status") eq "ok") ? column("cycles_per_insn") : NaN
plot ARG1 using "rb_offset":(f("pair")) with linespoints pt 7 lw 2 lc rgb "#4477aa" title "pair: FFMA Rd, RA, RB, RZ", \
     ""   using "rb_offset":(f("triple")) with linespoints pt 5 lw 2 lc rgb "#cc3311" title "triple: FFMA Rd, RA, RB, RC"
