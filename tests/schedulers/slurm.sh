#!/usr/bin/env bash
# The SLURM recipe of docs/clusters.md on a real one-node cluster started
# here (munged, slurmctld, slurmd; configuration and state in a temporary
# directory; nothing left running). One array task is requeued while it
# plays and must resume, not start over; the merged shards must equal the
# unsharded run byte for byte (timing columns aside). Where SLURM cannot be
# installed or started, prints `slurm: skipped: REASON` and exits 0.
# Usage: tests/schedulers/slurm.sh [PAHTUM_BINARY]   (root; apt for installing)
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
source "$ROOT/tests/schedulers/lib.sh"
BIN=$(realpath "${1:-$ROOT/target/release/pahtum}")
TASKS=8       # array tasks (shards), as the recipe says
GAMES=16      # per pairing: 2 games a shard, a few seconds each

skip() { echo "slurm: skipped: $*"; exit 0; }
fail() { echo "slurm: FAILED: $*"; exit 1; }
# The last non-empty line of the given logs, for a skip's reason.
last_line() { cat "$@" 2>/dev/null | grep . | tail -n 1; }
# With VERBOSE=1, each step and the seconds since the start on stderr.
step() { [ -z "${VERBOSE:-}" ] || echo "slurm: ${SECONDS}s: $*" >&2; }

[ -x "$BIN" ] || fail "no pahtum binary at $BIN (build with cargo build --release)"
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    [ "$(id -u)" = 0 ] || skip "slurm-wlm/munge not installed and not root"
    command -v apt-get >/dev/null || skip "slurm-wlm/munge not installed and no apt-get"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge; } \
        >/dev/null 2>&1 || skip "apt-get install slurm-wlm munge failed"
fi
[ "$(id -u)" = 0 ] || skip "needs root (SlurmUser=root)"

TMP=$(mktemp -d /tmp/pahtum-slurm.XXXXXX)
chmod 700 "$TMP"
MUNGE_PID= CTLD_PID= SLURMD_PID=
cleanup() {
    if [ -n "$CTLD_PID" ]; then
        scancel --quiet --name=pahtum >/dev/null 2>&1
        for _ in $(seq 50); do
            [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
            sleep 0.2
        done
    fi
    for p in $SLURMD_PID $CTLD_PID $MUNGE_PID; do
        kill "$p" 2>/dev/null
        for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$p" 2>/dev/null
    done
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# munge: its own key, socket and files, away from any system instance.
mkdir -p "$TMP/munge" "$TMP/state" "$TMP/spool" "$TMP/work"
dd if=/dev/urandom of="$TMP/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$TMP/munge/munge.key"
munged --foreground --force --key-file="$TMP/munge/munge.key" \
    --socket="$TMP/munge/munge.socket" --pid-file="$TMP/munge/munged.pid" \
    --log-file="$TMP/munge/munged.log" --seed-file="$TMP/munge/munged.seed" \
    >"$TMP/munge/stdout" 2>&1 &
MUNGE_PID=$!
for _ in $(seq 50); do [ -S "$TMP/munge/munge.socket" ] && break; sleep 0.1; done
[ -S "$TMP/munge/munge.socket" ] || skip "munged did not start: $(last_line "$TMP/munge/munged.log" "$TMP/munge/stdout")"

HOST=$(hostname -s)
PORT=$((20000 + RANDOM % 20000))
export SLURM_CONF="$TMP/slurm.conf"
cat >"$SLURM_CONF" <<CONF
ClusterName=pahtumci
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$TMP/munge/munge.socket
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
StateSaveLocation=$TMP/state
SlurmdSpoolDir=$TMP/spool
SlurmctldPidFile=$TMP/slurmctld.pid
SlurmdPidFile=$TMP/slurmd.pid
SlurmctldLogFile=$TMP/slurmctld.log
SlurmdLogFile=$TMP/slurmd.log
SlurmctldTimeout=30
SlurmdTimeout=30
KillWait=5
MinJobAge=300
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=ci Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -D -i -f "$SLURM_CONF" >"$TMP/slurmctld.out" 2>&1 &
CTLD_PID=$!
slurmd -D -f "$SLURM_CONF" >"$TMP/slurmd.out" 2>&1 &
SLURMD_PID=$!
up=
for _ in $(seq 100); do
    if sinfo -h -o %T 2>/dev/null | grep -qx idle; then up=1; break; fi
    kill -0 "$CTLD_PID" 2>/dev/null && kill -0 "$SLURMD_PID" 2>/dev/null || break
    sleep 0.2
done
[ -n "$up" ] && step "cluster up"
[ -n "$up" ] || skip "the one-node cluster did not come up: $(last_line "$TMP/slurmctld.log" "$TMP/slurmd.log" "$TMP/slurmctld.out" "$TMP/slurmd.out")"

# The recipe as docs/clusters.md shows it; GAMES shrinks the schedule and
# sbatch's --cpus-per-task each task to one CPU of this machine.
recipe_block slurm >"$TMP/pahtum.sbatch"
grep -q 'pahtum tournament' "$TMP/pahtum.sbatch" || fail "no SLURM recipe in docs/clusters.md"
grep -q -- "--array=1-$TASKS " "$TMP/pahtum.sbatch" || fail "the SLURM recipe's array is not 1-$TASKS"
mkdir -p "$TMP/bin" && ln -s "$BIN" "$TMP/bin/pahtum"
export PATH="$TMP/bin:$PATH" GAMES
cd "$TMP/work" || fail "cd"
JOB=$(sbatch --parsable --cpus-per-task=1 --output="$TMP/work/slurm-%A_%a.out" \
    "$TMP/pahtum.sbatch") || fail "sbatch refused the recipe"
JOB=${JOB%%;*}

step "submitted job $JOB"
# Requeue task 1 once it has played some but not all of its games.
S1=results/run42/shard-1
per_shard=$((GAMES / TASKS))
for _ in $(seq 600); do
    n=$(rows "$S1")
    [ "$n" -ge 1 ] && break
    sleep 0.05
done
[ "$n" -ge 1 ] && [ "$n" -lt "$per_shard" ] ||
    fail "task 1 had $n of $per_shard games when it was to be requeued"
head -n $((n + 1)) "$S1/games.csv" >"$TMP/before.csv"
start_before=$(grep '"start_time"' "$S1/run.json")
step "requeueing after $n games"
scontrol requeue "${JOB}_1" || fail "scontrol requeue ${JOB}_1"
# Slurm holds a requeued task back (BeginTime, about two minutes); the
# owner may start it at once, which changes nothing in what it runs.
for _ in $(seq 300); do
    scontrol -o show job "${JOB}_1" | grep -q 'JobState=PENDING' && break
    sleep 0.1
done
scontrol update JobId="${JOB}_1" StartTime=now >/dev/null 2>&1 || true

# Wait for every task (requeued ones come back after a short hold).
for _ in $(seq 1800); do
    [ -z "$(squeue -h -j "$JOB" -o %i 2>/dev/null)" ] && break
    sleep 0.1
done
[ -z "$(squeue -h -j "$JOB" -o %i)" ] || fail "job $JOB still queued after 3 minutes"
restarts=$(scontrol -o show job "${JOB}_1" | grep -o 'Restarts=[0-9]*')
[ "$restarts" != "Restarts=0" ] || fail "task 1 was not requeued ($restarts)"
cmp -s "$TMP/before.csv" <(head -n $((n + 1)) "$S1/games.csv") ||
    fail "task 1 started over instead of resuming (its first $n rows changed)"
[ "$(grep '"start_time"' "$S1/run.json")" = "$start_before" ] ||
    fail "task 1's run.json was written anew instead of resumed"
for k in $(seq "$TASKS"); do
    [ "$(rows "results/run42/shard-$k")" = "$per_shard" ] ||
        fail "shard $k has $(rows "results/run42/shard-$k") of $per_shard games: $(cat slurm-*_"$k".out)"
done

step "all tasks done"
# The recipe's merge line, then the same tournament unsharded.
merge=$(grep -o 'pahtum merge.*' "$TMP/pahtum.sbatch")
bash -c "$merge" >/dev/null || fail "$merge"
grep -q '"merged_from"' results/run42/all/run.json || fail "merged run.json lacks merged_from"
cmd=$(tournament_command <"$TMP/pahtum.sbatch")
bash -c "$cmd --out unsharded" || fail "$cmd"
step "unsharded done"
same_results unsharded results/run42/all || fail "merged shards differ from the unsharded run"
echo "slurm: ok: $TASKS array tasks, task 1 requeued after $n of $per_shard games and resumed, merge equals the unsharded run"
