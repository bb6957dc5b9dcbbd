#!/usr/bin/env bash
# tuning/mcts-spsa, the adopt gate again on the defaults of its day: the key check
# (PART=keys in run.sh) found that minimax=0.008409 does not earn its cost
# at equal time, and the first adopt gate stopped at its 3,000-game cap
# without a verdict. This one puts the defaults of its day (minimax=0.008409),
# written out in full, against the same spec with minimax=0, a pentanomial SPRT (elo0 0, elo1 5)
# at 20 ms a move on the standard 7x7 game, with a cap of 20,000 games.
# It accepted H1, and minimax=0 became the default (README.md).
# RESUME=1 continues an interrupted run from out/regate.
set -euo pipefail
cd "$(dirname "$0")"
cargo build --release --quiet
pahtum=../../../target/release/pahtum
resume=()
if [[ ${RESUME:-0} == 1 ]]; then resume=(--resume); else rm -rf out/regate; fi
defaults="mcts:rollout=net,net=builtin,reuse=true,model=auto,threads=1,parallel=tree,max_nodes=4000000,c=0.205444,fpu=1.002448,expand=2,lazy=0,eps=0.030753,mix=0,tempo=0.5,reward=win,scale=10,win_share=0,rave=off,bias=0.001,ref=50,prior=prune,k=5,widen=2.030568,pw=1.069962,minimax=0.008409,solver=true,exact=10,prove=22,prove_nodes=1000,final=visits,model_after=2,decay=0.403497,reach=3,defence=1.298178"
off=${defaults/minimax=0.008409/minimax=0}
start=$(date +%s)
"$pahtum" sprt --a "$off,ms=20,label=minimax-off" --b "$defaults,ms=20,label=defaults" \
  --elo0 0 --elo1 5 --max-games 20000 --seed 33 --threads 2 \
  --out out/regate --quiet "${resume[@]}" | tee regate.txt
cp out/regate/sprt.csv regate.csv
echo "regate run time: $(( $(date +%s) - start )) s" | tee -a regate.txt
