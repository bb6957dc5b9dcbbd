"""PettingZoo AEC environment in the style of its classic board games.

``env(size=7, holes=5, pie=False)``: agents ``player_0`` (moves first, White
unless Black takes the pie swap) and ``player_1``. Each observation is a dict
with ``observation`` (``(size, size, 5)`` int8, channel last: the observing
agent's stones, the opponent's, holes, empty, White to move) and
``action_mask`` (int8 over ``size*size`` squares, plus the swap as the last
action when ``pie``). Rewards +1 / 0 / -1 at the end.
"""

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import _core
from ._core import Position


def env(**kwargs):
    """The wrapped environment, as the classic games build it."""
    e = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv):
    """Pah Tum for two agents (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "name": "pahtum_v0", "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, size=7, holes=5, pie=False, komi=0, render_mode=None):
        super().__init__()
        Position(size, holes, pie, komi, 0)  # bad rules fail here
        self.size, self.holes, self.pie, self.komi = size, holes, pie, komi
        self.render_mode = render_mode
        self.agents = ["player_0", "player_1"]
        self.possible_agents = self.agents[:]
        self._n_actions = size * size + (1 if pie else 0)
        self.action_spaces = {a: spaces.Discrete(self._n_actions) for a in self.agents}
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0, 1, shape=(size, size, 5), dtype=np.int8),
                "action_mask": spaces.Box(0, 1, shape=(self._n_actions,), dtype=np.int8),
            })
            for a in self.agents
        }
        self.position = Position(size, holes, pie, komi, 0)

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def _colour_of(self, agent):
        first = agent == "player_0"
        return "white" if first != self.position.swapped else "black"

    def _agent_to_move(self):
        white_first = not self.position.swapped
        if (self.position.to_move == "white") == white_first:
            return "player_0"
        return "player_1"

    def observe(self, agent):
        p = self.position.planes().astype(np.int8)
        if self._colour_of(agent) != self.position.to_move:
            p = p[[1, 0, 2, 3, 4]]
        obs = np.ascontiguousarray(np.transpose(p, (1, 2, 0)))
        if agent == self.agent_selection and not self.position.is_over():
            mask = self.position.action_mask()[: self._n_actions]
        else:
            mask = np.zeros(self._n_actions, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def reset(self, seed=None, options=None):
        if seed is None:
            seed = int(np.random.default_rng().integers(0, 2**63))
        self.position = Position(self.size, self.holes, self.pie, self.komi, int(seed))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self._agent_to_move()

    def step(self, action):
        if (self.terminations[self.agent_selection]
                or self.truncations[self.agent_selection]):
            self._was_dead_step(action)
            return
        mover = self.agent_selection
        self.position.play(int(action))
        self.rewards = {a: 0 for a in self.agents}
        if self.position.is_over():
            m = self.position.margin()
            for a in self.agents:
                sign = 1 if self._colour_of(a) == "white" else -1
                self.rewards[a] = int(np.sign(m)) * sign
                self.terminations[a] = True
        self._cumulative_rewards[mover] = 0
        if not self.position.is_over():
            self.agent_selection = self._agent_to_move()
        else:
            self.agent_selection = "player_1" if mover == "player_0" else "player_0"
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            self.render()

    def render(self):
        if self.render_mode is None:
            return None
        return self.position.board_text()

    def close(self):
        pass


__all__ = ["env", "raw_env", "_core"]
