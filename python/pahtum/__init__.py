"""Pah Tum from Python: the exact rules core, the bots, the solver and the
tournament runner of the Rust workbench `pahtum`.

Squares are the engine's names (``"d4"``) or indices ``row * size + col``
(row 0 is the bottom rank, so ``a1`` is 0); index ``size * size`` is the pie
swap.
"""

import csv as _csv
import io as _io
import typing as _typing

import numpy as _np

from . import _core
from ._core import Bot, bots, bots_text

__all__ = ["Position", "Bot", "bots", "bots_text", "solve", "score", "tournament", "Tournament",
           "planes", "DEFAULT_SEED", "DEFAULT_GAMES"]

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


#: Columns of ``games.csv``, ``summary.csv`` and ``ratings.csv`` read as
#: integers; every other column is a float, except the text ones below.
_INT_COLUMNS = frozenset(("game", "layout", "white_score", "black_score", "plies", "white_ms",
                          "black_ms", "games", "wins", "draws", "losses"))
_TEXT_COLUMNS = frozenset(("bot", "opponent", "white", "black", "winner", "holes", "moves",
                           "termination"))

#: The seed every function uses when given none: the CLI's ``--seed``
#: default, so a script without seeds replays itself, and a tournament
#: without one plays the games of ``pahtum tournament`` without ``--seed``.
DEFAULT_SEED = _core.DEFAULT_SEED

#: Games per pairing when ``games`` is not given: ``pahtum tournament``'s
#: ``--games`` default for a field of bots given with ``--bot``.
DEFAULT_GAMES = _core.DEFAULT_GAMES


class Tournament(_typing.NamedTuple):
    """What :func:`tournament` returns: ``(games, summary, ratings)``, lists
    of dicts keyed by the columns of ``games.csv``, ``summary.csv`` and
    ``ratings.csv``."""

    #: One dict per game, in game order.
    games: list
    #: One dict per bot and opponent that met.
    summary: list
    #: One dict per bot, best first.
    ratings: list


def _table(text):
    """The rows of CSV ``text`` (header first) as dicts, each value typed as
    pandas would read it: counts as ints, rates and means as floats, names
    as strings, ``swapped`` as a bool."""
    out = []
    for r in _csv.DictReader(_io.StringIO(text)):
        for k, v in r.items():
            if k == "swapped":
                r[k] = v in ("1", "true")
            elif k in _INT_COLUMNS:
                r[k] = int(v)
            elif k not in _TEXT_COLUMNS:
                try:
                    r[k] = float(v)
                except ValueError:
                    pass
        out.append(r)
    return out


def tournament(bots, games=DEFAULT_GAMES, size=7, holes=(5,), pie=False, komi=0,
               seed=DEFAULT_SEED, threads=None, format="round-robin"):
    """Runs a tournament with the Rust runner and returns
    ``Tournament(games, summary, ratings)``: the rows ``pahtum tournament``
    writes to ``games.csv``, ``summary.csv`` and ``ratings.csv``, as lists of
    dicts keyed by those files' columns, each ready for ``pandas.DataFrame``.

    The defaults are the CLI's: ``games`` per pairing (rounded up to whole
    colour-swapped pairs), ``seed`` and ``threads=None`` (all cores; the
    results do not depend on it), so ``tournament(["random", "greedy"])``
    plays the games of ``pahtum tournament --bot random --bot greedy``."""
    if isinstance(holes, int):
        holes = [holes]
    rows, summary, ratings = _core.tournament_tables(list(bots), games,
                                                     (size, list(holes), pie, komi),
                                                     (seed, threads, format))
    games_text = _core.GAMES_HEADER + "\n" + "\n".join(rows) + "\n"
    return Tournament(_table(games_text), _table(summary), _table(ratings))


def _register_gymnasium():
    """Registers ``pahtum/PahTum-v0`` when Gymnasium is installed, so that
    ``gymnasium.make`` finds it after ``import pahtum``."""
    import importlib.util

    if importlib.util.find_spec("gymnasium") is not None:
        from . import gym  # noqa: F401  (registers on import)


_register_gymnasium()
