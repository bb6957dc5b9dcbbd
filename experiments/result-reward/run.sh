#!/usr/bin/env bash
# result-reward: the gate of a result-only reward for mcts (reward=win)
# against the previous defaults written out in full, at equal time per move
# on the standard 7x7 game. The question comes from experiments/perfect-play:
# with the margin-shaped reward the default engine gives away drawn and won
# 5x5 games against perfect play. (iters= is left out of the old spec:
# ms= replaces it.) Both sides are written out in full, the candidate being
# the old defaults with reward=win (as the default then was, but for the
# reward), so the gate asks the same question whatever today's defaults are.
set -euo pipefail
cd "$(dirname "$0")"
cargo build --release --quiet
start=$(date +%s)
old="mcts:c=0.2,fpu=1.0,expand=2,lazy=0,rollout=heuristic,net=builtin,eps=0.05,mix=0,tempo=0.5,reward=margin,scale=10,win_share=0,rave=off,bias=0.001,ref=50,prior=prune,k=5,widen=2,pw=1.0,minimax=0,solver=true,exact=10,reuse=true,final=visits,model=auto,model_after=2,threads=1,parallel=tree,max_nodes=4000000,decay=0.4,reach=3,defence=1.3"
rm -rf out
../../target/release/pahtum sprt --a "${old/reward=margin/reward=win},ms=20,label=result" \
  --b "$old,ms=20,label=defaults" --elo0 0 --elo1 5 --max-games 2000 \
  --seed 21 --threads 2 --out out --quiet | tee verdict.txt
cp out/sprt.csv results.csv
echo "run time: $(( $(date +%s) - start )) s"
