#!/usr/bin/env bash
# Why the margin reward gives results away (README.md here): critical.txt
# holds three positions where mcts with reward=margin (the default before
# experiments/result-reward/) gave a result away in run.sh's 5x5 games
# against perfect play (each four times, so four seeds), solved. Each
# variant of mcts is asked afresh on them; the line per variant is
# `pahtum accuracy`'s summary. Each spec runs pinned to the engine measured
# (`pin`, probe-setup.sh) and prints as written. run.sh runs this last.
# Usage: experiments/perfect-play/probe.sh   (from the repository root)
# shellcheck source=experiments/perfect-play/probe-setup.sh
. "$(dirname "$0")/probe-setup.sh"
i=0
m=mcts:reward=margin
for spec in $m $m,iters=200000 mcts $m,win_share=0.5 $m,win_share=1 \
            $m,scale=3 $m,scale=30 $m,solver=false; do
  i=$((i + 1))
  printf '%-22s ' "$spec"
  $bin accuracy --bot "$(pin "$spec")" --positions $here/critical.txt --threads 2 --quiet --out "$work/$i"
  cut -d, -f1,6 "$work/$i/accuracy.csv" | tail -n +2 | awk -F, '{sub(/\.r[0-9]$/, "", $1); m[$1] = m[$1] " " $2} END {for (k in m) printf "    %s:%s\n", k, m[k]}' | sort
done
echo "run time: $(( $(date +%s) - start )) s"
