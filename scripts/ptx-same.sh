#!/bin/sh
# ptx-same.sh A.ptx B.ptx — exit 0 when sm_90 gets the same machine code from the two PTX files:
# they are the same but for their .version and .target lines and // comments (what cicc writes
# differently for two targets from one source), or, where they differ otherwise, ptxas's sm_90
# cubins of both hold the same bytes in every section but the debug ones (line tables, the PTX
# text) and the .note.nv.cuinfo note (which records the PTX target). cicc numbers the virtual
# registers of some kernels differently from run to run (bench/sgemm_warp.cu: two numberings of
# six of its kernels, at every level): the PTX differs, the machine code does not. Otherwise name
# the first differing line and exit 1. Used by make check-ptx-levels (PTXAS: its ptxas).
body() { grep -v -E '^[[:space:]]*(\.version|\.target)[[:space:]]|^[[:space:]]*//' "$1"; }
# The sm_90 cubin's non-debug sections of PTX file $1, dumped into $2.
sass() {
	"${PTXAS:-ptxas}" -arch=sm_90 -m64 --generate-line-info "$1" -o "$2.cubin" || return 2
	readelf -W -S "$2.cubin" 2>/dev/null | sed -n 's/^ *\[ *[0-9]*\] \([^ ]*\) .*/\1/p' |
		grep -v -E '^$|^(\.rela?)?\.(nv_)?debug|^\.note\.nv\.cuinfo$' |
		while read -r s; do readelf -x "$s" "$2.cubin" 2>/dev/null; done > "$2"
	rm -f "$2.cubin"
}
[ -f "$1" ] && [ -f "$2" ] || { echo "ptx-same: $1 or $2 missing" >&2; exit 2; }
body "$1" > "$1.body.$$" && body "$2" > "$2.body.$$" || exit 2
if cmp -s "$1.body.$$" "$2.body.$$"; then rc=0; else
	sass "$1" "$1.sass.$$" && sass "$2" "$2.sass.$$" || exit 2
	if [ -s "$1.sass.$$" ] && cmp -s "$1.sass.$$" "$2.sass.$$"; then
		rc=0
		echo "ptx-same: $1 and $2 differ, but not in ptxas's sm_90 machine code" >&2
	else
		rc=1
		echo "ptx-same: $1 and $2 differ: $(diff "$1.body.$$" "$2.body.$$" | head -2 | tr '\n' ' ')" >&2
	fi
	rm -f "$1.sass.$$" "$2.sass.$$"
fi
rm -f "$1.body.$$" "$2.body.$$"
exit $rc
