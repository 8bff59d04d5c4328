#!/usr/bin/env bash
# ci-extra.sh — what CI runs after `make test`: the host code and tests under ASan+UBSan
# (make asan), the test programs under valgrind memcheck (make valgrind), and every fuzz target
# for FUZZ_SECONDS (make fuzz). Each step runs even if an earlier one failed, under its own time
# limit, so one failure shows all; the last line sums up, and the exit status is 1 if any step
# failed. Installs nothing: it checks for clang with the libFuzzer runtime and for valgrind and
# names the Debian packages if they are missing. Bounded: about 4 minutes on 2 cores (FUZZ=60).
# Usage: scripts/ci-extra.sh      env: JOBS (2), FUZZ_SECONDS (60)
set -u
cd "$(dirname "$0")/.." || exit 2
JOBS=${JOBS:-2}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_CC=${FUZZ_CC:-clang}

# What the steps need; the packages named are Debian 12's.
need=""
command -v valgrind >/dev/null || need="$need valgrind"
probe=$(mktemp -d) || exit 2
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { return 0; }\n' >"$probe/f.c"
if ! command -v "$FUZZ_CC" >/dev/null; then
	need="$need clang libclang-rt-14-dev"
elif ! "$FUZZ_CC" -fsanitize=fuzzer,address,undefined -o "$probe/f" "$probe/f.c" 2>/dev/null; then
	need="$need libclang-rt-14-dev"
fi
rm -rf "$probe"
if [ -n "$need" ]; then
	echo "ci-extra: missing:$need (apt-get install -y --no-install-recommends$need)" >&2
	exit 2
fi

failed="" summary=""
step() {
	local name=$1 limit=$2 t0 rc
	shift 2
	echo "== ci-extra: $name: $* (limit ${limit} s)"
	t0=$(date +%s)
	timeout --foreground -k 10 "$limit" "$@"
	rc=$?
	[ $rc -eq 124 ] && echo "ci-extra: $name ran past its ${limit} s limit"
	summary="$summary $name=$([ $rc -eq 0 ] && echo ok || echo "FAIL($rc)")/$(($(date +%s) - t0))s"
	[ $rc -eq 0 ] || failed="$failed $name"
}

t_start=$(date +%s)
step asan 240 make -j"$JOBS" asan
step valgrind 240 make valgrind
step fuzz $((2 * FUZZ_SECONDS + 150)) make -j"$JOBS" fuzz FUZZ_SECONDS="$FUZZ_SECONDS"
echo "ci-extra:$summary; total $(($(date +%s) - t_start)) s${failed:+; failed:$failed}"
[ -z "$failed" ]
