#!/bin/sh
# ptx-levels.sh "SM..." FILE.cu... — for every (source, sm) the PTX level whose PTX ptxas
# assembles that sm's cubin from, as FILE:SM:LEVEL words (mk/kernels.mk reads them).
#
# A source's levels are 75 (the oldest supported sm), every sm its __CUDA_ARCH__ guards name
# (probes/mma.cu: 800, 890, 900, 1200 -> 80, 89, 90, 120), and every level a `ptx-level: NN` tag
# names: a tag marks a source whose PTX for compute_NN differs from the level below it although
# no guard asks for that (cicc schedules and allocates for its target: bench/sgemm_volkov.cu at
# 80). An sm takes the highest level at or below it: cicc's output then
# differs only where the source asks for it, and cicc (most of nvcc's time) runs once per level
# instead of once per sm. `make check-ptx-levels` proves it for the sm of the committed runs
# (H100, H200): wherever sm_90 takes a level below 90, cicc's compute_90 PTX is that level's
# but for its .version and .target lines, or ptxas's sm_90 code from the two is the same, so the
# sm_90 kernels are exactly nvcc -arch=sm_90's.
# The guards and tags are read from the .cu and every project header it includes, directly or
# not (#include "..." found beside the file or in harness/, probes/, bench/). One awk process
# reads every file once (make runs this at every start: the shell loop took 0.59 s for five sms, this 0.01 s).
sms=$1
shift
exec awk -v sms="$sms" '
function exists(p,   line, r) { r = (getline line < p); if (r >= 0) close(p); return r >= 0 }
function dir(p) { return p ~ /\// ? substr(p, 1, match(p, /\/[^\/]*$/) - 1) : "." }
# Read file f once: its includes (space-separated) and its levels (space-separated).
function scan(f,   line, h, n, d, k, s, v) {
	if (f in inc) return
	inc[f] = ""; lev[f] = ""
	while ((getline line < f) > 0) {
		if (line ~ /^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*"/) {
			h = line; sub(/^[^"]*"/, "", h); sub(/".*/, "", h)
			n = split(dir(f) " harness probes bench", d, " ")
			for (k = 1; k <= n; k++) if (exists(d[k] "/" h)) { inc[f] = inc[f] " " d[k] "/" h; break }
		}
		s = line
		while (match(s, /__CUDA_ARCH__ *[<>=!]+ *[0-9]+/)) {
			v = substr(s, RSTART, RLENGTH); sub(/.*[^0-9]/, "", v); sub(/0$/, "", v)
			lev[f] = lev[f] " " v; s = substr(s, RSTART + RLENGTH)
		}
		s = line
		while (match(s, /ptx-level: *[0-9]+/)) {
			v = substr(s, RSTART, RLENGTH); sub(/.*[^0-9]/, "", v)
			lev[f] = lev[f] " " v; s = substr(s, RSTART + RLENGTH)
		}
	}
	close(f)
}
BEGIN {
	ns = split(sms, sm, " ")
	for (a = 1; a < ARGC; a++) {
		f = ARGV[a]; split("", seen); todo = f; levels = ""
		while (todo != "") {
			n = split(todo, t, " "); g = t[1]; todo = ""
			for (k = 2; k <= n; k++) todo = todo " " t[k]
			if (g in seen) continue
			seen[g] = 1; scan(g); levels = levels lev[g]; todo = todo inc[g]
		}
		nl = split(levels, l, " ")
		for (i = 1; i <= ns; i++) {
			best = 75
			for (k = 1; k <= nl; k++) if (l[k] + 0 <= sm[i] + 0 && l[k] + 0 > best) best = l[k] + 0
			printf "%s:%s:%s\n", f, sm[i], best
		}
	}
}' "$@"
