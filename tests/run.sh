#!/usr/bin/env bash
# run.sh TEST_BINARY... — run every cmocka test program, show its output, and close with one
# summary line over all of them: "tests: N passed, N failed, N skipped". Skipped tests are
# counted apart, never as passed. Exit 1 if any test failed or a program crashed.
set -u
pass=0 fail=0 skip=0 crashed=0
for t in "$@"; do
	t0=$(date +%s)
	out=$(CMOCKA_MESSAGE_OUTPUT=stdout "$t" 2>&1)
	rc=$?
	echo "== $t ($(( $(date +%s) - t0 )) s)"
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	s=$(printf '%s\n' "$out" | sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' | tail -1)
	if [ -z "$p" ] && [ -z "$f" ]; then
		echo "run.sh: $t printed no cmocka summary (exit $rc): counted as a failure"
		crashed=$((crashed + 1))
		continue
	fi
	pass=$((pass + ${p:-0}))
	fail=$((fail + ${f:-0}))
	skip=$((skip + ${s:-0}))
	if [ "$rc" -ne 0 ] && [ -z "$f" ]; then
		echo "run.sh: $t exited $rc without reporting a failed test: counted as a failure"
		crashed=$((crashed + 1))
	fi
done
fail=$((fail + crashed))
echo "tests: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
