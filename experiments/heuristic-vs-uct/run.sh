#!/usr/bin/env bash
# heuristic-vs-uct: plain UCT (random rollouts, win/loss reward, no RAVE, no
# prior, no solver) against the one-ply line heuristic, then which MCTS
# settings turn the result around.
set -euo pipefail
cd "$(dirname "$0")"
rm -rf out sprt
PLAIN=mcts:iters=2000,rollout=random,eps=0.1,rave=off,prior=off,solver=false,reward=win,model=off,label=uct-plain
# 1. The replication as a sequential test: is the heuristic stronger?
cargo run --release --quiet -- sprt \
  --a heuristic --b "$PLAIN" --elo0 0 --elo1 200 --max-games 400 \
  --holes 5 --seed 2026 --threads 2 --out sprt --quiet
# 2. What below the tree (random playouts, heuristic playouts, or the static
#    evaluation at the leaf) and which prior (none, or pruning to the
#    heuristic's best moves) turn it around: all 6 combinations.
cargo run --release --quiet -- sweep \
  --bot "$PLAIN" --param rollout=random,heuristic,eval --param prior=off,prune \
  --vs heuristic --games 40 --holes 5 --seed 2026 --threads 2 --out out --quiet
cp out/sweep.csv results.csv
cp out/sweep.svg plot.svg
cp sprt/sprt.svg sprt.svg
