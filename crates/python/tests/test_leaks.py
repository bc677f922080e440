"""No leaks: thousands of games, states, engines, batches and exceptions made and dropped
leave the process's resident memory where it was."""

from __future__ import annotations

import gc
import random
from pathlib import Path

import pytest
from conftest import load

import plygames


def rss_bytes() -> int:
    """The resident set size, from /proc (Linux)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    import os

    return pages * os.sysconf("SC_PAGE_SIZE")


def churn(game: plygames.Game, rng: random.Random, rounds: int) -> None:
    for _ in range(rounds):
        state = game.start()
        while not state.is_terminal and state.ply < 120:
            actions = state.legal_actions()
            state.legal_moves()
            state.observation()
            state.legal_action_mask()
            state.apply_action(rng.choice(actions))
            if rng.random() < 0.1:
                state.clone().undo()
        try:
            state.play("z1-z2")
        except plygames.NotationError:
            pass
        try:
            state.apply_action(game.num_actions + 1)
        except plygames.ActionError:
            pass
        batch = plygames.Batch(game, 4, max_plies=40)
        batch.play_random(20, seed=rng.randrange(1000))
        batch.observations()
        plygames.Engine(game, "alphabeta:depth=1,tt=10").choose(game.start())
        try:
            plygames.load_str("[game]\nplayers = 3\n")
        except plygames.PackError:
            pass


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="needs /proc")
def test_many_games_leave_memory_flat():
    game = load("breakthrough.toml")
    rng = random.Random(5)
    churn(game, rng, 50)  # warm up: allocator pools, caches
    gc.collect()
    before = rss_bytes()
    churn(game, rng, 600)
    gc.collect()
    grown = rss_bytes() - before
    # Keeping one State a move (a leaked clone, a history never freed) grows it by about
    # 100 MB over these 600 games of up to 120 moves; an observation a move, by more.
    assert grown < 8 * 1024 * 1024, f"resident memory grew by {grown / 1e6:.1f} MB"
