#!/usr/bin/env python3
"""Every position of every game in a tournament's games.csv as a suite for
`pahtum accuracy` (board text, docs/RULES.md), each position after a header
`; name=TAG.gGAME.pPLY.MOVER move=SQ` with the move played there (ply 0 is
the empty board). No pie rule, no swaps.

usage: games_to_suite.py SIZE TAG games.csv [--mover LABEL] [--empties LO-HI] [--first N] > suite.txt
  --mover LABEL keeps only the positions where LABEL is to move;
  --empties LO-HI only those with LO to HI free squares;
  --first N only the first N games of the file.
"""
import csv
import sys


def main():
    args = sys.argv[1:]
    mover = None
    if "--mover" in args:
        i = args.index("--mover")
        mover = args[i + 1]
        del args[i : i + 2]
    lo, hi = 0, 64
    if "--empties" in args:
        i = args.index("--empties")
        lo, hi = (int(x) for x in args[i + 1].split("-"))
        del args[i : i + 2]
    first = None
    if "--first" in args:
        i = args.index("--first")
        first = int(args[i + 1])
        del args[i : i + 2]
    size, tag, path = int(args[0]), args[1], args[2]
    out = []
    with open(path, newline="") as f:
        for n, row in enumerate(csv.DictReader(f)):
            if first is not None and n >= first:
                break
            if row["termination"] != "normal":
                continue
            holes = row["holes"].split()
            moves = row["moves"].split()
            stones = {}
            for ply, mv in enumerate(moves):
                who = row["white"] if ply % 2 == 0 else row["black"]
                free = size * size - len(holes) - ply
                if (mover is None or who == mover) and lo <= free <= hi:
                    out.append(board(size, holes, stones, tag, row["game"], ply, who, mv))
                stones[mv] = "W" if ply % 2 == 0 else "B"
    sys.stdout.write("\n".join(out))


def board(size, holes, stones, tag, game, ply, who, mv):
    lines = [f"; name={tag}.g{game}.p{ply}.{who} move={mv}"]
    for r in range(size, 0, -1):
        line = ""
        for c in range(size):
            sq = f"{chr(ord('a') + c)}{r}"
            line += "#" if sq in holes else stones.get(sq, ".")
        lines.append(line)
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
