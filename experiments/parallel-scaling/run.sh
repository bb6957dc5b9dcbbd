#!/usr/bin/env bash
# parallel-scaling: iterations per second and strength against search threads,
# tree against root parallelism, at a fixed budget of 4000 iterations per move
# of today's default engine. Games run one at a time (--threads 1) so that the
# search threads get the cores.
set -euo pipefail
cd "$(dirname "$0")"
source ../start.sh
../../target/release/pahtum sweep \
  --bot mcts:iters=4000 --param threads=1,2 --param parallel=tree,root \
  --vs mcts:iters=4000,label=serial \
  --games 40 --holes 5 --seed 2026 --threads 1 --out out
cp out/sweep.csv results.csv
cp out/sweep.svg plot.svg
echo "run time: $(( $(date +%s) - start )) s"
