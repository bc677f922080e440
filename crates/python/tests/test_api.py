"""The Python API: loading and its errors, moves and their refusals, positions, the action
encoding, observations, engines and batches."""

from __future__ import annotations

import copy
import pickle
import re
import threading

import numpy as np
import pytest
from conftest import PACKS, ROOT, load, pack_path

import plygames

BAD_PACK = """[game]
players = ["A", "B"]
[board]
rows = 3
cols = 3
[pieces.Stone]
letter = "S"
moves = ["step orthgonal"]
"""


def test_a_pack_with_mistakes_raises_its_diagnostics_located():
    with pytest.raises(plygames.PackError) as info:
        plygames.load_str(BAD_PACK, name="bad.toml")
    err = info.value
    assert (err.file, err.line) == ("bad.toml", 8)
    assert err.column > 1
    assert "orthgonal" in err.message
    assert any(d.help and "orthogonal" in d.help for d in err.diagnostics) or "orthogonal" in str(err)
    assert all(isinstance(d, plygames.Diagnostic) for d in err.diagnostics)
    assert err.diagnostics[0].severity == "error"
    assert "bad.toml:8:" in str(err)
    assert isinstance(err, plygames.PlyError)


def test_a_missing_pack_file_is_a_pack_error():
    with pytest.raises(plygames.PackError) as info:
        plygames.load(ROOT / "rulesets" / "no_such_pack.toml")
    assert "no_such_pack.toml" in str(info.value)


def test_options_are_typed_and_checked():
    game = load("cats_rabbits.toml", multi_hop=True)
    assert game.options == {"multi_hop": True}
    assert game.action_layout["routes"] == plygames.ROUTES
    assert load("cats_rabbits.toml").action_layout["routes"] == 1
    # Text is read by the option's type, as on a command line.
    assert plygames.load(pack_path("cats_rabbits.toml"), {"multi_hop": "true"}).options == {
        "multi_hop": True
    }
    with pytest.raises(plygames.PackError, match="no_such_option"):
        plygames.load(pack_path("cats_rabbits.toml"), {"no_such_option": True})
    with pytest.raises(plygames.PackError):
        plygames.load(pack_path("cats_rabbits.toml"), {"multi_hop": 3})
    with pytest.raises(TypeError, match="multi_hop"):
        plygames.load(pack_path("cats_rabbits.toml"), {"multi_hop": 1.5})


def test_an_illegal_move_names_its_rule_and_changes_nothing():
    game = load("jungle.toml")
    state = game.start()
    state.play("a7-a6")
    before = state.position
    with pytest.raises(plygames.IllegalMoveError) as info:
        state.play("e3-e4")
    err = info.value
    assert err.rule == "only-swimmers-in-water"
    assert err.move == "e3-e4"
    assert "only-swimmers-in-water" in str(err)
    assert state.position == before and state.ply == 1
    # A move with no named rule behind its refusal has rule None.
    with pytest.raises(plygames.IllegalMoveError) as info:
        state.play("g1-e1")
    assert info.value.rule is None


def test_an_illegal_action_is_explained_by_the_move_it_names():
    game = load("jungle.toml")
    state = game.start()
    state.play("a7-a6")
    river = next(a for a in range(game.num_actions) if game.describe_action(a) == "e3-e4")
    assert river not in state.legal_actions()
    with pytest.raises(plygames.IllegalMoveError) as info:
        state.apply_action(river)
    assert info.value.rule == "only-swimmers-in-water"
    with pytest.raises(plygames.ActionError):
        state.apply_action(game.num_actions)
    with pytest.raises(OverflowError):
        state.apply_action(-1)
    assert state.ply == 1


def test_notation_errors():
    state = load("jungle.toml").start()
    for text in ["z9-a1", "hello", "a7"]:
        with pytest.raises((plygames.NotationError, plygames.IllegalMoveError)):
            state.play(text)
    with pytest.raises(plygames.NotationError):
        state.piece_at("z99")
    assert state.piece_at("a7") == "AR"
    assert state.piece_at("b5") is None


def test_undo_and_clone():
    state = load("breakthrough.toml").start()
    start = state.position
    state.play("a2-a3")
    clone = state.clone()
    also = copy.deepcopy(state)
    clone.play("a7-a6")
    assert state.ply == 1 and clone.ply == 2 and also.ply == 1
    assert state.undo() == "a2-a3"
    assert state.position == start
    with pytest.raises(plygames.PlyError, match="no move"):
        state.undo()
    assert clone.history() == ["a2-a3", "a7-a6"]


def test_position_strings_and_fen_round_trip():
    chess = load("chess.toml")
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    state = chess.from_fen(fen)
    assert state.fen() == fen
    assert chess.state(state.position).position == state.position
    assert chess.state(fen).fen() == fen  # position strings take FEN too
    assert len(state.legal_actions()) == 48
    with pytest.raises(plygames.PositionError):
        chess.from_fen("not a fen")
    jungle = load("jungle.toml")
    with pytest.raises(plygames.PositionError, match="no FEN"):
        jungle.start().fen()
    with pytest.raises(plygames.PositionError):
        jungle.state("7/7 Q")


def test_promotion_choices_are_distinct_actions():
    chess = load("chess.toml")
    state = chess.state("8/P6k/8/8/8/8/8/K7 w - - 0 1")
    promotions = sorted(m for m in state.legal_moves() if m.startswith("a7-a8"))
    assert promotions == ["a7-a8=B", "a7-a8=N", "a7-a8=Q", "a7-a8=R"]
    actions = {state.move_to_action(m) for m in promotions}
    assert len(actions) == 4
    assert {chess.describe_action(a) for a in actions} == set(promotions)
    with pytest.raises(plygames.IllegalMoveError):
        state.play("a7-a8")  # the choice must be given


def test_status_winner_and_returns():
    game = load("connect_four.toml")
    state = game.start()
    for move in ["a1", "b1", "a2", "b2", "a3", "b3"]:
        state.play(move)
    assert state.status == "playing" and state.winner is None and state.returns() == [0.0, 0.0]
    state.play("a4")
    assert state.status == "over" and state.is_terminal
    assert state.winner == game.players[0]
    assert state.returns() == [1.0, -1.0]
    assert state.to_move is None and state.player is None
    assert state.legal_actions() == [] and state.legal_moves() == []
    with pytest.raises(plygames.IllegalMoveError, match="over"):
        state.play("c1")


def test_action_layouts_are_as_documented(games):
    for name, game in games.items():
        layout = game.action_layout
        n = layout["cells"]
        assert n == game.rows * game.cols
        seconds, removals = layout["seconds"], layout["removals"]
        piece = n * n * layout["choices"] * seconds * removals * layout["routes"]
        assert layout["piece_moves"] in (0, piece), name
        placements = layout["placements"] * n * seconds * removals
        total = layout["piece_moves"] + placements + int(layout["pass"])
        assert game.num_actions == total, name
    assert games["connect_four.toml"].num_actions == 42
    assert games["othello.toml"].num_actions == 65
    assert games["othello.toml"].describe_action(64) == "pass"
    assert games["amazons.toml"].action_layout["seconds"] == 101
    assert games["chess.toml"].action_layout["choices"] == 7
    assert games["nine_mens_morris.toml"].action_layout["removals"] == 50
    assert games["chess.toml"].action_layout["removals"] == 1


def cells_of(text: str) -> tuple[str, str, str]:
    """The first and last cells of a move in notation, and what follows them (`=Q`, `/g7`)."""
    path, _, rest = text.partition("=")
    path, _, second = path.partition("/")
    cells = re.split("[-x]", path)
    return cells[0], cells[-1], f"{second}={rest}"


def test_every_legal_action_describes_its_move(games):
    for name, game in games.items():
        state = game.start()
        for _ in range(30):
            if state.is_terminal:
                break
            for action, move in zip(state.legal_actions(), state.legal_moves()):
                described = game.describe_action(action)
                assert cells_of(described.split(" (")[0]) == cells_of(move), name
            state.apply_action(state.legal_actions()[-1])


def test_observation_planes(games):
    for name, game in games.items():
        state = game.start()
        obs = state.observation()
        planes = game.observation_planes
        assert obs.shape == game.observation_shape == (len(planes), game.rows, game.cols)
        assert obs.dtype == np.float32
        board = state.board()
        for r in range(game.rows):
            for c in range(game.cols):
                code = board[r][c]
                on = [planes[i] for i in range(len(planes)) if planes[i].startswith("piece:") and obs[i, r, c] == 1]
                assert on == ([] if code is None else [f"piece:{code}"]), name
        side = planes.index(f"to-move:{game.players[0]}")
        assert (obs[side] == 1).all()
        state.apply_action(state.legal_actions()[0])
        # The plane follows the player to move: the other one, or, in a turn of several
        # moves, the same one again.
        first = state.player == 0
        assert (state.observation()[side] == (1 if first else 0)).all(), name
    # Breakthru's turns of two moves: how many were made, and the ship that moved.
    breakthru = games["breakthru.toml"]
    planes = breakthru.observation_planes
    state = breakthru.start()
    assert (state.observation()[planes.index("turn-moves")] == 0).all()
    state.play("e4-e3")
    obs = state.observation()
    assert (obs[planes.index("turn-moves")] == 1).all()
    moved = obs[planes.index("moved-this-turn")]
    assert moved.sum() == 1 and moved[11 - 3, 4] == 1
    assert state.player == 0
    jungle = games["jungle.toml"]
    planes = jungle.observation_planes
    obs = jungle.start().observation()
    water = obs[planes.index("zone:water")]
    assert water.sum() == 12


def test_engines_choose_legal_moves_and_analyse():
    game = load("breakthrough.toml")
    state = game.start()
    engine = plygames.Engine(game, "alphabeta:depth=3")
    choice = engine.choose(state)
    assert choice.move in state.legal_moves()
    assert state.action_to_move(choice.action) == choice.move
    assert choice.depth == 3 and choice.score is not None and choice.pv[0] == choice.move
    choice, lines = engine.analyse(state)
    assert [line["depth"] for line in lines] == [1, 2, 3]
    mcts = plygames.Engine(game, "mcts:200,seed=4")
    c = mcts.choose(state)
    assert c.move in state.legal_moves() and 0.0 <= c.win_rate <= 1.0
    assert plygames.Engine(game, "random").choose(state).move in state.legal_moves()
    with pytest.raises(plygames.EngineError, match="abc"):
        plygames.Engine(game, "mcts:abc")
    with pytest.raises(plygames.EngineError):
        plygames.Engine(load("jungle.toml"), "random").choose(state)
    over = load("connect_four.toml").start()
    for move in ["a1", "b1", "a2", "b2", "a3", "b3", "a4"]:
        over.play(move)
    with pytest.raises(plygames.EngineError, match="over"):
        plygames.Engine(over.game, "alphabeta:depth=2").choose(over)


def test_long_work_releases_the_gil():
    """A perft in one thread lets another thread run Python meanwhile."""
    state = load("jungle.toml").start()
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)
            stop.wait(0.001)

    t = threading.Thread(target=tick)
    t.start()
    try:
        before = len(ticks)
        assert state.perft(5) == 5111620
        during = len(ticks) - before
    finally:
        stop.set()
        t.join()
    assert during > 0


def test_batches_step_many_games():
    game = load("connect_four.toml")
    batch = plygames.Batch(game, 8)
    assert len(batch) == 8
    obs = batch.observations()
    assert obs.shape == (8, *game.observation_shape)
    masks = batch.legal_action_masks()
    assert masks.shape == (8, game.num_actions) and masks.sum() == 8 * 7
    # Columns a and b in turn, in every game: the first player wins at its fourth move.
    reference = game.start()
    total = np.zeros((8, 2))
    for step, move in enumerate(["a1", "b1", "a2", "b2", "a3", "b3", "a4"]):
        action = reference.move_to_action(move)
        reference.apply_action(action)
        rewards, terminated, truncated = batch.step(np.full(8, action, dtype=np.int64))
        total += rewards
        assert terminated.all() == (step == 6) and terminated.any() == (step == 6)
        assert not truncated.any()
    assert (total[:, 0] == 1).all() and (total[:, 1] == -1).all()
    # The finished games started again.
    assert batch.legal_action_masks().sum() == 8 * 7
    with pytest.raises(plygames.ActionError):
        batch.step(np.zeros(3, dtype=np.int64))
    illegal = np.zeros(8, dtype=np.int64)  # a6, the top-left cell: nothing under it
    with pytest.raises(plygames.IllegalMoveError) as info:
        batch.step(illegal)
    assert info.value.game == 0
    # A cap of two plies truncates every game at its second move, with no reward.
    capped = plygames.Batch(game, 3, max_plies=2)
    first = np.full(3, reference.game.start().move_to_action("a1"), dtype=np.int64)
    _, terminated, truncated = capped.step(first)
    assert not truncated.any() and not terminated.any()
    second = np.full(3, reference.game.start().move_to_action("b1"), dtype=np.int64)
    rewards, terminated, truncated = capped.step(second)
    assert truncated.all() and not terminated.any() and (rewards == 0).all()
    assert capped.state(0).ply == 0 and capped.state(0).position == game.start().position
    stats = batch.play_random(100, seed=1)
    assert stats["moves"] == 800
    assert stats["finished"] == sum(stats["wins"]) + stats["draws"] + stats["capped"] + stats["stuck"]
    assert stats["finished"] > 0


@pytest.mark.parametrize("pack", PACKS)
def test_batched_random_play_runs_on_every_pack(pack):
    batch = plygames.Batch(load(pack), 4, max_plies=50)
    stats = batch.play_random(60, seed=2)
    assert stats["moves"] == 240
    # Every game is capped at 50 plies at the latest, so each of the four games finished.
    assert stats["finished"] >= 4


def test_games_and_states_pickle():
    game = load("cats_rabbits.toml", multi_hop=True)
    again = pickle.loads(pickle.dumps(game))
    assert again.options == {"multi_hop": True} and again.num_actions == game.num_actions
    state = game.start()
    for move in state.random_game(seed=9, max_plies=15):
        state.play(move)
    copy_ = pickle.loads(pickle.dumps(state))
    assert copy_.position == state.position
    assert copy_.history() == state.history()
    assert copy_.legal_actions() == state.legal_actions()
    copy_.undo()
    assert copy_.ply == state.ply - 1
    chess = load("chess.toml")
    promoting = chess.state("8/P6k/8/8/8/8/8/K7 w - - 0 1")
    promoting.play("a7-a8=N")
    back = pickle.loads(pickle.dumps(promoting))
    assert back.fen() == promoting.fen() and back.history() == ["a7-a8=N"]


HANDS = """[game]
name = "Stones and walls"
players = ["A", "B"]
[board]
rows = 3
cols = 3
[pieces.Stone]
letter = "S"
moves = ["place"]
supply = 2
[pieces.Wall]
letter = "W"
moves = ["place"]
[end.full]
when = 'no_moves(opponent)'
draw = true
"""


def test_hands_and_several_placement_patterns():
    game = plygames.load_str(HANDS, name="hands.toml")
    layout = game.action_layout
    assert layout["piece_moves"] == 0 and layout["placements"] == 2
    assert game.num_actions == 2 * 9
    planes = game.observation_planes
    assert planes[-2:] == ["hand:AS", "hand:BS"]
    state = game.start()
    # The same cell by each placement pattern: two actions, told apart by their pattern.
    actions = state.legal_actions()
    assert len(actions) == 18
    # As move notation does where several kinds may be placed, the kind is named.
    assert game.describe_action(actions[0]) == "S@a3"
    assert game.describe_action(actions[9]) == "W@a3 (placement 2)"
    obs = state.observation()
    assert (obs[planes.index("hand:AS")] == 2).all()
    state.apply_action(actions[0])  # a stone (the first placement pattern) on a3
    assert state.board()[0][0] == "AS"
    assert (state.observation()[planes.index("hand:AS")] == 1).all()
    assert (state.observation()[planes.index("hand:BS")] == 2).all()
    state.apply_action(actions[9 + 1])  # B: a wall (the second pattern) on b3
    assert state.board()[0][1] == "BW"
    state.apply_action(actions[2])  # A's last stone
    assert (state.observation()[planes.index("hand:AS")] == 0).all()
    # A has no stone left: every action A has is a wall.
    state.apply_action(actions[9 + 3])
    assert all(a >= 9 for a in state.legal_actions())
    with pytest.raises(plygames.IllegalMoveError):
        state.apply_action(5)


def test_a_castling_written_onto_its_partner_is_numbered_as_written():
    """Chess960: castling long from b1 ends on c1, where the king could also step; it is
    written b1-a1, and numbered by those cells, apart from the step b1-c1."""
    chess = load("chess.toml")
    state = chess.state("1k6/8/8/8/8/8/8/RK6 w Q - 0 1")
    moves = state.legal_moves()
    assert "b1-a1" in moves and "b1-c1" in moves
    castle, step = state.move_to_action("b1-a1"), state.move_to_action("b1-c1")
    assert castle != step
    assert chess.describe_action(castle) == "b1-a1"
    castled = state.clone()
    castled.apply_action(castle)
    assert castled.piece_at("c1") == "WK" and castled.piece_at("d1") == "WR"
    stepped = state.clone()
    stepped.apply_action(step)
    assert stepped.piece_at("c1") == "WK" and stepped.piece_at("a1") == "WR"


def test_hop_chains_with_the_same_ends_are_told_apart_by_their_route():
    game = load("checkers.toml")
    state = game.state("7WM/4WM1WM1/1WM3WM2/4WM1WM1/1BM3BM2/6BM1/1BM1BM1BM1BM/4BM3 Black clock=8")
    chains = {m: state.move_to_action(m) for m in ["f4xd6xf8", "f4xh6xf8"]}
    first, second = chains["f4xd6xf8"], chains["f4xh6xf8"]
    # Ordered by their paths: d6 (row 2, column 3) before h6 (row 2, column 7).
    assert second == first + 1 and first % plygames.ROUTES == 0
    assert game.describe_action(first) == "f4-f8"
    assert game.describe_action(second) == "f4-f8 (route 2)"
    by_route = state.clone()
    by_route.apply_action(second)
    assert by_route.piece_at("g5") is None and by_route.piece_at("e5") == "WM"
    assert by_route.history() == ["f4xh6xf8"]
    # A third route names no legal chain here.
    with pytest.raises(plygames.IllegalMoveError, match="route"):
        state.apply_action(first + 2)
