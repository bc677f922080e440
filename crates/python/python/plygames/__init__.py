"""Ply from Python: grid board games whose rules are data.

Load any rule pack (a TOML file of the rules language) and play it: legal moves in notation
and as integer actions, apply and undo, position strings and FEN, status and returns, perft
and seeded random playouts in Rust, the engines (``alphabeta``, ``mcts``), a numpy
observation tensor and legal-action mask, and many games stepped in one call (``Batch``).

>>> import plygames
>>> game = plygames.load("rulesets/breakthrough.toml")
>>> state = game.start()
>>> state.play("a2-a3")
>>> state.to_move
'BLACK'

``plygames.openspiel`` registers packs as OpenSpiel games and ``plygames.pettingzoo`` wraps
them as PettingZoo AEC environments; each needs its own library installed.
"""

from plygames._core import (
    ROUTES,
    ActionError,
    Batch,
    Choice,
    Diagnostic,
    Engine,
    EngineError,
    Game,
    IllegalMoveError,
    NotationError,
    PackError,
    PlyError,
    PositionError,
    State,
    load,
    load_str,
)

__all__ = [
    "ROUTES",
    "ActionError",
    "Batch",
    "Choice",
    "Diagnostic",
    "Engine",
    "EngineError",
    "Game",
    "IllegalMoveError",
    "NotationError",
    "PackError",
    "PlyError",
    "PositionError",
    "State",
    "load",
    "load_str",
]
