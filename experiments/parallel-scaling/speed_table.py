#!/usr/bin/env python3
"""The speed table of parallel-scaling from `pahtum bench --threads` output.

    speed_table.py OUT THREADS CSV

Reads OUT/bench-*.txt (one file per round), prints for every engine the best
round's iterations a second at each thread count, the most threads' figure
over one thread's, and the CPU time per iteration at the most threads over
one thread's (from the `_cpu` figures: iterations per CPU second); writes the
same as CSV.
"""
import glob
import sys

out, threads, csv_path = sys.argv[1], [int(t) for t in sys.argv[2].split(",")], sys.argv[3]
rounds = []
for path in sorted(glob.glob(f"{out}/bench-*.txt")):
    kv = {}
    for line in open(path):
        if "=" in line:
            k, v = line.strip().split("=", 1)
            kv[k] = v
    rounds.append(kv)

ENGINES = [
    ("plain UCT, tree", "mcts_iters_per_s"),
    ("plain UCT, root", "mcts_root_iters_per_s"),
    ("default mcts, tree", "mcts_default_iters_per_s"),
    ("default mcts, root", "mcts_default_root_iters_per_s"),
    ("zero", "zero_evals_per_s"),
]


def key(stem, t):
    """The bench key of `stem` at `t` threads (root mode at one thread is
    the tree search, which has the key)."""
    if t == 1:
        stem = stem.replace("_root", "")
        if stem == "mcts_default_iters_per_s":
            return stem
    return f"{stem}_t{t}"


def best(k):
    vals = [float(r[k]) for r in rounds if k in r]
    return max(vals) if vals else float("nan")


head = f"{'engine':<20}" + "".join(f"{'t' + str(t):>9}" for t in threads)
print(head + f"{'tmax/t1':>9}{'cpu/iter':>10}")
rows = ["engine," + ",".join(f"t{t}" for t in threads) + ",tmax_over_t1,cpu_per_iter_tmax_over_t1"]
for name, stem in ENGINES:
    speed = [best(key(stem, t)) for t in threads]
    per_cpu = [best(key(stem, t) + "_cpu") for t in threads]
    ratio = speed[-1] / speed[0]
    cost = per_cpu[0] / per_cpu[-1]
    print(f"{name:<20}" + "".join(f"{s / 1000:>8.0f}k" for s in speed) + f"{ratio:>9.2f}{cost:>10.2f}")
    rows.append(",".join([name] + [f"{s:.0f}" for s in speed] + [f"{ratio:.2f}", f"{cost:.2f}"]))
with open(csv_path, "w") as f:
    f.write("\n".join(rows) + "\n")
