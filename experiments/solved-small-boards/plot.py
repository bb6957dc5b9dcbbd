#!/usr/bin/env python3
"""The first-player advantage under perfect play against board size and hole
count, beside our engine's self-play and BrainKing's human games: one SVG.

Usage: plot.py summary.csv fpa.csv OUT.svg

summary.csv is this experiment's table; where a (size, holes) pair has more
than one row (a sample and every layout), the row of the largest weight is
drawn. fpa.csv is experiments/first-player-advantage/out/fpa.csv (7x7,
self-play of the engine); its rows without the pie rule are drawn. Only the
standard library is used, so the experiment needs nothing installed.
"""
import csv
import math
import sys

# BrainKing's 7x7 human games (docs/RULES.md): White's share of wins.
BRAINKING_WHITE = 0.552

W, H = 900, 520
LEFT, RIGHT, TOP, BOTTOM = 70, 220, 40, 60
X_MAX = 48
COLOURS = {3: "#999999", 4: "#56B4E9", 5: "#0072B2", 6: "#E69F00", 7: "#D55E00"}


def sx(holes):
    return LEFT + (W - LEFT - RIGHT) * holes / X_MAX


def sy(share):
    return TOP + (H - TOP - BOTTOM) * (1 - share)


def main():
    summary_path, fpa_path, out_path = sys.argv[1:4]
    best = {}
    with open(summary_path, newline="") as f:
        for row in csv.DictReader(f):
            key = (int(row["size"]), int(row["holes"]))
            weight = int(row["weight"])
            if key not in best or weight > best[key][0]:
                best[key] = (weight, float(row["white_share"]))
    selfplay = []
    with open(fpa_path, newline="") as f:
        for row in csv.DictReader(f):
            if row["pie"] == "false" and row["hole_count"] != "all":
                selfplay.append((int(row["hole_count"]), float(row["white_win_rate"]),
                                 float(row["white_win_rate_lo"]), float(row["white_win_rate_hi"])))

    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           f'viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{(W - RIGHT + LEFT) / 2}" y="22" text-anchor="middle" font-size="14">'
           'White (first player) wins: perfect play, engine self-play, humans</text>']
    for i in range(11):
        y = sy(i / 10)
        svg.append(f'<line x1="{LEFT}" y1="{y}" x2="{W - RIGHT}" y2="{y}" stroke="#ddd"/>')
        svg.append(f'<text x="{LEFT - 6}" y="{y + 4}" text-anchor="end">{i * 10}</text>')
    for h in range(0, X_MAX + 1, 4):
        x = sx(h)
        svg.append(f'<line x1="{x}" y1="{H - BOTTOM}" x2="{x}" y2="{H - BOTTOM + 5}" stroke="black"/>')
        svg.append(f'<text x="{x}" y="{H - BOTTOM + 18}" text-anchor="middle">{h}</text>')
    svg.append(f'<rect x="{LEFT}" y="{TOP}" width="{W - LEFT - RIGHT}" '
               f'height="{H - TOP - BOTTOM}" fill="none" stroke="black"/>')
    svg.append(f'<text x="{(W - RIGHT + LEFT) / 2}" y="{H - 18}" text-anchor="middle">'
               'holes on the board</text>')
    svg.append(f'<text x="18" y="{(H - BOTTOM + TOP) / 2}" text-anchor="middle" '
               f'transform="rotate(-90 18 {(H - BOTTOM + TOP) / 2})">White wins (% of layouts)</text>')

    legend = []
    for size, colour in COLOURS.items():
        pts = sorted((h, v) for (s, h), v in best.items() if s == size)
        if not pts:
            continue
        path = " ".join(f"{sx(h):.1f},{sy(v[1]):.1f}" for h, v in pts)
        svg.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for h, (_, share) in pts:
            # Filled: every layout solved (the weights add up to all
            # layouts); open: a random sample.
            full = best[(size, h)][0] == math.comb(size * size, h)
            fill = colour if full else "white"
            svg.append(f'<circle cx="{sx(h):.1f}" cy="{sy(share):.1f}" r="3" fill="{fill}" '
                       f'stroke="{colour}"/>')
        legend.append((colour, f"{size}x{size}, perfect play", "line"))
    for h, v, lo, hi in selfplay:
        x = sx(h)
        svg.append(f'<line x1="{x}" y1="{sy(lo):.1f}" x2="{x}" y2="{sy(hi):.1f}" stroke="black"/>')
        svg.append(f'<rect x="{x - 3}" y="{sy(v) - 3:.1f}" width="6" height="6" fill="black"/>')
    legend.append(("black", "7x7, engine self-play (95 %)", "square"))
    y = sy(BRAINKING_WHITE)
    svg.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{W - RIGHT}" y2="{y:.1f}" stroke="#009E73" '
               'stroke-dasharray="6 4" stroke-width="2"/>')
    legend.append(("#009E73", "7x7, BrainKing humans", "dash"))

    lx, ly = W - RIGHT + 20, TOP + 10
    for i, (colour, label, kind) in enumerate(legend):
        y = ly + 20 * i
        if kind == "square":
            svg.append(f'<rect x="{lx + 7}" y="{y - 3}" width="6" height="6" fill="{colour}"/>')
        else:
            dash = ' stroke-dasharray="6 4"' if kind == "dash" else ""
            svg.append(f'<line x1="{lx}" y1="{y}" x2="{lx + 20}" y2="{y}" stroke="{colour}" '
                       f'stroke-width="2"{dash}/>')
        svg.append(f'<text x="{lx + 26}" y="{y + 4}">{label}</text>')
    y = ly + 20 * len(legend) + 10
    svg.append(f'<text x="{lx}" y="{y}">filled dot: every layout;</text>')
    svg.append(f'<text x="{lx}" y="{y + 16}">open dot: random layouts</text>')
    svg.append(f'<text x="{lx}" y="{y + 36}">No layout solved here is</text>')
    svg.append(f'<text x="{lx}" y="{y + 52}">a Black win.</text>')
    svg.append("</svg>")
    with open(out_path, "w") as f:
        f.write("\n".join(svg) + "\n")


main()
