"""OpenSpiel's MCTSBot against pahtum's mcts, through the package: colour-
swapped pairs of games on the same layouts; prints each game and the score.

    python openspiel_vs_mcts.py [PAIRS] [SIMULATIONS] [PAHTUM_SPEC]
"""

import sys

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import pahtum
import pahtum.openspiel  # noqa: F401  (registers the game)

pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 2
sims = int(sys.argv[2]) if len(sys.argv) > 2 else 300
spec = sys.argv[3] if len(sys.argv) > 3 else "mcts:iters=300"

points = 0.0  # OpenSpiel's
for layout in range(pairs):
    game = pyspiel.load_game(f"pahtum(size=7,holes=5,seed={layout})")
    for spiel_seat in (0, 1):
        rng = np.random.RandomState(layout)
        spiel_bot = mcts.MCTSBot(game, 2.0, sims, mcts.RandomRolloutEvaluator(1, rng),
                                 random_state=rng)
        ours = pahtum.Bot(spec, seed=layout)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == spiel_seat:
                state.apply_action(spiel_bot.step(state))
            else:
                move = ours.select_move(state.position)
                state.apply_action(pahtum.openspiel.action_of(state.position, move))
        r = state.returns()[spiel_seat]
        points += (r + 1) / 2
        w, b = state.position.score()
        print(f"layout {layout}: openspiel as {'white' if spiel_seat == 0 else 'black'}: "
              f"{w}-{b}, openspiel {'wins' if r > 0 else 'loses' if r < 0 else 'draws'}")
print(f"openspiel mcts ({sims} simulations) vs pahtum {spec}: "
      f"{points:g} - {2 * pairs - points:g}")
