#!/bin/sh
# ptx-same.sh A.ptx B.ptx — exit 0 when the two PTX files are the same but for their .version
# and .target lines and // comments (what cicc writes differently for two targets from one
# source); otherwise name the first differing line and exit 1. Used by make check-ptx-levels.
body() { grep -v -E '^[[:space:]]*(\.version|\.target)[[:space:]]|^[[:space:]]*//' "$1"; }
[ -f "$1" ] && [ -f "$2" ] || { echo "ptx-same: $1 or $2 missing" >&2; exit 2; }
body "$1" > "$1.body.$$" && body "$2" > "$2.body.$$" || exit 2
if cmp -s "$1.body.$$" "$2.body.$$"; then rc=0; else
	rc=1
	echo "ptx-same: $1 and $2 differ: $(diff "$1.body.$$" "$2.body.$$" | head -2 | tr '\n' ' ')" >&2
fi
rm -f "$1.body.$$" "$2.body.$$"
exit $rc
