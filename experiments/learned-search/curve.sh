#!/usr/bin/env bash
# The learning curve and its ablation (README.md here, "Learning curve"):
# today's trainer and each part of the newer self-play switched on in
# turn, every arm trained on the same budget of CPU seconds, its
# networks then played at 50 ms a move against three fixed anchors
# (heuristic, mcts:iters=1000 and the default mcts at 50 ms, both the
# engine before the hybrid default: prior=prune,mix=0,expand=2).
#
# Training runs in sittings: an arm's run is resumed (`pahtum train
# --resume`) STEP generations at a time until its generations' CPU
# seconds (train.csv's cpu_seconds: self-play and learning, both threads)
# reach BUDGET, so a later sitting with a larger BUDGET goes on from where
# this one stopped (out/ is kept between sittings).
#
#   BUDGET=CPU seconds per arm (900)       ARMS="base gumbel ..." (all five)
#   STEP=generations a sitting (5)         EVAL_GAMES=games per anchor (20)
#   POINTS="0.5 1" budget shares at which an arm's network is played
#   OUT=DIR (out) the runs, NAME (curve) of the table and plot written
# The arm `all` (every part at once) is not among the five by default:
# ARMS=all names it (README.md here, "The learning curve", its sittings).
set -euo pipefail
cd "$(dirname "$0")"
(cd ../.. && cargo build --release --quiet --features train)
bin=../../target/release/pahtum
start=$(date +%s)
BUDGET=${BUDGET:-900}
STEP=${STEP:-5}
EVAL_GAMES=${EVAL_GAMES:-20}
ARMS=${ARMS:-base gumbel cap exact aux}
POINTS=${POINTS:-0.5 1}
OUT=${OUT:-out}
NAME=${NAME:-curve}
# The anchors' mcts: the default engine before the hybrid one.
CLASSIC=prior=prune,mix=0,expand=2
# Today's trainer at a small budget a move: every arm starts from it.
COMMON=(--games 64 --iters 200 --gate-games 0 --anchor-games 0 --steps 60 --batch 256
        --seed 4901 --threads 2)
flags() {
  case $1 in
    base) ;;
    gumbel) echo --gumbel ;;
    cap) echo --full-share 0.25 --fast-iters 50 ;;
    exact) echo --exact-targets 14 ;;
    aux) echo --margin-head --global-pool ;;
    all) echo --gumbel --full-share 0.25 --fast-iters 50 --exact-targets 14 --margin-head --global-pool ;;
    # The network's size (sizes.sh): `all` with a smaller and a larger tower.
    c8b1) echo "$(flags all) --channels 8 --blocks 1" ;;
    c32b2) echo "$(flags all) --channels 32 --blocks 2" ;;
    *) echo "unknown arm $1" >&2; exit 2 ;;
  esac
}
# Seconds of generations 1..N of a run (N: all rows).
spent() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "cpu_seconds") c = i; next }
  { s += $c } END { printf "%.0f", s }' "$1/train.csv"; }
last_gen() { awk -F, 'NR > 1 { g = $1 } END { print g + 0 }' "$1/train.csv"; }
mkdir -p "$OUT"
for arm in $ARMS; do
  d=$OUT/train-$arm
  while :; do
    if [ -f "$d/train.csv" ]; then
      [ "$(spent "$d")" -ge "$BUDGET" ] && break
      g=$(( $(last_gen "$d") + STEP ))
      echo "+ pahtum train ${COMMON[*]} $(flags "$arm") --generations $g --out $d --resume"
      "$bin" train "${COMMON[@]}" $(flags "$arm") --generations "$g" --out "$d" --resume --quiet
    else
      rm -rf "$d"
      echo "+ pahtum train ${COMMON[*]} $(flags "$arm") --generations $STEP --out $d"
      "$bin" train "${COMMON[@]}" $(flags "$arm") --generations "$STEP" --out "$d" --quiet
    fi
  done
done
# Each arm's network at each budget share: the first generation whose
# CPU seconds reach it, against the anchors at 50 ms a move.
for arm in $ARMS; do
  d=$OUT/train-$arm
  for share in $POINTS; do
    want=$(awk -v b="$BUDGET" -v s="$share" 'BEGIN { printf "%.0f", b * s }')
    g=$(awk -F, -v w="$want" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "cpu_seconds") c = i; next }
      { s += $c; if (s >= w && !g) g = $1 } END { print g ? g : 0 }' "$d/train.csv")
    [ "$g" -gt 0 ] || g=$(last_gen "$d")
    net=$d/nets/gen-$(printf %04d "$g").safetensors
    e=$OUT/eval-$arm-$g
    [ -f "$e/summary.csv" ] && continue
    rm -rf "$e"
    echo "+ pahtum tournament --format gauntlet --bot zero:net=$net,ms=50 --bot heuristic --bot mcts:iters=1000,$CLASSIC --bot mcts:ms=50,$CLASSIC --games $EVAL_GAMES --seed 4902"
    "$bin" tournament --format gauntlet \
      --bot "zero:net=$net,ms=50,label=$arm" \
      --bot heuristic --bot "mcts:iters=1000,$CLASSIC,label=mcts1000" --bot "mcts:ms=50,$CLASSIC,label=mcts50" \
      --games "$EVAL_GAMES" --seed 4902 --threads 2 --quiet --out "$e"
  done
done
python3 curve.py "$OUT" "$NAME.csv" "$NAME.svg"
column -t -s, "$NAME.csv"
echo "run time: $(( $(date +%s) - start )) s"
