#!/usr/bin/env bash
# solved-small-boards: Pah Tum solved from the empty board. Every hole layout
# of 3x3 and 4x4 (with and without the pie rule); 5x5 every layout with 0 to
# 3 and 9 to 24 holes, seeded random layouts between (pie rule too); 6x6 and
# 7x7 seeded random layouts for the hole counts the solver does in seconds to
# minutes; on 5x5 with 3 holes (every layout) and 5 (a sample), whole games
# of every built-in bot against perfect play. Then one plot of all boards,
# and the engine's first stone under the pie rule on the solved layouts.
# Sample sizes are set by solve time on 2 cores (README).
set -euo pipefail
cd "$(dirname "$0")"
cargo build --release --quiet
P=../../target/release/pahtum
rm -rf out
start=$(date +%s)
x() {
  local s
  s=$(date +%s)
  "$P" exact --threads 2 --quiet "$@"
  echo "exact $* : $(( $(date +%s) - s )) s"
}
x --size 3 --holes 0,1,2,3,4,5,6,7,8 --pie --out out/3x3
x --size 4 --holes 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15 --pie --out out/4x4
x --size 5 --holes 22,23,24 --pie --out out/5x5-all
x --size 5 --holes 8,9,10,11,12,13,14,15,16,17,18,19,20,21 --layouts 200 --seed 1 --pie --out out/5x5-sample
x --size 5 --holes 7 --layouts 100 --seed 1 --pie --out out/5x5-7
x --size 5 --holes 6 --layouts 60 --seed 1 --pie --out out/5x5-6
x --size 5 --holes 5 --layouts 20 --seed 1 --pie --out out/5x5-5
x --size 6 --holes 17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32 --layouts 200 --seed 1 --out out/6x6-sample
x --size 6 --holes 33,34,35 --out out/6x6-all
x --size 7 --holes 24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47 --layouts 50 --seed 1 --out out/7x7-sample
x --size 6 --holes 13,14,15,16 --layouts 200 --seed 1 --out out/6x6-13
x --size 5 --holes 4 --layouts 16 --seed 1 --pie --out out/5x5-4
x --size 5 --holes 3 --layouts 8 --seed 1 --pie --out out/5x5-3
# Every layout class of 5x5 with 3 holes, and on each every built-in bot's
# whole games against perfect play, both colours (experiments/perfect-play/
# reads versus.csv); then a seeded sample of 5 holes the same way.
# mcts is the default before the hybrid one (prior=pv, mix=0.5, expand=6),
# its values written out: what this experiment measured; its label stays
# mcts, the name versus.csv and experiments/perfect-play/ give it.
CLASSIC=prior=prune,mix=0,expand=2
VERSUS="--versus random --versus greedy --versus heuristic --versus learned --versus flatmc
  --versus mcts:$CLASSIC,label=mcts --versus alphabeta --versus mcts:reward=margin,$CLASSIC,label=mcts_margin"
# shellcheck disable=SC2086
x --size 5 --holes 3 $VERSUS --out out/5x5-3-all
# shellcheck disable=SC2086
x --size 5 --holes 5 --layouts 100 --seed 2 $VERSUS --out out/5x5-5-versus
x --size 5 --holes 2 --out out/5x5-2
x --size 7 --holes 21,22,23 --layouts 50 --seed 1 --max-empty 28 --out out/7x7-21
x --size 5 --holes 1 --out out/5x5-1
x --size 5 --holes 0 --out out/5x5-0
# Every layout of 5x5 from 9 to 21 holes (with the pie rule from 12 on,
# which about doubles a layout's time) and 200 layouts of 6x6 with 12
# holes. The exact.csv files of every layout are hundreds of MB, so git
# keeps only their decided layouts (decided.csv: every row that is not a
# draw).
x --size 5 --holes 13,14,15,16,17,18,19,20,21 --pie --out out/5x5-every-13
x --size 5 --holes 12 --pie --out out/5x5-every-12
x --size 5 --holes 11 --out out/5x5-every-11
x --size 5 --holes 10 --out out/5x5-every-10
x --size 6 --holes 12 --layouts 200 --seed 1 --out out/6x6-12
x --size 5 --holes 9 --out out/5x5-every-9
for d in out/5x5-every-*; do
  awk -F, 'NR == 1 || $5 != "draw"' "$d/exact.csv" > "$d/decided.csv"
done
# One table: every summary row, smallest board and fewest holes first.
{
  head -n 1 out/3x3/exact_summary.csv
  # (A step stopped before its end, such as 7x7-21, has no summary yet.)
  for d in out/*/; do [ ! -f "$d/exact_summary.csv" ] || tail -n +2 "$d/exact_summary.csv"; done |
    awk -F, 'NF < 13 { $0 = $0 "," } 1' | sort -t, -k1,1n -k2,2n -k3,3n
} > summary.csv
cat summary.csv
# The first-player advantage against board size and hole count, beside the
# engine's self-play and BrainKing's humans.
python3 plot.py summary.csv ../first-player-advantage/out/fpa.csv summary.svg
# Every built-in bot's whole games against perfect play (read by
# experiments/perfect-play/).
for d in out/5x5-3-all out/5x5-5-versus; do echo "== $d/versus_summary.csv"; cat "$d/versus_summary.csv"; done
# The engine's first stone under the pie rule, on every solved pie layout.
# (The 4x4 and 5x5 pie runs but the every-layout ones of 12 to 21 holes:
# their 40,939 White-win classes would take the engine longer than every
# other step together.)
python3 engine-pie.py "$P" "mcts:$CLASSIC" out/4x4/exact.csv out/5x5-[0-9]/exact.csv out/5x5-all/exact.csv \
  out/5x5-sample/exact.csv
echo "run time: $(( $(date +%s) - start )) s"
