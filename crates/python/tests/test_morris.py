"""Nine Men's Morris against OpenSpiel's `nine_mens_morris`: random games chosen among
OpenSpiel's actions, replayed through Ply; at every turn the two agree on the legal moves, on
whether the game is over and, at its end, on the winner.

OpenSpiel makes a mill's removal an action of its own, by the same player; Ply makes it the
last part of the move (`d2-d3/xg7`). A turn is compared as a whole: each OpenSpiel action
followed, when it closes a mill, by each removal it offers, against Ply's legal moves.

`PLY_REFERENCE_GAMES=N` plays N games instead of the default.
"""

from __future__ import annotations

import os
import random
import re

from conftest import load
import pytest

pyspiel = pytest.importorskip("pyspiel")

GAMES = int(os.environ.get("PLY_REFERENCE_GAMES", "40"))

# OpenSpiel's points, numbered row by row from the top of its drawing, as cells of the pack.
POINTS = (
    "a7 d7 g7 b6 d6 f6 c5 d5 e5 a4 b4 c4 e4 f4 g4 c3 d3 e3 b2 d2 f2 a1 d1 g1"
).split()

PLACE = re.compile(r"^Point (\d+)$")
MOVE = re.compile(r"^Move (\d+) -> (\d+)$")


def text(state, action: int) -> str:
    """An OpenSpiel action of the normal phase in Ply's notation, without a removal."""
    s = state.action_to_string(action)
    if m := PLACE.match(s):
        return POINTS[int(m[1])]
    m = MOVE.match(s)
    assert m, s
    return f"{POINTS[int(m[1])]}-{POINTS[int(m[2])]}"


def turns(state) -> dict[str, list[int]] | None:
    """Every whole turn of the player to move, as Ply writes it, with OpenSpiel's actions;
    `None` where a mill is closed with no enemy man to remove (the one case the pack states it
    plays differently)."""
    out = {}
    player = state.current_player()
    for a in state.legal_actions():
        t = text(state, a)
        after = state.clone()
        after.apply_action(a)
        if not after.is_terminal() and after.current_player() == player:
            removals = after.legal_actions()
            if not removals:
                return None
            for r in removals:
                out[f"{t}/x{POINTS[r]}"] = [a, r]
        else:
            out[t] = [a]
    return out


def test_the_points_are_the_packs():
    game = load("nine_mens_morris.toml")
    st = game.start()
    assert sorted(st.legal_moves()) == sorted(POINTS)


def test_random_games_agree_with_openspiel():
    game = load("nine_mens_morris.toml")
    players = game.players
    ref = pyspiel.load_game("nine_mens_morris")
    rng = random.Random("nine-mens-morris")
    positions = mills = decided = draws = 0
    for g in range(GAMES):
        s = ref.new_initial_state()
        st = game.start()
        while True:
            if s.is_terminal():
                assert st.is_terminal, f"game {g}: OpenSpiel ends, Ply goes on at {st.position}"
                r = s.returns()
                expected = players[0] if r[0] > r[1] else players[1] if r[1] > r[0] else None
                assert st.winner == expected, f"game {g} at {st.position}"
                decided += expected is not None
                draws += expected is None
                break
            assert not st.is_terminal, f"game {g}: Ply ends at {st.position}, OpenSpiel goes on"
            theirs = turns(s)
            if theirs is None:
                break
            ours = sorted(st.legal_moves())
            assert ours == sorted(theirs), f"game {g}, ply {st.ply}, at {st.position}"
            positions += 1
            move = rng.choice(ours)
            mills += "/x" in move
            for a in theirs[move]:
                s.apply_action(a)
            st.play(move)
    print(
        f"\nnine_mens_morris: {GAMES} games, {positions} positions, {mills} mills closed, "
        f"{decided} decided, {draws} drawn"
    )
    assert positions > 20 * GAMES and mills > GAMES
