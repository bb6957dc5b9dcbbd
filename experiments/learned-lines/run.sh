#!/usr/bin/env bash
# learned-lines: train the built-in line network, check that it is the one
# in data/, and measure it: one ply against heuristic, and as the playout
# policy and prior of mcts (the default) against heuristic and against
# heuristic playouts.
set -euo pipefail
cd "$(dirname "$0")"
start=$(date +%s)
rm -rf out
mkdir -p out
# 1. Training is one thread and a function of its seed: the same bytes.
cargo run --release --quiet --example train_lines -- --out out/lines-7.net
cmp out/lines-7.net ../../data/lines-7.net
# 2. One ply of the network against one ply of the line potential.
cargo run --release --quiet -- tournament --bot learned --bot heuristic \
  --games 4000 --seed 5 --threads 2 --out out/one-ply --quiet
# Steps 3 to 5 run mcts at 5,000 iterations a move (a quarter of the
# default) to fit the run in minutes; the default's playouts are rollout=net
# (gated at equal time in experiments/tuning/equal-time/).
# The engine before the hybrid default (prior=pv, mix=0.5, expand=6): what
# this experiment measured.
CLASSIC=prior=prune,mix=0,expand=2
# 3. What goes below the tree, against heuristic on the same 100 layouts,
# without the opponent model (which wins nearly every game against
# heuristic whatever the playouts: experiments/black-ceiling/).
cargo run --release --quiet -- sweep --bot mcts:iters=5000,model=off,$CLASSIC \
  --param rollout=heuristic,net,value \
  --vs heuristic --games 200 --seed 51 --threads 2 --out out/sweep --quiet
# 4. Network playouts and priors against heuristic playouts, head to head.
for seed in 91 92; do
  cargo run --release --quiet -- tournament --bot mcts:iters=5000,$CLASSIC,label=net \
    --bot mcts:iters=5000,rollout=heuristic,$CLASSIC,label=heuristic --games 200 \
    --seed $seed --threads 2 --out out/head-to-head-$seed --quiet
done
# 5. Against plain UCT at the same iterations.
cargo run --release --quiet -- tournament --bot mcts:iters=5000,$CLASSIC,label=net \
  --bot mcts:iters=5000,rollout=random,reward=win,rave=off,prior=off,model=off,mix=0,expand=2,label=uct \
  --games 200 --seed 52 --threads 2 --out out/vs-uct-52 --quiet
# 6. The network before training's step was normalised (commit 9c0e0ac),
# one ply against heuristic with few holes, where it had diverged.
git show 9c0e0ac:data/lines-7.net > out/old.net
for holes in 0 2 4; do
  for net in builtin out/old.net; do
    cargo run --release --quiet -- tournament --bot learned:net=$net --bot heuristic \
      --games 2000 --seed 6 --holes $holes --threads 2 \
      --out "out/holes-$holes-$(basename $net .net)" --quiet
  done
done
# The old network with 5 holes, on step 2's games (--seed 5, 4,000 games).
cargo run --release --quiet -- tournament --bot learned:net=out/old.net --bot heuristic \
  --games 4000 --seed 5 --threads 2 --out out/holes-5-old --quiet
for seed in 7 8; do
  cargo run --release --quiet -- tournament --bot learned:label=new \
    --bot learned:net=out/old.net,label=old --games 4000 --seed $seed \
    --threads 2 --out out/new-vs-old-$seed --quiet
done
cp out/sweep/sweep.csv results.csv
cp out/sweep/sweep.svg plot.svg
echo "run time: $(( $(date +%s) - start )) s"
