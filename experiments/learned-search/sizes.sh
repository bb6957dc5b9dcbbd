#!/usr/bin/env bash
# The network's size chosen by strength at equal time (README.md here,
# "The network's size"): the learning curve's `all` arm (every part of the
# newer self-play on) trained with three towers, 8 channels and 1 block,
# the shipped 16 and 2, and 32 and 2, each on the same budget of training
# CPU seconds (curve.sh, its runs in out-sizes/, its table sizes.csv);
# then the three final networks against each other at 50 ms a move, a
# round robin in which each pays for its own evaluations.
#   BUDGET=CPU seconds per arm (900)    EVAL_GAMES=games per anchor (40)
#   GAMES=games per pairing of the round robin (60)
set -euo pipefail
cd "$(dirname "$0")"
start=$(date +%s)
export OUT=out-sizes NAME=sizes ARMS="c8b1 all c32b2" POINTS=1
export BUDGET=${BUDGET:-900} EVAL_GAMES=${EVAL_GAMES:-40}
./curve.sh
bin=../../target/release/pahtum
# Each arm's network that curve.sh played: the first generation whose
# CPU seconds reach the budget.
played() { ls -d "$OUT/eval-$1-"* | sed 's/.*-//' | sort -n | tail -n 1; }
bots=()
for arm in $ARMS; do
  net=$OUT/train-$arm/nets/gen-$(printf %04d "$(played "$arm")").safetensors
  bots+=(--bot "zero:net=$net,ms=50,label=$arm")
done
d=$OUT/round-robin
echo "+ pahtum tournament ${bots[*]} --games ${GAMES:-60} --seed 4917"
[ -f "$d/ratings.csv" ] || { rm -rf "$d"; "$bin" tournament "${bots[@]}" --games "${GAMES:-60}" \
  --seed 4917 --threads 2 --quiet --out "$d" > /dev/null; }
column -t -s, "$d/ratings.csv"
cut -d, -f1-8 "$d/summary.csv" | column -t -s,
echo "run time: $(( $(date +%s) - start )) s"
