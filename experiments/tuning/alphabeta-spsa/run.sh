#!/usr/bin/env bash
# tuning/alphabeta-spsa: SPSA on alphabeta's evaluation weights (decay,
# reach, defence) at once, at a small fixed cost per move (nodes=20000),
# theta+ against theta-; then the gate: the tuned weights against the
# previous defaults written out in full, a pentanomial SPRT at equal time
# per move (ms=20) on the standard 7x7 game.
#
# PART=tune|gate|all (default all); RESUME=1 continues the tune in out/tune.
set -euo pipefail
cd "$(dirname "$0")"
cargo build --release --quiet
pahtum=../../../target/release/pahtum
part=${PART:-all}
# Every key of the defaults the tune started from (nodes= and ms= aside).
old="alphabeta:depth=64,solve=18,tt=16,decay=0.4,reach=3,defence=1.3"
if [[ $part == tune || $part == all ]]; then
  start=$(date +%s)
  resume=()
  if [[ ${RESUME:-0} == 1 ]]; then resume=(--resume); else rm -rf out/tune; fi
  "$pahtum" tune --bot alphabeta:nodes=20000 \
    --param decay=0.1..0.8 --param reach=1..6 --param defence=0.4..2.5 \
    --pairs 3000 --seed 2 --threads 2 --out out/tune --quiet "${resume[@]}" \
    | tee tuned.txt
  cp out/tune/tune.csv tune.csv
  cp out/tune/tune.svg tune.svg
  echo "tune run time: $(( $(date +%s) - start )) s"
fi
if [[ $part == gate || $part == all ]]; then
  start=$(date +%s)
  tuned=$(sed -n 's/^tuned=//p' tuned.txt | sed 's/nodes=20000,\{0,1\}//')
  rm -rf out/gate
  "$pahtum" sprt --a "${tuned%,},ms=20,label=tuned" \
    --b "$old,ms=20,label=defaults" --elo0 0 --elo1 5 --max-games 3000 \
    --seed 32 --threads 2 --out out/gate --quiet | tee verdict.txt
  cp out/gate/sprt.csv gate.csv
  echo "gate run time: $(( $(date +%s) - start )) s"
fi
