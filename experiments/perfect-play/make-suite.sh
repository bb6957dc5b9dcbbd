#!/usr/bin/env bash
# Builds suite.txt: every position of whole games between the strongest
# built-in bots (the mcts this experiment measured, against default
# alphabeta) on 5x5 with 5 holes
# and 6x6 with 16 holes (20 free squares at the first move, so even the
# empty board solves in about a second), and the 7x7 (5 holes) positions of
# such games with 18 to 22 free squares (and 23 to 26 from the first game
# only: a 24-square solve with its move lists takes half a minute of CPU,
# each square more about twice as long);
# each stored with its exact value
# (`pahtum accuracy` writes the suite back solved as solved.txt).
# Usage: experiments/perfect-play/make-suite.sh   (from the repository root)
set -euo pipefail
here=experiments/perfect-play
bin=target/release/pahtum
cargo build --release --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
# The engine before the hybrid default (prior=pv, mix=0.5, expand=6): what
# this experiment measured; label=mcts keeps the positions' names.
CLASSIC=prior=prune,mix=0,expand=2
T="$bin tournament --bot mcts:$CLASSIC,label=mcts --bot alphabeta --quiet --threads 2"
$T --size 5 --holes 5 --games 6 --seed 101 --out "$work/t5"
$T --size 6 --holes 16 --games 6 --seed 102 --out "$work/t6"
$T --size 7 --holes 5 --games 6 --seed 103 --out "$work/t7"
echo "games played in $(( $(date +%s) - start )) s"
{
  python3 $here/games_to_suite.py 5 s5 "$work/t5/games.csv"
  echo
  python3 $here/games_to_suite.py 6 s6 "$work/t6/games.csv"
  echo
  python3 $here/games_to_suite.py 7 s7 "$work/t7/games.csv" --empties 18-22
  echo
  python3 $here/games_to_suite.py 7 s7 "$work/t7/games.csv" --empties 23-26 --first 1
} > "$work/unsolved.txt"
$bin accuracy --bot greedy --positions "$work/unsolved.txt" --max-empty 26 --threads 2 --quiet --out "$work/solve"
cp "$work/solve/solved.txt" $here/suite.txt
echo "suite: $(grep -c '^;' $here/suite.txt) positions in $here/suite.txt, $(( $(date +%s) - start )) s in all"
