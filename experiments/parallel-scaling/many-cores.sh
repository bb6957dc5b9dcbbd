#!/usr/bin/env bash
# parallel-scaling, the many-core part: iterations a second of one search
# against threads up to the machine's cores, for every engine, then a
# short equal-time match of the default engine at every core against one
# thread. Meant for a machine with 8 or more cores; under 8 minutes on 16.
#
#   experiments/parallel-scaling/many-cores.sh [OUT]
#
# STAGES="speed strength" picks stages (both by default); GAMES=N sets the
# games of each match (60).
# Uses target/release/pahtum when it is there (built or copied beside the
# sources), else builds it. Writes OUT (default out-many) and prints what
# the README quotes.
set -euo pipefail
cd "$(dirname "$0")"
start=$(date +%s)
bin=../../target/release/pahtum
[ -x "$bin" ] || (cd ../.. && cargo build --release --quiet)
out=${1:-out-many}
rm -rf "$out"
mkdir -p "$out"
cores=$(nproc)
# 1, 2, 4, ... up to the cores, and the cores themselves.
list=1
t=2
while [ "$t" -lt "$cores" ]; do list="$list,$t"; t=$((t * 2)); done
[ "$cores" -gt 1 ] && list="$list,$cores"
echo "machine: $cores cores; threads $list"

want() { [[ " ${STAGES:-speed strength} " == *" $1 "* ]]; }

# Speed: three rounds of the bench's thread figures (one search at a time).
if want speed; then
  for round in 1 2 3; do
    echo "+ pahtum bench --threads $list (round $round)"
    "$bin" bench --threads "$list" > "$out/bench-$round.txt"
  done
  if command -v python3 > /dev/null; then
    python3 speed_table.py "$out" "$list" "$out/speed.csv"
  else
    echo "no python3: the figures are in $out/bench-*.txt"
  fi
fi

# Strength: the default engine at every core against one thread, equal
# wall time (50 ms a move), one game at a time, tree and root. The engine
# is the default before the hybrid one (prior=pv, mix=0.5, expand=6), as
# measured: CLASSIC writes it out.
CLASSIC=prior=prune,mix=0,expand=2
if want strength; then for mode in tree root; do
  echo "+ pahtum sprt --a mcts:ms=50,threads=$cores,parallel=$mode,$CLASSIC --b mcts:ms=50,$CLASSIC --elo0 0 --elo1 15 --max-games ${GAMES:-60}"
  "$bin" sprt --a "mcts:ms=50,threads=$cores,parallel=$mode,$CLASSIC,label=t$cores-$mode" --b "mcts:ms=50,$CLASSIC,label=t1" \
    --elo0 0 --elo1 15 --max-games "${GAMES:-60}" --holes 5 --seed 4602 --threads 1 --quiet \
    --out "$out/sprt-$mode" | tail -n 2
done; fi
echo "run time: $(( $(date +%s) - start )) s"
