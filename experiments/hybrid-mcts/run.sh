#!/usr/bin/env bash
# hybrid-mcts: does the policy-value network of `zero` make `mcts` stronger
# as AlphaGo's hybrid (prior=pv: its policy ranks and biases children;
# mix=: its value blended into each playout's reward)? Short SPRTs of 60
# games each against the engine that was the default when they ran (before
# the hybrid became it), at equal iterations (what the
# network adds per iteration) and at equal time (what it earns for its
# cost), one thread per game.
set -euo pipefail
cd "$(dirname "$0")"
cargo build --release --quiet
start=$(date +%s)
rm -rf out && mkdir out
# A spec as measured: read over the engine before the hybrid default
# (which is prior=pv, mix=0.5, expand=6), so that of prior=, mix= and
# expand= each one it does not give is prune, 0 and 2, as it was.
pin() {
  local s=$1 kv
  for kv in prior=prune mix=0 expand=2; do
    [[ ",${s#mcts:}," == *",${kv%%=*}="* ]] || s="$s,$kv"
  done
  echo "$s"
}
run() {
  echo "$1 vs $2" | tee -a verdicts.txt
  ../../target/release/pahtum sprt --a "$(pin "$1")" --b "$(pin "$2")" --elo0 -10 --elo1 0 \
    --max-games 60 --seed 7 --threads 2 --quiet --out "out/$3" | tee -a verdicts.txt
}
: > verdicts.txt
run 'mcts:prior=pv,iters=3000' 'mcts:iters=3000' pv-iters
run 'mcts:mix=0.5,iters=3000' 'mcts:iters=3000' mix-iters
run 'mcts:prior=pv,mix=0.5,iters=3000' 'mcts:iters=3000' pv-mix-iters
run 'mcts:prior=pv,expand=4,ms=50' 'mcts:ms=50' pv-e4
run 'mcts:prior=pv,mix=0.5,expand=6,ms=50' 'mcts:ms=50' pv-mix-e6
run 'mcts:prior=pv,mix=0.25,pw=2,expand=6,ms=50' 'mcts:ms=50' pv-mix-pw-e6
run 'mcts:prior=pv,expand=16,ms=50' 'mcts:ms=50' pv-e16
run 'mcts:mix=0.3,expand=16,ms=50' 'mcts:ms=50' mix-e16
run 'mcts:prior=pv,mix=0.5,expand=16,ms=50' 'mcts:ms=50' pv-mix-e16
run 'mcts:expand=16,ms=50' 'mcts:ms=50' e16
run 'mcts:prior=pv,mix=0.5,expand=16,ms=50' 'mcts:expand=16,ms=50' pv-mix-e16-vs-e16
echo "run time: $(( $(date +%s) - start )) s"
