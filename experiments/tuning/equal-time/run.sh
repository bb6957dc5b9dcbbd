#!/usr/bin/env bash
# tuning/equal-time: which engine is strongest at equal wall time per move?
# A round robin of the main candidates on the standard 7x7 game (5 random
# holes) at 50 ms and at 200 ms a move: mcts as it was the default
# (heuristic playouts), mcts with the learned-network playouts
# (rollout=net), and alphabeta.
#
# Then the gate of the round robin's winner, if it is not the default:
# a pentanomial SPRT (elo0 0, elo1 5) at 50 ms a move against the previous
# defaults written out in full.
#
# PART=rr|gate|all (default all); TC="50 200" picks the round robin's time
# controls; GAMES50/GAMES200 the games per pairing.
set -euo pipefail
cd "$(dirname "$0")"
cargo build --release --quiet
pahtum=../../../target/release/pahtum
part=${PART:-all}
# Every key of the defaults before this experiment (iters= and ms= aside).
old="mcts:c=0.2,fpu=1.0,expand=2,lazy=0,rollout=heuristic,net=builtin,eps=0.05,mix=0,tempo=0.5,reward=win,scale=10,win_share=0,rave=off,bias=0.001,ref=50,prior=prune,k=5,widen=2,pw=1.0,minimax=0,solver=true,exact=10,reuse=true,final=visits,model=auto,model_after=2,threads=1,parallel=tree,max_nodes=4000000,decay=0.4,reach=3,defence=1.3"
# The round robin's mcts: today's defaults but the three keys the hybrid
# default changed (prior=pv, mix=0.5, expand=6), at their values then.
CLASSIC=prior=prune,mix=0,expand=2
[[ $part == rr || $part == all ]] && for ms in ${TC:-50 200}; do
  start=$(date +%s)
  games_var=GAMES$ms
  games=${!games_var:-$(( ms == 50 ? 120 : 40 ))}
  rm -rf "out/ms$ms"
  "$pahtum" tournament --bot "mcts:ms=$ms,rollout=heuristic,$CLASSIC,label=mcts" \
    --bot "mcts:ms=$ms,rollout=net,$CLASSIC,label=mcts-net" \
    --bot "alphabeta:ms=$ms,label=alphabeta" \
    --games "$games" --seed 40 --threads 2 --out "out/ms$ms" \
    | tee "ms$ms.txt"
  cp "out/ms$ms/ratings.csv" "ratings_ms$ms.csv"
  cp "out/ms$ms/ratings.svg" "ratings_ms$ms.svg"
  cp "out/ms$ms/summary.csv" "summary_ms$ms.csv"
  echo "ms=$ms run time: $(( $(date +%s) - start )) s" | tee -a "ms$ms.txt"
done
if [[ $part == gate || $part == all ]]; then
  start=$(date +%s)
  rm -rf out/gate
  # The candidate as it was gated: those defaults with rollout=net, in full,
  # so that the gate reruns the same question whatever today's defaults are.
  "$pahtum" sprt --a "${old/rollout=heuristic/rollout=net},ms=50,label=net" \
    --b "$old,ms=50,label=defaults" --elo0 0 --elo1 5 --max-games 3000 \
    --seed 41 --threads 2 --out out/gate --quiet | tee verdict.txt
  cp out/gate/sprt.csv gate.csv
  echo "gate run time: $(( $(date +%s) - start )) s" | tee -a verdict.txt
fi
