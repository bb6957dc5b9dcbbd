#!/usr/bin/env bash
# uct-exploration: mcts strength against the UCT constant c, for both rewards,
# with and without GRAVE (all-moves-as-first statistics), against today's
# default engine at the same budget. Both sides are the default before the
# hybrid one (prior=pv, mix=0.5, expand=6), its values written out: what
# this experiment measured.
set -euo pipefail
cd "$(dirname "$0")"
source ../start.sh
CLASSIC=prior=prune,mix=0,expand=2
../../target/release/pahtum sweep \
  --bot mcts:iters=1000,$CLASSIC --param c=0.0..1.2:0.2 --param reward=win,margin \
  --param rave=off,grave --vs mcts:iters=1000,$CLASSIC,label=mcts-default \
  --games 60 --holes 5 --seed 2026 --threads 2 --out out
cp out/sweep.csv results.csv
cp out/sweep.svg plot.svg
echo "run time: $(( $(date +%s) - start )) s"
