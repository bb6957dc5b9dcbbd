"""The three ecosystem interfaces pass their own checkers."""

import copy

import numpy as np
import pytest

import pahtum


def test_gymnasium_check_env():
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make("pahtum/PahTum-v0", size=5, holes=3, opponent="greedy")
    check_env(env.unwrapped)
    obs, info = env.reset(seed=3)
    total, done = 0.0, False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        obs, r, done, trunc, info = env.step(int(legal[0]))
        total += r
    assert total in (-1.0, 0.0, 1.0)
    margin = gymnasium.make("pahtum/PahTum-v0", size=4, holes=0, margin_reward=True,
                            agent="black").unwrapped
    check_env(margin)


def test_gymnasium_bad_opponent():
    gymnasium = pytest.importorskip("gymnasium")
    with pytest.raises(ValueError, match="iters"):
        gymnasium.make("pahtum/PahTum-v0", opponent="mcts:iters=-1")


@pytest.mark.parametrize("pie", [False, True])
def test_pettingzoo_api_test(pie):
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    import pahtum.pettingzoo as pz

    api_test(pz.env(size=5, holes=3, pie=pie), num_cycles=100)
    e = pz.env(size=4, holes=0, pie=pie)
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))


def _openspiel():
    pyspiel = pytest.importorskip("pyspiel")
    import pahtum.openspiel  # noqa: F401

    return pyspiel


def test_openspiel_loads_and_plays():
    pyspiel = _openspiel()
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("pahtum(size=5,holes=3)")
    state = game.new_initial_state()
    # The seed defaults to the CLI's, like every seed of the package.
    assert str(state) == pahtum.Position(5, 3, seed=1).board_text()
    assert str(state) != pahtum.Position(5, 3, seed=0).board_text()
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 1.4, 50, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    assert sum(state.returns()) == 0 and state.returns()[0] in (-1.0, 0.0, 1.0)
    c = state.clone()
    assert str(c) == str(state)
    pyspiel.load_game("pahtum(size=4,holes=0,pie=True,komi=0.5)").new_initial_state()


@pytest.mark.parametrize("size, holes, seed, prefix", [
    (3, 0, 0, 0), (3, 2, 1, 0), (3, 1, 2, 0), (4, 6, 0, 0), (4, 2, 1, 5), (4, 0, 2, 6),
])
def test_openspiel_exact_search_agrees_with_solve(size, holes, seed, prefix):
    pyspiel = _openspiel()
    from open_spiel.python.algorithms import minimax

    game = pyspiel.load_game(f"pahtum(size={size},holes={holes},seed={seed})")
    state = game.new_initial_state()
    for _ in range(prefix):
        state.apply_action(state.legal_actions()[len(state.legal_actions()) // 2])
    value, _ = minimax.alpha_beta_search(game, state=state, maximizing_player_id=0)
    sol = pahtum.solve(state.position)
    expected = {"white": 1.0, "draw": 0.0, "black": -1.0}[sol["result"]]
    assert value == expected
