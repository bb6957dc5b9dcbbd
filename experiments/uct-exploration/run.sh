#!/usr/bin/env bash
# uct-exploration: mcts strength against the UCT constant c, for both rewards,
# with and without GRAVE (all-moves-as-first statistics).
set -euo pipefail
cd "$(dirname "$0")"
rm -rf out
cargo run --release --quiet -- sweep \
  --bot mcts:iters=1000,rollout=eval,model=off --param c=0.0..1.2:0.2 --param reward=win,margin \
  --param rave=off,grave --vs mcts:iters=1000,rollout=eval,model=off,label=mcts-default \
  --games 60 --holes 5 --seed 2026 --threads 2 --out out --quiet
cp out/sweep.csv results.csv
cp out/sweep.svg plot.svg
