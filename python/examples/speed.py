"""Speed of the package from Python: Position.play calls, random playouts
(one Rust call each, and move by move from Python), and Gymnasium and
PettingZoo steps with random legal actions. Prints key=value lines."""

import random
import sys
import time

import numpy as np

import pahtum

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0


def rate(fn):
    """Calls ``fn(n)`` with growing n until SECONDS pass; returns units/s."""
    n, done, spent = 64, 0, 0.0
    while spent < SECONDS:
        t = time.perf_counter()
        done += fn(n)
        spent += time.perf_counter() - t
        n *= 2
    return done / spent


start = pahtum.Position(7, 5, seed=0)
FREE = start.legal_indices()[0]


def play_undo(n):
    p = start.copy()
    for _ in range(n):
        p.play(FREE)
        p.undo()
    return 2 * n


def python_playouts(n):
    rng = random.Random(1)
    for _ in range(n):
        p = start.copy()
        while not p.is_over():
            p.play(rng.choice(p.legal_indices()))
        p.margin()
    return n


def rust_playout_calls(n):
    for i in range(n):
        start.playout()
    return n


def rust_playouts_one_call(n):
    start.playouts(n, 1)
    return n


def gym_steps(n):
    import gymnasium

    env = gymnasium.make("pahtum/PahTum-v0", opponent="random").unwrapped
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    steps = 0
    while steps < n:
        a = rng.choice(np.flatnonzero(info["action_mask"]))
        _, _, done, _, info = env.step(a)
        steps += 1
        if done:
            _, info = env.reset()
    return steps


def pettingzoo_steps(n):
    import pahtum.pettingzoo as pz

    env = pz.env()
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = 0
    while steps < n:
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"])))
            steps += 1
        env.reset()
    return steps


for name, fn in [("position_play_calls_per_s", play_undo),
                 ("python_playouts_per_s", python_playouts),
                 ("rust_playout_calls_per_s", rust_playout_calls),
                 ("rust_playouts_one_call_per_s", rust_playouts_one_call),
                 ("gymnasium_steps_per_s", gym_steps),
                 ("pettingzoo_steps_per_s", pettingzoo_steps)]:
    print(f"{name}={rate(fn):.0f}", flush=True)
