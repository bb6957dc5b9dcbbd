#!/usr/bin/env bash
# black-ceiling: how much Black can score against heuristic. mcts without
# and with its opponent model, and a probe that knows heuristic exactly (a
# single-agent search in which every White move is heuristic's), as Black
# on the same 400 layouts against the real heuristic bot
# (examples/exploit_probe.rs).
set -euo pipefail
cd "$(dirname "$0")"
cargo build --release --quiet --example exploit_probe
P=../../target/release/examples/exploit_probe
# The engine before the hybrid default (prior=pv, mix=0.5, expand=6): what
# this experiment measured. Every mcts spec below plays with it.
CLASSIC=prior=prune,mix=0,expand=2
# Black's 100 games on the layouts of seed $1: an mcts spec $2 plays with
# $CLASSIC, and its rows name Black $2 as before (--label).
play() {
  case $2 in
    mcts:*) $P --layouts 100 --seed "$1" --black "$2,$CLASSIC" --label "$2" | tail -n +2 ;;
    *) $P --layouts 100 --seed "$1" --black "$2" | tail -n +2 ;;
  esac
}
{
  echo "seed,layout,black,black_margin"
  for seed in 1 2 3 4; do
    for black in mcts:model=off probe; do
      play $seed $black
    done
  done
  # Heuristic playouts (the default before rollout=net); the probe with
  # the engine's playout noise for White too (its model then exact in the
  # tree only).
  for seed in 1 2 3 4; do
    play $seed mcts:rollout=heuristic,model=off
    $P --layouts 100 --seed $seed --white-eps 0.05 | tail -n +2
  done
  # The opponent model (model=auto, the default since; model=on: always).
  for seed in 1 2 3 4; do
    play $seed mcts:model=auto
  done
  play 2 mcts:model=on
  # How many agreeing placements first, and heuristic playouts with the
  # model, on the second and third sets.
  for black in mcts:model_after=3 mcts:model_after=4 mcts:model_after=6 mcts:rollout=heuristic; do
    for seed in 2 3; do
      play $seed $black
    done
  done
} > results.csv
python3 summarize.py results.csv > summary.txt
cat summary.txt
