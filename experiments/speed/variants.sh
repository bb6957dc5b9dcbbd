#!/usr/bin/env bash
# speed, two threads: what the tree-parallel path's costs are. Builds this
# tree and variants of it in a throwaway worktree: `before` (the parent of
# the zero-reward skip, d1c7145^), and this tree with each patch of
# variants/ applied (flush-1024: held-back updates flushed every 1,024
# iterations instead of 64; plain-adds: a diagnostic only, counters added
# by plain loads and stores, which can lose an update between threads).
# Then times each binary's `pahtum bench --seconds S` in turn, ROUNDS
# rounds, and prints plain UCT at one and two threads and their ratio
# (one process, so the pair is measured minutes apart at most).
set -euo pipefail
cd "$(dirname "$0")"
seconds=${SECONDS_PER_FIGURE:-1}
rounds=${ROUNDS:-5}
repo=$(git rev-parse --show-toplevel)
work=$(mktemp -d)
git -C "$repo" worktree add -q --detach "$work/tree" HEAD
trap 'git -C "$repo" worktree remove --force "$work/tree"; rm -rf "$work"' EXIT
build() { # name, commit, patch (or -)
  git -C "$work/tree" checkout -q --force "$2"
  [[ $3 == - ]] || git -C "$work/tree" apply "$PWD/variants/$3.patch"
  (cd "$work/tree" && CARGO_TARGET_DIR="$work/target" cargo build --release -q)
  cp "$work/target/release/pahtum" "$work/pahtum-$1"
}
head=$(git -C "$repo" rev-parse HEAD)
build this "$head" -
build before d1c7145^ -
build flush-1024 "$head" flush-1024
build plain-adds "$head" plain-adds
names=(before this flush-1024 plain-adds)
get() { sed -n "s/^$1=//p" "$2"; }
printf '%-5s %-11s %10s %10s %6s\n' round binary uct_t1 uct_t2 t2/t1
for round in $(seq "$rounds"); do
  for b in "${names[@]}"; do
    "$work/pahtum-$b" bench --seconds "$seconds" >"$work/out"
    t1=$(get mcts_iters_per_s_t1 "$work/out")
    t2=$(get mcts_iters_per_s_t2 "$work/out")
    printf '%-5s %-11s %10s %10s %6.2f\n' "$round" "$b" "$t1" "$t2" "$(echo "$t2 / $t1" | bc -l)"
  done
done
