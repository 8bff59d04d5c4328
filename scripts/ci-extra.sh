#!/usr/bin/env bash
# ci-extra.sh — what CI runs before `make test`: every fuzz target for FUZZ_SECONDS (make fuzz,
# the targets side by side), the host code and tests under ASan+UBSan (make asan) and the test
# programs under valgrind memcheck (make valgrind, without --track-origins, which doubles its
# time and only adds where an uninitialised value came from), each with JOBS programs at once.
# Every step runs whatever another one does, under its own time limit, so one failure shows all;
# the last line sums up, and the exit status is 1 if any step failed. Installs nothing: it checks
# for clang with the libFuzzer runtime and for valgrind and names the Debian packages if they
# are missing. Bounded: about 3 minutes on 2 cores after `make all` (FUZZ_SECONDS=60).
# Usage: scripts/ci-extra.sh      env: JOBS (the cores), FUZZ_SECONDS (60), VALGRIND_SKIP (test
# programs valgrind leaves out; default: mk/sanitize.mk's), VALGRIND_ONLY (just these)
set -u
cd "$(dirname "$0")/.." || exit 2
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
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

# The steps run side by side (each in its own tree: build/fuzz, build/asan, build/valgrind; what
# they share, make all, the test programs and the fixtures, is built first), so the cores stay busy through one
# step's serial tail with another's work; each step's output is kept and shown in order after.
make -j"$JOBS" all tests check-layers test-fixtures || exit 1
logs=$(mktemp -d) || exit 2
pids=() names=()
step() {
	local name=$1 limit=$2
	shift 2
	(
		t0=$(date +%s)
		timeout -k 10 "$limit" "$@" >"$logs/$name.log" 2>&1 </dev/null
		rc=$?
		[ $rc -eq 124 ] && echo "ci-extra: $name ran past its ${limit} s limit" >>"$logs/$name.log"
		echo "$rc $(($(date +%s) - t0))" >"$logs/$name.rc"
	) &
	pids+=($!)
	names+=("$name")
	echo "== ci-extra: $name: $* (limit ${limit} s)"
}

t_start=$(date +%s)
step fuzz $((FUZZ_SECONDS + 300)) make -j"$JOBS" fuzz FUZZ_SECONDS="$FUZZ_SECONDS"
step asan 600 make -j"$JOBS" asan TEST_JOBS="$JOBS"
step valgrind 600 make -j"$JOBS" valgrind TEST_JOBS="$JOBS" VALGRIND_ORIGINS=no ${VALGRIND_SKIP:+VALGRIND_SKIP="$VALGRIND_SKIP"} ${VALGRIND_ONLY:+VALGRIND_ONLY="$VALGRIND_ONLY"}
wait "${pids[@]}"
failed="" summary=""
for name in "${names[@]}"; do
	read -r rc secs <"$logs/$name.rc" || rc=255 secs=0
	echo "== ci-extra: $name (exit $rc, $secs s)"
	cat "$logs/$name.log"
	summary="$summary $name=$([ "$rc" -eq 0 ] && echo ok || echo "FAIL($rc)")/${secs}s"
	[ "$rc" -eq 0 ] || failed="$failed $name"
done
rm -rf "$logs"
echo "ci-extra:$summary; total $(($(date +%s) - t_start)) s${failed:+; failed:$failed}"
[ -z "$failed" ]
