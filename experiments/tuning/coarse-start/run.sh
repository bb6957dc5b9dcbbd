#!/usr/bin/env bash
# tuning/coarse-start: `pahtum tune` from a poor start, with fishtest's
# gains alone (--coarse 0) and with a coarse first quarter (--coarse 0.25),
# on the two cases where the plain gains stopped short, and on a start at
# the optimum (which must not get worse). A sweep of defence gives the
# two-key case's answer. Prints one row per tune: case, seed, coarse share,
# the tuned values.
set -euo pipefail
cd "$(dirname "$0")"
rm -rf out
start=$(date +%s)
run() { cargo run --release --quiet -- "$@"; }
run sweep --bot heuristic:decay=0.4 --param defence=0.5..2.5:0.25 \
  --vs heuristic:decay=0.4,defence=1.3 --games 400 --seed 1 --threads 2 \
  --out out/sweep --quiet
cut -d, -f1-12 out/sweep/sweep.csv
tune() {
  local case=$1 seed=$2 coarse=$3
  shift 3
  local t
  t=$(run tune "$@" --seed "$seed" --threads 2 --coarse "$coarse" \
    --out "out/$case-$seed-$coarse" --quiet | tail -1)
  echo "$case seed=$seed coarse=$coarse ${t#tuned=}"
}
for seed in 1 2 3; do
  for coarse in 0 0.25; do
    tune far1 "$seed" "$coarse" --bot heuristic:decay=0.8 --param decay=0..1 --pairs 6000
  done
done
for seed in 1 2 3; do
  for coarse in 0 0.25; do
    tune far2 "$seed" "$coarse" --bot heuristic:decay=0.15,defence=3.2 \
      --param decay=0..1 --param defence=0..4 --pairs 8000
  done
done
for seed in 1 2 3 4 5; do
  for coarse in 0 0.25; do
    tune near "$seed" "$coarse" --bot heuristic:decay=0.4,defence=1.3 \
      --param decay=0..1 --param defence=0..4 --pairs 8000
  done
done
cp out/sweep/sweep.csv sweep.csv
cp out/far2-1-0.25/tune.svg far2-coarse.svg
cp out/far2-1-0/tune.svg far2-plain.svg
echo "run_time_s=$(( $(date +%s) - start ))"
rm -rf out
