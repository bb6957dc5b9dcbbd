"""The core API: Position, Bot, bots, solve, score, tournament, errors, and
agreement with the command line."""

import csv
import inspect
import os
import re
import shutil
import subprocess
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import pahtum

ROOT = Path(__file__).resolve().parents[2]


def cli():
    """The release binary, when it is built (CI builds it first)."""
    exe = os.environ.get("PAHTUM_BIN") or ROOT / "target" / "release" / "pahtum"
    if not Path(exe).exists():
        exe = shutil.which("pahtum")
    if exe is None:
        pytest.skip("pahtum binary not built")
    return str(exe)


def test_position_basics():
    p = pahtum.Position(7, 5, seed=1)
    assert p.size == 7 and len(p.holes()) == 5 and p.to_move == "white"
    assert len(p.legal_moves()) == 44
    assert pahtum.Position(7, 5, seed=1).holes() == p.holes()
    p.play("d4")
    assert p.to_move == "black"
    free = p.legal_indices()[0]
    p.play(free)
    assert p.moves()[0] == "d4" and len(p.moves()) == 2
    assert p.undo() is not None and p.undo() == "d4"
    assert p.undo() is None
    q = p.copy()
    q.play("d4")
    assert p.moves() == [] and q.moves() == ["d4"]


def test_fixed_holes_and_indices():
    p = pahtum.Position(3, ["a1", 8], seed=0)
    assert p.holes() == ["a1", "c3"]
    p.play(4)  # b2
    assert "b2" not in p.legal_moves()
    assert p.board_text() == "..#\n.W.\n#..\n"


def test_game_to_the_end_and_score():
    p = pahtum.Position(4, 0, seed=3)
    while not p.is_over():
        p.play(p.legal_moves()[0])
    w, b = p.score()
    assert p.result() == ("white" if w > b else "black" if b > w else "draw")
    assert p.margin() == w - b


def test_planes():
    p = pahtum.Position.from_text("W..\n.B.\n#..\n")
    a = p.planes()
    assert a.shape == (5, 3, 3) and a.dtype == np.float32
    # White to move: own = White's stone at a3 (index 6).
    assert a[0].reshape(-1)[6] == 1 and a[1].reshape(-1)[4] == 1
    assert a[2].reshape(-1)[0] == 1 and a[3].sum() == 6 and a[4].all()
    p.play("c1")
    a = p.planes()
    assert a[0].reshape(-1)[4] == 1 and not a[4].any()


def test_pie_swap():
    p = pahtum.Position(5, 0, pie=True, seed=0)
    p.play("c3")
    assert "swap" in p.legal_moves() and 25 in p.legal_indices()
    p.play("swap")
    assert p.swapped and p.to_move == "black"
    assert p.undo() == "swap" and not p.swapped


@pytest.mark.parametrize("bad, key", [
    (lambda: pahtum.Bot("mcts:foo=1"), "foo"),
    (lambda: pahtum.Bot("mcts:iters=0"), "iters"),
    (lambda: pahtum.Bot("nosuchbot"), "nosuchbot"),
    (lambda: pahtum.Position(9), "board size 9"),
    (lambda: pahtum.Position(3, 9), "9 holes"),
    (lambda: pahtum.Position(7, 5, komi=0.3), "komi"),
    (lambda: pahtum.Position.from_text("W.x\n...\n...\n"), "column 3"),
])
def test_errors_are_value_errors_naming_the_problem(bad, key):
    with pytest.raises(ValueError, match=key):
        bad()


def test_illegal_moves():
    p = pahtum.Position(3, ["a1"], seed=0)
    for mv in ["a1", "z9", 99, "swap"]:
        with pytest.raises(ValueError):
            p.play(mv)
    p.play("b2")
    with pytest.raises(ValueError, match="already occupied"):
        p.play("b2")


def test_bots_list_and_every_bot_moves():
    names = [b["name"] for b in pahtum.bots()]
    assert names[:3] == ["random", "greedy", "heuristic"] and "mcts" in names
    assert "Bot specs are" in pahtum.bots_text()
    p = pahtum.Position(5, 3, seed=2)
    for spec in ["random", "greedy", "heuristic", "flatmc:playouts=200", "mcts:iters=300",
                 "alphabeta:depth=2"]:
        try:
            bot = pahtum.Bot(spec, seed=1)
        except ValueError:
            bot = pahtum.Bot(spec.split(":")[0], seed=1)
        assert bot.select_move(p) in p.legal_moves()


def test_clocked_bots_share_the_clock_and_tournaments_take_tc():
    p = pahtum.Position(7, 5, seed=4)
    bot = pahtum.Bot("mcts:iters=1000000", seed=3)
    t = time.monotonic()
    assert bot.select_move(p, time_left=0.3, increment=0.0) in p.legal_moves()
    # 0.3 s over the moves left: far below a million iterations' time.
    assert time.monotonic() - t < 0.3
    assert bot.last_search()["nodes"] > 0
    with pytest.raises(ValueError, match="time_left"):
        bot.select_move(p, time_left=-1.0)
    with pytest.raises(ValueError, match="tc"):
        pahtum.Bot("mcts:tc=1+0.01,iters=100")
    games, _, _ = pahtum.tournament(["mcts:tc=1+0.01", "heuristic"], games=2, seed=2)
    assert [g["termination"] for g in games] == ["normal", "normal"]


def test_bot_is_deterministic_and_threads_run():
    p = pahtum.Position(7, 5, seed=4)
    moves = [pahtum.Bot("mcts:iters=500", 9).select_move(p) for _ in range(2)]
    assert moves[0] == moves[1]
    out = []
    ts = [threading.Thread(target=lambda: out.append(pahtum.Bot("mcts:iters=500", 9).select_move(p)))
          for _ in range(3)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert out == moves[:1] * 3


BOARDS = ["WWB\nBW.\nB..\n", "#W..\nB.W.\n..B.\n....\n", "W.B\n...\n...\n", "....\n.#..\n..W.\n....\n"]


def test_solve_agrees_with_cli():
    exe = cli()
    text = "\n".join(BOARDS)
    out = subprocess.run([exe, "solve"], input=text, capture_output=True, text=True, check=True)
    lines = out.stdout.splitlines()
    assert len(lines) == len(BOARDS)
    for board, line in zip(BOARDS, lines):
        assert pahtum.solve(pahtum.Position.from_text(board))["line"] == line


def test_score_agrees_with_cli():
    exe = cli()
    text = "WWW\n#B.\nBBB\n\n#..W...\n.WWWB..\n...B...\nB..B#..\n...B...\n..#....\n#...W.#\n"
    out = subprocess.run([exe, "score"], input=text, capture_output=True, text=True, check=True)
    assert [f"{w} {b}" for w, b in pahtum.score(text)] == out.stdout.splitlines()
    p = pahtum.Position.from_text("#..W...\n.WWWB..\n...B...\nB..B#..\n...B...\n..#....\n#...W.#\n")
    assert p.score() == (3, 3)


def test_solve_refuses_big_positions():
    with pytest.raises(ValueError, match="max_empty"):
        pahtum.solve(pahtum.Position(7, 5, seed=0))


def test_tournament_rows():
    games, summary, ratings = pahtum.tournament(["random", "greedy"], games=4, size=5, holes=3,
                                                seed=1)
    assert len(games) == 4 and {s["bot"] for s in summary} == {"random", "greedy"}
    assert sum(s["wins"] + s["draws"] / 2 for s in summary) == 4
    assert {r["bot"] for r in ratings} == {"random", "greedy"}
    again = pahtum.tournament(["random", "greedy"], games=4, size=5, holes=3, seed=1, threads=2)
    strip = lambda rows: [{k: v for k, v in r.items() if not k.endswith("_ms")} for r in rows]
    assert strip(again.games) == strip(games) and again.summary == summary
    with pytest.raises(ValueError, match="two bots are named"):
        pahtum.tournament(["random", "random"], games=2)
    with pytest.raises(ValueError, match="threads"):
        pahtum.tournament(["random", "greedy"], games=2, threads=0)


def test_tournament_matches_cli(tmp_path):
    exe = cli()
    out = tmp_path / "t"
    subprocess.run([exe, "tournament", "--bot", "random", "--bot", "greedy", "--games", "4",
                    "--size", "5", "--holes", "3", "--seed", "1", "--out", str(out)],
                   capture_output=True, check=True)
    rows = (out / "games.csv").read_text().splitlines()[1:]
    t = pahtum.tournament(["random", "greedy"], games=4, size=5, holes=3, seed=1)
    assert [r.split(",")[10] for r in rows] == [g["moves"] for g in t.games]


def read_csv(path):
    """The header and the rows (lists of strings) of a CSV file."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def as_text(value):
    """A value of a Python row as the CLI writes it in its CSV file."""
    return str(int(value)) if isinstance(value, bool) else str(value)


def same_value(py, text):
    """Whether a Python row's value is the CLI's cell: numbers by value (the
    file rounds them as printed), the rest as text."""
    if isinstance(py, float):
        return py == float(text)
    return as_text(py) == text


@pytest.fixture(scope="module")
def cli_default_run(tmp_path_factory):
    """`pahtum tournament` with two bots and no --games, --seed or --threads:
    every default the Python API is to share."""
    exe = cli()
    out = tmp_path_factory.mktemp("defaults") / "t"
    subprocess.run([exe, "tournament", "--bot", "random", "--bot", "greedy", "--size", "5",
                    "--holes", "3", "--quiet", "--out", str(out)], capture_output=True, check=True)
    return out


def test_tournament_defaults_are_the_clis(cli_default_run):
    exe = cli()
    help_text = subprocess.run([exe, "tournament", "--help"], capture_output=True, text=True,
                               check=True).stdout
    games_default = int(re.search(r"--games <N>.*\[default: (\d+)", help_text).group(1))
    seed_default = int(re.search(r"--seed <N>.*\[default: (\d+)\]", help_text).group(1))
    params = inspect.signature(pahtum.tournament).parameters
    assert (params["games"].default, params["seed"].default) == (games_default, seed_default)
    assert (pahtum.DEFAULT_GAMES, pahtum.DEFAULT_SEED) == (games_default, seed_default)
    header, rows = read_csv(cli_default_run / "games.csv")
    games = pahtum.tournament(["random", "greedy"], size=5, holes=3)[0]
    assert len(games) == len(rows) == games_default
    for g, row in zip(games, rows):
        assert list(g) == header
        assert [as_text(v) for k, v in g.items() if not k.endswith("_ms")] == \
            [c for k, c in zip(header, row) if not k.endswith("_ms")]


@pytest.mark.parametrize("table, index", [("summary", 1), ("ratings", 2)])
def test_tournament_tables_are_the_cli_files(cli_default_run, table, index):
    header, rows = read_csv(cli_default_run / f"{table}.csv")
    got = pahtum.tournament(["random", "greedy"], size=5, holes=3)[index]
    assert len(got) == len(rows) > 0
    for d, row in zip(got, rows):
        assert list(d) == header
        assert all(same_value(d[k], c) for k, c in zip(header, row)), (d, row)
    assert all(isinstance(d["games"], int) for d in got)


def test_seeds_default_to_one():
    for f in (pahtum.Position, pahtum.Bot, pahtum.tournament):
        assert inspect.signature(f).parameters["seed"].default == 1, f
    assert pahtum.Position(7, 5).holes() == pahtum.Position(7, 5, seed=1).holes()
    assert pahtum.Position(7, 5).playouts(200) == pahtum.Position(7, 5, seed=1).playouts(200)

    def game(bot):
        p = pahtum.Position(5, 3, seed=1)
        while not p.is_over():
            p.play(bot.select_move(p))
        return p.moves()

    assert game(pahtum.Bot("random")) == game(pahtum.Bot("random", seed=1))
    assert game(pahtum.Bot("random")) != game(pahtum.Bot("random", seed=0))
    strip = lambda rows: [{k: v for k, v in r.items() if not k.endswith("_ms")} for r in rows]
    assert strip(pahtum.tournament(["random", "greedy"], games=4, size=5).games) == \
        strip(pahtum.tournament(["random", "greedy"], games=4, size=5, seed=1).games)


@pytest.mark.parametrize("size, holes, seed", [(7, 5, None), (7, 7, 3), (5, 3, 12)])
def test_position_layout_is_the_clis(size, holes, seed):
    exe = cli()
    args = [exe, "play", "--white", "random", "--black", "random", "--size", str(size),
            "--holes", str(holes), "--quiet"] + ([] if seed is None else ["--seed", str(seed)])
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    cli_holes = re.search(r"holes=(\S+)", out).group(1).split(",")
    kw = {} if seed is None else {"seed": seed}
    assert sorted(pahtum.Position(size, holes, **kw).holes()) == sorted(cli_holes)


def test_playout():
    p = pahtum.Position(7, 5, seed=0)
    assert p.playout(1) == p.playout(1)
    assert isinstance(p.playouts(100, 1), float)
    assert p.moves() == []
    # Unseeded: a stream of its own, the same on a rerun, new on each call.
    q = pahtum.Position(7, 5, seed=0)
    assert [p.playouts(100) for _ in range(2)] == [q.playouts(100) for _ in range(2)]
    assert q.playouts(100) != q.playouts(100)
