#!/bin/sh
# device-free.sh FIXED... -- CANDIDATE... -- OTHER... — print the largest set of CANDIDATE objects
# that links with the FIXED ones without any OTHER object: a candidate is dropped while it uses a
# symbol (nm) that only an OTHER object or a dropped candidate defines. Symbols no object defines
# (libc, libcsv) do not count. Used by mk/layers.mk to pick the family sources that belong in the
# device-free link (the OTHER objects are the device layer and the families' measurements).
part=0 fixed="" cand="" other=""
for o in "$@"; do
	if [ "$o" = -- ]; then
		part=$((part + 1))
		continue
	fi
	case $part in
	0) fixed="$fixed $o" ;;
	1) cand="$cand $o" ;;
	*) other="$other $o" ;;
	esac
done
{
	for o in $fixed; do echo "F $o"; done
	for o in $cand; do echo "C $o"; done
	for o in $fixed $cand $other; do
		nm -P "$o" | awk -v o="$o" '$2 ~ /^[TDRBVWGC]$/ { print "D", o, $1 } $2 == "U" { print "U", o, $1 }'
	done
} | awk '
	$1 == "F" { fixed[$2] = 1; next }
	$1 == "C" { cand[$2] = 1; order[n++] = $2; next }
	$1 == "D" { if (!($3 in owner)) owner[$3] = $2; next }
	$1 == "U" && ($2 in cand) { uses[$2] = uses[$2] " " $3 }
	END {
		do {
			changed = 0
			for (o in cand) {
				k = split(uses[o], s, " ")
				for (i = 1; i <= k; i++) {
					d = owner[s[i]]
					if (d != "" && !(d in fixed) && !(d in cand)) {
						delete cand[o]
						changed = 1
						break
					}
				}
			}
		} while (changed)
		for (i = 0; i < n; i++)
			if (order[i] in cand)
				print order[i]
	}'
