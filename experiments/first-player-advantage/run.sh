#!/usr/bin/env bash
# first-player-advantage: self-play per hole count, with and without the pie
# rule, beside BrainKing's human statistics; the fair komi.
set -euo pipefail
cd "$(dirname "$0")"
rm -rf out
cargo run --release --quiet -- fpa \
  --bot mcts:iters=1000,rollout=eval,model=off --holes 3,5,7,9,11,13 --pie \
  --games 150 --seed 2026 --threads 2 --out out --quiet
cp out/fpa.csv results.csv
cp out/fpa.svg plot.svg
