"""Gymnasium environment ``pahtum/PahTum-v0``: the agent plays one colour
against a built-in bot given by spec.

Observation: the ``(5, size, size)`` float32 planes of
:meth:`pahtum.Position.planes` (own stones, opponent stones, holes, empty,
White to move), seen from the agent. Action: ``Discrete(size*size)``, square
index ``row * size + col``. ``info["action_mask"]`` marks the legal ones.
Reward: 0 until the end, then +1 / 0 / -1 for a win, draw or loss (or the
agent's margin in points with ``margin_reward=True``). An illegal action
ends the episode with reward -1 and ``info["illegal"] = True``.
"""

import gymnasium
import numpy as np
from gymnasium import spaces

from . import _core

ENV_ID = "pahtum/PahTum-v0"


class PahTumEnv(gymnasium.Env):
    """Pah Tum against a built-in opponent (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, size=7, holes=5, opponent="random", agent="white", komi=0,
                 margin_reward=False, render_mode=None):
        if agent not in ("white", "black", "random"):
            raise ValueError(f"agent: '{agent}' is not one of white, black, random")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: '{render_mode}' is not one of ansi")
        self.size, self.holes, self.komi = size, holes, komi
        self.opponent_spec = opponent
        _core.Bot(opponent)  # a bad spec fails here, with the CLI's message
        _core.Position(size, holes, False, komi, 0)  # and bad rules too
        self.agent = agent
        self.margin_reward = margin_reward
        self.render_mode = render_mode
        n = size * size
        self.observation_space = spaces.Box(0.0, 1.0, shape=(5, size, size), dtype=np.float32)
        self.action_space = spaces.Discrete(n)
        self.position = None
        self._bot = None
        self._colour = "white"

    def _mask(self):
        return self.position.action_mask()[: self.size * self.size]

    def _info(self, **extra):
        info = {"action_mask": self._mask(), "colour": self._colour}
        info.update(extra)
        return info

    def _reward(self):
        m = self.position.margin()
        if self._colour == "black":
            m = -m
        if self.margin_reward:
            return float(m)
        return float(np.sign(m))

    def _opponent_moves(self):
        while not self.position.is_over() and self.position.to_move != self._colour:
            self.position.play(self._bot.select_move(self.position))

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        layout_seed, bot_seed = (int(x) for x in self.np_random.integers(0, 2**63, size=2))
        self.position = _core.Position(self.size, self.holes, False, self.komi, layout_seed)
        self._bot = _core.Bot(self.opponent_spec, bot_seed)
        if self.agent == "random":
            self._colour = "white" if self.np_random.integers(2) == 0 else "black"
        else:
            self._colour = self.agent
        self._opponent_moves()
        return self._obs(), self._info()

    def _obs(self):
        return self.position.planes()

    def step(self, action):
        action = int(action)
        if not self._mask()[action]:
            return self._obs(), -1.0, True, False, self._info(illegal=True)
        self.position.play(action)
        self._opponent_moves()
        if self.position.is_over():
            return self._obs(), self._reward(), True, False, self._info(result=self.position.result())
        return self._obs(), 0.0, False, False, self._info()

    def render(self):
        if self.render_mode == "ansi":
            return self.position.board_text()
        return None


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="pahtum.gym:PahTumEnv")
