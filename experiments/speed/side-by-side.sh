#!/usr/bin/env bash
# speed, side by side: pahtum at a2f8cec and at 5e9f8bf (the commit that
# made rollout=net the default), built from the project's history,
# pahtum at HEAD and the mcts-crate peer (benches/peer), each
# timed in turn, three rounds (ROUNDS), on an idle machine. Prints one row per
# binary and round: its plain-UCT figures at one and two threads, their
# ratio, and the default engine's figure (pahtum only).
set -euo pipefail
cd "$(dirname "$0")"
seconds=${SECONDS_PER_FIGURE:-2}
rounds=${ROUNDS:-3}
source ./old-builds.sh
cargo build --release -q --manifest-path "$repo/benches/peer/Cargo.toml"
peer="$repo/benches/peer/target/release/pahtum-peer"
get() { sed -n "s/^$1=//p" "$2"; }
printf '%-5s %-8s %10s %10s %6s %10s\n' round binary uct_t1 uct_t2 t2/t1 default
for round in $(seq "$rounds"); do
  for b in "${olds[@]}" HEAD; do
    "$work/pahtum-$b" bench --seconds "$seconds" >"$work/out"
    t1=$(get mcts_iters_per_s_t1 "$work/out")
    t2=$(get mcts_iters_per_s_t2 "$work/out")
    d=$(get 'mcts_default_iters_per_s\(_t1\)\?' "$work/out")
    printf '%-5s %-8s %10s %10s %6.2f %10s\n' "$round" "$b" "$t1" "$t2" "$(echo "$t2 / $t1" | bc -l)" "$d"
  done
  "$peer" "$seconds" >"$work/out"
  printf '%-5s %-8s %10s %10s %6s %10s\n' "$round" peer "$(get peer_mcts_iters_per_s_t1 "$work/out")" - - -
done
