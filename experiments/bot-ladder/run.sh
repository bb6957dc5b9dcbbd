#!/usr/bin/env bash
# bot-ladder: the Elo of every built-in bot, one round-robin tournament.
set -euo pipefail
cd "$(dirname "$0")"
rm -rf out
cargo run --release --quiet -- tournament \
  --bot random --bot greedy --bot heuristic --bot flatmc \
  --bot mcts:iters=5000,model=off --bot alphabeta:nodes=20000 \
  --games 60 --holes 5 --seed 2026 --threads 2 --out out --quiet
cp out/ratings.csv results.csv
cp out/ratings.svg plot.svg
