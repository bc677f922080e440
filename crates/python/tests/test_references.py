"""Packs against OpenSpiel's own implementation of the same game: random games, chosen from
OpenSpiel's legal actions, replayed through Ply; at every position the two agree on the set of
legal moves, on whether the game is over, and at its end on the winner.

`PLY_REFERENCE_GAMES=N` plays N games a pack instead of the default (the closing notes' counts
come from a larger N).
"""

from __future__ import annotations

import os
import random
import re

import pytest
from conftest import load

pyspiel = pytest.importorskip("pyspiel")

GAMES = int(os.environ.get("PLY_REFERENCE_GAMES", "40"))

CELL = re.compile(r"[a-z][0-9]+")


def cells(move: str) -> tuple[str, ...]:
    """A move as the cells it names, in order: `a5b5`, `a5xb5` and `a5-b5` are one move."""
    return tuple(CELL.findall(move))


# pack, OpenSpiel game, whether OpenSpiel draws on a board that recurs (Ply's pack states its
# own repetition rule; the comparison stops there).
CASES = [
    ("hex.toml", "hex", False),
    ("clobber.toml", "clobber", False),
    ("lines_of_action.toml", "lines_of_action", True),
]


def winner_of(returns: list[float]) -> int | None:
    if returns[0] > returns[1]:
        return 0
    if returns[1] > returns[0]:
        return 1
    return None


@pytest.mark.parametrize("pack,name,board_repeats", CASES, ids=[c[0] for c in CASES])
def test_random_games_agree_with_openspiel(pack, name, board_repeats):
    game = load(pack)
    players = game.players
    ref = pyspiel.load_game(name)
    rng = random.Random(f"{pack}-references")
    positions = 0
    decided = 0
    for g in range(GAMES):
        s = ref.new_initial_state()
        st = game.start()
        boards = {str(s)}
        while True:
            ours = sorted(cells(m) for m in st.legal_moves()) if not st.is_terminal else []
            if s.is_terminal():
                assert st.is_terminal, f"game {g}: OpenSpiel ends, Ply goes on at {st.position}"
                w = winner_of(s.returns())
                expected = None if w is None else players[w]
                assert st.winner == expected, f"game {g} at {st.position}"
                decided += w is not None
                break
            theirs = sorted(cells(s.action_to_string(a)) for a in s.legal_actions())
            assert ours == theirs, f"game {g}, ply {st.ply}, at {st.position}"
            positions += 1
            a = rng.choice(s.legal_actions())
            text = s.action_to_string(a)
            mine = {cells(m): m for m in st.legal_moves()}[cells(text)]
            s.apply_action(a)
            st.play(mine)
            if board_repeats:
                board = str(s).split("\n\n")[0]
                if s.is_terminal() and s.returns() == [0.0, 0.0] or board in boards:
                    break
                boards.add(board)
    print(f"{pack}: {GAMES} games, {positions} positions compared, {decided} decided")
    # The comparison saw real games: many positions, and games decided both ways.
    assert positions > GAMES * 10
    assert decided > 0
