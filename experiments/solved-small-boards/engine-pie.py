#!/usr/bin/env python3
"""The engine's first stone under the pie rule, checked against the solved
layouts: for every layout of the given exact.csv files that has a fair first
move (one leaving margin 0), is the engine's first move one of them?

Usage: engine-pie.py PAHTUM BOT exact.csv...   (prints one line per file
and a total, weighted by the layouts' symmetry classes; layouts where every
first move is fair are counted without asking, and apart, as they test
nothing).
"""
import csv
import subprocess
import sys


def main():
    pahtum, bot, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    eng = subprocess.Popen([pahtum, "engine", "--bot", bot], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, text=True)

    def ask(cmd):
        eng.stdin.write(cmd + "\n")
        eng.stdin.flush()
        lines = []
        while True:
            line = eng.stdout.readline()
            if line == "":
                sys.exit(f"engine closed on: {cmd}")
            if line.strip() == "" and lines:
                break
            if line.strip():
                lines.append(line.strip())
        if not lines[0].startswith("="):
            sys.exit(f"engine refused {cmd!r}: {lines[0]}")
        return lines[0][1:].strip()

    ask("pie on")
    total = [0, 0, 0, 0]
    for path in files:
        # fair/tested layouts, and the same for layouts where some first
        # move is not fair
        t = [0, 0, 0, 0]
        with open(path, newline="") as f:
            rows = csv.DictReader(f)
            if "fair_first_moves" not in (rows.fieldnames or []):
                continue  # solved without the pie rule
            for row in rows:
                fair = row["fair_first_moves"].split()
                if not fair or row["pie_result"] != "draw":
                    continue
                size = int(row["size"])
                empties = size * size - int(row["holes"])
                weight = int(row["weight"])
                t[0] += weight
                if len(fair) == empties:
                    # every first stone is fair: nothing to ask
                    t[1] += weight
                    continue
                ask(f"boardsize {size}")
                ask("clear_board")
                ask("set_holes " + row["layout"])
                hit = ask("genmove w") in fair
                t[1] += weight * hit
                t[2] += weight
                t[3] += weight * hit
        if t[0] == 0:
            continue
        print(f"{path}: fair first stone {t[1]}/{t[0]}; "
              f"where some first stone is unfair {t[3]}/{t[2]}")
        total = [a + b for a, b in zip(total, t)]
    print(f"all: fair first stone {total[1]}/{total[0]} ({total[1] / max(total[0], 1):.3f}); "
          f"where some first stone is unfair {total[3]}/{total[2]} "
          f"({total[3] / max(total[2], 1):.3f})")
    ask("quit")


main()
