"""A tournament run by the Rust runner, loaded into pandas and plotted.

    python tournament_pandas.py [OUT.png]
"""

import sys

import pandas as pd

import pahtum

t = pahtum.tournament(["random", "greedy", "heuristic", "mcts:iters=300"], games=10, size=7,
                      holes=5, seed=1)
# The columns of games.csv, summary.csv and ratings.csv.
games = pd.DataFrame(t.games)
summary = pd.DataFrame(t.summary).set_index(["bot", "opponent"])
ratings = pd.DataFrame(t.ratings).set_index("bot")
print(summary[["games", "wins", "draws", "losses", "score_rate"]].to_string())
print()
print(ratings.to_string())
print()
margin = games.assign(margin=games.white_score - games.black_score)
print(margin.groupby("white").margin.mean().rename("mean margin as white").to_string())
try:
    import matplotlib

    matplotlib.use("Agg")
    err = [ratings.elo - ratings.elo_lo, ratings.elo_hi - ratings.elo]
    ax = ratings.elo.plot.bar(yerr=err, ylabel="Elo (95 % interval)",
                              title="pahtum.tournament, 7x7, 5 holes")
    out = sys.argv[1] if len(sys.argv) > 1 else "tournament.png"
    ax.figure.savefig(out, bbox_inches="tight")
    print(f"\nplot written to {out}")
except ImportError:
    print("\n(matplotlib is not installed: no plot)")
