#!/bin/sh
# ptx-levels.sh "SM..." FILE.cu... — for every (source, sm) the PTX level whose PTX ptxas
# assembles that sm's cubin from, as FILE:SM:LEVEL words (mk/kernels.mk reads them).
#
# A source's levels are 75 (the oldest supported sm) and 90 (the sm of the committed runs, H100
# and H200: its kernels stay exactly what nvcc -arch=sm_90 builds), plus every sm its
# __CUDA_ARCH__ guards name (probes/mma.cu: 800, 890, 900, 1200 -> 80, 89, 90, 120). An sm takes the
# highest level at or below it: cicc's output then differs only where the source asks for it,
# and cicc (most of nvcc's time) runs once per level instead of once per sm.
# The guards are read from the .cu and every project header it includes, directly or not
# (#include "..." found beside the file or in harness/, probes/, bench/).
sms=$1
shift
# The file and the project headers it includes, one per line.
closure() {
	todo=$1 seen=""
	while [ -n "$todo" ]; do
		set -- $todo
		f=$1
		shift
		todo=$*
		case " $seen " in *" $f "*) continue ;; esac
		seen="$seen $f"
		for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
			for d in "$(dirname "$f")" harness probes bench; do
				if [ -f "$d/$h" ]; then
					todo="$todo $d/$h"
					break
				fi
			done
		done
	done
	printf '%s\n' $seen
}
for f in "$@"; do
	g=$(closure "$f" | xargs grep -ohE '__CUDA_ARCH__ *[<>=!]+ *[0-9]+' | grep -oE '[0-9]+$' | sed 's/0$//' | sort -un)
	for s in $sms; do
		best=75
		for l in 75 90 $g; do
			if [ "$l" -le "$s" ] && [ "$l" -gt "$best" ]; then best=$l; fi
		done
		printf '%s:%s:%s\n' "$f" "$s" "$best"
	done
done
