#!/usr/bin/env bash
# pie-first-stone: the gate of the pie-rule change to mcts (the first stone
# valued as what the first player keeps after the swap decision). The
# previous engine is not a spec of today's binary (the change has no key),
# so it is built from the commit before the change and plays as an
# external engine, with the same settings at the same time per move.
set -euo pipefail
cd "$(dirname "$0")"
root=$(git rev-parse --show-toplevel)
before=7e55025
old=$(mktemp -d)
git -C "$root" worktree add -q --detach "$old/src" "$before"
trap 'git -C "$root" worktree remove --force "$old/src"; rm -rf "$old"' EXIT
(cd "$old/src" && CARGO_TARGET_DIR="$old/target" cargo build --release --quiet)
rm -rf out
cargo run --release --quiet -- sprt --a mcts:ms=20,label=new --b old \
  --engine "old=$old/target/release/pahtum engine --bot mcts:ms=20" \
  --pie --holes 5 --elo0 0 --elo1 5 --max-games 4000 --seed 11 --threads 2 \
  --out out --quiet
cp out/sprt.csv results.csv
