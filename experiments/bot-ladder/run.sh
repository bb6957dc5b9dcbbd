#!/usr/bin/env bash
# bot-ladder: the Elo of every built-in bot, one round-robin tournament, each
# bot on today's defaults (searchers at short budgets so the run stays short).
set -euo pipefail
cd "$(dirname "$0")"
source ../start.sh
../../target/release/pahtum tournament \
  --bot random --bot greedy --bot heuristic --bot learned --bot flatmc \
  --bot mcts:iters=5000 --bot alphabeta:nodes=20000 \
  --games 60 --holes 5 --seed 2026 --threads 2 --out out
cp out/ratings.csv results.csv
cp out/ratings.svg plot.svg
echo "run time: $(( $(date +%s) - start )) s"
