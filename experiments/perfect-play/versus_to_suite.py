#!/usr/bin/env python3
"""The positions where a bot first gave a result away in an `exact --versus`
run's versus.csv, as a suite for `pahtum accuracy` (board text, docs/RULES.md):
the board just before the bot's losing move, after a header
`; name=LAYOUT.COLOUR.pPLY move=SQ` (LAYOUT the holes joined by `_`, PLY the
move's 1-based ply, SQ the move it played), each repeated REPEAT times with
`.rK` appended so that `accuracy` asks the bot with as many seeds.

usage: versus_to_suite.py versus.csv BOT [REPEAT] > suite.txt
"""
import csv
import sys


def board_text(size, holes, moves):
    cells = {}
    for h in holes:
        cells[h] = "#"
    for i, m in enumerate(moves):
        cells[m] = "W" if i % 2 == 0 else "B"
    rows = []
    for r in range(size, 0, -1):
        rows.append("".join(cells.get(f"{chr(ord('a') + c)}{r}", ".") for c in range(size)))
    return "\n".join(rows) + "\n"


def main():
    path, bot = sys.argv[1], sys.argv[2]
    repeat = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    out = []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["bot"] != bot or row["giveaways"] == "0":
                continue
            ply = int(row["first_ply"])
            moves = row["moves"].split(" ")
            holes = row["layout"].split(" ")
            name = f"{'_'.join(holes)}.{row['bot_colour']}.p{ply}"
            text = board_text(int(row["size"]), holes, moves[: ply - 1])
            for k in range(repeat):
                tag = f"{name}.r{k}" if repeat > 1 else name
                out.append(f"; name={tag} move={row['first_move']}\n{text}")
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
