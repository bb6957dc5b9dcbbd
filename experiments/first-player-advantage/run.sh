#!/usr/bin/env bash
# first-player-advantage: self-play per hole count, with and without the pie
# rule, beside BrainKing's human statistics; the fair komi. The engine is
# today's default with model=off: in self-play neither side should assume
# its opponent plays like the line heuristic.
set -euo pipefail
cd "$(dirname "$0")"
source ../start.sh
../../target/release/pahtum fpa \
  --bot mcts:iters=1000,model=off --holes 3,5,7,9,11,13 --pie \
  --games 150 --seed 2026 --threads 2 --out out
cp out/fpa.csv results.csv
cp out/fpa.svg plot.svg
echo "run time: $(( $(date +%s) - start )) s"
