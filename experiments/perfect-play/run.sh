#!/usr/bin/env bash
# Bots against perfect play (README.md here): whole 5x5 games of each bot
# against the solver playing perfectly, every move the bot played judged by
# its exact value; then every built-in bot's moves on suite.txt (solved
# positions, built by make-suite.sh). Prints the tables (CSVs written here).
# Usage: experiments/perfect-play/run.sh   (from the repository root)
#   PART=games|suite|probe|versus|decided|all (default all): which part to
#   run (probe: probe.sh, the margin reward's critical positions; versus:
#   versus-probe.sh, where the default gave results away on every 5x5
#   layout class with 3 holes; decided: decided-probe.sh, every bot's first
#   stone on 5x5 layouts with 9 to 18 holes that White wins);
#   WORK=DIR keeps the intermediate outputs there, and a step whose output
#   is already there is not run again (so an interrupted run continues);
#   GAME_BOTS, SUITE_BOTS: the bots of each part (default: all, as BOTS below);
#   NO_BUILD=1 uses target/release/pahtum as it is;
#   GAMES (default 4) games per bot and hole count; mcts plays MCTS_GAMES
#   (default 24: the run measured before this one) and mcts_margin
#   MCTS_MARGIN_GAMES (default 16) with 3 holes.
set -euo pipefail
here=experiments/perfect-play
bin=target/release/pahtum
[ "${NO_BUILD:-0}" = 1 ] || cargo build --release --quiet
if [ -n "${WORK:-}" ]; then work=$WORK; mkdir -p "$work"; else
  work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
PART=${PART:-all}
export BOTS="random greedy heuristic learned flatmc mcts alphabeta mcts_margin"
export GAME_BOTS=${GAME_BOTS:-$BOTS}
# The suite's bots, strongest first; SUITE_BOTS=... judges fewer.
export BOTS=${SUITE_BOTS:-"mcts alphabeta flatmc heuristic learned greedy random mcts_margin"}
export HOLES="3 5"
GAMES=${GAMES:-4}
MCTS_GAMES=${MCTS_GAMES:-24}
MCTS_MARGIN_GAMES=${MCTS_MARGIN_GAMES:-16}
PERFECT=alphabeta:solve=22,nodes=0,label=perfect
# The engine before the hybrid default (prior=pv, mix=0.5, expand=6): what
# this experiment measured. Labels keep the bot names `mcts`, `mcts_margin`.
CLASSIC=prior=prune,mix=0,expand=2
spec() { case $1 in
  mcts) echo "mcts:$CLASSIC,label=mcts" ;;
  mcts_margin) echo "mcts:reward=margin,$CLASSIC,label=mcts_margin" ;;
  *) echo "$1" ;; esac; }
start=$(date +%s)
if [ "$PART" = all ] || [ "$PART" = games ]; then
  for bot in $GAME_BOTS; do
    for h in $HOLES; do
      n=$GAMES
      if [ "$h" = 3 ] && [ "$bot" = mcts ]; then n=$MCTS_GAMES; fi
      if [ "$h" = 3 ] && [ "$bot" = mcts_margin ]; then n=$MCTS_MARGIN_GAMES; fi
      d="$work/games-$bot-$h"
      echo "+ pahtum tournament --size 5 --holes $h --bot $(spec "$bot") --bot $PERFECT --games $n --seed 55"
      if [ ! -s "$d/t/run.json" ] || ! grep -q '"end_time": "' "$d/t/run.json"; then
        rm -rf "$d"
        $bin tournament --size 5 --holes "$h" --bot "$(spec "$bot")" --bot "$PERFECT" \
          --games "$n" --seed 55 --threads 2 --quiet --out "$d/t"
      fi
      if [ ! -f "$d/a/run.json" ] || ! grep -q '"end_time": "' "$d/a/run.json"; then
        rm -rf "$d/a"
        python3 $here/games_to_suite.py 5 "h$h" "$d/t/games.csv" --mover "$bot" > "$d/suite.txt"
        $bin accuracy --played --positions "$d/suite.txt" --threads 2 --quiet --out "$d/a" > /dev/null
      fi
    done
  done
  echo "whole games: $(( $(date +%s) - start )) s"
else
  export GAME_BOTS=""
fi
if [ "$PART" = all ] || [ "$PART" = suite ]; then
  mid=$(date +%s)
  for bot in $BOTS; do
    echo "+ pahtum accuracy --bot $(spec "$bot") --positions $here/suite.txt --max-empty 26"
    if [ ! -f "$work/suite-$bot/run.json" ] || ! grep -q '"end_time": "' "$work/suite-$bot/run.json"; then
      rm -rf "$work/suite-$bot"
      $bin accuracy --bot "$(spec "$bot")" --positions $here/suite.txt --max-empty 26 --threads 2 --quiet \
        --out "$work/suite-$bot"
    fi
  done
  echo "suite: $(( $(date +%s) - mid )) s"
else
  export BOTS=""
fi
if [ "$PART" != probe ] && [ "$PART" != versus ] && [ "$PART" != decided ]; then python3 $here/summarize.py "$work" $here; fi
if [ "$PART" = all ] || [ "$PART" = probe ]; then NO_BUILD=1 $here/probe.sh; fi
# Where the default gave a result away over every layout class of 5x5 with
# 3 holes (the versus.csv of experiments/solved-small-boards/).
if [ "$PART" = all ] || [ "$PART" = versus ]; then NO_BUILD=1 $here/versus-probe.sh; fi
# The first stone on White-win layouts of 5x5 (the decided.csv files of
# experiments/solved-small-boards/).
if [ "$PART" = all ] || [ "$PART" = decided ]; then NO_BUILD=1 $here/decided-probe.sh; fi
echo "run time: $(( $(date +%s) - start )) s"
