#!/usr/bin/env bash
# gpu-session.sh — everything one GPU session needs, in one call (device time is scarce):
# build, the GPU tests (each under a time limit), the quick and default suites with their wall
# times, extra suites given as arguments, the SASS of every kernel, then one archive of results,
# SASS and logs under $OUT (default ./out).
# Needs the dependencies unpacked by `make deps` (carried as .deps on a machine with no network).
# Env: SM (default: the GPU's own, which make detects; "all" for every supported sm),
# GPU_TEST_LIMIT seconds per test program (default 240), SKIP_TESTS=1, SKIP_QUICK=1, SKIP_DEFAULT=1, SKIP_SASS=1 (no SASS dump);
# SOLVE=1 runs the ISA encoding solver on the regbank template with nvdisasm and keeps the map
# and the listing; SANITIZE=1 runs make sanitize (compute-sanitizer memcheck + racecheck over
# SANITIZE_SUITE, default configs/sanitize.csv, sized for racecheck; SANITIZE_LIMIT_S seconds per
# run, default 180; SANITIZE_TOTAL_S for all of it) last, with the solver beside it when both are
# asked for.
# FILTER=REGEX limits the extra suites, SUITE:REGEX one of them (the paper suite does not fit one
# 10-minute call: split it);
# SUITE_LIMIT_S stops each extra suite with SIGINT (a clean, incomplete run) after that many seconds.
# GPU_TESTS="build/tests/test_gpu_x ..." runs only those test programs.
# NCU="SUITE=REGEX ..." profiles, per suite, the kernels whose names match REGEX with Nsight
# Compute (clock control off: the card's clocks are never touched; NCU_COUNT launches each,
# default 3, each job stopped after NCU_LIMIT_S seconds, default 300) and keeps the report text
# under ncu/.
# Usage: scripts/gpu-session.sh [SUITE[:REGEX]...]
set -u
OUT=${OUT:-out}
DEPS=${DEPS:-.deps/root}
SM=${SM:-}
mkdir -p "$OUT"
exec > >(tee "$OUT/session.log") 2>&1

stamp() { date -u +%Y-%m-%dT%H:%M:%SZ; }
smi() { nvidia-smi --query-gpu=name,pstate,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader 2>/dev/null || echo "nvidia-smi unavailable"; }
# Archive the measured runs after every suite: a command stopped at its time limit must not take
# the results with it.
archive() { tar czf "$OUT/results.tgz" -C results/_session --exclude=./sass --exclude=./solver --exclude=./sanitize --exclude=./ncu . && echo "== results archived"; }
# The extras (SASS, solver, sanitizer logs, Nsight Compute) after each step, for the same reason.
archive_extra() {
	local extras
	extras=$(cd results/_session && ls -d sass solver sanitize ncu 2>/dev/null)
	[ -z "$extras" ] || tar czf "$OUT/extra.tgz" -C results/_session $extras
}
timed() { local t0 t1 rc; t0=$(date +%s.%N); "$@"; rc=$?; t1=$(date +%s.%N); python3 -c "print('TIME %.1f s rc=$rc: ' % ($t1 - $t0) + '''$*''')"; return $rc; }

echo "== $(stamp) $(uname -r); nvcc: $(nvcc --version | tail -1)"
echo "== GPU before: $(smi)"
[ -f "$DEPS/usr/include/csv.h" ] || { echo "gpu-session: no $DEPS (run make deps here and carry .deps)"; exit 1; }
timed make -j16 all tests ${SM:+SM="$SM"} DEPS="$DEPS" Q= >"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
# Before anything is measured: the sm_90 kernels are compute_90's (mk/kernels.mk); 16 cores make
# it a few seconds here, where CI's two cores would spend 15-20 s of its 7 minutes on it.
timed make -j16 ${SM:+SM="$SM"} DEPS="$DEPS" check-ptx-levels >>"$OUT/build.log" 2>&1 || { tail -5 "$OUT/build.log"; exit 1; }
bin/gpuprobe info
if [ -z "${SKIP_TESTS:-}" ]; then
	for t in ${GPU_TESTS:-build/tests/test_gpu build/tests/test_gpu_* build/tests/test_reliability}; do
		case $t in *.d) continue ;; esac
		timed timeout "${GPU_TEST_LIMIT:-240}" env CMOCKA_MESSAGE_OUTPUT=stdout "$t" 2>&1 |
			grep -vE '^\[ (RUN|      OK) '
	done
fi
rm -rf results/_session && mkdir -p results/_session
[ -n "${SKIP_QUICK:-}" ] || timed make quick ${SM:+SM="$SM"} DEPS="$DEPS" RESULTS=results/_session
echo "== GPU after quick: $(smi)"
archive
[ -n "${SKIP_DEFAULT:-}" ] || timed make run ${SM:+SM="$SM"} DEPS="$DEPS" RESULTS=results/_session
echo "== GPU after default: $(smi)"
archive
for arg in "$@"; do
	# SUITE or SUITE:REGEX (that suite's own filter, instead of FILTER): one suite can be split
	# into runs ordered cheapest first, so a limit cuts only the last.
	s=${arg%%:*} re=${FILTER:-}
	[ "$s" = "$arg" ] || re=${arg#*:}
	# SIGINT at the limit: the runner finishes the current file and marks the run incomplete, so
	# what was measured is archived rather than lost with a killed command.
	timed timeout -s INT "${SUITE_LIMIT_S:-3600}" bin/gpuprobe run --suite "$s" --out results/_session \
		${re:+--filter "$re"}
	archive
done
[ -n "${SKIP_SASS:-}" ] || { make sass ${SM:+SM="$SM"} DEPS="$DEPS" >/dev/null 2>&1 && cp -r build/sass results/_session/ || echo "make sass failed"; }
archive_extra
if [ -n "${NCU:-}" ]; then
	mkdir -p results/_session/ncu
	i=0
	for job in $NCU; do
		i=$((i + 1))
		suite=${job%%=*} re=${job#*=} name=$i-$(basename "${job%%=*}" .csv)
		timed timeout "${NCU_LIMIT_S:-300}" ncu --clock-control none --target-processes all -c "${NCU_COUNT:-3}" -k "regex:$re" \
			--section SpeedOfLight --section LaunchStats --section Occupancy --section SchedulerStats \
			--section WarpStateStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
			--section InstructionStats \
			bin/gpuprobe -q run --suite "$suite" --out results/_session/ncu/runs --reps 1 --warmup 0 \
			--no-isolate >"results/_session/ncu/$name.txt" 2>&1
	done
	rm -rf results/_session/ncu/runs
	# ncu names the profiled binary by absolute path: keep the machine's paths out of the reports.
	sed -i "s|$PWD/||g" results/_session/ncu/*.txt
	archive_extra
fi
solve() {
	mkdir -p results/_session/solver
	timed bin/gpuprobe sass solve build/cubins/regbank.sm_90.cubin --kernel bank_ffma \
		-o results/_session/solver/sm90_field_map.csv --emit results/_session/solver/flips_sm90.bin \
		--save-listing results/_session/solver/flips_sm90.txt --max-seconds "${SOLVE_LIMIT_S:-120}" \
		>results/_session/solver/solve.log 2>&1
	cat results/_session/solver/solve.log
}
# With SANITIZE too, the solver (CPU only: nvdisasm) runs beside compute-sanitizer, whose
# timings mean nothing anyway, instead of after it.
solve_pid=
if [ -n "${SOLVE:-}" ] && [ -n "${SANITIZE:-}" ]; then
	solve &
	solve_pid=$!
elif [ -n "${SOLVE:-}" ]; then
	solve
	archive_extra
fi
if [ -n "${SANITIZE:-}" ]; then
	timed timeout "${SANITIZE_TOTAL_S:-3600}" make sanitize ${SM:+SM="$SM"} DEPS="$DEPS" \
		SANITIZE_OUT=results/_session/sanitize SANITIZE_LIMIT_S="${SANITIZE_LIMIT_S:-180}" \
		${SANITIZE_SUITE:+SANITIZE_SUITE=$SANITIZE_SUITE}
	rm -rf results/_session/sanitize/results
	archive_extra
fi
[ -z "$solve_pid" ] || { wait "$solve_pid"; archive_extra; }
echo "== $(stamp) done"
archive_extra
ls -la "$OUT"
