#!/usr/bin/env bash
# solved-small-boards: every hole layout of the 3x3 and 4x4 boards solved
# from the empty board, with and without the pie rule.
set -euo pipefail
cd "$(dirname "$0")"
rm -rf out
start=$(date +%s)
cargo run --release --quiet -- exact --size 3 --holes 0,1,2,3,4,5,6,7,8 --pie \
  --threads 2 --out out/3x3 --quiet
cargo run --release --quiet -- exact --size 4 --holes 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15 --pie \
  --threads 2 --out out/4x4 --quiet
{
  head -n 1 out/3x3/exact_summary.csv
  tail -n +2 out/3x3/exact_summary.csv
  tail -n +2 out/4x4/exact_summary.csv
} > summary.csv
cat summary.csv
echo "run time: $(( $(date +%s) - start )) s"
