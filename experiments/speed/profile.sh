#!/usr/bin/env bash
# speed, profiled: callgrind's per-function instruction counts of the
# instruction-count guard's workloads (examples/counts.rs: `default`, the
# default engine at 2,000 iterations from the bench position, and `uct`,
# plain UCT at 50,000), counted part only. Prints each workload's total and
# its five largest functions (self cost). perf has no hardware counters
# on this machine; callgrind counts the same whatever else it runs.
# `profile.sh COMMIT` profiles that commit's build instead (a worktree).
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
if [[ -n ${1:-} ]]; then
  git worktree add -q --detach "$tmp/tree" "$1"
  trap 'git worktree remove --force "$tmp/tree"; rm -rf "$tmp"' EXIT
  (cd "$tmp/tree" && CARGO_TARGET_DIR="$tmp/target" cargo build --release --quiet --example counts)
  counts="$tmp/target/release/examples/counts"
else
  trap 'rm -rf "$tmp"' EXIT
  cargo build --release --quiet --example counts
  counts=target/release/examples/counts
fi
for w in ${WORKLOADS:-default uct}; do
  valgrind --tool=callgrind --callgrind-out-file="$tmp/$w.out" --collect-atstart=no \
    --toggle-collect='counts::measured*' "$counts" "$w" >/dev/null 2>&1
  echo "== $w"
  callgrind_annotate "$tmp/$w.out" 2>/dev/null |
    sed -n -e 's/ *\[[^]]*\]$//' -e '/PROGRAM TOTALS/p' -e '/^ *[0-9,]* ([ 0-9.]*%)  [^ ]*:/p' |
    sed -n '1,6p'
done
