"""A tournament run by the Rust runner, loaded into pandas and plotted.

    python tournament_pandas.py [OUT.png]
"""

import sys

import pandas as pd

import pahtum

games, summary = pahtum.tournament(
    ["random", "greedy", "heuristic", "mcts:iters=300"], games=10, size=7, holes=5, seed=1,
    threads=2)
games = pd.DataFrame(games)
summary = pd.DataFrame(summary).set_index("bot").sort_values("score", ascending=False)
print(summary.to_string())
print()
margin = games.assign(margin=games.white_score - games.black_score)
print(margin.groupby("white").margin.mean().rename("mean margin as white").to_string())
try:
    import matplotlib

    matplotlib.use("Agg")
    ax = summary["score"].plot.bar(ylabel="score", title="pahtum.tournament, 7x7, 5 holes")
    out = sys.argv[1] if len(sys.argv) > 1 else "tournament.png"
    ax.figure.savefig(out, bbox_inches="tight")
    print(f"\nplot written to {out}")
except ImportError:
    print("\n(matplotlib is not installed: no plot)")
