#!/usr/bin/env bash
# parallel-scaling, the many-core part: iterations a second of one search
# against threads up to the machine's cores, for every engine, then a
# short equal-time match of the default engine at every core against one
# thread. Meant for a machine with 8 or more cores; under 8 minutes on 16.
#
#   experiments/parallel-scaling/many-cores.sh [OUT]
#
# Uses target/release/pahtum when it is there (built or copied beside the
# sources), else builds it. Writes OUT (default out-many) and prints what
# the README quotes.
set -euo pipefail
cd "$(dirname "$0")"
start=$(date +%s)
bin=../../target/release/pahtum
[ -x "$bin" ] || (cd ../.. && cargo build --release --quiet)
out=${1:-out-many}
rm -rf "$out"
mkdir -p "$out"
cores=$(nproc)
# 1, 2, 4, ... up to the cores, and the cores themselves.
list=1
t=2
while [ "$t" -lt "$cores" ]; do list="$list,$t"; t=$((t * 2)); done
[ "$cores" -gt 1 ] && list="$list,$cores"
echo "machine: $cores cores; threads $list"

# Speed: two rounds of the bench's thread figures (one search at a time).
for round in 1 2; do
  echo "+ pahtum bench --threads $list (round $round)"
  "$bin" bench --threads "$list" > "$out/bench-$round.txt"
done
python3 - "$out" "$list" <<'EOF'
import sys
out, threads = sys.argv[1], [int(t) for t in sys.argv[2].split(",")]
rounds = []
for r in (1, 2):
    kv = {}
    for line in open(f"{out}/bench-{r}.txt"):
        if "=" in line:
            k, v = line.strip().split("=", 1)
            kv[k] = v
    rounds.append(kv)
engines = [
    ("plain UCT, tree", "mcts_iters_per_s"),
    ("plain UCT, root", "mcts_root_iters_per_s"),
    ("default mcts, tree", "mcts_default_iters_per_s"),
    ("default mcts, root", "mcts_default_root_iters_per_s"),
    ("zero", "zero_evals_per_s"),
]
def key(stem, t):
    if stem == "mcts_default_iters_per_s" and t == 1:
        return stem
    if stem in ("mcts_root_iters_per_s", "mcts_default_root_iters_per_s") and t == 1:
        return None
    return f"{stem}_t{t}"
def one(stem, t):
    k = key(stem, t)
    if k is None:  # root mode at one thread is the tree search
        k = key(stem.replace("_root", ""), t)
    return [float(r[k]) for r in rounds if k in r], [float(r[k + "_cpu"]) for r in rounds if k + "_cpu" in r]
rows = ["engine," + ",".join(f"t{t}" for t in threads) + ",best/t1,cpu_per_iter_tmax/t1"]
print(f"{'engine':<20}" + "".join(f"{'t'+str(t):>10}" for t in threads) + f"{'x t1':>8}{'cpu/iter':>10}")
for name, stem in engines:
    best = []
    cpu = []
    for t in threads:
        w, c = one(stem, t)
        best.append(max(w) if w else float("nan"))
        cpu.append(max(c) if c else float("nan"))
    ratio = best[-1] / best[0]
    # CPU seconds per iteration at the most threads over one thread's.
    cost = cpu[0] / cpu[-1]
    print(f"{name:<20}" + "".join(f"{b/1000:>9.0f}k" for b in best) + f"{ratio:>8.1f}{cost:>10.2f}")
    rows.append(",".join([name] + [f"{b:.0f}" for b in best] + [f"{ratio:.2f}", f"{cost:.2f}"]))
open(f"{out}/speed.csv", "w").write("\n".join(rows) + "\n")
EOF

# Strength: the default engine at every core against one thread, equal
# wall time (50 ms a move), one game at a time, tree and root.
for mode in tree root; do
  echo "+ pahtum sprt --a mcts:ms=50,threads=$cores,parallel=$mode --b mcts:ms=50 --elo0 0 --elo1 15 --max-games ${GAMES:-60}"
  "$bin" sprt --a "mcts:ms=50,threads=$cores,parallel=$mode,label=t$cores-$mode" --b mcts:ms=50,label=t1 \
    --elo0 0 --elo1 15 --max-games "${GAMES:-60}" --holes 5 --seed 4602 --threads 1 --quiet \
    --out "$out/sprt-$mode" | tail -n 2
done
echo "run time: $(( $(date +%s) - start )) s"
