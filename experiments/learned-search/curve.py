#!/usr/bin/env python3
"""The learning curve's table and plot from curve.sh's runs.

Usage: curve.py OUT_DIR curve.csv curve.svg

For every arm (OUT_DIR/train-ARM/train.csv) and every network of it that
was played (OUT_DIR/eval-ARM-GEN/summary.csv): the training CPU-hours up
to that generation (train.csv's cpu_seconds), the self-play positions,
and the score and Elo at 50 ms a move against each anchor, the Elo with a
95 % interval from the score's normal approximation. The SVG draws the
Elo against mcts at 50 ms (the default before the hybrid: prior=prune,
mix=0, expand=2), one line per arm. Only the standard
library is used.
"""
import csv
import glob
import math
import os
import sys

ANCHORS = ["heuristic", "mcts1000", "mcts50"]
COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"]


def elo(score):
    s = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / s - 1)


def interval(score, games):
    se = math.sqrt(max(score * (1 - score), 0.25 / games) / games)
    return elo(score - 1.96 * se), elo(score + 1.96 * se)


def train_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main():
    out_dir, csv_path, svg_path = sys.argv[1:4]
    rows = []
    for d in sorted(glob.glob(os.path.join(out_dir, "eval-*-*"))):
        summary = os.path.join(d, "summary.csv")
        if not os.path.exists(summary):
            continue
        arm, gen = os.path.basename(d)[5:].rsplit("-", 1)
        gen = int(gen)
        train = train_rows(os.path.join(out_dir, f"train-{arm}", "train.csv"))
        upto = [r for r in train if int(r["generation"]) <= gen]
        seconds = sum(float(r["cpu_seconds"]) for r in upto)
        row = {
            "arm": arm,
            "generation": gen,
            "cpu_hours": f"{seconds / 3600:.3f}",
            "positions": sum(int(r["positions"]) for r in upto),
        }
        with open(summary, newline="") as f:
            for r in csv.DictReader(f):
                if r["bot"] != arm or r["opponent"] not in ANCHORS:
                    continue
                score, games = float(r["score_rate"]), int(r["games"])
                lo, hi = interval(score, games)
                a = r["opponent"]
                row[f"games_{a}"] = games
                row[f"score_{a}"] = f"{score:.3f}"
                row[f"elo_{a}"] = f"{elo(score):.0f}"
                row[f"elo_{a}_lo"] = f"{lo:.0f}"
                row[f"elo_{a}_hi"] = f"{hi:.0f}"
        rows.append(row)
    rows.sort(key=lambda r: (r["arm"], r["generation"]))
    fields = ["arm", "generation", "cpu_hours", "positions"]
    for a in ANCHORS:
        fields += [f"games_{a}", f"score_{a}", f"elo_{a}", f"elo_{a}_lo", f"elo_{a}_hi"]
    with open(csv_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, restval="")
        w.writeheader()
        w.writerows(rows)
    plot(rows, svg_path)


def plot(rows, path):
    W, H, L, R, T, B = 860, 480, 70, 170, 40, 60
    arms = sorted({r["arm"] for r in rows})
    xs = [float(r["cpu_hours"]) for r in rows] or [1]
    x_max = max(xs) * 1.1 or 1
    ys = [float(r[k]) for r in rows for k in ("elo_mcts50_lo", "elo_mcts50_hi") if r.get(k)]
    y_lo, y_hi = min(ys + [-600]), max(ys + [100])

    def sx(x):
        return L + (W - L - R) * x / x_max

    def sy(y):
        return T + (H - T - B) * (y_hi - y) / (y_hi - y_lo)

    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{W / 2}" y="22" text-anchor="middle" font-size="15">'
           f'Elo against mcts (prior=prune, mix=0, expand=2) at 50 ms a move, by training CPU-hours</text>']
    for y in range(int(y_lo // 100) * 100, int(y_hi) + 1, 100):
        if y < y_lo:
            continue
        svg.append(f'<line x1="{L}" x2="{W - R}" y1="{sy(y):.1f}" y2="{sy(y):.1f}" '
                   f'stroke="{"#888" if y == 0 else "#ddd"}"/>')
        svg.append(f'<text x="{L - 8}" y="{sy(y) + 4:.1f}" text-anchor="end">{y}</text>')
    for i in range(6):
        x = x_max * i / 5
        svg.append(f'<text x="{sx(x):.1f}" y="{H - B + 18}" text-anchor="middle">{x:.2f}</text>')
    svg.append(f'<text x="{(L + W - R) / 2}" y="{H - 15}" text-anchor="middle">'
               'training CPU-hours (self-play and learning)</text>')
    for i, arm in enumerate(arms):
        c = COLOURS[i % len(COLOURS)]
        pts = [(float(r["cpu_hours"]), r) for r in rows if r["arm"] == arm and r.get("elo_mcts50")]
        path_d = " ".join(f'{"M" if j == 0 else "L"}{sx(x):.1f},{sy(float(r["elo_mcts50"])):.1f}'
                          for j, (x, r) in enumerate(pts))
        if path_d:
            svg.append(f'<path d="{path_d}" fill="none" stroke="{c}" stroke-width="2"/>')
        for x, r in pts:
            svg.append(f'<line x1="{sx(x):.1f}" x2="{sx(x):.1f}" y1="{sy(float(r["elo_mcts50_lo"])):.1f}" '
                       f'y2="{sy(float(r["elo_mcts50_hi"])):.1f}" stroke="{c}"/>')
            svg.append(f'<circle cx="{sx(x):.1f}" cy="{sy(float(r["elo_mcts50"])):.1f}" r="3.5" fill="{c}"/>')
        ly = T + 20 + 20 * i
        svg.append(f'<line x1="{W - R + 15}" x2="{W - R + 40}" y1="{ly}" y2="{ly}" stroke="{c}" stroke-width="2"/>')
        svg.append(f'<text x="{W - R + 46}" y="{ly + 4}">{arm}</text>')
    svg.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(svg) + "\n")


if __name__ == "__main__":
    main()
