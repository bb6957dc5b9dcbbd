#!/usr/bin/env bash
# Learned search (README.md here): the zero bot on the built-in network
# against the default mcts, at equal iterations, at equal time, on the
# perfect-play suite, in whole 5x5 games against perfect play, and its
# first-player advantage. Prints every table the README quotes.
# Usage: experiments/learned-search/run.sh   (from the repository root)
#   PART=gate|anchor|speed|iters|time|hybrid|default-gate|score-gate|floor|floor-time|pie|gumbel|games|cost|suite|perfect|fpa|train|all (default all but train);
#   PART=train retrains the built-in network with the documented command
#   (about 1.7 hours on 2 cores) and checks its bytes against
#   data/zero-7.safetensors;
#   WORK=DIR keeps the outputs there (a finished step is not run again);
#   NO_BUILD=1 uses target/release/pahtum as it is.
set -euo pipefail
here=experiments/learned-search
bin=target/release/pahtum
[ "${NO_BUILD:-0}" = 1 ] || cargo build --release --quiet
if [ -n "${WORK:-}" ]; then work=$WORK; mkdir -p "$work"; else
  work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
PART=${PART:-all}
want() { [ "$PART" = "$1" ] || { [ "$PART" = all ] && [ "$1" != train ]; }; }
done_run() { [ -f "$1/run.json" ] && grep -q '"end_time": "' "$1/run.json"; }
# sprt DIR SEED ELO0 ELO1 CAP A B [A_SHOWN B_SHOWN]: a pentanomial SPRT of
# A against B (run once per WORK), its command and verdict printed.
# SPRT_FLAGS (e.g. --pie) go to the command as well.
sprt() {
  local d=$1 seed=$2 e0=$3 e1=$4 max=$5 a=$6 b=$7
  echo "+ pahtum sprt --a ${8:-$a} --b ${9:-$b}${SPRT_FLAGS:+ $SPRT_FLAGS} --elo0 $e0 --elo1 $e1 --max-games $max --seed $seed"
  done_run "$d" || { rm -rf "$d"; $bin sprt --a "$a" --b "$b" ${SPRT_FLAGS:-} --elo0 "$e0" --elo1 "$e1" \
    --max-games "$max" --seed "$seed" --threads 2 --quiet --out "$d" > "$d.out" || true; }
  tail -n 3 "$d.out" 2>/dev/null || true
}
start=$(date +%s)
# The default mcts these measurements are against: the engine before the
# hybrid default (prior=pv, mix=0.5, expand=6, which PART=default-gate
# made the default), its three keys written out.
CLASSIC=prior=prune,mix=0,expand=2
PERFECT=alphabeta:solve=25,nodes=0,label=perfect

if want train; then
  # The documented command of data/zero-7.safetensors: curve.sh's `all`
  # arm (every part of the newer self-play on), run in one go to the
  # generation that was shipped (a resumed run gives the same bytes).
  cmd=(train --generations "${GENERATIONS:-875}" --games 64 --iters 200 --gate-games 0
       --anchor-games 0 --steps 60 --batch 256 --seed 4901 --threads 2 --gumbel
       --full-share 0.25 --fast-iters 50 --exact-targets 14 --margin-head --global-pool)
  echo "+ pahtum ${cmd[*]}"
  cargo build --release --quiet --features train
  done_run "$work/train" || $bin "${cmd[@]}" --out "$work/train" --quiet --resume 2>/dev/null ||
    $bin "${cmd[@]}" --out "$work/train" --quiet
  tail -n 3 "$work/train/train.csv" | cut -d, -f1-7 | column -t -s,
  if cmp -s "$work/train/best.safetensors" data/zero-7.safetensors; then
    echo "best.safetensors is data/zero-7.safetensors, byte for byte"
  else
    echo "best.safetensors differs from data/zero-7.safetensors"
  fi
  cargo build --release --quiet
fi

# A run against heuristic split by colour (wins-draws-losses of the bot),
# and the mean of White's expected score by the bot's search at its first
# move as Black.
by_colour() {
  local d=$1
  [ -f "$d/games.csv" ] && [ -f "$d/moves.csv" ] || return 0
  awk -F, -v run="${d##*/}" 'NR > 1 { col = ($4 == "heuristic") ? "black" : "white"
    r = ($8 == "draw") ? "draw" : (($8 == col) ? "win" : "loss"); n[col " " r]++ }
    END { printf "%s: as white %d-%d-%d, as black %d-%d-%d (wins-draws-losses)\n", run,
      n["white win"], n["white draw"], n["white loss"], n["black win"], n["black draw"], n["black loss"] }' \
    "$d/games.csv"
  awk -F, -v run="${d##*/}" 'NR > 1 && $2 == 2 && $4 != "heuristic" { s += $7; n++ }
    END { if (n) printf "%s: White'"'"'s expected score by its search at its first move as black, mean %.3f\n", run, s / n }' \
    "$d/moves.csv"
}

if want gate; then
  # The gate of the built-in network: zero on it against zero on the one
  # it replaced (data/zero-7.safetensors of commit 9332423, read from the
  # repository's history), equal time, 50 ms a move, pentanomial SPRT
  # elo0 0 elo1 5.
  prev="$work/zero-7-previous.safetensors"
  git show 9332423:data/zero-7.safetensors > "$prev"
  sprt "$work/gate" 4912 0 5 "${MAX_GATE:-800}" zero:ms=50 "zero:net=$prev,ms=50" \
    zero:ms=50 zero:net=PREVIOUS,ms=50
fi

if want anchor; then
  # The built-in network's floor: zero on it at 50 ms a move against
  # heuristic, on seeds of its own (another ANCHOR_GAMES is a run of
  # its own, beside the 200 that PART=floor reads).
  d="$work/anchor"
  [ "${ANCHOR_GAMES:-200}" = 200 ] || d="$work/anchor-$ANCHOR_GAMES"
  echo "+ pahtum tournament --format gauntlet --bot zero:ms=50 --bot heuristic --games ${ANCHOR_GAMES:-200} --seed 4911"
  done_run "$d" || { rm -rf "$d"; $bin tournament --format gauntlet --bot zero:ms=50 --bot heuristic \
    --games "${ANCHOR_GAMES:-200}" --seed 4911 --threads 2 --quiet --out "$d"; }
  cut -d, -f1-8 "$d/summary.csv" | column -t -s,
fi

if want floor; then
  # What the floor says: the same 200 games against heuristic (seed 4911)
  # for zero with the score utility, today's default mcts and the one
  # before it; then for each run (PART=anchor's too, when it ran in the
  # same WORK) its results by colour and how far ahead its search puts
  # White when it first moves as Black.
  for b in "zero:ms=50,score=0.2" "mcts:ms=50" "mcts:ms=50,$CLASSIC"; do
    d="$work/floor-${b//[=:,.]/-}"
    echo "+ pahtum tournament --format gauntlet --bot $b --bot heuristic --games ${ANCHOR_GAMES:-200} --seed 4911"
    done_run "$d" || { rm -rf "$d"; $bin tournament --format gauntlet --bot "$b" --bot heuristic \
      --games "${ANCHOR_GAMES:-200}" --seed 4911 --threads 2 --quiet --out "$d"; }
    cut -d, -f1-8 "$d/summary.csv" | sed -n 2p
  done
  for d in "$work/anchor" "$work"/floor-*; do
    by_colour "$d"
  done
fi

if want floor-time; then
  # Whether more search time moves the floor: zero at 200 ms a move, four
  # times the time, on the same 200 games.
  d="$work/slow-zero-ms-200"
  echo "+ pahtum tournament --format gauntlet --bot zero:ms=200 --bot heuristic --games ${ANCHOR_GAMES:-200} --seed 4911"
  done_run "$d" || { rm -rf "$d"; $bin tournament --format gauntlet --bot zero:ms=200 --bot heuristic \
    --games "${ANCHOR_GAMES:-200}" --seed 4911 --threads 2 --quiet --out "$d"; }
  cut -d, -f1-8 "$d/summary.csv" | sed -n 2p
  by_colour "$d"
fi

if want speed; then
  echo "+ pahtum bench --seconds 2 (network and default mcts figures)"
  $bin bench --seconds 2 | grep -E '^(net_evals_per_s_b[18]|mcts_default_iters_per_s)='
fi

if want iters; then
  # Elo against iterations: a gauntlet of zero and mcts at 100, 1000 and
  # 10000 iterations against mcts:iters=1000, on one Elo scale.
  d="$work/iters"
  bots=(--bot "mcts:iters=1000,$CLASSIC,label=ref")
  for n in 100 1000 10000; do
    bots+=(--bot "zero:iters=$n,label=zero_$n" --bot "mcts:iters=$n,$CLASSIC,label=mcts_$n")
  done
  echo "+ pahtum tournament --format gauntlet ${bots[*]} --games ${ITER_GAMES:-10} --seed 31"
  done_run "$d" || { rm -rf "$d"; $bin tournament --format gauntlet "${bots[@]}" \
    --games "${ITER_GAMES:-10}" --seed 31 --threads 2 --quiet --out "$d"; }
  column -t -s, "$d/ratings.csv"
fi

if want time; then
  # Equal time: the learned engine (zero on the built-in network, or with
  # ZERO_NET=FILE on that network: a network of the curve) against the
  # default mcts at 50 ms a move, the SPRT of "level or better"
  # (pentanomial, elo0 -10, elo1 0), on seeds of its own.
  max=${MAX_50:-800}
  if [ -n "${ZERO_NET:-}" ]; then
    d="$work/sprt-50-net"; a="zero:net=$ZERO_NET,ms=50"; seed=4910
  else
    d="$work/sprt-50"; a="zero:ms=50"; seed=4904
  fi
  sprt "$d" "$seed" -10 0 "$max" "$a" "mcts:ms=50,$CLASSIC"
  cat "$d/summary.csv" 2>/dev/null | column -t -s, || true
fi

if want hybrid; then
  # The hybrid at equal time: mcts with the network's policy as its prior
  # and its value mixed into the playouts, at the best setting of
  # experiments/hybrid-mcts/'s screens, the same SPRT as PART=time on
  # seeds of its own.
  d="$work/sprt-50-hybrid"; a="mcts:${HYBRID:-prior=pv,mix=0.5,expand=6},ms=50"
  sprt "$d" 4914 -10 0 "${MAX_50:-800}" "$a" "mcts:ms=50,$CLASSIC"
  cat "$d/summary.csv" 2>/dev/null | column -t -s, || true
fi

if want default-gate; then
  # The gate of the hybrid as the default engine: the hybrid against the
  # defaults of today written out in full (`pahtum bots`; iters= left
  # out, ms= replaces it), pentanomial SPRT elo0 0 elo1 5 at 50 ms a move.
  old="mcts:rollout=net,net=builtin,reuse=true,alloc=even,early=false,model=auto,threads=1,parallel=tree,max_nodes=67108864,c=0.205444,fpu=1.002448,expand=2,lazy=0,eps=0.030753,tempo=0.5,reward=win,scale=10,win_share=0,rave=off,bias=0.001,ref=50,prior=prune,k=5,widen=2.030568,pw=1.069962,mix=0,minimax=0,solver=true,exact=10,prove=22,prove_nodes=1000,final=visits,model_after=2,decay=0.403497,reach=3,defence=1.298178"
  new="${old/prior=prune/prior=pv}"; new="${new/mix=0,/mix=0.5,}"; new="${new/expand=2,/expand=6,}"
  sprt "$work/default-gate" 4915 0 5 "${MAX_DEFAULT:-1600}" "$new,ms=50,label=hybrid" "$old,ms=50,label=defaults"
fi

if want score-gate; then
  # zero's score utility (score=, KataGo's: the margin head blended into
  # a leaf's value) through the gate: zero with score=0.2 against zero's
  # defaults of today written out in full (`pahtum bots`; iters= left out,
  # ms= replaces it), pentanomial SPRT elo0 0 elo1 5 at 50 ms a move.
  old="zero:net=builtin,threads=1,exact=10,reuse=true,alloc=even,batch=8,cpuct=1.5,fpu=0.2,noise=0,alpha=10,explore=0,root=puct,m=16,score=0"
  sprt "$work/score-gate" 4918 0 5 "${MAX_SCORE:-1600}" "${old/score=0/score=0.2},ms=50,label=score" \
    "$old,ms=50,label=defaults"
fi

if want pie; then
  # The default engine under the pie rule, where its gate did not play:
  # today's default (the hybrid) against the default before it, 50 ms a
  # move, the SPRT of "at least level" (elo0 -10, elo1 0).
  SPRT_FLAGS=--pie sprt "$work/sprt-50-pie" 4916 -10 0 "${MAX_PIE:-800}" mcts:ms=50 "mcts:ms=50,$CLASSIC"
fi

if want gumbel; then
  # Gumbel root search in match play against PUCT at equal iterations
  # (the same network), 400 games each: the budgets self-play uses.
  for spec in "iters=16" "iters=16,m=4" "iters=64" "iters=64,m=8"; do
    d="$work/gumbel-${spec//[=,]/-}"
    it=${spec%%,*}
    echo "+ pahtum tournament --bot zero:root=gumbel,$spec --bot zero:$it --games ${GUMBEL_GAMES:-400} --seed 4905"
    done_run "$d" || { rm -rf "$d"; $bin tournament --bot "zero:root=gumbel,$spec,label=gumbel" \
      --bot "zero:$it,label=puct" --games "${GUMBEL_GAMES:-400}" --seed 4905 --threads 2 --quiet --out "$d"; }
    head -2 "$d/summary.csv" | cut -d, -f1-7 | column -t -s,
  done
fi

if want games; then
  # Games at once (pahtum train --parallel-games): a search of one leaf a
  # step against zero's batches of 8 at equal iterations (the self-play
  # budget), then the CPU seconds of one self-play generation (64 games
  # at 200 iterations, one training step) with zero's batches of 8 and
  # with K games at once, one leaf a step, their leaves evaluated
  # together.
  d="$work/batch1-vs-8"
  echo "+ pahtum tournament --format gauntlet --bot zero:iters=200,batch=1 --bot zero:iters=200,batch=8 --games ${BATCH_GAMES:-800} --seed 4907"
  done_run "$d" || { rm -rf "$d"; $bin tournament --format gauntlet --bot "zero:iters=200,batch=1,label=batch1" \
    --bot "zero:iters=200,batch=8,label=batch8" --games "${BATCH_GAMES:-800}" --seed 4907 --threads 2 --quiet --out "$d"; }
  head -2 "$d/summary.csv" | cut -d, -f1-7 | column -t -s,
  [ "${NO_BUILD:-0}" = 1 ] || cargo build --release --quiet --features train
  echo "parallel_games,cpu_seconds,samples_md5"
  for k in 0 2 8 16 32; do
    d="$work/games-at-once-$k"
    opt=(); [ "$k" = 0 ] || opt=(--parallel-games "$k")
    done_run "$d" || { rm -rf "$d"; $bin train --generations 1 --games 64 --iters 200 --gate-games 0 \
      --anchor-games 0 --steps 1 --batch 64 --seed 4908 --threads 2 "${opt[@]}" --quiet --out "$d" > /dev/null; }
    cpu=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "cpu_seconds") c = i; next } { print $c }' "$d/train.csv")
    echo "$k,$cpu,$(md5sum < "$d/samples/gen-0001.bin" | cut -c1-12)"
  done
  [ "${NO_BUILD:-0}" = 1 ] || cargo build --release --quiet
fi

if want cost; then
  # What --exact-targets costs: pahtum solve on 40 random 7x7 positions
  # (5 holes, White to move) with 14, 16 and 18 free squares, one process
  # and one table for each count; the mean a position.
  for free in 14 16 18; do
    f="$work/free-$free.txt"
    python3 - "$free" > "$f" <<'PY'
import random, sys
free = int(sys.argv[1])
rng = random.Random(4909 + free)
for b in range(40):
    squares = list(range(49))
    rng.shuffle(squares)
    board = ["."] * 49
    for s in squares[:5]:
        board[s] = "#"
    stones = 44 - free
    for i, s in enumerate(squares[5:5 + stones]):
        board[s] = "W" if i % 2 == 0 else "B"
    print("\n".join("".join(board[r * 7:(r + 1) * 7]) for r in range(7)))
    print()
PY
    t0=$(date +%s%N)
    $bin solve --max-empty "$free" "$f" > /dev/null
    t1=$(date +%s%N)
    echo "free=$free positions=40 mean_ms=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 40e6 }')"
  done
fi

if want suite || want perfect; then
  export BOTS="zero mcts" GAME_BOTS="zero" HOLES="3 5"
fi
if want suite; then
  for bot in zero mcts; do
    echo "+ pahtum accuracy --bot $bot --positions experiments/perfect-play/suite.txt --max-empty 26"
    d="$work/suite-$bot"
    done_run "$d" || { rm -rf "$d"; $bin accuracy --bot "$bot" --positions experiments/perfect-play/suite.txt \
      --max-empty 26 --threads 2 --quiet --out "$d" > /dev/null; }
  done
else
  export BOTS=""
fi
if want perfect; then
  # Whole 5x5 games against perfect play, with the 7x7 network (the
  # network is fully convolutional), judged move by move.
  for h in 3 5; do
    d="$work/games-zero-$h"
    echo "+ pahtum tournament --size 5 --holes $h --bot zero --bot $PERFECT --games ${PERFECT_GAMES:-12} --seed 55"
    done_run "$d/t" || { rm -rf "$d"; $bin tournament --size 5 --holes "$h" --bot zero --bot "$PERFECT" \
      --games "${PERFECT_GAMES:-12}" --seed 55 --threads 2 --quiet --out "$d/t"; }
    done_run "$d/a" || { rm -rf "$d/a"; python3 experiments/perfect-play/games_to_suite.py 5 "h$h" \
      "$d/t/games.csv" --mover zero > "$d/suite.txt";
      $bin accuracy --played --positions "$d/suite.txt" --threads 2 --quiet --out "$d/a" > /dev/null; }
  done
else
  export GAME_BOTS=""
fi
if want suite || want perfect; then
  python3 experiments/perfect-play/summarize.py "$work" $here
fi

if want fpa; then
  # The first-player advantage by self-play, zero beside mcts, 5 holes,
  # with and without the pie rule.
  for bot in zero mcts; do
    for pie in "" --pie; do
      d="$work/fpa-$bot${pie:+-pie}"
      echo "+ pahtum fpa --bot $bot --holes 5 --games ${FPA_GAMES:-40} $pie --seed 61"
      done_run "$d" || { rm -rf "$d"; $bin fpa --bot "$bot" --holes 5 --games "${FPA_GAMES:-40}" $pie \
        --seed 61 --threads 2 --quiet --out "$d" > /dev/null; }
      column -t -s, "$d/fpa.csv" | cut -c1-150
    done
  done
fi
echo "run time: $(( $(date +%s) - start )) s"
