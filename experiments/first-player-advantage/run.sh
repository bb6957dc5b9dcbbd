#!/usr/bin/env bash
# first-player-advantage: self-play per hole count, with and without the pie
# rule, beside BrainKing's human statistics; the fair komi. The engine is
# the default before the hybrid one (prior=pv, mix=0.5, expand=6), its
# prior=prune,mix=0,expand=2 written out: what this experiment measured;
# with model=off: in self-play neither side should assume its opponent
# plays like the line heuristic.
set -euo pipefail
cd "$(dirname "$0")"
source ../start.sh
../../target/release/pahtum fpa \
  --bot mcts:iters=1000,model=off,prior=prune,mix=0,expand=2 --holes 3,5,7,9,11,13 --pie \
  --games 150 --seed 2026 --threads 2 --out out
cp out/fpa.csv results.csv
cp out/fpa.svg plot.svg
echo "run time: $(( $(date +%s) - start )) s"
