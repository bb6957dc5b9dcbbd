#!/usr/bin/env bash
# parallel-scaling: iterations per second and strength against search threads,
# tree against root parallelism, at a fixed budget of 4000 iterations per move.
# Games run one at a time (--threads 1) so that the search threads get the cores.
# reuse=false: tree parallelism with tree reuse crashes in this version
# (index out of bounds in src/bot/mcts/tree.rs, reported), so no bot here
# keeps its tree between moves.
set -euo pipefail
cd "$(dirname "$0")"
rm -rf out
cargo run --release --quiet -- sweep \
  --bot mcts:iters=4000,reuse=false,rollout=eval,model=off --param threads=1,2 --param parallel=tree,root \
  --vs mcts:iters=4000,reuse=false,rollout=eval,model=off,label=serial \
  --games 40 --holes 5 --seed 2026 --threads 1 --out out --quiet
cp out/sweep.csv results.csv
cp out/sweep.svg plot.svg
