#!/usr/bin/env bash
# Every built-in bot's first stone on decided layouts: a seeded sample of
# up to 200 layouts per hole count of the 5x5 layouts that are White wins
# under perfect play (the decided.csv files of every layout with 9 to 21
# holes, experiments/solved-small-boards/), each asked as its empty board.
# A first stone that does not keep the win gives the game away at ply 1,
# the kind of give-away the whole games found (README.md here). One
# `accuracy` line per bot, then per hole count the share of first stones
# that keep the win. The mcts specs run pinned to the engine measured
# (`pin`, probe-setup.sh).
# Usage: experiments/perfect-play/decided-probe.sh   (from the repository root)
# shellcheck source=experiments/perfect-play/probe-setup.sh
. "$(dirname "$0")/probe-setup.sh"
python3 $here/decided_to_suite.py 200 1 experiments/solved-small-boards/out/5x5-every-*/decided.csv \
  > "$work/suite.txt"
echo "positions: $(grep -c '^; name=' "$work/suite.txt")"
for bot in random greedy heuristic learned flatmc mcts alphabeta mcts:reward=margin,label=mcts_margin; do
  name=${bot##*label=}
  printf '%-12s ' "$name"
  $bin accuracy --bot "$(pin "$bot")" --positions "$work/suite.txt" --threads 2 --quiet --out "$work/$name"
  tail -n +2 "$work/$name/accuracy.csv" | cut -d, -f1,7 | sed 's/^h\([0-9]*\)\.[0-9]*,/\1 /' |
    awk '{n[$1]++; k[$1] += ($2 == "true")} END {for (h in n) printf "%s %d/%d\n", h, k[h], n[h]}' |
    sort -n | awk '{printf "  %s holes %s", $1, $2} END {print ""}'
done
echo "run time: $(( $(date +%s) - start )) s"
