#!/usr/bin/env bash
# tuning/heuristic-decay: `pahtum tune` on a case whose answer a sweep
# knows. A sweep of heuristic's decay against the default heuristic puts
# the best value near 0.4; a tune started at 0.8 with the default gains
# (c_end 0.05, r_end 0.002) must move there, and the tuned spec must beat
# the start in an SPRT.
set -euo pipefail
cd "$(dirname "$0")"
rm -rf out
start=$(date +%s)
cargo run --release --quiet -- sweep --bot heuristic \
  --param decay=0.1..0.9:0.1 --vs heuristic --games 400 --seed 1 \
  --threads 2 --out out/sweep --quiet
cut -d, -f1-12 out/sweep/sweep.csv
cargo run --release --quiet -- tune --bot heuristic:decay=0.8 \
  --param decay=0..1 --pairs 40000 --seed 1 --threads 2 \
  --then-sprt 0,5 --sprt-max-games 4000 --out out/tune --quiet
cp out/sweep/sweep.csv sweep.csv
cp out/tune/tune.csv tune.csv
cp out/tune/tune.svg tune.svg
cp out/tune/sprt/sprt.csv sprt.csv
awk -F, 'NR > 1 && $1 % 5000 == 0 { print "iter=" $1 " decay=" $2 }' tune.csv
echo "run_time_s=$(( $(date +%s) - start ))"
rm -rf out
