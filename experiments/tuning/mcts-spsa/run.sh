#!/usr/bin/env bash
# tuning/mcts-spsa: SPSA on ten numeric keys of mcts at once, from the
# defaults before the tune (old= below),
# at a small fixed cost per move (iters=1000), theta+ against theta- as
# fishtest does; then the gate: the tuned values against the previous
# defaults written out in full, a pentanomial SPRT at equal time per move
# (ms=20) on the standard 7x7 game, after each key that costs time per
# iteration has been judged at equal time (../tune-and-gate.sh; PART= and
# RESUME= as it says).
set -euo pipefail
cd "$(dirname "$0")"
cost=iters=1000
params=(--param c=0.05..0.6 --param fpu=0.5..1.5 --param expand=1..8
  --param eps=0..0.3 --param k=2..12 --param widen=1.2..4
  --param pw=0..3 --param minimax=0..0.5 --param decay=0.2..0.6
  --param defence=0.6..2.2)
pairs=4000
tune_seed=1
gate_seed=31
# The tuned keys that change what an iteration costs, at their off value:
# minimax > 0 evaluates every leaf statically (PART=keys).
costly=(minimax=0)
keys_seed=32
# Every key of the defaults the tune started from (iters= and ms= aside).
old="mcts:c=0.2,fpu=1.0,expand=2,lazy=0,rollout=net,net=builtin,eps=0.05,mix=0,tempo=0.5,reward=win,scale=10,win_share=0,rave=off,bias=0.001,ref=50,prior=prune,k=5,widen=2,pw=1.0,minimax=0,solver=true,exact=10,reuse=true,final=visits,model=auto,model_after=2,threads=1,parallel=tree,max_nodes=4000000,decay=0.4,reach=3,defence=1.3"
source ../tune-and-gate.sh
