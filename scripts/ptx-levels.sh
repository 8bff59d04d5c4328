#!/bin/sh
# ptx-levels.sh "SM..." FILE.cu... — for every (source, sm) the PTX level whose PTX ptxas
# assembles that sm's cubin from, as FILE:SM:LEVEL words (mk/kernels.mk reads them).
#
# A source's levels are 75 (the oldest supported sm), every sm its __CUDA_ARCH__ guards name
# (probes/mma.cu: 800, 890, 900, 1200 -> 80, 89, 90, 120), and every level a `ptx-level: NN` tag
# names: a tag marks a source whose PTX for compute_NN differs from the level below it although
# no guard asks for that (cicc schedules and allocates for its target: bench/sgemm_warp.cu and
# probes/warp.cu at 90). An sm takes the highest level at or below it: cicc's output then
# differs only where the source asks for it, and cicc (most of nvcc's time) runs once per level
# instead of once per sm. `make check-ptx-levels` proves it for the sm of the committed runs
# (H100, H200): wherever sm_90 takes a level below 90, cicc's compute_90 PTX is that level's
# but for its .version and .target lines, so the sm_90 kernels are exactly nvcc -arch=sm_90's.
# The guards and tags are read from the .cu and every project header it includes, directly or
# not (#include "..." found beside the file or in harness/, probes/, bench/).
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
	c=$(closure "$f")
	g=$(printf '%s\n' $c | xargs grep -ohE '__CUDA_ARCH__ *[<>=!]+ *[0-9]+' | grep -oE '[0-9]+$' | sed 's/0$//')
	t=$(printf '%s\n' $c | xargs grep -ohE 'ptx-level: *[0-9]+' | grep -oE '[0-9]+$')
	for s in $sms; do
		best=75
		for l in $g $t; do
			if [ "$l" -le "$s" ] && [ "$l" -gt "$best" ]; then best=$l; fi
		done
		printf '%s:%s:%s\n' "$f" "$s" "$best"
	done
done
