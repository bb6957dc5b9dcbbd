#!/usr/bin/env bash
# parallel-scaling: what more search threads buy, on this machine.
#   1. speed: iterations a second of one search against threads, for every
#      engine, best of three rounds of `pahtum bench --threads`, the thread
#      list taken from the machine's cores (1, 2, 4, ... and the cores);
#   2. strength: the default engine at 2 threads against 1 thread at equal
#      wall time per move, an SPRT (elo0 0, elo1 15), one game at a time so
#      that each game has the machine to itself;
#   3. the gate of the mode: one tree per thread (parallel=root) against the
#      shared tree (the default) at 2 threads, equal time, elo0 0 elo1 5.
# STAGES="speed strength gate" picks stages (all by default). many-cores.sh
# beside this runs a shorter version for machines with many cores.
set -euo pipefail
cd "$(dirname "$0")"
source ../start.sh
bin=../../target/release/pahtum
want() { [[ " ${STAGES:-speed strength gate} " == *" $1 "* ]]; }
mkdir -p out
cores=$(nproc)
list=1
t=2
while [ "$t" -lt "$cores" ]; do list="$list,$t"; t=$((t * 2)); done
[ "$cores" -gt 1 ] && list="$list,$cores"

if want speed; then
  echo "machine: $cores cores; threads $list"
  for round in 1 2 3; do
    echo "+ pahtum bench --threads $list (round $round)"
    "$bin" bench --threads "$list" > "out/bench-$round.txt"
  done
  python3 speed_table.py out "$list" out/speed.csv
  cp out/speed.csv speed.csv
fi

# The engine before the hybrid default (prior=pv, mix=0.5, expand=6): what
# the strength stage measured. (The speed stage's "default mcts" rows are
# the bench's default engine, the hybrid one now.)
CLASSIC=prior=prune,mix=0,expand=2
if want strength; then
  echo "+ pahtum sprt --a mcts:ms=20,threads=2,$CLASSIC --b mcts:ms=20,$CLASSIC --pie --elo0 0 --elo1 15 --max-games 3000 --seed 4604 --threads 1"
  "$bin" sprt --a "mcts:ms=20,threads=2,$CLASSIC,label=t2" --b "mcts:ms=20,$CLASSIC,label=t1" \
    --pie --elo0 0 --elo1 15 --max-games 3000 --holes 5 --seed 4604 --threads 1 --quiet --out out/strength \
    | tail -n 2
  cp out/strength/sprt.csv strength-sprt.csv
fi

# The gate of the mode at 2 threads, against the defaults of the time it
# was run written out in full (max_nodes was 4,000,000 then; a 20 ms
# search never reaches either bound).
DEF="mcts:ms=20,rollout=net,net=builtin,reuse=true,model=auto,threads=2,parallel=tree,max_nodes=4000000"
DEF+=",c=0.205444,fpu=1.002448,expand=2,lazy=0,eps=0.030753,mix=0,tempo=0.5,reward=win,scale=10"
DEF+=",win_share=0,rave=off,bias=0.001,ref=50,prior=prune,k=5,widen=2.030568,pw=1.069962"
DEF+=",minimax=0,solver=true,exact=10,prove=22,prove_nodes=1000,final=visits,model_after=2"
DEF+=",decay=0.403497,reach=3,defence=1.298178"
if want gate; then
  echo "+ pahtum sprt --a \$DEF,parallel=root --b \$DEF --elo0 0 --elo1 5 --max-games 1600 --seed 4601 --threads 1"
  "$bin" sprt --a "${DEF/parallel=tree/parallel=root},label=root" --b "$DEF,label=tree" \
    --elo0 0 --elo1 5 --max-games 1600 --holes 5 --seed 4601 --threads 1 --quiet --out out/gate \
    | tail -n 2
  cp out/gate/sprt.csv gate-sprt.csv
fi
echo "run time: $(( $(date +%s) - start )) s"
