# The tune-then-gate steps of a tuning experiment, sourced by its run.sh
# from its own folder after it has set:
#   cost       the fixed cost per move of the tune (iters=, nodes=), left
#              out of the gate (ms= replaces it)
#   params     the --param options, an array
#   pairs      SPSA iterations; tune_seed, gate_seed: the two seeds
#   old        every key of the defaults the tune starts from: the tune
#              runs "$old,$cost", so a rerun starts where the first run did
#              whatever today's defaults are
#   costly     (optional, an array of KEY=OFF) the tuned keys whose value
#              changes what an iteration costs (a weight that switches on
#              an evaluation at every leaf, say): a fixed iteration budget
#              cannot see that cost, so each is judged at equal time
# PART=tune|keys|gate|all (default all). With RESUME=1 the tune resumes from
# out/tune and the gate from out/gate, so a long run can span sessions.
# The key check (PART=keys): for each costly key, the tuned spec against
# the same spec with that key at OFF, a pentanomial SPRT (elo0 0, elo1 5)
# at 20 ms a move. A key keeps its tuned value only when the tuned spec
# wins (H1); otherwise the adopted spec (adopted.txt) has it at OFF.
# The gate: the adopted spec (the tuned one when no key was checked)
# against the previous defaults written out in
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
if [[ $part == keys || $part == all ]]; then
  tuned=$(sed -n 's/^tuned=//p' tuned.txt | sed "s/$cost,\{0,1\}//")
  tuned=${tuned%,}
  adopted=$tuned
  for kv in ${costly[@]+"${costly[@]}"}; do
    start=$(date +%s)
    key=${kv%%=*}
    off=$(sed -E "s/(^|[:,])$key=[^,]*/\1$kv/" <<<"$tuned")
    [[ ${RESUME:-0} == 1 ]] || rm -rf "out/keys-$key"
    "$pahtum" sprt --a "$tuned,ms=20,label=tuned" --b "$off,ms=20,label=$key-off" \
      --elo0 0 --elo1 5 --max-games 3000 --seed "$keys_seed" --threads 2 \
      --out "out/keys-$key" --quiet "${resume[@]}" | tee "keys-$key.txt"
    cp "out/keys-$key/sprt.csv" "keys-$key.csv"
    if ! grep -q '^H1 accepted' "keys-$key.txt"; then
      adopted=$(sed -E "s/(^|[:,])$key=[^,]*/\1$kv/" <<<"$adopted")
    fi
    echo "key $key run time: $(( $(date +%s) - start )) s"
  done
  echo "adopted=$adopted" | tee adopted.txt
  # A key turned off changes the defaults: the adopted spec must pass the
  # gate against the tuned spec (today's defaults) at equal time.
  if [[ $adopted != "$tuned" ]]; then
    start=$(date +%s)
    [[ ${RESUME:-0} == 1 ]] || rm -rf out/adopt
    "$pahtum" sprt --a "$adopted,ms=20,label=adopted" --b "$tuned,ms=20,label=tuned" \
      --elo0 0 --elo1 5 --max-games 3000 --seed "$keys_seed" --threads 2 \
      --out out/adopt --quiet "${resume[@]}" | tee adopt.txt
    cp out/adopt/sprt.csv adopt.csv
    echo "adopt gate run time: $(( $(date +%s) - start )) s"
  fi
fi
if [[ $part == gate || $part == all ]]; then
  start=$(date +%s)
  if [[ -f adopted.txt ]]; then
    tuned=$(sed -n 's/^adopted=//p' adopted.txt)
  else
    tuned=$(sed -n 's/^tuned=//p' tuned.txt | sed "s/$cost,\{0,1\}//")
  fi
  [[ ${RESUME:-0} == 1 ]] || rm -rf out/gate
  "$pahtum" sprt --a "${tuned%,},ms=20,label=tuned" \
    --b "$old,ms=20,label=defaults" --elo0 0 --elo1 5 --max-games 3000 \
    --seed "$gate_seed" --threads 2 --out out/gate --quiet "${resume[@]}" | tee verdict.txt
  cp out/gate/sprt.csv gate.csv
  echo "gate run time: $(( $(date +%s) - start )) s"
fi
