#!/usr/bin/env python3
"""Empty boards of decided layouts as a position suite: from the decided.csv
files of experiments/solved-small-boards/ (every layout of a hole count
that is not a draw under perfect play), a seeded sample of up to COUNT
layouts per hole count (drawn with seed SEED·100 + holes), each as its
empty board with White to move, in the RULES.md text format. `accuracy`
solves them, so only the layouts are written, named `hH.N` (hole count,
row of decided.csv).

Usage: decided_to_suite.py COUNT SEED decided.csv...
"""
import csv
import random
import sys


def board(size, holes):
    # Rank `size` first, files a.. from the left (docs/RULES.md).
    rows = []
    for rank in range(size, 0, -1):
        rows.append("".join(
            "#" if f"{chr(ord('a') + f)}{rank}" in holes else "." for f in range(size)))
    return "\n".join(rows)


def main():
    count, seed, files = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    by_holes = {}
    for path in files:
        with open(path, newline="") as f:
            for i, row in enumerate(csv.DictReader(f), start=1):
                by_holes.setdefault(int(row["holes"]), []).append((i, row))
    out = []
    for holes in sorted(by_holes):
        # One stream per hole count: a count's sample does not depend on
        # which other counts are given.
        rng = random.Random(seed * 100 + holes)
        rows = by_holes[holes]
        pick = sorted(rng.sample(range(len(rows)), min(count, len(rows))))
        for k in pick:
            i, row = rows[k]
            out.append(f"; name=h{holes}.{i}\n" + board(int(row["size"]), set(row["layout"].split())))
    print("\n\n".join(out))


main()
