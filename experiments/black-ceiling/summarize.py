"""Black's wins, draws, losses and score per player and layout set, from
results.csv of run.sh (score = (wins + draws / 2) / games, with a normal
95 % interval from the per-game variance)."""
import csv
import math
import sys
from collections import defaultdict

rows = list(csv.DictReader(open(sys.argv[1])))
groups = defaultdict(list)
for r in rows:
    m = int(r["black_margin"])
    groups[(r["black"], r["seed"])].append(m)
    groups[(r["black"], "all")].append(m)


def line(name, seed, margins):
    w = sum(m > 0 for m in margins)
    d = sum(m == 0 for m in margins)
    n = len(margins)
    p = (w + d / 2) / n
    var = (w + d / 4) / n - p * p
    h = 1.96 * math.sqrt(var / n)
    return f"{name:28} {seed:>4} {n:5} {w:4}/{d}/{n - w - d:<4} {p:.3f} [{p - h:.3f}, {p + h:.3f}]"


print(f"{'black':28} {'seed':>4} {'games':>5} W/D/L      score [95 %]")
for (name, seed), margins in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1])):
    if seed == "all" and len({s for (b, s) in groups if b == name}) <= 2:
        continue
    print(line(name, seed, margins))
