"""Ply packs as OpenSpiel games: registered, loaded by name with parameters, OpenSpiel's
consistency test on every shipped pack, and OpenSpiel's MCTS bot playing a pack."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import PACKS, pack_path

pyspiel = pytest.importorskip("pyspiel")

import plygames  # noqa: E402
import plygames.openspiel  # noqa: E402,F401  (registers "ply")
from open_spiel.python.algorithms import mcts  # noqa: E402


def test_the_game_is_registered_and_loads_by_name_with_options():
    assert "ply" in pyspiel.registered_names()
    game = pyspiel.load_game(f"ply(pack={pack_path('cats_rabbits.toml')},options=multi_hop:true)")
    assert game.ply_game.options == {"multi_hop": True}
    assert game.num_distinct_actions() == game.ply_game.num_actions
    assert game.max_game_length() == 1000
    plain = pyspiel.load_game("ply", {"pack": pack_path("cats_rabbits.toml"), "max_plies": 50})
    assert plain.ply_game.options == {"multi_hop": False}
    assert plain.max_game_length() == 50
    with pytest.raises(plygames.PlyError, match="pack"):
        pyspiel.load_game("ply")
    with pytest.raises(plygames.PackError):
        pyspiel.load_game("ply", {"pack": pack_path("cats_rabbits.toml"), "options": "nope:1"})


@pytest.mark.parametrize("pack", PACKS)
def test_random_sim_test_passes(pack):
    game = pyspiel.load_game("ply", {"pack": pack_path(pack), "max_plies": 300})
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


@pytest.mark.parametrize("pack", PACKS)
def test_states_observe_the_pack(pack):
    game = pyspiel.load_game("ply", {"pack": pack_path(pack)})
    state = game.new_initial_state()
    tensor = np.array(state.observation_tensor(0))
    assert tensor.shape == (int(np.prod(game.ply_game.observation_shape)),)
    assert (tensor == state.ply_state.observation().ravel()).all()
    assert state.observation_string(0) == state.ply_state.position
    assert state.legal_actions() == state.ply_state.legal_actions()


def test_the_ply_cap_ends_a_game_as_a_draw():
    game = pyspiel.load_game("ply", {"pack": pack_path("jungle.toml"), "max_plies": 6})
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.ply_state.ply == 6 and state.returns() == [0.0, 0.0]


def test_openspiel_mcts_beats_random_at_connect_four():
    game = pyspiel.load_game("ply", {"pack": pack_path("connect_four.toml")})
    rng = np.random.RandomState(7)
    bot = mcts.MCTSBot(game, 2, 300, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    wins = 0
    for g in range(4):
        state = game.new_initial_state()
        me = g % 2
        while not state.is_terminal():
            if state.current_player() == me:
                action = bot.step(state)
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
        wins += state.returns()[me] == 1.0
    # Random play would win about half; 300 simulations a move win nearly every game.
    assert wins >= 3
