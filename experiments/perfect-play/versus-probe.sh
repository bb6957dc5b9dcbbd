#!/usr/bin/env bash
# Where the default engine gave a result away over every layout class of
# 5x5 with 3 holes (README.md here, "Every layout class"): each position
# just before its first losing move, from the versus.csv of
# experiments/solved-small-boards/ (its step `exact --size 5 --holes 3
# --versus ...`), solved once, then asked afresh of mcts variants with four
# seeds each (the `.rK` copies). One line per variant: `accuracy`'s
# summary, then the moves each position got. Each spec runs pinned to the
# engine measured (`pin`, probe-setup.sh) and prints as written.
# Usage: experiments/perfect-play/versus-probe.sh [versus.csv]   (from the repository root)
# shellcheck source=experiments/perfect-play/probe-setup.sh
. "$(dirname "$0")/probe-setup.sh"
versus=${1:-experiments/solved-small-boards/out/5x5-3-all/versus.csv}
python3 $here/versus_to_suite.py "$versus" mcts > "$work/suite.txt"
echo "positions: $(grep -c '^; name=' "$work/suite.txt")"
# Solved once, with the move lists (`--played` would judge without them);
# the bot judged meanwhile is `random`, whose line is not printed.
$bin accuracy --bot random --positions "$work/suite.txt" --max-empty 22 --threads 2 --quiet \
  --out "$work/solved" > /dev/null
# The moves recorded in versus.csv must give the result away.
$bin accuracy --played --positions "$work/solved/solved.txt" --max-empty 22 --quiet \
  --out "$work/played"
for k in 0 1 2 3; do
  sed "s/^; name=\([^ ]*\)/; name=\1.r$k/" "$work/solved/solved.txt"
  echo
done > "$work/probe.txt"
i=0
for spec in mcts mcts:iters=200000 mcts:prior=off mcts:prior=off,iters=200000; do
  i=$((i + 1))
  printf '%-28s ' "$spec"
  $bin accuracy --bot "$(pin "$spec")" --positions "$work/probe.txt" --max-empty 22 --threads 2 --quiet \
    --out "$work/$i"
  cut -d, -f1,6,7 "$work/$i/accuracy.csv" | tail -n +2 |
    awk -F, '{sub(/\.r[0-9]$/, "", $1); m[$1] = m[$1] " " $2 ($3 == "true" ? "" : "*")} END {for (k in m) printf "    %s:%s\n", k, m[k]}' | sort
done
echo "(* gives the result away)"
echo "run time: $(( $(date +%s) - start )) s"
