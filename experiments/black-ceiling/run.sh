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
{
  echo "seed,layout,black,black_margin"
  for seed in 1 2 3 4; do
    for black in mcts:model=off probe; do
      $P --layouts 100 --seed $seed --black $black | tail -n +2
    done
  done
  # Heuristic playouts (the default before rollout=net); the probe with
  # the engine's playout noise for White too (its model then exact in the
  # tree only).
  for seed in 1 2 3 4; do
    $P --layouts 100 --seed $seed --black mcts:rollout=heuristic,model=off | tail -n +2
    $P --layouts 100 --seed $seed --white-eps 0.05 | tail -n +2
  done
  # The opponent model (model=auto, the default since; model=on: always).
  for seed in 1 2 3 4; do
    $P --layouts 100 --seed $seed --black mcts:model=auto | tail -n +2
  done
  $P --layouts 100 --seed 2 --black mcts:model=on | tail -n +2
  # How many agreeing placements first, and heuristic playouts with the
  # model, on the second and third sets.
  for black in mcts:model_after=3 mcts:model_after=4 mcts:model_after=6 mcts:rollout=heuristic; do
    for seed in 2 3; do
      $P --layouts 100 --seed $seed --black $black | tail -n +2
    done
  done
} > results.csv
python3 summarize.py results.csv > summary.txt
cat summary.txt
