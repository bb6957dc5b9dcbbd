#!/usr/bin/env python3
"""Counts the results a bot gave away in run.sh's tournaments against
perfect play: each game's result for the bot against the game-theoretic
value of its layout for the bot's colour (from `pahtum solve` of the empty
layout, kept in values.csv so that a rerun solves only new layouts).

usage: judge.py PAHTUM WORKDIR VALUES_CSV
       judge.py --time WORKDIR
  WORKDIR/hHOLES-sSEED/games.csv   one tournament per hole count and seed
Prints one line per hole count and seed, the totals per hole count, and
every game given away; writes WORKDIR/giveaways.csv. With --time: the
bot's mean and longest time a move per hole count instead.
"""
import csv
import os
import re
import subprocess
import sys

SIZE = 5
PERFECT = "perfect"


def board(holes):
    rows = []
    for r in range(SIZE, 0, -1):
        rows.append("".join("#" if f"{chr(ord('a') + c)}{r}" in holes else "." for c in range(SIZE)))
    return "\n".join(rows)


def key(holes):
    return " ".join(sorted(holes))


def runs_of(work):
    runs = []
    for d in sorted(os.listdir(work)):
        m = re.fullmatch(r"h(\d+)-s(\d+)", d)
        if m and os.path.exists(os.path.join(work, d, "games.csv")):
            with open(os.path.join(work, d, "games.csv"), newline="") as f:
                runs.append((int(m[1]), int(m[2]), list(csv.DictReader(f))))
    runs.sort()
    return runs


def times(work):
    per = {}
    for holes, _, games in runs_of(work):
        for g in games:
            colour = "white" if g["white"] != PERFECT else "black"
            plies = int(g["plies"])
            moves = (plies + 1) // 2 if colour == "white" else plies // 2
            per.setdefault(holes, []).append(int(g[colour + "_ms"]) / moves)
    for holes, ms in sorted(per.items()):
        print(f"holes={holes} bot_ms_per_move mean={sum(ms) / len(ms):.1f} "
              f"longest_game_mean={max(ms):.1f}")


def main():
    if sys.argv[1] == "--time":
        times(sys.argv[2])
        return
    pahtum, work, values_path = sys.argv[1:4]
    values = {}
    if os.path.exists(values_path):
        with open(values_path, newline="") as f:
            values = {r["layout"]: r["result"] for r in csv.DictReader(f)}
    runs = runs_of(work)
    todo = sorted({key(g["holes"].split()) for _, _, gs in runs for g in gs} - values.keys())
    if todo:
        text = "\n\n".join(board(k.split()) for k in todo) + "\n"
        out = subprocess.run([pahtum, "solve", "--max-empty", "22"], input=text, text=True,
                             capture_output=True, check=True).stdout.split("\n")
        for k, line in zip(todo, out):
            values[k] = re.match(r"result=(\w+)", line)[1]
        with open(values_path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["layout", "result"])
            for k in sorted(values):
                w.writerow([k, values[k]])
    rank = {"loss": 0, "draw": 1, "win": 2}

    def standing(result, colour):
        return "draw" if result == "draw" else ("win" if result == colour else "loss")

    events = []
    totals = {}
    for holes, seed, games in runs:
        n = bad = 0
        for g in games:
            colour = "white" if g["white"] != PERFECT else "black"
            bot = g[colour]
            value = standing(values[key(g["holes"].split())], colour)
            got = standing(g["winner"], colour)
            if rank[got] > rank[value]:
                sys.exit(f"game {g['game']} of h{holes}-s{seed}: {bot} beat perfect play")
            n += 1
            if rank[got] < rank[value]:
                bad += 1
                events.append([holes, seed, g["game"], bot, colour, g["holes"], value, got, g["moves"]])
        t = totals.setdefault(holes, [0, 0, set()])
        t[0] += n
        t[1] += bad
        t[2].add(seed)
        print(f"holes={holes} seed={seed} games={n} given_away={bad}")
    for holes, (n, bad, seeds) in sorted(totals.items()):
        print(f"holes={holes} seeds={len(seeds)} games={n} given_away={bad}")
    header = ["holes", "seed", "game", "bot", "colour", "layout", "value", "result", "moves"]
    with open(os.path.join(work, "giveaways.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(events)
    for e in events:
        print("  given away: holes={} seed={} game={} {} as {} layout={} value={} result={}".format(*e[:8]))


if __name__ == "__main__":
    main()
