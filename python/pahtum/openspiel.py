"""OpenSpiel game ``pahtum``, registered on import.

``pyspiel.load_game("pahtum(size=5,holes=3)")``; parameters ``size`` (7),
``holes`` (5, drawn from ``seed``), ``pie`` (False), ``komi`` (0.0) and
``seed`` (1, the CLI's ``--seed`` default). The layout is drawn once per game from ``seed``, so the game is
deterministic. Actions are square indices ``row * size + col``, and
``size*size`` is the pie swap. Player 0 moves first (White, unless Black
swaps); returns are +1 / 0 / -1. ``str(state)`` is the board in
docs/RULES.md text format.
"""

import pyspiel

from ._core import DEFAULT_SEED, Position

_DEFAULTS = {"size": 7, "holes": 5, "pie": False, "komi": 0.0, "seed": DEFAULT_SEED}

_GAME_TYPE = pyspiel.GameType(
    short_name="pahtum",
    long_name="Pah Tum",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification=_DEFAULTS,
)


def _params(params):
    p = dict(_DEFAULTS)
    p.update(params or {})
    return p


def action_of(position, move):
    """The action of a move name (``"d4"`` or ``"swap"``), as
    :meth:`pahtum.Bot.select_move` returns them."""
    n = position.size
    if move == "swap":
        return n * n
    return (int(move[1:]) - 1) * n + "abcdefgh".index(move[0])


class PahTumGame(pyspiel.Game):
    """The game; its layout is fixed by its parameters."""

    def __init__(self, params=None):
        p = _params(params)
        self._start = Position(p["size"], p["holes"], p["pie"], str(p["komi"]), p["seed"])
        n = p["size"] ** 2
        free = n - len(self._start.holes())
        info = pyspiel.GameInfo(
            num_distinct_actions=n + (1 if p["pie"] else 0),
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=free + (1 if p["pie"] else 0),
        )
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self):
        return PahTumState(self, self._start.copy())


class PahTumState(pyspiel.State):
    """A state: a :class:`pahtum.Position` and who owns which colour."""

    def __init__(self, game, position):
        super().__init__(game)
        self.position = position

    def _seat_to_move(self):
        white_first = not self.position.swapped
        return 0 if (self.position.to_move == "white") == white_first else 1

    def current_player(self):
        if self.position.is_over():
            return pyspiel.PlayerId.TERMINAL
        return self._seat_to_move()

    def _legal_actions(self, player):
        return self.position.legal_indices()

    def _apply_action(self, action):
        self.position.play(int(action))

    def _action_to_string(self, player, action):
        n = self.position.size
        if action == n * n:
            return "swap"
        return "abcdefgh"[action % n] + str(action // n + 1)

    def is_terminal(self):
        return self.position.is_over()

    def returns(self):
        if not self.position.is_over():
            return [0.0, 0.0]
        m = self.position.margin()
        w = 1.0 if m > 0 else -1.0 if m < 0 else 0.0
        if self.position.swapped:
            w = -w
        return [w, -w]

    def information_state_string(self, player=None):
        return self.position.board_text() + " ".join(self.position.moves())

    def __str__(self):
        return self.position.board_text()

    def __deepcopy__(self, memo):
        return PahTumState(self.get_game(), self.position.copy())


pyspiel.register_game(_GAME_TYPE, PahTumGame)
