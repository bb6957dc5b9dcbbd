#!/usr/bin/env bash
# The equal-time check on 7x7 of the root proof (README.md here): today's
# defaults written out in full, with the proof (prove=22,
# prove_nodes=1000, which ms= budgets do not read) against the same
# without it (prove=0, the engine before the proof), at 20 ms a move,
# pentanomial SPRT for "not weaker": H0 10 Elo weaker, H1 level. Writes
# gate.csv and verdict.txt here.
# Usage: experiments/perfect-play-5x5/gate.sh   (from the repository root)
#   NO_BUILD=1 uses target/release/pahtum as it is; MAX_GAMES (default 2000).
set -euo pipefail
here=experiments/perfect-play-5x5
bin=target/release/pahtum
[ "${NO_BUILD:-0}" = 1 ] || cargo build --release --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
keys="c=0.205444,fpu=1.002448,expand=2,lazy=0,rollout=net,net=builtin,eps=0.030753,tempo=0.5,reward=win,scale=10,win_share=0,rave=off,bias=0.001,ref=50,prior=prune,k=5,widen=2.030568,pw=1.069962,minimax=0.008409,solver=true,exact=10,reuse=true,final=visits,model=auto,model_after=2,threads=1,parallel=tree,max_nodes=4000000,decay=0.403497,reach=3,defence=1.298178"
$bin sprt --a "mcts:$keys,prove=22,prove_nodes=1000,ms=20,label=prove" \
  --b "mcts:$keys,prove=0,ms=20,label=defaults" --elo0 -10 --elo1 0 \
  --max-games "${MAX_GAMES:-2000}" --seed 31 --threads 2 --out "$work/out" --quiet |
  tee $here/verdict.txt
cp "$work/out/sprt.csv" $here/gate.csv
echo "run time: $(( $(date +%s) - start )) s"
