#!/usr/bin/env python3
"""Tables of run.sh from the `pahtum accuracy` outputs it gathered.

usage: summarize.py WORKDIR OUTDIR
  WORKDIR/suite-BOT/accuracy.csv   a bot's moves on suite.txt
  WORKDIR/games-BOT-HOLES/{t/games.csv,a/accuracy.csv}
      a bot's whole games against perfect play, and the moves it played
      there judged (`accuracy --played`, positions named TAG.gGAME.pPLY.BOT)
Writes OUTDIR/suite_accuracy.csv, whole_games.csv and giveaways.csv and
prints them.
"""
import csv
import os
import sys


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def points(s):
    return float(s)


def sign(x):
    return (x > 0) - (x < 0)


def outcome_for(mover, margin):
    """win/draw/loss for the mover, from White's margin."""
    s = sign(margin) if mover == "white" else -sign(margin)
    return {1: "win", 0: "draw", -1: "loss"}[s]


def suite_table(work, bots):
    out = [["bot", "board", "positions", "result_accuracy", "margin_loss"]]
    for bot in bots:
        rs = rows(os.path.join(work, f"suite-{bot}", "accuracy.csv"))
        groups = {"5x5": [], "6x6": [], "7x7": [], "all": rs}
        for r in rs:
            groups[r["position"][1] + "x" + r["position"][1]].append(r)
        for board, g in groups.items():
            n = len(g)
            kept = sum(r["keeps_result"] == "true" for r in g)
            loss = sum(points(r["margin_loss"]) for r in g)
            out.append([bot, board, n, f"{kept / n:.4f}", f"{loss / n:.4f}"])
    return out


def games_tables(work, bots, holes_list):
    summary = [[
        "bot", "holes", "games", "moves", "result_accuracy", "margin_loss",
        "giveaway_games", "won_drawn", "won_lost", "drawn_lost", "giveaway_moves",
    ]]
    events = [[
        "bot", "holes", "game", "colour", "ply", "empties", "move",
        "before", "after", "margin_loss",
    ]]
    for bot in bots:
        for h in holes_list:
            d = os.path.join(work, f"games-{bot}-{h}")
            if not os.path.exists(os.path.join(d, "a", "accuracy.csv")):
                continue
            games = {g["game"]: g for g in rows(os.path.join(d, "t", "games.csv"))}
            judged = rows(os.path.join(d, "a", "accuracy.csv"))
            per_game = {}
            for r in judged:
                _, g, p, _ = r["position"].split(".", 3)
                per_game.setdefault(g[1:], []).append((int(p[1:]), r))
            kinds = {"won_drawn": 0, "won_lost": 0, "drawn_lost": 0}
            bad_games = 0
            bad_moves = 0
            for g, plies in sorted(per_game.items(), key=lambda kv: int(kv[0])):
                plies.sort()
                colour = plies[0][1]["to_move"]
                start = outcome_for(colour, points(plies[0][1]["margin"]))
                w = games[g]["winner"]
                end = "draw" if w == "draw" else ("win" if w == colour else "loss")
                if (start, end) == ("win", "draw"):
                    kinds["won_drawn"] += 1
                elif (start, end) == ("win", "loss"):
                    kinds["won_lost"] += 1
                elif (start, end) == ("draw", "loss"):
                    kinds["drawn_lost"] += 1
                gave = [(p, r) for p, r in plies if r["keeps_result"] == "false"]
                bad_games += bool(gave)
                bad_moves += len(gave)
                for p, r in gave:
                    m = points(r["margin"])
                    loss = points(r["margin_loss"])
                    after = m - loss if colour == "white" else m + loss
                    events.append([
                        bot, h, g, colour, p, r["empties"], r["move"],
                        outcome_for(colour, m), outcome_for(colour, after), r["margin_loss"],
                    ])
            n = len(judged)
            kept = sum(r["keeps_result"] == "true" for r in judged)
            loss = sum(points(r["margin_loss"]) for r in judged)
            summary.append([
                bot, h, len(per_game), n, f"{kept / n:.4f}", f"{loss / n:.4f}",
                bad_games, kinds["won_drawn"], kinds["won_lost"], kinds["drawn_lost"], bad_moves,
            ])
    return summary, events


def emit(path, table):
    with open(path, "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(table)
    print(f"== {os.path.basename(path)}")
    for r in table:
        print(",".join(str(x) for x in r))


def main():
    work, out = sys.argv[1], sys.argv[2]
    bots = [b for b in os.environ["BOTS"].split()]
    game_bots = [b for b in os.environ["GAME_BOTS"].split()]
    holes = os.environ["HOLES"].split()
    if game_bots:
        summary, events = games_tables(work, game_bots, holes)
        emit(os.path.join(out, "whole_games.csv"), summary)
        emit(os.path.join(out, "giveaways.csv"), events)
    if bots:
        emit(os.path.join(out, "suite_accuracy.csv"), suite_table(work, bots))


if __name__ == "__main__":
    main()
