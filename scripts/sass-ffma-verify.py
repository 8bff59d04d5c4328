#!/usr/bin/env python3
"""sass-ffma-verify.py ORIG.sass PATCHED.sass — check `gpuprobe sass ffma`'s patch with NVIDIA's
own disassembler (cuobjdump -sass -fun KERNEL of both cubins, on a machine with the CUDA tools):
the two listings must be the same instructions, operand for operand, except for general register
numbers and .reuse flags, and the register numbers must differ by one permutation (a bijection
applied everywhere). A CS2R Rd, SRZ writes two zeros, so the patch may swap its pair: there only
the pair as a set must map to the pair. Prints the counts; exit 0 if the patch is a pure renaming
plus reuse flags."""
import re
import sys

INSN = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;")
REG = re.compile(r"(?<![\w.])R(\d+)\b")


def listing(path):
    with open(path) as f:
        return [m.group(1) for m in map(INSN.search, f) if m]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: sass-ffma-verify.py ORIG.sass PATCHED.sass")
    a, b = listing(sys.argv[1]), listing(sys.argv[2])
    if not a or len(a) != len(b):
        sys.exit(f"instruction counts differ or none found: {len(a)} vs {len(b)}")
    fwd, back, bad, pairs = {}, {}, 0, []
    for i, (x, y) in enumerate(zip(a, b)):
        xs, ys = x.replace(".reuse", ""), y.replace(".reuse", "")
        if REG.sub("R#", xs) != REG.sub("R#", ys):
            print(f"insn {i}: differs beyond registers: '{x}' vs '{y}'")
            bad += 1
            continue
        if xs.startswith("CS2R") and "SRZ" in xs:
            pairs.append((i, int(REG.findall(xs)[0]), int(REG.findall(ys)[0])))
            continue
        for r, s in zip(REG.findall(xs), REG.findall(ys)):
            if fwd.setdefault(r, s) != s or back.setdefault(s, r) != r:
                print(f"insn {i}: R{r} -> R{s} breaks the permutation ('{x}' vs '{y}')")
                bad += 1
    for i, r, s in pairs:
        got = {fwd.get(str(r)), fwd.get(str(r + 1))} - {None}
        if not got <= {str(s), str(s + 1)}:
            print(f"insn {i}: CS2R pair R{r} -> R{s} but its registers map to {sorted(got)}")
            bad += 1
    moved = sum(1 for r, s in fwd.items() if r != s)
    print(f"{len(a)} instructions, {moved} registers renamed, .reuse {sum(x.count('.reuse') for x in a)} -> "
          f"{sum(y.count('.reuse') for y in b)}, {bad} mismatches")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
