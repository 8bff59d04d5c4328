#!/usr/bin/env bash
# tests/slurm/run.sh — the Slurm front end (scripts/slurm/gpuprobe.sbatch) through a real Slurm on
# this machine, GPUs from the stub driver (tests/stub): a private munged, slurmctld and slurmd on
# localhost with a minimal configuration written here (no accounting, no cgroups, a scheduler that
# looks every second), an array of TASKS tasks submitted with sbatch as an operator would, each
# task running tests/stub/suite.csv on GPUPROBE_STUB_GPUS=2 stub GPUs. Held: every task ends with
# the stub suite's exit status (5) in Slurm's records, leaves its run directories named by job,
# host and GPU (meta.csv: the stub, the GPU ordinal, invalid-results) and names them in its
# output; the summary job it submitted runs `gpuprobe fleet` over the job's root (every run in
# FLEET.md, labelled as the stub's). The daemons started here are stopped on every exit.
#
# Needs root (slurmd starts jobs as their user) and Debian's slurm-wlm and munge; without them it
# says it is skipped and exits 0 (.ci/run installs them). Run from the repository root after
# make. Prints one line "slurm: ok|FAILED|skipped: ..." last; exit 1 on a failure.
# Env: BUILD (build), TASKS (3), SLURM_TEST_LIMIT_S (bound on the array and its summary, 60),
# KEEP=1 keeps the temporary directory (configuration, logs, results).
set -u
cd "$(dirname "$0")/../.." || exit 2
BUILD=${BUILD:-build}
TASKS=${TASKS:-3}
LIMIT=${SLURM_TEST_LIMIT_S:-60}
PATH=$PATH:/usr/sbin:/sbin
t0=$(date +%s.%N)

skip() {
	echo "slurm: skipped: $*"
	exit 0
}
for c in munged slurmctld slurmd sbatch squeue scontrol; do
	command -v "$c" >/dev/null || skip "no $c (Debian packages slurm-wlm munge)"
done
[ "$(id -u)" -eq 0 ] || skip "needs root: slurmd starts every job as its user"
[ -x bin/gpuprobe ] && [ -r "$BUILD/stub/libcuda.so.1" ] || {
	echo "slurm: FAILED: no bin/gpuprobe or $BUILD/stub/libcuda.so.1 (run make first)"
	exit 1
}

T=$(mktemp -d /tmp/gpuprobe-slurm.XXXXXX) || exit 2
chmod 755 "$T" # jobs read the configuration; munged wants its directories not world-writable
pids=()
failed=""
stop() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do
		for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
		kill -9 "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	pids=()
	if [ -n "$failed" ]; then
		for f in "$T"/slurmctld.log "$T"/slurmd.log "$T"/munged.log "$T"/out/*; do
			[ -f "$f" ] && { echo "== $f"; tail -n 40 "$f"; }
		done
	fi
	[ "${KEEP:-0}" = 1 ] && echo "slurm: kept $T" || rm -rf "$T"
}
trap stop EXIT
trap 'exit 1' INT TERM
fail() {
	failed=1
	echo "slurm: FAILED: $*"
	exit 1
}
# Poll CMD every 0.1 s until it succeeds or SECONDS pass.
wait_for() {
	local secs=$1 end
	shift
	end=$(($(date +%s) + secs))
	until "$@" >/dev/null 2>&1; do
		[ "$(date +%s)" -lt "$end" ] || return 1
		sleep 0.1
	done
}

host=$(hostname -s)
# Ports of their own, so that another Slurm (or another run of this test) is not disturbed: two
# free ones in a row (nothing answers there).
port=$((20000 + $$ % 20000))
while (: </dev/tcp/127.0.0.1/$port) 2>/dev/null || (: </dev/tcp/127.0.0.1/$((port + 1))) 2>/dev/null; do
	port=$((port + 2))
done
mkdir -p "$T/state" "$T/spool" "$T/out" "$T/results"
dd if=/dev/urandom of="$T/munge.key" bs=1024 count=1 status=none && chmod 400 "$T/munge.key"
cat >"$T/slurm.conf" <<EOF
ClusterName=gpuprobe-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge.socket
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
SchedulerParameters=sched_interval=1,sched_min_interval=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=600
KillWait=1
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:$TASKS
EOF
export SLURM_CONF=$T/slurm.conf

munged -f --socket="$T/munge.socket" --key-file="$T/munge.key" --pid-file="$T/munged.pid" \
	--seed-file="$T/munged.seed" --log-file="$T/munged.log" --foreground >/dev/null 2>&1 &
pids+=($!)
wait_for 10 test -S "$T/munge.socket" || fail "munged did not start"
slurmctld -D -i >"$T/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N "$host" >"$T/slurmd.out" 2>&1 &
pids+=($!)
wait_for 30 sh -c "scontrol show node '$host' | grep -q 'State=IDLE'" || fail "the node did not come up idle"
t_up=$(date +%s.%N)

# As an operator submits it (from the repository, the in-tree binary), plus the stub.
job=$(LD_LIBRARY_PATH=$PWD/$BUILD/stub GPUPROBE_STUB_GPUS=2 GPUPROBE_SUITE=$PWD/tests/stub/suite.csv \
	GPUPROBE_RESULTS=$T/results \
	sbatch --parsable --array=0-$((TASKS - 1)) --output="$T/out/%A_%a.out" scripts/slurm/gpuprobe.sbatch) ||
	fail "sbatch refused the job"
# Done when the array and its summary job have left the queue.
wait_for "$LIMIT" sh -c '[ -s "$0/results/$1/fleet.jobid" ] && [ -z "$(squeue -h -o %i)" ]' "$T" "$job" ||
	fail "the array or its summary job did not finish within $LIMIT s: $(squeue -h -o '%i %T %r' | tr '\n' ';')"
t_done=$(date +%s.%N)

root=$T/results/$job
# Slurm's record of every task: FAILED with the stub suite's exit status, 5.
for ((i = 0; i < TASKS; i++)); do
	rec=$(scontrol -o show job "${job}_$i") || fail "no record of task $i"
	case $rec in *ExitCode=5:0*) ;; *) fail "task $i: want ExitCode=5:0: $(grep -o 'JobState=[^ ]*\|ExitCode=[^ ]*' <<<"$rec" | tr '\n' ' ')" ;; esac
done
# Every task's run directories: one per stub GPU, named by host and GPU, named in its output.
meta() { awk -F, -v k="$2" '$1 == k { sub(/^[^,]*,/, ""); print }' "$1/meta.csv"; }
runs=0
for ((i = 0; i < TASKS; i++)); do
	out=$T/out/${job}_$i.out
	[ -r "$out" ] || fail "task $i wrote no output"
	mapfile -t dirs < <(grep "^$root/" "$out")
	[ "${#dirs[@]}" -eq 2 ] || fail "task $i names ${#dirs[@]} run directories, want 2: $(cat "$out")"
	for d in 0 1; do
		dir=${dirs[$d]}
		[[ $dir =~ ^$root/$host/gpu$d/gpuprobe-stub-driver-no-gpu/[0-9]{8}-[0-9]{6}(-[0-9]+)?$ ]] ||
			fail "task $i GPU $d: run directory $dir is not <root>/<job>/$host/gpu$d/<gpu>/<stamp>"
		[ "$(meta "$dir" device_ordinal)" = "$d" ] || fail "$dir: device_ordinal is not $d"
		[ "$(meta "$dir" status)" = invalid-results ] || fail "$dir: status $(meta "$dir" status)"
		[ "$(meta "$dir" hostname)" = "$(hostname)" ] || fail "$dir: hostname $(meta "$dir" hostname)"
		[ -n "$(meta "$dir" stub_driver)" ] || fail "$dir: meta.csv does not name the stub driver"
		[ -s "$dir/lat_ffma.csv" ] && [ -s "$dir/profile.csv" ] || fail "$dir: no lat_ffma.csv or profile.csv"
		runs=$((runs + 1))
	done
done
# The summary: fleet over the job's root found every run and labels them all as the stub's.
[ -s "$root/fleet.csv" ] && head -1 "$root/fleet.csv" | grep -q '^key,unit,run,device,value,median,rel_dev_pct,range_pct,outlier$' ||
	fail "no fleet.csv: $(cat "$root/fleet.log" 2>/dev/null)"
[ -s "$root/FLEET.md" ] || fail "no FLEET.md: $(cat "$root/fleet.log" 2>/dev/null)"
n=$(grep -c "^| [0-9]* | $root/$host/gpu[01]/.*\[stub driver: not a measurement\] | invalid-results |" "$root/FLEET.md")
[ "$n" -eq "$runs" ] || fail "FLEET.md lists $n stub runs, want $runs"
grep -q "fleet: $runs of $runs runs went through the stub driver" "$root/fleet.log" ||
	fail "fleet.log does not say the runs are the stub's: $(cat "$root/fleet.log")"
grep -q "fleet: $runs runs on 1 host" "$root/fleet.log" || fail "fleet.log has no summary: $(cat "$root/fleet.log")"

stop
trap - EXIT
now=$(date +%s.%N)
awk -v n="$TASKS" -v r="$runs" -v a="$t0" -v b="$t_up" -v c="$t_done" -v d="$now" 'BEGIN {
	printf "slurm: ok: %d tasks, %d run directories, fleet summary; daemons up in %.1f s, array and summary %.1f s, total %.1f s\n", n, r, b - a, c - b, d - a }'
