"""Ply packs as PettingZoo AEC environments: PettingZoo's api_test on every shipped pack."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from conftest import PACKS, pack_path

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

import plygames  # noqa: E402
from plygames.pettingzoo import PlyEnv  # noqa: E402


# What api_test says of every environment whose observation is a dict with an action mask
# (PettingZoo's own board games are exempted from them by name).
DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}


@pytest.mark.parametrize("pack", PACKS)
def test_api_test_passes(pack):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(PlyEnv(pack_path(pack), max_plies=200), num_cycles=200)
    assert {str(w.message) for w in caught} <= DICT_OBSERVATION_WARNINGS


def test_a_game_to_its_end_gives_the_rewards():
    env = PlyEnv(pack_path("connect_four.toml"))
    env.reset(seed=1)
    assert env.agents == ["player_0", "player_1"]
    assert env.player_names == {"player_0": "RED", "player_1": "YELLOW"}
    columns = {"player_0": iter(["a1", "a2", "a3", "a4"]), "player_1": iter(["b1", "b2", "b3"])}
    totals = {"player_0": 0.0, "player_1": 0.0}
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        move = next(columns[agent])
        action = env.state.move_to_action(move)
        assert obs["action_mask"][action] == 1
        assert obs["action_mask"].sum() == 7
        env.step(action)
    assert totals == {"player_0": 1.0, "player_1": -1.0}
    assert env.agents == []


def test_truncation_at_the_ply_cap():
    env = PlyEnv(pack_path("jungle.toml"), max_plies=4)
    env.reset()
    steps = 0
    for agent in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            assert truncation and not termination
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 4


def test_bad_arguments_are_refused():
    with pytest.raises(plygames.PlyError):
        PlyEnv(pack_path("jungle.toml"), max_plies=0)
    with pytest.raises(plygames.PlyError):
        PlyEnv(pack_path("jungle.toml"), render_mode="rgb_array")
