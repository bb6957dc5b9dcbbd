# The tune-then-gate steps of a tuning experiment, sourced by its run.sh
# from its own folder after it has set:
#   cost       the fixed cost per move of the tune (iters=, nodes=), left
#              out of the gate (ms= replaces it)
#   params     the --param options, an array
#   pairs      SPSA iterations; tune_seed, gate_seed: the two seeds
#   old        every key of the defaults the tune starts from: the tune
#              runs "$old,$cost", so a rerun starts where the first run did
#              whatever today's defaults are
# PART=tune|gate|all (default all). With RESUME=1 the tune resumes from
# out/tune and the gate from out/gate, so a long run can span sessions.
# The gate: the tuned spec against the previous defaults written out in
# full, a pentanomial SPRT (elo0 0, elo1 5) at 20 ms a move on the
# standard 7x7 game.
set -euo pipefail
cargo build --release --quiet
pahtum=../../../target/release/pahtum
part=${PART:-all}
resume=()
if [[ ${RESUME:-0} == 1 ]]; then resume=(--resume); fi
if [[ $part == tune || $part == all ]]; then
  start=$(date +%s)
  [[ ${RESUME:-0} == 1 ]] || rm -rf out/tune
  "$pahtum" tune --bot "$old,$cost" "${params[@]}" --pairs "$pairs" --seed "$tune_seed" \
    --threads 2 --out out/tune --quiet "${resume[@]}" | tee tuned.txt
  cp out/tune/tune.csv tune.csv
  cp out/tune/tune.svg tune.svg
  echo "tune run time: $(( $(date +%s) - start )) s"
fi
if [[ $part == gate || $part == all ]]; then
  start=$(date +%s)
  tuned=$(sed -n 's/^tuned=//p' tuned.txt | sed "s/$cost,\{0,1\}//")
  [[ ${RESUME:-0} == 1 ]] || rm -rf out/gate
  "$pahtum" sprt --a "${tuned%,},ms=20,label=tuned" \
    --b "$old,ms=20,label=defaults" --elo0 0 --elo1 5 --max-games 3000 \
    --seed "$gate_seed" --threads 2 --out out/gate --quiet "${resume[@]}" | tee verdict.txt
  cp out/gate/sprt.csv gate.csv
  echo "gate run time: $(( $(date +%s) - start )) s"
fi
