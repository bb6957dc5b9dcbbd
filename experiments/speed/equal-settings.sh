#!/usr/bin/env bash
# speed at equal settings: the default engine of 5e9f8bf (the commit that
# made rollout=net the default) against this tree, both with 5e9f8bf's
# defaults written out (this tree also with prove=0: the root proof came
# later; and with prior=prune,mix=0,expand=2, 5e9f8bf's values of the keys
# the hybrid default changed to prior=pv, mix=0.5, expand=6). They play the same games (the digest of the moves is printed),
# so the time compares the same work. Six games against random at 3,000
# iterations a move, whole process, the two binaries in turn, 9 rounds;
# prints each round's seconds and the median ratio.
set -euo pipefail
cd "$(dirname "$0")"
OLDS=5e9f8bf
source ./old-builds.sh
spec="mcts:iters=3000,reuse=false,c=0.2,fpu=1.0,eps=0.05,minimax=0,widen=2,pw=1.0,decay=0.4,defence=1.3"
play() { # binary, extra keys, out
  "$1" tournament --bot "$spec$2" --bot random --games 6 --seed 3 --threads 1 --quiet --out "$3" >/dev/null
}
secs() { local s e; s=$(date +%s.%N); "$@"; e=$(date +%s.%N); echo "$e - $s" | bc; }
ratios=()
printf '%-5s %10s %10s %7s\n' round 5e9f8bf HEAD ratio
for round in 1 2 3 4 5 6 7 8 9; do
  rm -rf "$work/o5" "$work/oh"
  a=$(secs play "$work/pahtum-5e9f8bf" "" "$work/o5")
  b=$(secs play "$work/pahtum-HEAD" ",prove=0,prior=prune,mix=0,expand=2" "$work/oh")
  r=$(echo "$b / $a" | bc -l)
  ratios+=("$r")
  printf '%-5s %10.3f %10.3f %7.3f\n' "$round" "$a" "$b" "$r"
done
for d in o5 oh; do printf '%s moves %s\n' "$d" "$(cut -d, -f11 "$work/$d/games.csv" | md5sum | cut -c1-8)"; done
printf 'median HEAD/5e9f8bf %.3f\n' "$(printf '%s\n' "${ratios[@]}" | sort -n | sed -n 5p)"
