#!/usr/bin/env bash
# time-management: how should the default engine share a game clock out?
#   1. screen: at equal clocks (tc=1+0.01), the plainest allocation
#      (alloc=even, early=false) against each other strategy, 100 games a
#      pairing (a gauntlet); how much of its clock each used, and how many
#      games were lost on time (none may be);
#   2. the gate: the strategy the screen favours against the defaults
#      before it written out in full, an SPRT (elo0 0, elo1 5) at the same
#      clocks.
# STAGES="screen gate" picks stages (both by default).
set -euo pipefail
shopt -s extglob
cd "$(dirname "$0")"
source ../start.sh
bin=../../target/release/pahtum
want() { [[ " ${STAGES:-screen gate} " == *" $1 "* ]]; }
mkdir -p out
TC="tc=1+0.01"
# The mcts defaults when the clocks came, written out in full (the time
# keys' defaults included): the baseline every strategy must beat.
DEF="mcts:$TC,rollout=net,net=builtin,reuse=true,alloc=even,early=false,model=auto,threads=1"
DEF+=",parallel=tree,max_nodes=67108864,c=0.205444,fpu=1.002448,expand=2,lazy=0,eps=0.030753,mix=0"
DEF+=",tempo=0.5,reward=win,scale=10,win_share=0,rave=off,bias=0.001,ref=50,prior=prune,k=5"
DEF+=",widen=2.030568,pw=1.069962,minimax=0,solver=true,exact=10,prove=22,prove_nodes=1000"
DEF+=",final=visits,model_after=2,decay=0.403497,reach=3,defence=1.298178"
# The gates, in the order they were run (see README.md): the defaults with
# one key changed. CANDIDATES="..." picks some.
CANDIDATES="${CANDIDATES:-early=true alloc=searched}"

if want screen; then
  echo "+ pahtum tournament --format gauntlet --bot \$DEF (even) --bot searched --bot early --bot searched+early --games 100 --seed 4801"
  "$bin" tournament --format gauntlet \
    --bot "$DEF,label=even" \
    --bot "${DEF/alloc=even/alloc=searched},label=searched" \
    --bot "${DEF/early=false/early=true},label=early" \
    --bot "${DEF/alloc=even,early=false/alloc=searched,early=true},label=searched-early" \
    --games 100 --holes 5 --seed 4801 --threads 2 --quiet --out out/screen
  python3 clock_use.py out/screen/games.csv 1 0.01 | tee clock-use.csv
  cp out/screen/summary.csv screen-summary.csv
  cp out/screen/ratings.csv screen-ratings.csv
  cat screen-ratings.csv
fi

if want gate; then
  for cand in $CANDIDATES; do
    key="${cand%%=*}"
    echo "+ pahtum sprt --a \$DEF with $cand --b \$DEF --elo0 0 --elo1 5 --max-games 1200 --seed 4802 --threads 2"
    "$bin" sprt --a "${DEF/$key=*([^,])/$cand},label=candidate" --b "$DEF,label=defaults" \
      --elo0 0 --elo1 5 --max-games 1200 --holes 5 --seed 4802 --threads 2 --quiet --out "out/gate-$key" \
      | tail -n 2
    python3 clock_use.py "out/gate-$key/games.csv" 1 0.01 | tee "gate-$key-clock-use.csv"
    cp "out/gate-$key/sprt.csv" "gate-$key-sprt.csv"
  done
fi
echo "run time: $(( $(date +%s) - start )) s"
