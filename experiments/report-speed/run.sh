#!/usr/bin/env bash
# report-speed: how long `pahtum report` takes on a 10,000-game tournament,
# without --review and with its default (the first 10 games reviewed), and
# how large the page is.
set -euo pipefail
cd "$(dirname "$0")"
source ../start.sh
P=../../target/release/pahtum
$P tournament --bot random --bot greedy --games 10000 --threads 2 --quiet --out out
# Wall seconds of one command (bash's microsecond clock), its stdout kept
# out of the way.
timed() {
  local t0=${EPOCHREALTIME/./} t1
  "$@" >/dev/null
  t1=${EPOCHREALTIME/./}
  local us=$((t1 - t0))
  printf '%d.%02d' $((us / 1000000)) $((us % 1000000 / 10000))
}
echo "step,seconds" > results.csv
for k in 1 2 3; do
  echo "report,$(timed $P report out)" >> results.csv
done
echo "report --review,$(timed $P report out --review 2>/dev/null)" >> results.csv
echo "report with 10 reviews,$(timed $P report out)" >> results.csv
cat results.csv
echo "games=$(($(wc -l < out/games.csv) - 1)) reviews=$(ls -d out/review-* | wc -l) page_bytes=$(wc -c < out/report.html)"
echo "run time: $(( $(date +%s) - start )) s"
