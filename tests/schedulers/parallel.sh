#!/usr/bin/env bash
# The GNU parallel recipe of docs/clusters.md, run as the page shows it
# (GAMES made small) in a temporary directory. One task is stopped with
# SIGTERM while it plays: parallel's --retries starts it again and it must
# resume, not start over; the merge must equal the unsharded run byte for
# byte (timing columns aside). Where GNU parallel cannot be installed, prints
# `parallel: skipped: REASON` and exits 0.
# Usage: tests/schedulers/parallel.sh [PAHTUM_BINARY]
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
source "$ROOT/tests/schedulers/lib.sh"
BIN=$(realpath "${1:-$ROOT/target/release/pahtum}")
GAMES=16 # per pairing: 4 games a shard

skip() { echo "parallel: skipped: $*"; exit 0; }
fail() { echo "parallel: FAILED: $*"; exit 1; }

[ -x "$BIN" ] || fail "no pahtum binary at $BIN (build with cargo build --release)"
if ! parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || skip "GNU parallel not installed (and no root apt-get)"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq parallel; } \
        >/dev/null 2>&1 || skip "apt-get install parallel failed"
    parallel --version 2>/dev/null | grep -q 'GNU parallel' || skip "parallel is not GNU parallel"
fi

TMP=$(mktemp -d /tmp/pahtum-parallel.XXXXXX)
RECIPE_PID=
cleanup() {
    [ -z "$RECIPE_PID" ] || kill "$RECIPE_PID" 2>/dev/null
    wait 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

recipe_block parallel >"$TMP/recipe.sh"
grep -q 'pahtum tournament' "$TMP/recipe.sh" || fail "no GNU parallel recipe in docs/clusters.md"
mkdir -p "$TMP/bin" "$TMP/work" "$TMP/home" && ln -s "$BIN" "$TMP/bin/pahtum"
touch "$TMP/home/will-cite"
export PATH="$TMP/bin:$PATH" GAMES PARALLEL_HOME="$TMP/home"
cd "$TMP/work" || fail "cd"
bash "$TMP/recipe.sh" >"$TMP/recipe.out" 2>&1 &
RECIPE_PID=$!

# The pid of the pahtum playing shard K (its --out names it).
shard_pid() {
    local p
    for p in /proc/[0-9]*; do
        tr "\0" " " 2>/dev/null <"$p/cmdline" | grep -q -- "--out results/run42/shard-$1 " &&
            [ "$(readlink "$p/exe" 2>/dev/null)" = "$BIN" ] && { echo "${p#/proc/}"; return; }
    done
}

# Stop the first shard seen with some but not all of its games.
per_shard=$((GAMES / 4)) stopped= n=0
for _ in $(seq 1200); do
    for k in 1 2 3 4; do
        n=$(rows "results/run42/shard-$k")
        if [ "$n" -ge 1 ] && [ "$n" -lt "$per_shard" ] && pid=$(shard_pid "$k") && [ -n "$pid" ]; then
            head -n $((n + 1)) "results/run42/shard-$k/games.csv" >"$TMP/before.csv"
            kill -TERM "$pid" && stopped=$k && break 2
        fi
    done
    kill -0 "$RECIPE_PID" 2>/dev/null || break
    sleep 0.05
done
wait "$RECIPE_PID"
rc=$?
RECIPE_PID=
[ "$rc" = 0 ] || fail "the recipe exited $rc: $(tail -n 3 "$TMP/recipe.out")"
if [ -n "$stopped" ]; then
    cmp -s "$TMP/before.csv" <(head -n $((n + 1)) "results/run42/shard-$stopped/games.csv") ||
        fail "shard $stopped started over instead of resuming (its first $n rows changed)"
    what="shard $stopped stopped after $n of $per_shard games and resumed"
else
    what="no shard was caught mid-way to stop (all ran through)"
fi
grep -q '"merged_from"' results/run42/all/run.json || fail "merged run.json lacks merged_from"
cmd=$(tournament_command <"$TMP/recipe.sh")
bash -c "$cmd --out unsharded" || fail "$cmd"
same_results unsharded results/run42/all || fail "merged shards differ from the unsharded run"
echo "parallel: ok: 4 shards, $what, merge equals the unsharded run"
