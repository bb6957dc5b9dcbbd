#!/usr/bin/env python3
"""Per bot: games, time losses, and the share of its clock it used.

usage: clock_use.py GAMES_CSV BASE INC
The clock a bot had in a game is BASE plus INC for each of its moves; the
share used is its milliseconds (white_ms or black_ms) over that.
"""
import csv
import sys

path, base, inc = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
stats = {}
for row in csv.DictReader(open(path)):
    plies = int(row["plies"])
    for colour, moves in (("white", (plies + 1) // 2), ("black", plies // 2)):
        bot = row[colour]
        s = stats.setdefault(bot, {"games": 0, "time_losses": 0, "used": [], "most": 0.0})
        s["games"] += 1
        clock = base + inc * moves
        used = int(row[colour + "_ms"]) / 1000.0 / clock
        s["used"].append(used)
        s["most"] = max(s["most"], used)
        if row["termination"] == "timeout" and row["winner"] != colour:
            s["time_losses"] += 1
print("bot,games,time_losses,mean_clock_used,most_clock_used")
for bot, s in sorted(stats.items()):
    mean = sum(s["used"]) / len(s["used"])
    print(f"{bot},{s['games']},{s['time_losses']},{mean:.3f},{s['most']:.3f}")
