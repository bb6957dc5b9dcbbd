#!/usr/bin/env bash
# speed: build pahtum at each commit named (default: the sampled ones of
# README.md), then time each binary in turn, three rounds: a fixed-spec
# pair of plain UCT against random, and its own bench. Prints bisect.txt's rows.
set -euo pipefail
cd "$(dirname "$0")"
repo=$(git rev-parse --show-toplevel)
commits=("${@:-a2f8cec 2a3809c d1ed1bb d1337da 5e9f8bf 3753a0d 6526bbc}")
work=$(mktemp -d)
git -C "$repo" worktree add -q --detach "$work/tree" HEAD
trap 'git -C "$repo" worktree remove --force "$work/tree"; rm -rf "$work"' EXIT
for c in ${commits[@]}; do
  git -C "$work/tree" checkout -q --force "$c"
  (cd "$work/tree" && CARGO_TARGET_DIR="$work/target" cargo build --release -q)
  cp "$work/target/release/pahtum" "$work/pahtum-$c"
done
# Every key that matters written out; mix=0 too (no network value, the
# default until the hybrid default; every commit sampled here takes mix=0
# and has it as its default, since ab84a67).
spec="mcts:iters=100000,rollout=random,reward=win,rave=off,prior=off,mix=0,solver=false,reuse=false,c=0.2,fpu=1,expand=2,minimax=0,lazy=0,model=off,threads=1"
for round in 1 2 3; do
  for c in ${commits[@]}; do
    b="$work/pahtum-$c"
    s=$(date +%s.%N)
    "$b" tournament --bot "$spec" --bot random --games 2 --seed 3 --threads 1 --quiet --out "$work/r-$round-$c" >/dev/null
    e=$(date +%s.%N)
    fig=$("$b" bench --seconds 0.5 | grep -E '^mcts_iters_per_s_t[12]=|^mcts_default_iters_per_s(_t1)?=' | tr '\n' ' ')
    echo "$round $c plain100k_s=$(echo "$e - $s" | bc) $fig"
  done
done
