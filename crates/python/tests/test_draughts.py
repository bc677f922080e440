"""International draughts against pydraughts (a pure-Python draughts library with its own
move generator): random games, chosen from pydraughts' legal moves, replayed through Ply; at
every position the two agree on the set of legal moves (each a path: the cell left, then every
landing cell), and when pydraughts' player to move has no move, Ply ends the game there with
the same winner.

pydraughts draws by rules Ply's pack does not state (its endgame counts: 16 moves for a king
against three pieces, ...), so a game stops, without comparing, at the first draw either side
declares.

`PLY_REFERENCE_GAMES=N` plays N games instead of the default.
"""

from __future__ import annotations

import os
import random
import re

import pytest
from conftest import load

draughts = pytest.importorskip("draughts")

GAMES = int(os.environ.get("PLY_REFERENCE_GAMES", "40")) // 2

CELL = re.compile(r"[a-z][0-9]+")


def square(n: int) -> str:
    """A square of draughts' numbering (1 on the far side's left, 50 on the near side's
    right; White starts on 31-50) as a Ply cell: 46 is a1, 1 is b10."""
    row = 10 - (n - 1) // 5
    col = 2 * ((n - 1) % 5) + (1 if row % 2 == 0 else 0)
    return f"{'abcdefghij'[col]}{row}"


def path(board_move: list[list[int]]) -> tuple[str, ...]:
    """A pydraughts move (its steps, `[[from, to], [to, to2], ..]`) as the cells it visits."""
    return (square(board_move[0][0]),) + tuple(square(step[1]) for step in board_move)


def test_square_numbering():
    assert [square(n) for n in (1, 5, 6, 46, 50)] == ["b10", "j10", "a9", "a1", "i1"]


def test_random_games_agree_with_pydraughts():
    game = load("international_draughts.toml")
    white, black = game.players
    rng = random.Random("international-draughts-references")
    positions = decided = far_captures = 0
    for g in range(GAMES):
        ref = draughts.Board(variant="standard")
        st = game.start()
        while True:
            if ref.winner() in (draughts.WHITE, draughts.BLACK):
                assert st.is_terminal, f"game {g}: pydraughts ends, Ply goes on at {st.position}"
                expected = white if ref.winner() == draughts.WHITE else black
                assert st.winner == expected, f"game {g} at {st.position}"
                decided += 1
                break
            if ref.winner() == 0 or st.is_terminal:
                # A draw by either side's rules (Ply's are a subset of pydraughts').
                if st.is_terminal:
                    assert st.winner is None, f"game {g}: Ply ends at {st.position}"
                break
            moves, _ = ref._legal_moves_board()
            theirs = sorted({path(m) for m in moves})
            ours = {tuple(CELL.findall(m)): m for m in st.legal_moves()}
            assert sorted(ours) == theirs, f"game {g}, ply {st.ply}, at {st.position}"
            positions += 1
            chosen = rng.choice(ref.legal_moves())
            cells = path(chosen.board_move)
            far_captures += "x" in ours[cells] and any(
                abs(int(a[1:]) - int(b[1:])) > 2 for a, b in zip(cells, cells[1:])
            )
            st.play(ours[cells])
            ref.push(chosen)
    print(
        f"international_draughts.toml: {GAMES} games, {positions} positions compared, "
        f"{decided} decided, {far_captures} long-range captures played"
    )
    # The comparison saw real games: many positions, games decided, kings capturing far.
    assert positions > GAMES * 40
    assert decided > 0
    assert far_captures > 0
