"""Crazyhouse against python-chess (`chess.variant.CrazyhouseBoard`, a move generator of its
own): random games, chosen from python-chess's legal moves, replayed through Ply; at every
position the two agree on the legal moves (drops included, in UCI), on the FEN (board with its
promoted marks, hands, side, castling rights, the passed cell) and on whether the game is over
and how; Ply reads python-chess's FEN back to the same legal moves.

python-chess lets a player claim the third repetition; the pack ends the game there (as
`chess.toml` does), so a game ends at Ply's draw with python-chess agreeing that the position
occurred three times.

`PLY_REFERENCE_GAMES=N` plays N games instead of the default.
"""

from __future__ import annotations

import os
import random
import re

import pytest
from conftest import load

chess = pytest.importorskip("chess")
variant = pytest.importorskip("chess.variant")

GAMES = int(os.environ.get("PLY_REFERENCE_GAMES", "40")) // 2
MAX_PLIES = 400

CELL = re.compile(r"[a-h][1-8]")


def uci(move: str) -> str:
    """A Ply move of crazyhouse.toml (`e2-e4`, `e7xd8=+Q`, `N@f3`) in UCI (`e2e4`, `e7d8q`,
    `N@f3`)."""
    if "@" in move:
        letter, cell = move.split("@")
        return f"{letter.upper()}@{cell}"
    frm, to = CELL.findall(move)[:2]
    promotion = move.split("=")[1].lstrip("+")[0].lower() if "=" in move else ""
    return frm + to + promotion


def fields(fen: str) -> list[str]:
    """The fields both sides write alike: board and hands, side, castling, passed cell, move
    number (python-chess counts the halfmove clock though crazyhouse has no use for it)."""
    f = fen.split()
    return f[:4] + f[5:]


def test_notation_maps_to_uci():
    assert [uci(m) for m in ("e2-e4", "e7xd8=+Q", "N@f3", "e1-g1")] == [
        "e2e4",
        "e7d8q",
        "N@f3",
        "e1g1",
    ]


def test_the_start_is_python_chess_start():
    game = load("crazyhouse.toml")
    assert game.start().fen() == variant.CrazyhouseBoard().fen(en_passant="fen")


def test_random_games_agree_with_python_chess():
    game = load("crazyhouse.toml")
    white, black = game.players
    rng = random.Random("crazyhouse-references")
    positions = drops = promoted_taken = mates = draws = 0
    for g in range(GAMES):
        ref = variant.CrazyhouseBoard()
        st = game.start()
        while True:
            where = f"game {g}, ply {st.ply}, at {st.fen()}"
            theirs = sorted(m.uci() for m in ref.legal_moves)
            if st.is_terminal:
                if st.winner is not None:
                    assert ref.is_checkmate(), where
                    loser = white if ref.turn == chess.WHITE else black
                    assert st.winner != loser, where
                    mates += 1
                else:
                    assert ref.is_stalemate() or ref.is_repetition(3), where
                    draws += 1
                break
            assert not ref.is_checkmate() and not ref.is_stalemate(), where
            assert not ref.is_repetition(3), where
            ours = {uci(m): m for m in st.legal_moves()}
            assert sorted(ours) == theirs, where
            assert fields(st.fen()) == fields(ref.fen(en_passant="fen")), where
            if positions % 50 == 0:
                again = game.from_fen(ref.fen())
                assert sorted(uci(m) for m in again.legal_moves()) == theirs, where
            positions += 1
            if st.ply >= MAX_PLIES:
                break
            chosen = rng.choice(list(ref.legal_moves))
            drops += chosen.drop is not None
            promoted_taken += bool(ref.promoted & chess.BB_SQUARES[chosen.to_square])
            st.play(ours[chosen.uci()])
            ref.push(chosen)
    print(
        f"crazyhouse.toml: {GAMES} games, {positions} positions compared, {drops} drops, "
        f"{promoted_taken} promoted pieces taken, {mates} mates, {draws} draws"
    )
    assert positions > 0 and drops > 0


def test_fen_hands_and_marks_read_and_written():
    game = load("crazyhouse.toml")
    # White holds a queen and two pawns, Black a knight; a promoted queen stands on h7.
    fen = "r3k3/7Q~/8/8/8/8/8/4K3[QPPn] w q - 0 30"
    st = game.from_fen(fen)
    assert st.fen() == fen
    ref = variant.CrazyhouseBoard(fen)
    assert sorted(uci(m) for m in st.legal_moves()) == sorted(m.uci() for m in ref.legal_moves)
    # The ninth-rank form python-chess also reads.
    assert game.from_fen("r3k3/7Q~/8/8/8/8/8/4K3/QPPn w q - 0 30").fen() == fen
