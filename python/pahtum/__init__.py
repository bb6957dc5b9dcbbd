"""Pah Tum from Python: the exact rules core, the bots, the solver and the
tournament runner of the Rust workbench `pahtum`.

Squares are the engine's names (``"d4"``) or indices ``row * size + col``
(row 0 is the bottom rank, so ``a1`` is 0); index ``size * size`` is the pie
swap.
"""

import csv as _csv
import io as _io

import numpy as _np

from . import _core
from ._core import Bot, bots, bots_text

__all__ = ["Position", "Bot", "bots", "bots_text", "solve", "score", "tournament", "planes"]

Position = _core.Position

#: Channels of :func:`planes`.
PLANES = ("own", "opponent", "holes", "empty", "white_to_move")


def planes(position, dtype=_np.float32):
    """The position as a ``(5, size, size)`` array: the stones of the side
    to move, the opponent's stones, holes, empty squares, and a plane of ones
    when White is to move. ``planes[c].reshape(-1)[i]`` is square index i."""
    n = position.size
    a = _np.frombuffer(position.planes_bytes(), dtype=_np.uint8).reshape(5, n, n)
    return a.astype(dtype)


def action_mask(position):
    """``size*size + 1`` int8 entries (the squares, then the swap): 1 where
    legal."""
    return _np.frombuffer(position.action_mask_bytes(), dtype=_np.uint8).astype(_np.int8)


def solve(position, max_empty=22, tt_mb=64):
    """The exact solution of ``position`` as ``pahtum solve`` gives it: a dict
    with ``result``, ``margin`` (points, White minus Black with komi),
    ``best_result``, ``best_margin``, ``nodes`` and ``line`` (the CLI's
    output line)."""
    return _core.solve(position, max_empty, tt_mb)


def score(text):
    """``(white, black)`` line scores of every board of ``text``, as
    ``pahtum score`` prints them."""
    return _core.score_text(text)


_INT_COLUMNS = ("game", "layout", "white_score", "black_score", "plies", "white_ms", "black_ms")


def tournament(bots, games=10, size=7, holes=(5,), pie=False, komi=0, seed=0, threads=1,
               format="round-robin"):
    """Runs a tournament with the Rust runner (the same games and rows as
    ``pahtum tournament``) and returns ``(games, summary)``: lists of dicts,
    one per game (the ``games.csv`` columns) and one per bot (games, wins,
    draws, losses, points, score), each ready for ``pandas.DataFrame``."""
    if isinstance(holes, int):
        holes = [holes]
    rows = _core.tournament_rows(list(bots), games, size, list(holes), pie, komi, seed,
                                 threads, format)
    text = _core.GAMES_HEADER + "\n" + "\n".join(rows) + "\n"
    out = []
    for r in _csv.DictReader(_io.StringIO(text)):
        for c in _INT_COLUMNS:
            r[c] = int(r[c])
        r["swapped"] = r["swapped"] in ("1", "true")
        out.append(r)
    labels = [Bot(b).name for b in bots]
    summary = []
    for lab in labels:
        w = d = l = 0
        for g in out:
            if lab not in (g["white"], g["black"]):
                continue
            mine = "white" if g["white"] == lab else "black"
            if g["winner"] == "draw":
                d += 1
            elif g["winner"] == mine:
                w += 1
            else:
                l += 1
        n = w + d + l
        pts = w + 0.5 * d
        summary.append({"bot": lab, "games": n, "wins": w, "draws": d, "losses": l,
                        "points": pts, "score": pts / n if n else 0.0})
    return out, summary


def _register_gymnasium():
    """Registers ``pahtum/PahTum-v0`` when Gymnasium is installed, so that
    ``gymnasium.make`` finds it after ``import pahtum``."""
    import importlib.util

    if importlib.util.find_spec("gymnasium") is not None:
        from . import gym  # noqa: F401  (registers on import)


_register_gymnasium()
