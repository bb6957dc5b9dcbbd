#!/usr/bin/env bash
# tuning/mcts-spsa: SPSA on ten numeric keys of the default mcts at once,
# at a small fixed cost per move (iters=1000), theta+ against theta- as
# fishtest does; then the gate: the tuned values against the previous
# defaults written out in full, a pentanomial SPRT at equal time per move
# (ms=20) on the standard 7x7 game.
#
# PART=tune|gate|all (default all). With RESUME=1 the tune resumes from
# out/tune and the gate from out/gate, so a long run can span sessions.
set -euo pipefail
cd "$(dirname "$0")"
cargo build --release --quiet
pahtum=../../../target/release/pahtum
part=${PART:-all}
# Every key of the defaults the tune started from (iters= and ms= aside).
old="mcts:c=0.2,fpu=1.0,expand=2,lazy=0,rollout=net,net=builtin,eps=0.05,mix=0,tempo=0.5,lookahead=0,reward=win,scale=10,win_share=0,rave=off,bias=0.001,ref=50,prior=prune,k=5,widen=2,pw=1.0,minimax=0,solver=true,exact=10,reuse=true,final=visits,model=auto,model_after=2,threads=1,parallel=tree,max_nodes=4000000,decay=0.4,reach=3,defence=1.3"
if [[ $part == tune || $part == all ]]; then
  start=$(date +%s)
  resume=()
  if [[ ${RESUME:-0} == 1 ]]; then resume=(--resume); else rm -rf out/tune; fi
  "$pahtum" tune --bot mcts:iters=1000 \
    --param c=0.05..0.6 --param fpu=0.5..1.5 --param expand=1..8 \
    --param eps=0..0.3 --param k=2..12 --param widen=1.2..4 \
    --param pw=0..3 --param minimax=0..0.5 --param decay=0.2..0.6 \
    --param defence=0.6..2.2 \
    --pairs 4000 --seed 1 --threads 2 --out out/tune --quiet "${resume[@]}" \
    | tee tuned.txt
  cp out/tune/tune.csv tune.csv
  cp out/tune/tune.svg tune.svg
  echo "tune run time: $(( $(date +%s) - start )) s"
fi
if [[ $part == gate || $part == all ]]; then
  start=$(date +%s)
  tuned=$(sed -n 's/^tuned=//p' tuned.txt | sed 's/iters=1000,\{0,1\}//')
  resume=()
  if [[ ${RESUME:-0} == 1 ]]; then resume=(--resume); else rm -rf out/gate; fi
  "$pahtum" sprt --a "${tuned%,},ms=20,label=tuned" \
    --b "$old,ms=20,label=defaults" --elo0 0 --elo1 5 --max-games 3000 \
    --seed 31 --threads 2 --out out/gate --quiet "${resume[@]}" | tee verdict.txt
  cp out/gate/sprt.csv gate.csv
  echo "gate run time: $(( $(date +%s) - start )) s"
fi
