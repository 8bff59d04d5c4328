#!/usr/bin/env bash
# gpu-session.sh — everything one GPU session needs, in one call (device time is scarce):
# build for every sm, GPU tests, the quick and default suites with their wall times, the SASS of
# every kernel, then one archive of results + SASS + log under $OUT (default ./out).
# Needs the dependencies unpacked by `make deps` (carried as .deps on a machine with no network).
# Usage: scripts/gpu-session.sh [SUITE...]   extra suites (e.g. configs/paper.csv) run after default
set -u
OUT=${OUT:-out}
DEPS=${DEPS:-.deps/root}
mkdir -p "$OUT"
exec > >(tee "$OUT/session.log") 2>&1

stamp() { date -u +%Y-%m-%dT%H:%M:%SZ; }
smi() { nvidia-smi --query-gpu=name,pstate,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader 2>/dev/null || echo "nvidia-smi unavailable"; }
timed() { local t0 t1; t0=$(date +%s.%N); "$@"; local rc=$?; t1=$(date +%s.%N); echo "TIME $(echo "$t1 - $t0" | bc -l 2>/dev/null || python3 -c "print($t1-$t0)") s rc=$rc: $*"; return $rc; }

echo "== $(stamp) $(uname -r); nvcc: $(nvcc --version | tail -1)"
echo "== GPU before: $(smi)"
[ -f "$DEPS/usr/include/csv.h" ] || { echo "gpu-session: no $DEPS (run make deps here and carry .deps)"; exit 1; }
timed make -j16 DEPS="$DEPS" Q= >"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
bin/gpuprobe info
timed make test DEPS="$DEPS" 2>&1 | tail -40
rm -rf results/_session && mkdir -p results/_session
timed make quick DEPS="$DEPS" RESULTS=results/_session
echo "== GPU after quick: $(smi)"
timed make run DEPS="$DEPS" RESULTS=results/_session
echo "== GPU after default: $(smi)"
for s in "$@"; do
	timed bin/gpuprobe run --suite "$s" --out results/_session
done
make sass DEPS="$DEPS" >/dev/null 2>&1 && cp -r build/sass results/_session/ || echo "make sass failed"
echo "== $(stamp) done"
tar czf "$OUT/results.tgz" -C results/_session . && ls -la "$OUT"
