#!/usr/bin/env bash
# speed, counted: instructions (callgrind's count of the whole process,
# which does not depend on the machine's load) of one colour-swapped pair
# of plain UCT against random, every key written out, for pahtum at
# a2f8cec, at 5e9f8bf and at HEAD; and of one pair of the default engine
# at 2,000 iterations a move. Prints one row per binary, with a digest of
# the plain pair's moves (equal digests: the same games, so the counts
# compare the same work). HEAD's specs also get the keys the hybrid default
# changed (prior=pv, mix=0.5, expand=6) at the values they had before it,
# which are the old binaries' defaults: HEAD's "default engine" is the one
# this experiment measured.
set -euo pipefail
cd "$(dirname "$0")"
source ./old-builds.sh
plain="mcts:iters=20000,rollout=random,reward=win,rave=off,prior=off,solver=false,reuse=false,c=0.2,fpu=1,expand=2,minimax=0,lazy=0,model=off,threads=1"
count() {
  valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$@" >/dev/null 2>&1
  sed -n 's/^summary: //p' "$work/cg.out"
}
printf '%-8s %14s %14s %s\n' binary plain_pair default_pair plain_moves
for b in "${olds[@]}" HEAD; do
  plain_b=$plain default_b=mcts:iters=2000,reuse=false
  if [ "$b" = HEAD ]; then plain_b+=,mix=0 default_b+=,prior=prune,mix=0,expand=2; fi
  p=$(count "$work/pahtum-$b" tournament --bot "$plain_b" --bot random --games 2 --seed 3 --threads 1 --quiet --out "$work/p-$b")
  d=$(count "$work/pahtum-$b" tournament --bot "$default_b" --bot random --games 2 --seed 3 --threads 1 --quiet --out "$work/d-$b")
  m=$(cut -d, -f11 "$work/p-$b/games.csv" | md5sum | cut -c1-8)
  printf '%-8s %14s %14s %s\n' "$b" "$p" "$d" "$m"
done
