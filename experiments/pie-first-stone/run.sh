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
# The candidate is today's binary with the defaults of commit 7e55025
# written out in full (those the old engine plays), so that the gate asks
# about the pie change alone whatever today's defaults are.
then="mcts:c=0.2,fpu=1.0,expand=2,lazy=0,rollout=heuristic,net=builtin,eps=0.05,mix=0,tempo=0.5,reward=margin,scale=10,win_share=0,rave=off,bias=0.001,ref=50,prior=prune,k=5,widen=2,pw=1.0,minimax=0,solver=true,exact=10,reuse=true,final=visits,model=auto,model_after=2,threads=1,parallel=tree,max_nodes=4000000,decay=0.4,reach=3,defence=1.3"
cargo run --release --quiet -- sprt --a "$then,ms=20,label=new" --b old \
  --engine "old=$old/target/release/pahtum engine --bot mcts:ms=20" \
  --pie --holes 5 --elo0 0 --elo1 5 --max-games 4000 --seed 11 --threads 2 \
  --out out --quiet
cp out/sprt.csv results.csv
cp out/sprt.svg plot.svg
