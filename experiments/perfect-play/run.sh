#!/usr/bin/env bash
# Bots against perfect play (README.md here): every built-in bot's moves on
# suite.txt (solved positions, built by make-suite.sh), then whole 5x5 games
# of each bot against the solver playing perfectly, every move the bot
# played judged by its exact value. Prints the tables (written as CSVs here).
# Usage: experiments/perfect-play/run.sh   (from the repository root)
# GAMES (default 4) games per bot and hole count, MCTS_GAMES (default 24)
# for mcts and mcts_win with 3 holes (the run measured before this one).
set -euo pipefail
here=experiments/perfect-play
bin=target/release/pahtum
cargo build --release --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export BOTS="random greedy heuristic learned flatmc mcts alphabeta mcts_win"
export GAME_BOTS="$BOTS"
export HOLES="3 5"
GAMES=${GAMES:-4}
MCTS_GAMES=${MCTS_GAMES:-24}
PERFECT=alphabeta:solve=22,nodes=0,label=perfect
spec() { case $1 in mcts_win) echo "mcts:reward=win,label=mcts_win" ;; *) echo "$1" ;; esac; }
start=$(date +%s)
for bot in $GAME_BOTS; do
  for h in $HOLES; do
    n=$GAMES
    if [ "$h" = 3 ] && { [ "$bot" = mcts ] || [ "$bot" = mcts_win ]; }; then n=$MCTS_GAMES; fi
    d="$work/games-$bot-$h"
    echo "+ pahtum tournament --size 5 --holes $h --bot $(spec "$bot") --bot $PERFECT --games $n --seed 55"
    $bin tournament --size 5 --holes "$h" --bot "$(spec "$bot")" --bot "$PERFECT" \
      --games "$n" --seed 55 --threads 2 --quiet --out "$d/t"
    python3 $here/games_to_suite.py 5 "h$h" "$d/t/games.csv" --mover "$bot" > "$d/suite.txt"
    $bin accuracy --played --positions "$d/suite.txt" --threads 2 --quiet --out "$d/a" > /dev/null
  done
done
mid=$(date +%s)
echo "whole games: $(( mid - start )) s"
for bot in $BOTS; do
  echo "+ pahtum accuracy --bot $(spec "$bot") --positions $here/suite.txt"
  $bin accuracy --bot "$(spec "$bot")" --positions $here/suite.txt --threads 2 --quiet \
    --out "$work/suite-$bot"
done
echo "suite: $(( $(date +%s) - mid )) s"
python3 $here/summarize.py "$work" $here
echo "run time: $(( $(date +%s) - start )) s"
