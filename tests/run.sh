#!/usr/bin/env bash
# run.sh TEST_BINARY... — run cmocka test programs and report them compactly. Each program's
# output (stdout and stderr, including the expected errors of negative tests) goes to
# <its dir>/logs/<name>.log and is shown only if the program failed; then one line per program
# (passed, failed, skipped, seconds, each distinct skip reason once, and "as <program>" where an
# earlier program gave the same reasons), then the closing line
# "tests: N passed, N failed, N skipped". Skipped tests are counted apart, never as passed.
# JOBS programs run at once (default 1); programs named test_gpu* run one at a time after the
# others, since they share the GPU and time it. Exit 1 if any test failed or a program crashed.
set -u
jobs=${JOBS:-1}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || jobs=1

log_of() { printf '%s/logs/%s.log' "$(dirname "$1")" "$(basename "$1")"; }

# Run one program in the background: its log, then its exit status and seconds in <log>.rc.
start() {
	local t=$1 log
	log=$(log_of "$t")
	mkdir -p "$(dirname "$log")"
	(
		t0=$(date +%s)
		CMOCKA_MESSAGE_OUTPUT=stdout "$t" >"$log" 2>&1 </dev/null
		echo "$? $(($(date +%s) - t0))" >"$log.rc"
	) &
}

run_all() {
	local running=0
	for t in "$@"; do
		if [ "$running" -ge "$jobs" ]; then
			wait -n
			running=$((running - 1))
		fi
		start "$t"
		running=$((running + 1))
	done
	wait
}

host=() gpu=()
for t in "$@"; do
	case $(basename "$t") in
	test_gpu*) gpu+=("$t") ;;
	*) host+=("$t") ;;
	esac
done
for t in "$@"; do rm -f "$(log_of "$t")" "$(log_of "$t").rc"; done
[ ${#host[@]} -eq 0 ] || run_all "${host[@]}"
for t in ${gpu[@]+"${gpu[@]}"}; do run_all "$t"; done

# The last cmocka count of a kind ("[  PASSED  ] 3 test(s).") in a log, empty if none.
count() { sed -n "s/^\[  $1 *\] \([0-9]*\) test.*/\1/p" "$2" | tail -1; }

# Each distinct reason a program gave for skipping, once: the text after "skipped:" or
# "skipping:" on lines of its own (not cmocka's "[  SKIPPED ]" lines), joined with "; ".
reasons() {
	grep -iE 'skip(ped|ping)?: ' "$1" | grep -v '^\[' | sed -E 's/^.*[Ss]kip(ped|ping)?: //' |
		awk '!seen[$0]++' | paste -sd ';' | sed 's/;/; /g'
}

pass=0 fail=0 skip=0 crashed=0 lines=()
declare -A said # skip reasons already shown, and by which program
for t in "$@"; do
	log=$(log_of "$t") name=$(basename "$t")
	read -r rc secs <"$log.rc" 2>/dev/null || { rc=255 secs=0; }
	p=$(count PASSED "$log") f=$(count FAILED "$log") s=$(count SKIPPED "$log")
	verdict=ok detail="${p:-0} passed"
	[ -n "$f" ] && detail="$detail, $f failed"
	[ -n "$s" ] && detail="$detail, $s skipped"
	if [ -z "$p" ] && [ -z "$f" ]; then
		verdict=FAIL detail="printed no cmocka summary (exit $rc): counted as a failure"
		crashed=$((crashed + 1))
	elif [ "$rc" -ne 0 ] && [ -z "$f" ]; then
		verdict=FAIL detail="$detail; exited $rc without reporting a failed test: counted as a failure"
		crashed=$((crashed + 1))
	elif [ -n "$f" ]; then
		verdict=FAIL
	fi
	pass=$((pass + ${p:-0}))
	fail=$((fail + ${f:-0}))
	skip=$((skip + ${s:-0}))
	if [ "$verdict" = FAIL ]; then
		echo "== $t failed (exit $rc after $secs s); its output ($log):"
		cat "$log"
		echo "== end of $t"
		detail="$detail (log $log)"
	elif [ -n "$s" ]; then
		r=$(reasons "$log")
		if [ -n "$r" ] && [ -n "${said[$r]:-}" ]; then
			detail="$detail (as ${said[$r]})"
		elif [ -n "$r" ]; then
			detail="$detail: $r"
			said[$r]=$name
		fi
	fi
	lines+=("$(printf '  %-4s  %-22s %4s s  %s' "$verdict" "$name" "$secs" "$detail")")
done
printf '%s\n' "${lines[@]}"
fail=$((fail + crashed))
echo "tests: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
