"""Python and Rust agree: perft walked through the Python API (legal actions, apply, undo)
against the kernel's perft and the published counts of tests/data, and random games chosen
in Rust replayed through the Python API (by notation and by action), for every shipped pack.
"""

from __future__ import annotations

import random

import pytest
from conftest import PACKS, load, perft_lines

import plygames

# Python walks at about a microsecond or two a node: keep each walk small.
PY_WALK_LIMIT = 60_000
# The kernel counts millions of nodes a second; counts above this are left to `cargo test`.
RUST_LIMIT = 2_000_000


def python_perft(state: plygames.State, depth: int) -> int:
    """Perft through the Python API: every legal action applied and undone."""
    if depth == 0:
        return 1
    total = 0
    for action in state.legal_actions():
        state.apply_action(action)
        total += python_perft(state, depth - 1)
        state.undo()
    return total


def start_state(pack: str, options: dict[str, str], position: str | None) -> plygames.State:
    game = load(pack, **options)
    return game.start() if position is None else game.state(position)


PERFT = perft_lines()
RUST_CASES = [c for c in PERFT if c[4] <= RUST_LIMIT]
PY_CASES = [c for c in PERFT if c[4] <= PY_WALK_LIMIT]


def case_id(case) -> str:
    pack, options, position, depth, _ = case
    opts = ",".join(f"{k}={v}" for k, v in options.items())
    where = "start" if position is None else position.split()[0][:18]
    return f"{pack}[{opts}]@{where}:{depth}"


def test_the_data_covers_every_pack():
    assert {c[0] for c in PY_CASES} == set(PACKS)


@pytest.mark.parametrize("case", RUST_CASES, ids=case_id)
def test_rust_perft_through_the_binding_matches_the_data(case):
    pack, options, position, depth, count = case
    state = start_state(pack, options, position)
    before = state.position
    assert state.perft(depth) == count
    assert state.position == before


@pytest.mark.parametrize("case", PY_CASES, ids=case_id)
def test_perft_walked_in_python_matches_the_data(case):
    pack, options, position, depth, count = case
    state = start_state(pack, options, position)
    before = state.position
    assert python_perft(state, depth) == count
    assert state.position == before
    assert state.ply == 0


@pytest.mark.parametrize("pack", PACKS)
def test_random_games_chosen_in_rust_replay_through_python(pack):
    game = load(pack)
    for seed in range(4):
        moves = game.start().random_game(seed=seed, max_plies=400)
        assert moves, "a game from the start has a first move"
        by_text = game.start()
        by_action = game.start()
        for text in moves:
            assert text in by_text.legal_moves()
            action = by_text.move_to_action(text)
            assert by_action.action_to_move(action) == text
            by_text.play(text)
            by_action.apply_action(action)
            assert by_action.position == by_text.position
            assert by_action.key == by_text.key
        assert by_text.history() == moves
        if len(moves) < 400:
            # Rust stopped because nothing more could be played.
            assert by_text.is_terminal
            assert by_text.legal_actions() == []
        # Undo all the way back to the start.
        for text in reversed(moves):
            assert by_text.undo() == text
        assert by_text == game.start()


@pytest.mark.parametrize("pack", PACKS)
def test_random_games_chosen_in_python_are_consistent_step_by_step(pack):
    game = load(pack)
    rng = random.Random(pack)
    for _ in range(3):
        state = game.start()
        while not state.is_terminal and state.ply < 200:
            actions = state.legal_actions()
            moves = state.legal_moves()
            assert actions == sorted(set(actions))
            assert all(0 <= a < game.num_actions for a in actions)
            assert len(moves) == len(actions) == len(set(moves))
            mask = state.legal_action_mask()
            assert mask.shape == (game.num_actions,)
            assert sorted(mask.nonzero()[0].tolist()) == actions
            i = rng.randrange(len(actions))
            # The action and its notation play the same move.
            other = state.clone()
            other.play(moves[i])
            before = state.position
            state.apply_action(actions[i])
            assert state.position == other.position
            # And undo restores the position exactly.
            copy = state.clone()
            assert copy.undo() == moves[i]
            assert copy.position == before
        if state.is_terminal:
            assert state.status in ("over", "stuck")
            returns = state.returns()
            assert sum(returns) == 0
            if state.winner is not None:
                assert returns[game.players.index(state.winner)] == 1.0


@pytest.mark.parametrize("pack", PACKS)
def test_rust_playouts_agree_with_python_replays(pack):
    """The kernel's seeded playouts end as the same games replayed in Python end."""
    game = load(pack)
    stats = game.start().random_playouts(20, seed=3, max_plies=300)
    assert stats["games"] == 20
    assert sum(stats["wins"]) + stats["draws"] + stats["capped"] + stats["stuck"] == 20
    assert stats["plies"] > 0
    # Same seed, same tally: the playouts are deterministic.
    assert game.start().random_playouts(20, seed=3, max_plies=300) == stats
