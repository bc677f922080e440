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

import plygames
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


# OpenSpiel writes Go's columns without the letter i.
GO_COLUMNS = "abcdefghjklmnopqrst"


def go_move(text: str) -> str:
    """An OpenSpiel Go action (`B d4`, `W PASS`) in Ply's notation (`d4`, `pass`)."""
    point = text.split()[-1]
    if point == "PASS":
        return "pass"
    return f"{chr(ord('a') + GO_COLUMNS.index(point[0]))}{point[1:]}"


@pytest.mark.parametrize(
    "pack,size,games",
    [("go9.toml", 9, GAMES), ("go19.toml", 19, max(2, GAMES // 10))],
    ids=["go9.toml", "go19.toml"],
)
def test_go_agrees_with_openspiel(pack, size, games):
    """Go against OpenSpiel's `go` (komi 7.5, Tromp-Taylor area scoring, its cap of 2 x N x N
    plies). At every position the two agree on the legal moves, except for the moves Ply's
    positional superko refuses: each must be one that OpenSpiel allows and that recreates an
    earlier board, which OpenSpiel then scores as a draw (its superko rule) - checked on
    OpenSpiel's side, and Ply must name its `superko` rule when the move is tried. The game
    goes on with a move both allow; at its end the two agree on the winner."""
    game = load(pack)
    players = game.players
    ref = pyspiel.load_game("go", {"board_size": size, "komi": 7.5})
    rng = random.Random(f"{pack}-references")
    positions = refused_by_superko = decided = 0
    for g in range(games):
        s = ref.new_initial_state()
        st = game.start()
        while True:
            if s.is_terminal():
                assert st.is_terminal, f"game {g}: OpenSpiel ends, Ply goes on at {st.position}"
                w = winner_of(s.returns())
                assert st.winner == (None if w is None else players[w]), f"game {g}"
                decided += w is not None
                break
            assert not st.is_terminal, f"game {g}: Ply ends at {st.position}, OpenSpiel goes on"
            theirs = {go_move(s.action_to_string(a)): a for a in s.legal_actions()}
            ours = set(st.legal_moves())
            assert ours <= set(theirs), f"game {g}, ply {st.ply}: {sorted(ours - set(theirs))}"
            for extra in set(theirs) - ours:
                child = s.child(theirs[extra])
                assert child.is_terminal() and child.returns() == [0.0, 0.0], (
                    f"game {g}, ply {st.ply}: Ply refuses {extra}, which OpenSpiel plays on"
                )
                with pytest.raises(plygames.IllegalMoveError) as refused:
                    st.play(extra)
                assert refused.value.rule == "superko", refused.value.reason
                refused_by_superko += 1
            positions += 1
            move = rng.choice(sorted(ours))
            s.apply_action(theirs[move])
            st.play(move)
    print(
        f"{pack}: {games} games, {positions} positions compared, {decided} decided, "
        f"{refused_by_superko} moves refused by superko"
    )
    assert positions > games * 50
    assert decided > 0
