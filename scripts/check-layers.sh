#!/bin/sh
# check-layers.sh OBJ... — fail if two or more of the objects import each other in a circle: an
# edge A -> B for every symbol A uses and B defines (nm), sorted with tsort, which names any
# loop. Prints the loop's members and the symbols of the edges between them. Symbol level, so
# it sees what the linker sees, whatever the headers say.
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
for o in "$@"; do
	nm -P --defined-only "$o" | awk -v o="$o" '$2 ~ /^[TDRBVWGC]$/ { print $1, o }'
done | sort -k1,1 > "$tmp/defs" || exit 2
for o in "$@"; do
	nm -P --undefined-only "$o" | awk -v o="$o" '{ print $1, o }'
done | sort -k1,1 > "$tmp/uses" || exit 2
# symbol user definer -> "user definer symbol" for every cross-object use
join "$tmp/uses" "$tmp/defs" | awk '$2 != $3 { print $2, $3, $1 }' | sort -u > "$tmp/edges"
cut -d' ' -f1,2 "$tmp/edges" | sort -u | tsort > /dev/null 2> "$tmp/loops"
if [ -s "$tmp/loops" ]; then
	echo "check-layers: import circle between these objects:" >&2
	sed -n 's/^tsort: \([^:]*\)$/\1/p' "$tmp/loops" | sort -u > "$tmp/members"
	awk 'NR == FNR { m[$1] = 1; next } ($1 in m) && ($2 in m) { print "  " $1 " -> " $2 " (" $3 ")" }' \
		"$tmp/members" "$tmp/edges" >&2
	exit 1
fi
echo "  LAYERS  $# objects, $(cut -d' ' -f1,2 "$tmp/edges" | sort -u | wc -l) import edges, no circle"
