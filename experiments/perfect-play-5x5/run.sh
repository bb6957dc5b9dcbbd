#!/usr/bin/env bash
# The default bot against perfect play on 5x5 (README.md here): seeded
# whole-game tournaments with 3 and with 5 holes, each game's result judged
# by the layout's game-theoretic value (judge.py; layout values solved once
# into values.csv). Three bots: `before`, the engine without the root
# proof (game for game the default before it), `after`, the engine with it
# (both the default before the hybrid one, prior=prune,mix=0,expand=2
# written out), and `today`, today's default mcts (the hybrid: prior=pv,
# mix=0.5, expand=6, with the proof). Writes giveaways-WHICH.csv.
# Usage: experiments/perfect-play-5x5/run.sh   (from the repository root)
#   WHICH (default "before after today"); SEEDS (default 1 2 3 4 5 6), GAMES per
#   seed (default 16), HOLES (default 3 5); WORK=DIR keeps the tournaments
#   there (a finished one is not played again); NO_BUILD=1 uses
#   target/release/pahtum as it is.
set -euo pipefail
here=experiments/perfect-play-5x5
bin=target/release/pahtum
[ "${NO_BUILD:-0}" = 1 ] || cargo build --release --quiet
if [ -n "${WORK:-}" ]; then work=$WORK; mkdir -p "$work"; else
  work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
WHICH=${WHICH:-"before after today"}
# The default engine before the hybrid one: what before and after measured.
CLASSIC=prior=prune,mix=0,expand=2
SEEDS=${SEEDS:-"1 2 3 4 5 6"}
GAMES=${GAMES:-16}
HOLES=${HOLES:-"3 5"}
PERFECT=alphabeta:solve=25,nodes=0,label=perfect
start=$(date +%s)
for which in $WHICH; do
  case $which in
    before) bot=mcts:prove=0,$CLASSIC,label=mcts ;;
    after) bot=mcts:$CLASSIC,label=mcts ;;
    today) bot=mcts ;;
    *) echo "run.sh: WHICH lists before, after and today, not $which" >&2; exit 2 ;;
  esac
  mid=$(date +%s)
  for h in $HOLES; do
    for s in $SEEDS; do
      d="$work/$which/h$h-s$s"
      echo "+ pahtum tournament --size 5 --holes $h --bot $bot --bot $PERFECT --games $GAMES --seed $s --threads 2"
      if [ ! -s "$d/run.json" ] || ! grep -q '"end_time": "' "$d/run.json"; then
        rm -rf "$d"
        $bin tournament --size 5 --holes "$h" --bot "$bot" --bot "$PERFECT" \
          --games "$GAMES" --seed "$s" --threads 2 --quiet --out "$d"
      fi
    done
  done
  echo "$which: games $(( $(date +%s) - mid )) s"
  python3 $here/judge.py $bin "$work/$which" $here/values.csv
  cp "$work/$which/giveaways.csv" "$here/giveaways-$which.csv"
  python3 $here/judge.py --time "$work/$which"
done
echo "run time: $(( $(date +%s) - start )) s"
