#!/usr/bin/env bash
# heuristic-vs-uct: plain UCT (random rollouts, win/loss reward, no RAVE, no
# prior, no solver, no opponent model) against the one-ply line heuristic,
# then which MCTS settings turn the result around. Every key of PLAIN is the
# question's: it switches off what plain UCT lacks (mix=0: no network value
# in the reward), but expand=2, the default when this was measured (before
# the hybrid default: prior=pv, mix=0.5, expand=6).
set -euo pipefail
cd "$(dirname "$0")"
cargo build --release --quiet
start=$(date +%s)
P=../../target/release/pahtum
rm -rf out sprt
PLAIN=mcts:iters=2000,rollout=random,rave=off,prior=off,solver=false,reward=win,model=off,mix=0,expand=2,label=uct-plain
# 1. The replication as a sequential test: is the heuristic stronger?
$P sprt \
  --a heuristic --b "$PLAIN" --elo0 0 --elo1 200 --max-games 400 \
  --holes 5 --seed 2026 --threads 2 --out sprt
# 2. What below the tree (random playouts, heuristic playouts, or the static
#    evaluation at the leaf) and which prior (none, or pruning to the
#    heuristic's best moves) turn it around: all 6 combinations.
$P sweep \
  --bot "$PLAIN" --param rollout=random,heuristic,eval --param prior=off,prune \
  --vs heuristic --games 40 --holes 5 --seed 2026 --threads 2 --out out
cp out/sweep.csv results.csv
cp out/sweep.svg plot.svg
cp sprt/sprt.svg sprt.svg
echo "run time: $(( $(date +%s) - start )) s"
