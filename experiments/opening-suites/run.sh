#!/usr/bin/env bash
# opening-suites: how many games an SPRT needs to reach its verdict when its
# pairs start from random layouts (the default), from a balanced suite and
# from a one-sided one, for two pairs of bots whose Elo differences the same
# run measures. The suites are data/openings/, made by:
#   pahtum openings --count 300 --seed 1 --holes 5 --plies 2 --band 0.45..0.55 --out data/openings/balanced.txt
#   pahtum openings --count 300 --seed 1 --holes 5 --plies 2 --band 0.65..0.75 --out data/openings/one-sided.txt
# (the judge, mcts:iters=10000, puts White's expected score in the band; it
# was the default mcts of its day, before the hybrid default: --bot
# mcts:iters=10000,prior=prune,mix=0,expand=2 keeps its prior, mix, expand).
# PAHTUM=path runs another binary instead of building this tree's.
set -euo pipefail
cd "$(dirname "$0")"
if [ -z "${PAHTUM:-}" ]; then
  cargo build --release --quiet
  PAHTUM=../../target/release/pahtum
fi
start=$(date +%s)
T=${THREADS:-2}
SEEDS="1 2 3 4 5 6 7 8"
# The engine before the hybrid default (prior=pv, mix=0.5, expand=6): what
# this experiment measured.
CLASSIC=prior=prune,mix=0,expand=2
m100="mcts:iters=100,$CLASSIC,label=m100"
m200="mcts:iters=200,$CLASSIC,label=m200"
m150="mcts:iters=150,$CLASSIC,label=m150"
suite() { [ "$1" = random ] || echo "--openings ../../data/openings/$1.txt"; }
# SUMMARY_ONLY=1 prints the summary of the games already in out/.
if [ -z "${SUMMARY_ONLY:-}" ]; then
rm -rf out && mkdir -p out
# Step 1: each pair's Elo difference under each start condition: a gauntlet
# of m100 against m150 and m200, 300 games a pairing.
for cond in random balanced one-sided; do
  # shellcheck disable=SC2046
  "$PAHTUM" tournament --bot "$m100" --bot "$m150" --bot "$m200" --format gauntlet \
    --games 300 --seed 7 --threads "$T" --out "out/elo-$cond" --quiet $(suite "$cond")
done
# Step 2: the SPRT of each pair (elo0 0, elo1 10, pentanomial, at most 2000
# games) from each start condition, over several seeds.
echo "pair,condition,seed,games,verdict,elo" > results.csv
for pair in "m150 $m150" "m200 $m200"; do
  set -- $pair
  for cond in random balanced one-sided; do
    for seed in $SEEDS; do
      dir="out/sprt-$1-$cond-$seed"
      # shellcheck disable=SC2046
      "$PAHTUM" sprt --a "$2" --b "$m100" --elo0 0 --elo1 10 --max-games 2000 \
        --seed "$seed" --threads "$T" --out "$dir" --quiet $(suite "$cond") > "$dir.txt"
      line=$(head -1 "$dir.txt")
      games=$(sed 's/^games=\([0-9]*\).*/\1/' <<< "$line")
      elo=$(sed 's/.* elo=\([-0-9.]*\).*/\1/' <<< "$line")
      verdict=$(sed -n 2p "$dir.txt" | cut -d' ' -f1)
      echo "$1-m100,$cond,$seed,$games,$verdict,$elo" >> results.csv
    done
  done
done
fi
python3 - <<'PY' | tee summary.txt
import csv, statistics
print("Elo of each bot against m100 (gauntlet, 300 games a pairing), by start condition:")
for cond in ["random", "balanced", "one-sided"]:
    rows = list(csv.DictReader(open(f"out/elo-{cond}/ratings.csv")))
    base = next(float(r["elo"]) for r in rows if r["bot"] == "m100")
    diffs = ", ".join(f"{r['bot']} {float(r['elo']) - base:+.1f}" for r in rows if r["bot"] != "m100")
    print(f"  {cond:10s} {diffs}")
print("The gauntlets' games by start condition: White's score, and the share of")
print("colour-swapped pairs that split 1-1 (the same colour won both games):")
for cond in ["random", "balanced", "one-sided"]:
    games = list(csv.DictReader(open(f"out/elo-{cond}/games.csv")))
    white = sum(1.0 if g["winner"] == "white" else 0.5 if g["winner"] == "draw" else 0.0 for g in games)
    pairs = list(csv.DictReader(open(f"out/elo-{cond}/pairs.csv")))
    split = sum(1 for p in pairs if p["pentanomial"] == "2" and p["points_first"] != "0.5")
    print(f"  {cond:10s} White {white / len(games):.3f} over {len(games)} games, 1-1 pairs {split / len(pairs):.3f} of {len(pairs)}")
rows = list(csv.DictReader(open("results.csv")))
print("SPRT elo0=0 elo1=10 (games to the verdict over the seeds):")
print(f"  {'pair':10s} {'condition':10s} {'mean':>7s} {'median':>7s}  verdicts")
for pair in ["m150-m100", "m200-m100"]:
    for cond in ["random", "balanced", "one-sided"]:
        rs = [r for r in rows if r["pair"] == pair and r["condition"] == cond]
        g = [int(r["games"]) for r in rs]
        v = {}
        for r in rs:
            v[r["verdict"]] = v.get(r["verdict"], 0) + 1
        vs = " ".join(f"{k}x{n}" for k, n in sorted(v.items()))
        print(f"  {pair:10s} {cond:10s} {statistics.mean(g):7.0f} {statistics.median(g):7.0f}  {vs}")
PY
echo "run time: $(( $(date +%s) - start )) s"
